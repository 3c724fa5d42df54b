// Variant "mtree": the first pass of a mean and variance (zr_moments.h) on GPU-shaped devices: each work-group
// merges the blocks of a grid-strided share of the input into one {count, mean, m2} state per group, through
// the local-memory tree; mfinal.cl merges the groups' states.
// Arguments: in, n (64-bit), partials (one state per group), scratch (local, one state per work-item).
#include "zr_moments.h"

#define ZR_MTREE_KERNEL(OP, TN, T, A, ATN)                                                                     \
  kernel void zr_mtree_##OP##_##TN(global const T* restrict in, ulong n, global zr_moments_##ATN* partials,    \
                                   local zr_moments_##ATN* scratch) {                                          \
    zr_moments_##ATN s = zr_moments_none_##ATN();                                                              \
    ZR_MOMENTS_GRID(TN, A, ATN, in, n, s);                                                                     \
    ZR_MOMENTS_LOCAL_TREE(ATN, s, scratch);                                                                    \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = s;                                                   \
  }

ZR_FOR_EACH_MOMENTS(ZR_MTREE_KERNEL)
