// Variant "argtree": the first pass of an arg-reduction (zr_arg.h) on GPU-like devices, followed by argfinal.
// Each work-item scans its grid-strided share (zr_arg_grid.h), the group's candidates meet in the local-memory
// tree, and one partial per group is written.
// Arguments: in, n (64-bit), partials (one zr_arg per group), scratch (local, one zr_arg per work-item).
#include "zr_arg_grid.h"

#define ZR_ARGTREE_KERNEL(OP, TN, T, ACC, ATN)                                                             \
  kernel void zr_argtree_##OP##_##TN(global const T* restrict in, ulong n, global zr_arg_##ATN* restrict partials, \
                                     local zr_arg_##ATN* scratch) {                                        \
    const zr_arg_##ATN identity = zr_arg_identity_##OP##_##ATN();                                          \
    zr_arg_##ATN best;                                                                                     \
    ZR_ARG_GRID_SCAN(OP, TN, ACC, ATN, in, n, best, identity);                                             \
    ZR_ARG_LOCAL_TREE(OP, ATN, best, scratch);                                                \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = best;                                            \
  }

ZR_FOR_EACH_ARG_PAIR(ZR_ARGTREE_KERNEL)
