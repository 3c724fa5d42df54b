// Variant "segbinned": reproducible segmented sums (zr_binned.h; runtime/core/plans/segmented.cpp). One
// work-group per segment, grid-strided over the segments: each work-item adds every local-size-th element of the
// segment to its own binned sum, the group merges the sums through local memory, and work-item 0 adds the
// segment's initial value as one more input when include_initial (as rfinal does for a whole input) and stores
// the state rounded once. A binned state does not depend on the order or grouping of its inputs, so each result
// has the bits of the reproducible sum of that segment alone, on any device and launch shape.
// Segments as segments.cl reads them (zr_segments.h: offsets or equal lengths, clamped to n, end_step).
// Arguments: (in T, n, offsets, offset_bytes, length, segments, result T, include_initial,
//             scratch local zr_binned, end_step)
#include "zr_binned.h"
#include "zr_segments.h"

// One work-item's binned sum of its share of [begin, end). Not inlined, and its loop a while: inlined into the
// loop over segments, or written as a for loop, it gave llvm-spirv-15 blocks before their dominators (which
// spirv-val rejects).
#define ZR_SEGBINNED_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                               \
  static __attribute__((noinline)) zr_binned zr_segbinned_share_##TN(global const T* restrict in, ulong begin,   \
                                                                     ulong end, ulong first, ulong step) {        \
    zr_rsum_##FTN sum;                                                                                           \
    zr_rsum_init_##FTN(&sum);                                                                                    \
    ulong i = begin + first;                                                                                     \
    while (i < end) {                                                                                            \
      zr_rsum_add_##FTN(&sum, ZR_LOAD_##TN(in, i));                                                              \
      i += step;                                                                                                 \
    }                                                                                                            \
    zr_binned state = zr_rsum_state_##FTN(&sum);                                                                 \
    return state;                                                                                                \
  }                                                                                                              \
  kernel void zr_segbinned_plus_##TN(global const T* restrict in, ulong n, global const uchar* offsets,            \
                                     uint offset_bytes, ulong length, ulong segments, global T* result,           \
                                     uint include_initial, local zr_binned* scratch, ulong end_step) {            \
    const ulong lid = get_local_id(0);                                                                           \
    const ulong lsize = get_local_size(0);                                                                       \
    for (ulong s = get_group_id(0); s < segments; s += get_num_groups(0)) {                                      \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                                 \
      const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                    \
      zr_binned state = zr_binned_group_merge(zr_segbinned_share_##TN(in, begin, end, lid, lsize), scratch);     \
      if (lid == 0) {                                                                                            \
        if (include_initial) {                                                                                   \
          zr_rsum_##FTN initial;                                                                                 \
          zr_rsum_init_##FTN(&initial);                                                                          \
          zr_rsum_add_##FTN(&initial, ZR_LOAD_##TN(result, s));                                                  \
          state = zr_binned_merge(state, zr_rsum_state_##FTN(&initial));                                        \
        }                                                                                                        \
        ZR_STORE_##TN(result, s, ZR_BINNED_VALUE(FTN, FT, state, MANTISSA, MIN_EXPONENT));                       \
      }                                                                                                          \
      /* The next segment's merge overwrites the scratch slot that every work-item has just read. */             \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                              \
    }                                                                                                            \
  }

ZR_FOR_EACH_RSUM(ZR_SEGBINNED_KERNEL)
