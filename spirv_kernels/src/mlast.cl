// Variant "mlast": a mean and variance in one launch (zr_moments.h), shaped as lastgroup.cl (whose comments
// explain the arrival counter and the fences): every group writes its state, and the last group to finish
// merges the states in index order through the fixed-shape tree and stores the result.
// Arguments: in, n (64-bit), partials (one state per group), scratch (local, one state per work-item),
// counter (global uint, 0 before the launch and reset to 0 by the last group), result (one state).
#include "zr_moments.h"

#define ZR_MLAST_KERNEL(OP, TN, T, A, ATN)                                                                      \
  kernel void zr_mlast_##OP##_##TN(global const T* restrict in, ulong n, global zr_moments_##ATN* partials,     \
                                   local zr_moments_##ATN* scratch, global uint* counter,                       \
                                   global zr_moments_##ATN* result) {                                           \
    local uint is_last[1];                                                                                      \
    const uint groups = (uint)get_num_groups(0);                                                                \
    zr_moments_##ATN s = zr_moments_none_##ATN();                                                               \
    ZR_MOMENTS_GRID(TN, A, ATN, in, n, s);                                                                      \
    ZR_MOMENTS_LOCAL_TREE(ATN, s, scratch);                                                                     \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = s;                                                    \
    barrier(CLK_GLOBAL_MEM_FENCE);                                                                              \
    if (get_local_id(0) == 0) is_last[0] = atomic_inc(counter) == groups - 1;                                   \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                                        \
    if (!is_last[0]) return;                                                                                    \
    const volatile global zr_moments_##ATN* done = partials;                                                    \
    s = zr_moments_none_##ATN();                                                                                \
    for (uint g = (uint)get_local_id(0); g < groups; g += (uint)get_local_size(0)) {                            \
      zr_moments_##ATN other;                                                                                   \
      other.count = done[g].count;                                                                              \
      other.mean = done[g].mean;                                                                                \
      other.m2 = done[g].m2;                                                                                    \
      s = zr_moments_merge_##ATN(s, other);                                                                     \
    }                                                                                                           \
    ZR_MOMENTS_LOCAL_TREE(ATN, s, scratch);                                                                     \
    if (get_local_id(0) == 0) {                                                                                 \
      zr_moments_store_##ATN(result, s);                                                                        \
      *counter = 0;                                                                                             \
    }                                                                                                           \
  }

ZR_FOR_EACH_MOMENTS(ZR_MLAST_KERNEL)
