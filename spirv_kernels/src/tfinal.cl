// Variant "tfinal": the last pass of a transform-reduction (zr_transform.h). One work-group sums `count`
// ACC partials, finishes the sum (the square root of norm_l2) and stores it as the result type; the result
// is written, never read (transform-reductions have no initial value).
// Arguments: partials (ACC), count (64-bit), result (RT), scratch (local, one ACC per work-item). Launch
// exactly one work-group.
#include "zr_transform.h"

#define ZR_TFINAL_KERNEL(OP, TN, T, LANE, ACC, ATN, RT, RTN)                                              \
  kernel void zr_tfinal_##OP##_##TN(global const ACC* restrict partials, ulong count, global RT* result,  \
                                    local ACC* scratch) {                                                 \
    ACC acc = 0;                                                                                          \
    ZR_GRID_ACCUMULATE(tsum, ATN, ATN, partials, count, acc);                                             \
    ZR_LOCAL_TREE(zr_tsum_##ATN, ACC, acc, scratch, (ACC)0);                                              \
    if (get_local_id(0) == 0) ZR_STORE_##RTN(result, 0, ZR_FINISH_##OP(acc));                             \
  }

ZR_FOR_EACH_TRANSFORM(ZR_TFINAL_KERNEL)
