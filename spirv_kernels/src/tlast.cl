// Variant "tlast": a transform-reduction in one launch, shaped as lastgroup.cl (whose comments explain the
// arrival counter and the fences): every group writes its partial sum of transformed values, and the last
// group to finish sums the partials in index order through the fixed-shape tree, finishes the sum (the
// square root of norm_l2) and stores the result. Deterministic for a given launch shape.
// Arguments: in, n (64-bit), partials (one ACC per group), value (count_equal's; LANE, ignored by the other
// ops), scratch (local, one ACC per work-item), counter (global uint, 0 before the launch and reset to 0 by
// the last group), result (RT, written, never read).
#include "zr_transform.h"

#define ZR_TLAST_KERNEL(OP, TN, T, LANE, ACC, ATN, RT, RTN)                                                 \
  kernel void zr_tlast_##OP##_##TN(global const T* restrict in, ulong n, global ACC* partials, LANE value,  \
                                   local ACC* scratch, global uint* counter, global RT* result) {           \
    local uint is_last[1];                                                                                  \
    const uint groups = (uint)get_num_groups(0);                                                            \
    ACC acc = 0;                                                                                            \
    ZR_TRANSFORM_ACCUMULATE(OP, TN, ACC, ATN, in, n, acc);                                                  \
    ZR_LOCAL_TREE(zr_tsum_##ATN, ACC, acc, scratch, (ACC)0);                                                \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = acc;                                              \
    barrier(CLK_GLOBAL_MEM_FENCE);                                                                          \
    if (get_local_id(0) == 0) is_last[0] = atomic_inc(counter) == groups - 1;                               \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                                    \
    if (!is_last[0]) return;                                                                                \
    const volatile global ACC* done = partials;                                                             \
    acc = 0;                                                                                                \
    for (uint g = (uint)get_local_id(0); g < groups; g += (uint)get_local_size(0)) acc = zr_tsum_##ATN(acc, done[g]); \
    ZR_LOCAL_TREE(zr_tsum_##ATN, ACC, acc, scratch, (ACC)0);                                                \
    if (get_local_id(0) == 0) {                                                                             \
      ZR_STORE_##RTN(result, 0, ZR_FINISH_##OP(acc));                                                       \
      *counter = 0;                                                                                         \
    }                                                                                                       \
  }

ZR_FOR_EACH_TRANSFORM(ZR_TLAST_KERNEL)
