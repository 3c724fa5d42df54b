// Variant "ufinal": the last pass of a user-defined operator's reduction after utree or ucpu: one group
// combines `count` partials (each work-item a strided share in index order, then the four-way tree of
// zr_user.h) and stores the result. One entry point serves every element size (it reads only partials).
// Arguments: partials, partial_flags, count (64-bit), result (the accumulator's bytes), include_initial,
// slots and flags (local: one each per work-item).
#include "zr_user.h"

kernel void zr_ufinal_u8(global const uint4* partial_words, global const uint* partial_flags, ulong count,
                         global uchar* result, uint include_initial, local uint4* slot_words, local uint* flags) {
  // Declared as 16-byte words so that every device aligns them for any accumulator (a uchar* local argument
  // need not be).
  const global uchar* partials = (const global uchar*)partial_words;
  local uchar* slots = (local uchar*)slot_words;
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  const uint seeded = zr_user_seeded(tmp);
  uint has = zr_user_read_partials(partials, partial_flags, count, seeded, acc, tmp);
  has = zr_user_group_tree(acc, tmp, seeded, has, slots, flags);
  if (get_local_id(0) == 0) zr_user_store_result(acc, tmp, has, result, include_initial);
}
