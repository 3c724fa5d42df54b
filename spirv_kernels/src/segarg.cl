// Variants "segarg" and "segargjoin": argmin/argmax per segment (zr_arg.h's order: the first NaN, else the best
// value, else the smallest index), each result the segment's arg_result<T> with the index counted from the
// segment's begin. Segment s is bounded as in segments.cl (zr_segments.h: offsets, begin and end arrays, or equal
// segments), clamped to n; the host refuses empty segments, which have no extreme.
//   segarg:     2^lanes_log2 work-items ("lanes") per piece, the group's size / lanes pieces at a time, grid-strided
//               over blocks of pieces. A piece is slice k of segment s (piece = s * slices + k); each lane scans
//               every lanes-th 16-byte vector of its slice (zr_arg_grid.h's lane states), the lanes meet pairwise
//               in local memory. One slice: the result is stored; more: partials[k * segments + s] (index counted
//               from 0 of the input).
//               Skewed sizes (defer_above > 0): a segment longer than defer_above is left to a second launch
//               (listed = 1, a group per segment), its number appended to `deferred`: two uint counters (the
//               segments listed, the second launch's groups done), then the list of 64-bit segment numbers. The
//               second launch's last group sets both counters back to 0 for the next run.
//   segargjoin: a group per segment takes the best of its `slices` partials and stores the result.
//   segargcpu, segargcpujoin: the same on CPU devices without barriers (launch with local size 1): a work-item per
//               piece, then a work-item per segment over its slices. PoCL 5's work-group compiler asserts
//               ("region_entry_barrier != NULL", the whole process aborts) on segarg's barriers in loops; CPU
//               groups run their work-items one after another anyway.
// segarg:     (in T, n, offsets, offset_bytes, length, segments, slices, lanes_log2, partials zr_arg, result
//              arg_result<T>[segments], scratch local zr_arg, end_step, defer_above, deferred, listed)
// segargjoin: (partials zr_arg, n, offsets, offset_bytes, length, segments, slices, result, scratch local zr_arg,
//              end_step)
// segargcpu:  (in T, n, offsets, offset_bytes, length, segments, slices, partials zr_arg, result, end_step)
// segargcpujoin: (partials zr_arg, n, offsets, offset_bytes, length, segments, slices, result, end_step)
#include "zr_arg_grid.h"
#include "zr_segments.h"

// The result of segment s: the value as T, the index from the segment's begin (arg_result<T> is 16 bytes).
#define ZR_SEGARG_STORE(TN, T, result, s, begin, bv, bi) \
  ZR_ARG_STORE_RESULT(TN, T, (result) + 2 * (s), bv, (bi) == ULONG_MAX ? (bi) : (bi) - (begin))

// Pieces of at most this many elements are scanned one element at a time (the vector scan's head, body and tail
// cost more than they save there). 16 made a work-item's row of 16 f32 take 1.6x the time of its four 16-byte loads
// on the H200 (bench/results/segarg_vectors_h200_2026-11-30).
#define ZR_SEGARG_SCALAR_MAX 4

// GPUs scan 8-bit elements one at a time: their 16-lane vector states made Intel's compiler spill 2 KiB per
// segarg kernel on PVC (level_zero_nohw.pvc), where the 1-D argtree, with less else live, does not.
#define ZR_SEGARG_SCALAR_ONLY_i8 1
#define ZR_SEGARG_SCALAR_ONLY_u8 1
#define ZR_SEGARG_SCALAR_ONLY_i16 0
#define ZR_SEGARG_SCALAR_ONLY_u16 0
#define ZR_SEGARG_SCALAR_ONLY_i32 0
#define ZR_SEGARG_SCALAR_ONLY_u32 0
#define ZR_SEGARG_SCALAR_ONLY_i64 0
#define ZR_SEGARG_SCALAR_ONLY_u64 0
#define ZR_SEGARG_SCALAR_ONLY_f16 0
#define ZR_SEGARG_SCALAR_ONLY_f32 0
#define ZR_SEGARG_SCALAR_ONLY_f64 0

// (ACC bv, ulong bi) = the best candidate of slice k of segment s; begin = the segment's begin. scalar_only: every
// piece one element at a time.
#define ZR_SEGARG_SLICE(OP, TN, ACC, ATN, s, k, lane, lanes, begin, b, scalar_only)                             \
  do {                                                                                                          \
    const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                    \
    const ulong per_slice = ZR_SLICE_LENGTH(end - begin, slices);                                               \
    const ulong first = begin + min(end - begin, (k) * per_slice);                                              \
    const ulong last = begin + min(end - begin, ((k) + 1) * per_slice);                                         \
    if ((scalar_only) || last - first <= ZR_SEGARG_SCALAR_MAX) {                                                \
      for (ulong i = first + (lane); i < last; i += (lanes)) {                                                  \
        const ACC v = ZR_LOAD_##TN(in, i);                                                                      \
        ZR_ARG_TAKE(OP, ATN, b##_value, b##_index, v, i);                                                       \
      }                                                                                                         \
    } else {                                                                                                    \
      ZR_ARG_RANGE_SCAN(OP, TN, ACC, ATN, in, first, last, lane, lanes, b);                                     \
    }                                                                                                           \
  } while (0)

#if defined(ZR_SEGARG_CPU_JOIN)
#include "zr_cpu_device_kernel.h"
#define ZR_SEGARG_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  ZR_CPU_DEVICE_KERNEL void zr_segargcpujoin_##OP##_##TN(global const zr_arg_##ATN* partials, ulong n,          \
                                                         global const uchar* offsets, uint offset_bytes,        \
                                                         ulong length, ulong segments, ulong slices,            \
                                                         global ulong* result, ulong end_step) {                \
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
#elif defined(ZR_SEGARG_CPU)
#include "zr_cpu_device_kernel.h"
#define ZR_SEGARG_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  ZR_CPU_DEVICE_KERNEL void zr_segargcpu_##OP##_##TN(global const T* restrict in, ulong n,                      \
                                                     global const uchar* offsets, uint offset_bytes,            \
                                                     ulong length, ulong segments, ulong slices,                \
                                                     global zr_arg_##ATN* restrict partials,                    \
                                                     global ulong* result, ulong end_step) {                    \
    const ulong pieces = segments * slices;                                                                     \
    for (ulong piece = get_global_id(0); piece < pieces; piece += get_global_size(0)) {                         \
      const ulong s = ZR_PIECE_OF(piece, slices);                                                               \
      const ulong k = piece - s * slices;                                                                       \
      ACC b_value;                                                                                              \
      ulong b_index;                                                                                            \
      ZR_ARG_IDENTITY(OP, ATN, b_value, b_index);                                                               \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                                \
      ZR_SEGARG_SLICE(OP, TN, ACC, ATN, s, k, 0, 1, begin, b, 0);                                               \
      if (slices > 1) {                                                                                         \
        partials[k * segments + s].value = b_value;                                                             \
        partials[k * segments + s].index = b_index;                                                             \
      } else {                                                                                                  \
        ZR_SEGARG_STORE(TN, T, result, s, begin, b_value, b_index);                                             \
      }                                                                                                         \
    }                                                                                                           \
  }
#elif defined(ZR_SEGARG_JOIN)
#define ZR_SEGARG_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  kernel void zr_segargjoin_##OP##_##TN(global const zr_arg_##ATN* partials, ulong n, global const uchar* offsets, \
                                        uint offset_bytes, ulong length, ulong segments, ulong slices,          \
                                        global ulong* result, local zr_arg_##ATN* scratch, ulong end_step) {    \
    for (ulong s = get_group_id(0); s < segments; s += get_num_groups(0)) {                                     \
      ACC bv;                                                                                                   \
      ulong bi;                                                                                                 \
      ZR_ARG_IDENTITY(OP, ATN, bv, bi);                                                                         \
      for (ulong k = get_local_id(0); k < slices; k += get_local_size(0)) {                                     \
        const ACC v = partials[k * segments + s].value;                                                         \
        const ulong at = partials[k * segments + s].index;                                                      \
        ZR_ARG_TAKE(OP, ATN, bv, bi, v, at);                                                                    \
      }                                                                                                         \
      ZR_ARG_LOCAL_TREE(OP, ATN, ACC, bv, bi, scratch);                                                         \
      if (get_local_id(0) == 0) {                                                                               \
        const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                              \
        ZR_SEGARG_STORE(TN, T, result, s, begin, bv, bi);                                                       \
      }                                                                                                         \
      /* Every work-item has just read scratch[0]: the next segment's tree overwrites it. */                    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    }                                                                                                           \
  }
#else
#define ZR_SEGARG_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  kernel void zr_segarg_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,          \
                                    uint offset_bytes, ulong length, ulong segments, ulong slices,              \
                                    uint lanes_log2, global zr_arg_##ATN* restrict partials,                    \
                                    global ulong* result, local zr_arg_##ATN* scratch, ulong end_step,          \
                                    ulong defer_above, global uint* deferred, uint listed) {                    \
    const uint lid = (uint)get_local_id(0);                                                                     \
    const uint lanes = 1u << lanes_log2;                                                                        \
    const uint lane = lid & (lanes - 1);                                                                        \
    const ulong per_group = get_local_size(0) >> lanes_log2;                                                    \
    const ulong pieces = ZR_LAUNCH_PIECES(listed, deferred, segments, slices);                                  \
    const ulong blocks = (pieces + per_group - 1) / per_group;                                                  \
    for (ulong block = get_group_id(0); block < blocks; block += get_num_groups(0)) {                           \
      const ulong piece = block * per_group + (lid >> lanes_log2);                                              \
      const ulong s = ZR_PIECE_SEGMENT(listed, deferred, piece, pieces, slices);                                \
      const ulong k = listed ? 0 : piece - s * slices;                                                          \
      ACC b_value;                                                                                              \
      ulong b_index;                                                                                            \
      ZR_ARG_IDENTITY(OP, ATN, b_value, b_index);                                                               \
      ulong begin = 0;                                                                                          \
      uint store = piece < pieces;                                                                              \
      if (store) {                                                                                              \
        begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                                          \
        const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                \
        if (defer_above > 0 && end - begin > defer_above) {                                                     \
          store = 0;                                                                                            \
          if (lane == 0) ZR_DEFER_SEGMENT(deferred, s);                                                         \
        } else {                                                                                                \
          ZR_SEGARG_SLICE(OP, TN, ACC, ATN, s, k, lane, lanes, begin, b, ZR_SEGARG_SCALAR_ONLY_##TN);           \
        }                                                                                                       \
      }                                                                                                         \
      ACC bv = b_value;                                                                                         \
      ulong bi = b_index;                                                                                       \
      /* A work-item per piece (lanes = 1, the same for the whole launch) meets no other lane: no barrier holds   \
         its group's work-items to the longest segment of the block. */                                        \
      if (lanes > 1) {                                                                                          \
        scratch[lid].value = bv;                                                                                \
        scratch[lid].index = bi;                                                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
        for (uint step = lanes >> 1; step > 0; step >>= 1) {                                                    \
          if (lane < step) {                                                                                    \
            const ACC v = scratch[lid + step].value;                                                            \
            const ulong at = scratch[lid + step].index;                                                         \
            ZR_ARG_TAKE(OP, ATN, bv, bi, v, at);                                                                \
            scratch[lid].value = bv;                                                                            \
            scratch[lid].index = bi;                                                                            \
          }                                                                                                     \
          barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
        }                                                                                                       \
      }                                                                                                         \
      if (lane == 0 && store) {                                                                                 \
        if (slices > 1) {                                                                                       \
          partials[k * segments + s].value = bv;                                                                \
          partials[k * segments + s].index = bi;                                                                \
        } else {                                                                                                \
          ZR_SEGARG_STORE(TN, T, result, s, begin, bv, bi);                                                     \
        }                                                                                                       \
      }                                                                                                         \
      /* The next block's lanes overwrite the slots just read. */                                               \
      if (lanes > 1) barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }                                                                                                           \
    /* The listing launch's last group resets the counters. */                                                   \
    ZR_RESET_DEFERRED(listed, deferred)                                                                          \
  }
#endif

ZR_FOR_EACH_ARG_PAIR(ZR_SEGARG_KERNEL)
