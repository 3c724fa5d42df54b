// Variant "lastgroup": one launch, deterministic. Every work-group reduces a grid-strided share of the input
// (as in tree.cl) and writes its partial; the last group to finish, told apart by a global arrival counter,
// then reduces all partials and stores the result. This saves the second launch of tree + final (which
// matters for small n, where launch latency dominates) without giving up determinism: the last group reads
// the partials in index order through the same fixed-shape tree, whichever group happens to arrive last.
// Arguments: in, n (64-bit), partials (one ACC per group), identity, scratch (local, one ACC per work-item),
// counter (global uint, 0 before the launch and reset to 0 by the last group, so the plan fills it once),
// result (T, read when include_initial != 0), include_initial. Needs nothing beyond OpenCL C 1.2.
#include "zr_grid.h"
#include "zr_group_tree.h"

// Ordering: OpenCL 1.2 has no device-scope fence, and PoCL's kernel library lacks mem_fence() when the
// kernel comes as SPIR (the call stays unresolved), so the fences are those of work-group barriers with
// CLK_GLOBAL_MEM_FENCE: one between writing the partial and counting the group, one between reading the
// count and reading the partials. The partials of other groups are read through a volatile view, so the
// compiler cannot reuse values from before the count said they are complete.
#define ZR_LASTGROUP_KERNEL(OP, TN, T, ACC, ATN)                                                              \
  kernel void zr_lastgroup_##OP##_##TN(global const T* restrict in, ulong n, global ACC* partials,            \
                                       ACC identity, local ACC* scratch, global uint* counter,                \
                                       global T* result, uint include_initial) {                              \
    local uint is_last[1]; /* an array: clang's uninitialised-use check does not see the barrier */           \
    const uint groups = (uint)get_num_groups(0);                                                              \
    ACC acc = identity;                                                                                       \
    ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc); \
    ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                          \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = acc;                                                \
    barrier(CLK_GLOBAL_MEM_FENCE); /* release: the partial is out before the group counts itself */           \
    if (get_local_id(0) == 0) is_last[0] = atomic_inc(counter) == groups - 1;                                 \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* and acquire, for the partials read below */       \
    if (!is_last[0]) return; /* uniform across the group: every item read the same local flag */              \
    const volatile global ACC* done = partials;                                                               \
    acc = identity;                                                                                           \
    for (uint g = (uint)get_local_id(0); g < groups; g += (uint)get_local_size(0))                            \
      acc = ZR_COMBINE(OP, ATN)(acc, done[g]);                                                                \
    ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                          \
    if (get_local_id(0) == 0) {                                                                               \
      if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, 0), acc);                           \
      ZR_STORE_##TN(result, 0, acc);                                                                          \
      *counter = 0;                                                                                           \
    }                                                                                                         \
  }

ZR_FOR_EACH_PAIR(ZR_LASTGROUP_KERNEL)
