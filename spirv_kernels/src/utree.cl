// Variant "utree": the first pass of a user-defined operator's reduction on GPUs when one launch is not
// wanted: each group combines its grid-stride share (zr_user.h) and writes one partial and its flag; ufinal.cl
// combines them. Arguments: in, n (64-bit), partials (one slot per group), partial_flags (one uint per group),
// slots and flags (local: one each per work-item).
#include "zr_user.h"

kernel void ZR_USER_KERNEL_NAME(utree)(global const ZR_UT* restrict in, ulong n, global uint4* partial_words,
                                       global uint* partial_flags, local uint4* slot_words, local uint* flags) {
  // Declared as 16-byte words so that every device aligns them for any accumulator (a uchar* local argument
  // need not be).
  global uchar* partials = (global uchar*)partial_words;
  local uchar* slots = (local uchar*)slot_words;
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  uint has = zr_user_grid_read(in, n, acc, tmp);
  has = zr_user_group_tree(acc, tmp, zr_user_seeded(tmp), has, slots, flags);
  if (get_local_id(0) == 0) {
    zr_user_to_global(ZR_USER_SLOT(partials, get_group_id(0)), ZR_USER_BYTES(acc));
    partial_flags[get_group_id(0)] = has;
  }
}
