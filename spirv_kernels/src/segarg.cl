// Variants "segarg" and "segargjoin": argmin/argmax per segment (zr_arg.h's order: the first NaN, else the best
// value, else the smallest index), each result the segment's arg_result<T> with the index counted from the
// segment's begin. Segment s is bounded as in segments.cl (zr_segments.h: offsets, begin and end arrays, or equal
// segments), clamped to n; the host refuses empty segments, which have no extreme.
//   segarg:     2^lanes_log2 work-items ("lanes") per piece, the group's size / lanes pieces at a time, grid-strided
//               over blocks of pieces. A piece is slice k of segment s (piece = s * slices + k); each lane scans
//               every lanes-th 16-byte vector of its slice (zr_arg_grid.h's lane states), the lanes meet pairwise
//               in local memory. One slice: the
//               result is stored; more: partials[k * segments + s] (index counted from 0 of the input).
//   segargjoin: a work-item per segment takes the best of its `slices` partials and stores the result.
// segarg:     (in T, n, offsets, offset_bytes, length, segments, slices, lanes_log2, partials zr_arg, result
//              arg_result<T>[segments], scratch local zr_arg, end_step)
// segargjoin: (partials zr_arg, n, offsets, offset_bytes, length, segments, slices, result, end_step)
#include "zr_arg_grid.h"
#include "zr_segments.h"

// The result of segment s: the value as T, the index from the segment's begin (arg_result<T> is 16 bytes).
#define ZR_SEGARG_STORE(TN, T, result, s, begin, bv, bi) \
  ZR_ARG_STORE_RESULT(TN, T, (result) + 2 * (s), bv, (bi) == ULONG_MAX ? (bi) : (bi) - (begin))

#if defined(ZR_SEGARG_JOIN)
#define ZR_SEGARG_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  kernel void zr_segargjoin_##OP##_##TN(global const zr_arg_##ATN* partials, ulong n, global const uchar* offsets, \
                                        uint offset_bytes, ulong length, ulong segments, ulong slices,          \
                                        global ulong* result, ulong end_step) {                                 \
    for (ulong s = get_global_id(0); s < segments; s += get_global_size(0)) {                                   \
      ACC bv;                                                                                                   \
      ulong bi;                                                                                                 \
      ZR_ARG_IDENTITY(OP, ATN, bv, bi);                                                                         \
      for (ulong k = 0; k < slices; ++k) {                                                                      \
        const ACC v = partials[k * segments + s].value;                                                         \
        const ulong at = partials[k * segments + s].index;                                                      \
        ZR_ARG_TAKE(OP, ATN, bv, bi, v, at);                                                                    \
      }                                                                                                         \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                                \
      ZR_SEGARG_STORE(TN, T, result, s, begin, bv, bi);                                                         \
    }                                                                                                           \
  }
#else
#define ZR_SEGARG_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  kernel void zr_segarg_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,          \
                                    uint offset_bytes, ulong length, ulong segments, ulong slices,              \
                                    uint lanes_log2, global zr_arg_##ATN* restrict partials,                    \
                                    global ulong* result, local zr_arg_##ATN* scratch, ulong end_step) {        \
    const uint lid = (uint)get_local_id(0);                                                                     \
    const uint lanes = 1u << lanes_log2;                                                                        \
    const uint lane = lid & (lanes - 1);                                                                        \
    const ulong per_group = get_local_size(0) >> lanes_log2;                                                    \
    const ulong pieces = segments * slices;                                                                     \
    const ulong blocks = (pieces + per_group - 1) / per_group;                                                  \
    for (ulong block = get_group_id(0); block < blocks; block += get_num_groups(0)) {                           \
      const ulong piece = block * per_group + (lid >> lanes_log2);                                              \
      const ulong s = piece / slices;                                                                           \
      const ulong k = piece - s * slices;                                                                       \
      ACC b_value;                                                                                              \
      ulong b_index;                                                                                            \
      ZR_ARG_IDENTITY(OP, ATN, b_value, b_index);                                                               \
      ulong begin = 0;                                                                                          \
      if (piece < pieces) {                                                                                     \
        begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                                          \
        const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                \
        const ulong per_slice = (end - begin + slices - 1) / slices;                                            \
        const ulong first = begin + min(end - begin, k * per_slice);                                            \
        const ulong last = begin + min(end - begin, (k + 1) * per_slice);                                       \
        ZR_ARG_RANGE_SCAN(OP, TN, ACC, ATN, in, first, last, lane, lanes, b);                                   \
      }                                                                                                         \
      ACC bv = b_value;                                                                                         \
      ulong bi = b_index;                                                                                       \
      scratch[lid].value = bv;                                                                                  \
      scratch[lid].index = bi;                                                                                  \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
      for (uint step = lanes >> 1; step > 0; step >>= 1) {                                                      \
        if (lane < step) {                                                                                      \
          const ACC v = scratch[lid + step].value;                                                              \
          const ulong at = scratch[lid + step].index;                                                           \
          ZR_ARG_TAKE(OP, ATN, bv, bi, v, at);                                                                  \
          scratch[lid].value = bv;                                                                              \
          scratch[lid].index = bi;                                                                              \
        }                                                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
      }                                                                                                         \
      if (lane == 0 && piece < pieces) {                                                                        \
        if (slices > 1) {                                                                                       \
          partials[k * segments + s].value = bv;                                                                \
          partials[k * segments + s].index = bi;                                                                \
        } else {                                                                                                \
          ZR_SEGARG_STORE(TN, T, result, s, begin, bv, bi);                                                     \
        }                                                                                                       \
      }                                                                                                         \
      /* The next block's lanes overwrite the slots just read. */                                               \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    }                                                                                                           \
  }
#endif

ZR_FOR_EACH_ARG_PAIR(ZR_SEGARG_KERNEL)
