// Variant "ttree": the first pass of a transform-reduction (zr_transform.h) shaped as tree.cl: each
// work-group sums the transformed values of a grid-strided share of the input through the local-memory tree
// and writes one partial (ACC) per group; intermediate passes are the plain tree kernels' plus on ACC, and
// tfinal.cl the last. Arguments: in, n (64-bit), partials, value (count_equal's; LANE, ignored by the other
// ops), scratch (local, one ACC per work-item).
#include "zr_transform.h"

#define ZR_TTREE_KERNEL(OP, TN, T, LANE, ACC, ATN, RT, RTN)                                                \
  kernel void zr_ttree_##OP##_##TN(global const T* restrict in, ulong n, global ACC* restrict partials,    \
                                   LANE value, local ACC* scratch) {                                       \
    ACC acc = 0;                                                                                           \
    ZR_TRANSFORM_ACCUMULATE(OP, TN, ACC, ATN, in, n, acc);                                                 \
    ZR_LOCAL_TREE(zr_tsum_##ATN, ACC, acc, scratch, (ACC)0);                                               \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = acc;                                             \
  }

ZR_FOR_EACH_TRANSFORM(ZR_TTREE_KERNEL)
