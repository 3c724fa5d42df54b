// Variant "argfinal": the last pass of an arg-reduction (zr_arg.h). One work-group combines `count`
// {value, index} partials (each work-item a strided share, then the local-memory tree) and stores the result
// as zr::arg_result<T>: the value as T, the 64-bit index at byte 8.
// Arguments: partials, count (64-bit), result (two ulong words), scratch (local, one zr_arg per work-item).
// Launch exactly one work-group.
#include "zr_arg.h"

#define ZR_ARGFINAL_KERNEL(OP, TN, T, ACC, ATN)                                                              \
  kernel void zr_argfinal_##OP##_##TN(global const zr_arg_##ATN* partials, ulong count,                     \
                                      global ulong* result, local zr_arg_##ATN* scratch) {                  \
    ACC best_value;                                                                                         \
    ulong best_index;                                                                                       \
    ZR_ARG_IDENTITY(OP, ATN, best_value, best_index);                                                       \
    for (ulong i = get_local_id(0); i < count; i += get_local_size(0)) {                                    \
      const ACC v = partials[i].value;                                                                      \
      const ulong at = partials[i].index;                                                                   \
      ZR_ARG_TAKE(OP, ATN, best_value, best_index, v, at);                                                  \
    }                                                                                                       \
    ZR_ARG_LOCAL_TREE(OP, ATN, ACC, best_value, best_index, scratch);                                       \
    if (get_local_id(0) == 0) ZR_ARG_STORE_RESULT(TN, T, result, best_value, best_index);                   \
  }

ZR_FOR_EACH_ARG_PAIR(ZR_ARGFINAL_KERNEL)
