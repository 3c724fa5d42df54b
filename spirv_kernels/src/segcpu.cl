// Variant "segcpu": segmented reductions on CPU devices (runtime/core/plans/segmented.cpp), in cpu.cl's shape. A
// CPU OpenCL runtime runs a group's work-items one after another on one core, so segments.cl's group per segment
// (each work-item striding through the segment) touches scattered cache lines there; here one work-item (launch
// with local size 1) takes a contiguous run of (segment, slice) pieces, in order, and folds each as cpu.cl folds
// a chunk: W-lane states over vector loads, two of them on alternate blocks, the
// last < W elements as one masked step, the lanes folded in a fixed order (deterministic for a given plan); a
// piece of fewer than 2W elements in a scalar loop instead.
// With one slice the work-item stores the segment's result, folded after its initial value when
// include_initial; with more it writes partials[slice * segments + segment] (ACC), folded by the column passes.
// Arguments as seggroup's, without the local scratch:
//   (in T, n, offsets, offset_bytes, length, segments, slices, partials ACC, result T, identity, include_initial,
//    end_step)
// Built for CPU devices only (kernels.table): floating minimum/maximum take 64-byte states, as cpu_wide.cl's.
#define ZR_CPU_MINMAX_LANES_f32 16
#define ZR_CPU_MINMAX_LANES_f64 8
#define ZR_CPU_INSTANCES(K) /* cpu.cl's machinery only: its kernels are not instantiated here */
#include "zr_cpu_device_kernel.h"
#include "cpu.cl"
#include "zr_segments.h"

#define ZR_SEGCPU_KERNEL(OP, TN, T, ACC, ATN) ZR_SEGCPU_KERNEL_W(OP, TN, T, ACC, ATN, ZR_CPU_W(OP, ATN))
#define ZR_SEGCPU_KERNEL_W(OP, TN, T, ACC, ATN, W) ZR_SEGCPU_KERNEL_(OP, TN, T, ACC, ATN, W, ZR_CAT(ACC, W))
#define ZR_SEGCPU_KERNEL_(OP, TN, T, ACC, ATN, W, VACC)                                                      \
  ZR_CPU_DEVICE_KERNEL void zr_segcpu_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,       \
                                    uint offset_bytes, ulong length, ulong segments, ulong slices,          \
                                    global ACC* restrict partials, global T* result, ACC identity,          \
                                    uint include_initial, ulong end_step) {                                 \
    const ulong pieces = segments * slices;                                                                 \
    /* a contiguous run of pieces per work-item; ceil(pieces / items) without a division's remainder */    \
    const ulong per_item = pieces == 0 ? 0 : (pieces - 1) / get_global_size(0) + 1;                        \
    const ulong piece_begin = min(pieces, get_global_id(0) * per_item);                                     \
    const ulong piece_end = min(pieces, piece_begin + per_item);                                            \
    for (ulong piece = piece_begin; piece < piece_end; ++piece) {                                           \
      /* one slice per segment (many segments) needs no division: a 64-bit one costs more than a short    \
         segment's whole fold */                                                                            \
      const ulong s = slices == 1 ? piece : piece / slices;                                                 \
      const ulong k = piece - s * slices;                                                                   \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                            \
      const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);              \
      const ulong per_slice = ZR_SLICE_LENGTH(end - begin, slices);                                         \
      const ulong first = begin + min(end - begin, k * per_slice);                                          \
      const ulong last = begin + min(end - begin, (k + 1) * per_slice);                                     \
      ACC acc = identity;                                                                                   \
      if (last - first < 2 * W) {                                                                           \
        /* a short piece: a scalar loop costs less than the states' set-up, masked tail and fold */          \
        for (ulong i = first; i < last; ++i) acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, i));           \
      } else {                                                                                              \
        ZR_CPU_FOLD_RANGE(OP, TN, ATN, W, VACC, first, last, identity, acc)                                 \
      }                                                                                                     \
      ZR_SEGMENT_STORE(OP, TN, ATN, acc, s, k)                                                              \
    }                                                                                                       \
  }

ZR_FOR_EACH_PAIR(ZR_SEGCPU_KERNEL)
