// Variant "ulast": a user-defined operator's reduction in one launch, shaped as lastgroup.cl (whose comments
// explain the arrival counter and the fences): every group writes its partial and its flag, and the last group
// to finish combines the partials in index order and stores the result. Deterministic for a given launch shape.
// Arguments: in, n (64-bit), partials (one accumulator slot per group), partial_flags
// (one uint per group), slots and flags (local: one each per work-item), counter (global uint, 0 before the
// launch and reset to 0 by the last group), result (the accumulator's bytes), include_initial.
#include "zr_user.h"

kernel void ZR_USER_KERNEL_NAME(ulast)(global const ZR_UT* restrict in, ulong n, global uint4* partial_words,
                                       global uint* partial_flags, local uint4* slot_words, local uint* flags,
                                       global uint* counter, global uchar* result, uint include_initial) {
  // Declared as 16-byte words so that every device aligns them for any accumulator (a uchar* local argument
  // need not be).
  global uchar* partials = (global uchar*)partial_words;
  local uchar* slots = (local uchar*)slot_words;
  local uint is_last[1];
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  const uint groups = (uint)get_num_groups(0);
  const uint seeded = zr_user_seeded(tmp);
  uint has = zr_user_grid_read(in, n, acc, tmp);
  has = zr_user_group_tree(acc, tmp, seeded, has, slots, flags);
  if (get_local_id(0) == 0) {
    zr_user_to_global(ZR_USER_SLOT(partials, get_group_id(0)), ZR_USER_BYTES(acc));
    partial_flags[get_group_id(0)] = has;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) is_last[0] = atomic_inc(counter) == groups - 1;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (!is_last[0]) return;
  has = zr_user_read_partials(partials, partial_flags, groups, seeded, acc, tmp);
  has = zr_user_group_tree(acc, tmp, seeded, has, slots, flags);
  if (get_local_id(0) == 0) {
    zr_user_store_result(acc, tmp, has, result, include_initial);
    *counter = 0;
  }
}
