// Variant "argtree": the first pass of an arg-reduction (zr_arg.h) on GPU-like devices, followed by argfinal.
// Each work-item scans its grid-strided share (zr_arg_grid.h), the group's candidates meet in the local-memory
// tree, and one partial per group is written.
// Arguments: in, n (64-bit), partials (one zr_arg per group), scratch (local, one zr_arg per work-item).
#include "zr_arg_grid.h"

#define ZR_ARGTREE_KERNEL(OP, TN, T, ACC, ATN)                                                             \
  kernel void zr_argtree_##OP##_##TN(global const T* restrict in, ulong n, global zr_arg_##ATN* restrict partials, \
                                     local zr_arg_##ATN* scratch) {                                        \
    ACC best_value;                                                                                        \
    ulong best_index;                                                                                      \
    ZR_ARG_GRID_SCAN(OP, TN, ACC, ATN, in, n, best);                                                       \
    ZR_ARG_LOCAL_TREE(OP, ATN, ACC, best_value, best_index, scratch);                                      \
    if (get_local_id(0) == 0) {                                                                            \
      partials[get_group_id(0)].value = best_value;                                                        \
      partials[get_group_id(0)].index = best_index;                                                        \
    }                                                                                                      \
  }

ZR_FOR_EACH_ARG_PAIR(ZR_ARGTREE_KERNEL)
