// Variants "useggroup", "usegitem" and "usegjoin": a user-defined operator (zr_user.h) per segment
// (runtime/core/plans/segmented_user.hpp). Segments are read as segments.cl reads them (zr_segments.h: offsets of
// offset_bytes bytes, or equal segments of `length`; bounds clamped to n, an end below its begin an empty
// segment). The transform sees each element with its index in the input, as in a reduction of the whole input.
// Result s is the accumulator slot s of `results` (the accumulator's size apart), folded after its value when
// include_initial; an empty segment leaves it as it is then, and otherwise gets the identity (an operator without
// one is refused that case by the runtime before launching).
//   useggroup: a group per (segment, slice), grid-strided over segments x slices; each work-item folds every
//              local-size-th element of the slice in order, then the group's four-way tree (zr_user.h). With one
//              slice the group stores the result; with more it writes partial slot s * slices + k and its flag,
//              folded in slice order by usegjoin. (CPU devices launch it with groups of one: a work-item per piece.)
//   usegitem:  a work-item per segment (grid-strided), its elements folded in order.
//   usegjoin:  a work-item per segment folds its slices' partials in slice order and stores the result.
// useggroup: (in, n, offsets, offset_bytes, length, segments, slices, partials, partial_flags, results,
//             include_initial, slots local, flags local, end_step)
// usegitem:  (in, n, offsets, offset_bytes, length, segments, results, include_initial, end_step)
// usegjoin:  (partials, partial_flags, segments, slices, results, include_initial)
// Slot arrays are declared as 16-byte words so that every device aligns them for any accumulator.
#include "zr_segments.h"
#include "zr_user.h"

#if defined(ZR_USER_SEGMENT_JOIN)
kernel void zr_usegjoin_u8(global const uint4* partial_words, global const uint* partial_flags, ulong segments,
                           ulong slices, global uchar* results, uint include_initial) {
  const global uchar* partials = (const global uchar*)partial_words;
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  const uint seeded = zr_user_seeded(tmp);
  for (ulong s = get_global_id(0); s < segments; s += get_global_size(0)) {
    uint has = 0;
    if (seeded) zr_user_identity(ZR_USER_BYTES(acc));
    for (ulong p = s * slices; p < (s + 1) * slices; ++p) {
      const uint other_has = partial_flags[p];
      zr_user_from_global(ZR_USER_BYTES(tmp), ZR_USER_SLOT(partials, p));
      zr_user_merge_slot(acc, tmp, seeded, other_has, &has);
    }
    zr_user_store_result(acc, tmp, has, ZR_USER_SLOT(results, s), include_initial);
  }
}

#else
// in[i], in[i + step], ... below `last` folded into acc in order, from the identity where the operator has one,
// else from the first of them; returns whether there was any. (No flag is tested inside the loop: llvm-spirv-15
// wrote the loop that clang peeled for one out of dominance order.)
ZR_USER_INLINE uint zr_user_fold_strided(global const ZR_UT* in, ulong i, ulong last, ulong step, uint seeded,
                                         private uint* acc, private uint* tmp) {
  const uint has = i < last;
  if (seeded) {
    zr_user_identity(ZR_USER_BYTES(acc));
  } else if (has) {
    zr_user_transform(ZR_USER_BYTES(acc), (ulong)in[i], i);
    i += step;
  }
  for (; i < last; i += step) {
    zr_user_transform(ZR_USER_BYTES(tmp), (ulong)in[i], i);
    zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(tmp));
  }
  return has;
}
#endif

#if defined(ZR_USER_SEGMENT_ITEM)
kernel void ZR_USER_KERNEL_NAME(usegitem)(global const ZR_UT* restrict in, ulong n, global const uchar* offsets,
                                          uint offset_bytes, ulong length, ulong segments, global uchar* results,
                                          uint include_initial, ulong end_step) {
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  const uint seeded = zr_user_seeded(tmp);
  for (ulong s = get_global_id(0); s < segments; s += get_global_size(0)) {
    const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);
    const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);
    const uint has = zr_user_fold_strided(in, begin, end, 1, seeded, acc, tmp);
    zr_user_store_result(acc, tmp, has, ZR_USER_SLOT(results, s), include_initial);
  }
}

#elif !defined(ZR_USER_SEGMENT_JOIN)
kernel void ZR_USER_KERNEL_NAME(useggroup)(global const ZR_UT* restrict in, ulong n, global const uchar* offsets,
                                           uint offset_bytes, ulong length, ulong segments, ulong slices,
                                           global uint4* partial_words, global uint* partial_flags,
                                           global uchar* results, uint include_initial, local uint4* slot_words,
                                           local uint* flags, ulong end_step) {
  global uchar* partials = (global uchar*)partial_words;
  local uchar* slots = (local uchar*)slot_words;
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  const uint seeded = zr_user_seeded(tmp);
  const ulong lid = get_local_id(0);
  const ulong lsize = get_local_size(0);
  const ulong pieces = segments * slices;
  for (ulong piece = get_group_id(0); piece < pieces; piece += get_num_groups(0)) {
    const ulong s = ZR_PIECE_OF(piece, slices);
    const ulong k = piece - s * slices;
    const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);
    const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);
    const ulong per_slice = (end - begin + slices - 1) / slices;
    const ulong first = begin + min(end - begin, k * per_slice);
    const ulong last = begin + min(end - begin, (k + 1) * per_slice);
    uint has = zr_user_fold_strided(in, first + lid, last, lsize, seeded, acc, tmp);
    // The tree's last step ends with a barrier: the next piece may overwrite the slots at once.
    has = zr_user_group_tree(acc, tmp, seeded, has, slots, flags);
    if (lid == 0) {
      if (slices > 1) {
        zr_user_to_global(ZR_USER_SLOT(partials, piece), ZR_USER_BYTES(acc));
        partial_flags[piece] = has;
      } else {
        zr_user_store_result(acc, tmp, has, ZR_USER_SLOT(results, s), include_initial);
      }
    }
  }
}
#endif
