// Variant "mfinal": the last pass of a mean and variance (zr_moments.h). One work-group merges `count` states
// (each work-item a strided share in index order, then the local-memory tree) and stores the result as
// zr::moments<A>: the 64-bit count, the mean, m2. Launch exactly one work-group.
// Arguments: partials (states), count (64-bit), result (one state), scratch (local, one state per work-item).
#include "zr_moments.h"

#define ZR_MFINAL_KERNEL(OP, TN, T, A, ATN)                                                                      \
  kernel void zr_mfinal_##OP##_##TN(global const zr_moments_##ATN* partials, ulong count,                        \
                                    global zr_moments_##ATN* result, local zr_moments_##ATN* scratch) {          \
    zr_moments_##ATN s = zr_moments_none_##ATN();                                                                \
    for (ulong i = get_local_id(0); i < count; i += get_local_size(0)) s = zr_moments_merge_##ATN(s, partials[i]); \
    ZR_MOMENTS_LOCAL_TREE(ATN, s, scratch);                                                                      \
    if (get_local_id(0) == 0) zr_moments_store_##ATN(result, s);                                                 \
  }

ZR_FOR_EACH_MOMENTS(ZR_MFINAL_KERNEL)
