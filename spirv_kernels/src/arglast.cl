// Variant "arglast": an arg-reduction (zr_arg.h) in one launch on GPU-like devices. Every group scans and
// reduces its share as argtree does and writes its partial; the last group to finish, told apart by a global
// arrival counter, combines all partials and stores the result as argfinal does. It saves the second launch of
// argtree + argfinal, which on the H100 (NVIDIA's OpenCL) cost about 5 us of a 36 us argmax of 2^24 f32.
// Ordering as in lastgroup.cl: work-group barriers with CLK_GLOBAL_MEM_FENCE around the count, the other
// groups' partials read through a volatile view (field by field: a volatile struct copy is a memcpy).
// Arguments: in, n (64-bit), partials (one zr_arg per group), scratch (local, one zr_arg per work-item),
// counter (global uint, 0 before the launch, reset to 0 by the last group), result (two ulong words).
#include "zr_arg_grid.h"

#define ZR_ARGLAST_KERNEL(OP, TN, T, ACC, ATN)                                                               \
  kernel void zr_arglast_##OP##_##TN(global const T* restrict in, ulong n, global zr_arg_##ATN* partials,    \
                                     local zr_arg_##ATN* scratch, global uint* counter, global ulong* result) { \
    local uint is_last[1]; /* an array: clang's uninitialised-use check does not see the barrier */          \
    const uint groups = (uint)get_num_groups(0);                                                             \
    ACC best_value;                                                                                          \
    ulong best_index;                                                                                        \
    ZR_ARG_GRID_SCAN(OP, TN, ACC, ATN, in, n, best);                                                         \
    ZR_ARG_LOCAL_TREE(OP, ATN, ACC, best_value, best_index, scratch);                                        \
    if (get_local_id(0) == 0) {                                                                              \
      partials[get_group_id(0)].value = best_value;                                                          \
      partials[get_group_id(0)].index = best_index;                                                          \
    }                                                                                                        \
    barrier(CLK_GLOBAL_MEM_FENCE); /* release: the partial is out before the group counts itself */          \
    if (get_local_id(0) == 0) is_last[0] = atomic_inc(counter) == groups - 1;                                \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* and acquire, for the partials read below */      \
    if (!is_last[0]) return; /* uniform across the group: every item read the same local flag */             \
    const volatile global zr_arg_##ATN* done = partials;                                                     \
    ZR_ARG_IDENTITY(OP, ATN, best_value, best_index);                                                        \
    for (uint g = (uint)get_local_id(0); g < groups; g += (uint)get_local_size(0)) {                         \
      const ACC v = done[g].value;                                                                           \
      const ulong at = done[g].index;                                                                        \
      ZR_ARG_TAKE(OP, ATN, best_value, best_index, v, at);                                                   \
    }                                                                                                        \
    ZR_ARG_LOCAL_TREE(OP, ATN, ACC, best_value, best_index, scratch);                                        \
    if (get_local_id(0) == 0) {                                                                              \
      ZR_ARG_STORE_RESULT(TN, T, result, best_value, best_index);                                            \
      *counter = 0;                                                                                          \
    }                                                                                                        \
  }

ZR_FOR_EACH_ARG_PAIR(ZR_ARGLAST_KERNEL)
