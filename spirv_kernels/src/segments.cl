// Variants "segitem", "segsub" and "seggroup": segmented reductions (runtime/core/plans/segmented.hpp). Segment s is
// in[offsets[s], offsets[s + end_step]) with offsets of offset_bytes (4 or 8) bytes, or in[s * length, (s + 1) *
// length) when offset_bytes is 0 (offsets is then null). Bounds are clamped to n and an end below its begin
// reads as an empty segment, so offsets changed after the host checked them can never make a kernel read
// outside the input. An empty segment gives the identity.
//   segitem:  one work-item per segment (grid-strided over the segments); folds its elements in order and
//             stores T, folded after the segment's initial value when include_initial.
//   segsub:   a power of two of work-items per segment, several segments per group (below).
//   seggroup: one group per (segment, slice), grid-strided over segments x slices; the slice's elements are
//             read as 16-byte vectors between a scalar head and tail, folded per work-item, then through the
//             local-memory tree. With one slice the group stores the segment's result; with more it writes
//             partials[slice * segments + segment] (ACC), folded by the column passes (rows = slices).
// segitem:  (in T, n, offsets, offset_bytes, length, segments, result T, identity, include_initial, end_step)
// segsub:   (in T, n, offsets, offset_bytes, length, segments, lanes_log2, result T, identity, include_initial,
//            scratch local ACC, end_step)
// seggroup: (in T, n, offsets, offset_bytes, length, segments, slices, partials ACC, result T, identity,
//            include_initial, scratch local ACC, end_step)
// end_step: segment s ends at bound s + end_step (zr_segments.h): 1 for segments + 1 offsets and equal segments,
// `segments` for begin and end arrays stored one after the other.
#include "zr_grid.h"
#include "zr_group_tree.h"
#include "zr_segments.h"
#include "zr_strided_fold.h"
#include "zr_vector_rows.h"
#if defined(ZR_SEGMENT_LANES)
#include "zr_quick_extremes.h"
#endif


#if defined(ZR_SEGMENT_LANES)
// segsub: 2^lanes_log2 work-items ("lanes") per segment, the group's size / lanes segments at a time, grid-strided
// over blocks of that many segments; each lane folds every lanes-th element of its segment, then the lanes fold
// pairwise in local memory (log2(lanes) steps, barriers shared by all the group's segments).
// Rows read as vectors where they can be (zr_vector_rows.h), two vectors a lane ahead; f32 minima and maxima
// of such rows with fmin/fmax, settled once per lane (zr_quick_extremes.h).
#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void zr_segsub_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,         \
                                    uint offset_bytes, ulong length, ulong segments, uint lanes_log2,          \
                                    global T* result, ACC identity, uint include_initial, local ACC* scratch,  \
                                    ulong end_step) {                                                          \
    const uint lid = (uint)get_local_id(0);                                                                    \
    const uint lanes = 1u << lanes_log2;                                                                       \
    const uint lane = lid & (lanes - 1);                                                                       \
    const ulong per_group = get_local_size(0) >> lanes_log2;                                                   \
    const ulong blocks = (segments + per_group - 1) / per_group;                                               \
    const bool vectors = ZR_ROW_VECTORS(TN, in, offset_bytes, length);                                      \
    for (ulong block = get_group_id(0); block < blocks; block += get_num_groups(0)) {                          \
      const ulong s = block * per_group + (lid >> lanes_log2);                                                 \
      ACC acc = identity;                                                                                      \
      if (s < segments) {                                                                                      \
        const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                             \
        const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);               \
        if (vectors && end - begin == length) {                                                                \
          const ulong first = begin / ZR_VEC_##TN + lane, last = end / ZR_VEC_##TN;                            \
          global const ZR_VTYPE_##TN* const rows = (global const ZR_VTYPE_##TN*)in;                            \
          ACC probe = 0;                                                                                       \
          ZR_VECTOR_RUN_FOLD2(ZR_VTYPE_##TN, ZR_ROW_VLOAD, rows, ZR_QUICK_VFOLD, zr_quick_fold_##OP##_##TN, acc, \
                              probe, first, last, lanes);                                                      \
          if (ZR_QUICK_REDO(OP, ATN, acc, probe)) { /* a NaN, an infinity or a zero: the exact combine */      \
            acc = identity;                                                                                    \
            ZR_VECTOR_RUN_FOLD2(ZR_VTYPE_##TN, ZR_ROW_VLOAD, rows, ZR_FOLD, ZR_VEC_##TN, ZR_COMBINE(OP, ATN), acc, \
                                first, last, lanes);                                                           \
          }                                                                                                    \
        } else                                                                                                 \
          ZR_STRIDED_FOLD(ACC, ZR_COMBINE(OP, ATN), , TN, acc, in, begin + lane, end, lanes);                 \
      }                                                                                                        \
      scratch[lid] = acc;                                                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                            \
      for (uint step = lanes >> 1; step > 0; step >>= 1) {                                                     \
        if (lane < step) scratch[lid] = ZR_COMBINE(OP, ATN)(scratch[lid], scratch[lid + step]);                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                          \
      }                                                                                                        \
      if (lane == 0 && s < segments) {                                                                         \
        acc = scratch[lid];                                                                                    \
        if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, s), acc);                          \
        ZR_STORE_##TN(result, s, acc);                                                                         \
      }                                                                                                        \
      /* The next block's lanes overwrite the slots just read. */                                              \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                            \
    }                                                                                                          \
  }
#elif defined(ZR_SEGMENT_ITEM)
#if defined(ZR_SEGMENT_ITEM_BLOCKS)
// segitemcpu (CPU devices): work-item g takes the g-th of get_global_size(0) contiguous blocks of segments, so
// that each core walks its share of the input and results in order, with no per-segment grid step.
#define ZR_SEGMENT_ITEM_NAME segitemcpu
#define ZR_SEGMENT_ITEM_RANGE(first, last, step)                                   \
  const ulong per_item = (segments + get_global_size(0) - 1) / get_global_size(0); \
  const ulong first = get_global_id(0) * per_item;                                 \
  const ulong last = min(segments, first + per_item);                              \
  const ulong step = 1;
#else
#define ZR_SEGMENT_ITEM_NAME segitem
#define ZR_SEGMENT_ITEM_RANGE(first, last, step) \
  const ulong first = get_global_id(0);          \
  const ulong last = segments;                   \
  const ulong step = get_global_size(0);
#endif
#define ZR_SEGMENT_ITEM_KERNEL(NAME, OP, TN) ZR_SEGMENT_ITEM_KERNEL_(NAME, OP, TN)
#define ZR_SEGMENT_ITEM_KERNEL_(NAME, OP, TN) zr_##NAME##_##OP##_##TN
#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void ZR_SEGMENT_ITEM_KERNEL(ZR_SEGMENT_ITEM_NAME, OP, TN)(                                           \
      global const T* restrict in, ulong n, global const uchar* offsets, uint offset_bytes, ulong length,      \
      ulong segments, global T* result, ACC identity, uint include_initial, ulong end_step) {                  \
    ZR_SEGMENT_ITEM_RANGE(first_s, last_s, step_s)                                                             \
    if (offset_bytes == 0 && length == 1 && !include_initial && last_s <= n) {                                 \
      /* Rows of one element: a map, one loop with nothing per segment but its element. */                    \
      for (ulong s = first_s; s < last_s; s += step_s)                                                         \
        ZR_STORE_##TN(result, s, ZR_COMBINE(OP, ATN)(identity, ZR_LOAD_##TN(in, s)));                          \
      return;                                                                                                  \
    }                                                                                                          \
    for (ulong s = first_s; s < last_s; s += step_s) {                                                         \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                               \
      const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                 \
      ACC acc = identity;                                                                                      \
      for (ulong i = begin; i < end; ++i) acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, i));                 \
      if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, s), acc);                            \
      ZR_STORE_##TN(result, s, acc);                                                                           \
    }                                                                                                          \
  }
#else
#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void zr_seggroup_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,        \
                                      uint offset_bytes, ulong length, ulong segments, ulong slices,           \
                                      global ACC* restrict partials, global T* result, ACC identity,           \
                                      uint include_initial, local ACC* scratch, ulong end_step) {              \
    const ulong lid = get_local_id(0);                                                                         \
    const ulong lsize = get_local_size(0);                                                                     \
    const ulong pieces = segments * slices;                                                                    \
    for (ulong piece = get_group_id(0); piece < pieces; piece += get_num_groups(0)) {                          \
      const ulong s = piece / slices;                                                                          \
      const ulong k = piece - s * slices;                                                                      \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                               \
      const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                 \
      const ulong per_slice = ZR_SLICE_LENGTH(end - begin, slices);                                            \
      const ulong first = begin + min(end - begin, k * per_slice);                                             \
      const ulong last = begin + min(end - begin, (k + 1) * per_slice);                                        \
      const ulong head_end = min(last, (first + ZR_VEC_##TN - 1) / ZR_VEC_##TN * ZR_VEC_##TN);                 \
      const ulong vectors_end = last / ZR_VEC_##TN;                                                            \
      ACC acc = identity;                                                                                      \
      for (ulong i = first + lid; i < head_end; i += lsize) acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, i)); \
      ZR_VECTOR_RUN_FOLD4(ZR_VTYPE_##TN, ZR_VLOAD_##TN, in, ZR_FOLD, ZR_VEC_##TN, ZR_COMBINE(OP, ATN), acc,           \
                         head_end / ZR_VEC_##TN + lid, vectors_end, lsize);                                      \
      for (ulong i = max(head_end, vectors_end * ZR_VEC_##TN) + lid; i < last; i += lsize)                     \
        acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, i));                                                   \
      ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                         \
      if (lid == 0) {                                                                                          \
        ZR_SEGMENT_STORE(OP, TN, ATN, acc, s, k)                                                               \
      }                                                                                                        \
      /* The next piece's tree overwrites the scratch slot that every work-item has just read. */              \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                            \
    }                                                                                                          \
  }
#endif

ZR_FOR_EACH_PAIR(ZR_SEGMENT_KERNEL)
