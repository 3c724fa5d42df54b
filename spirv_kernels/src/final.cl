// Variant "final": one work-group reduces the partials of earlier passes, folds in the initial value of the
// result when asked to (SYCL's default; initialize_to_identity turns it off) and stores the result as T.
// Arguments: partials (ACC), count (64-bit), result (T, read when include_initial != 0), identity,
// include_initial, scratch (local, one ACC per work-item). Launch exactly one work-group. It reads with the
// 16-byte loads of zr_grid.h: for a small input that it reads alone (core/plan.cpp, final-only plans), scalar
// loads took 7.8 us of device time at 2^12 f32 on the H100 against 5.8 us (bench, raw OpenCL).
#include "zr_grid.h"
#include "zr_group_tree.h"

#define ZR_FINAL_KERNEL(OP, TN, T, ACC, ATN)                                                              \
  kernel void zr_final_##OP##_##TN(global const ACC* restrict partials, ulong count, global T* result,    \
                                   ACC identity, uint include_initial, local ACC* scratch) {              \
    ACC acc = identity;                                                                                   \
    ZR_GRID_ACCUMULATE(OP, ATN, ATN, partials, count, acc);                                               \
    ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                      \
    if (get_local_id(0) == 0) {                                                                           \
      if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, 0), acc);                       \
      ZR_STORE_##TN(result, 0, acc);                                                                      \
    }                                                                                                     \
  }

ZR_FOR_EACH_PAIR(ZR_FINAL_KERNEL)
