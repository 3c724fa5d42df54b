// Variant "tree": each work-group reads a grid-strided share of the input, combines it per work-item, then
// through the local-memory tree, and writes one partial per group. Needs nothing beyond OpenCL C 1.2.
// Arguments: in, n (64-bit), partials (one ACC per group), identity, scratch (local, one ACC per work-item).
#include "zr_grid.h"
#include "zr_group_tree.h"

#define ZR_TREE_KERNEL(OP, TN, T, ACC, ATN)                                                             \
  kernel void zr_tree_##OP##_##TN(global const T* restrict in, ulong n, global ACC* restrict partials,  \
                                  ACC identity, local ACC* scratch) {                                   \
    ACC acc = identity;                                                                                 \
    ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc); \
    ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                    \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = acc;                                          \
  }

ZR_FOR_EACH_PAIR(ZR_TREE_KERNEL)
