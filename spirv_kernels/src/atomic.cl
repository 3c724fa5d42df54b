// Variant "atomic": one launch through a global atomic (integer types; every op but multiplies). Each
// work-group reduces a grid-strided share of the input through the local-memory tree, and its work-item 0
// combines the group's value into accumulator[0] with one atomic (widened to 32 or 64 bits, see
// zr_atomic.h) and then counts itself in counter[0]. The group that arrives last reads the accumulator,
// narrows it to T, folds in the initial value of the result when asked to, stores the result, and puts
// accumulator and counter back to their starting values, so the plan fills them only once (accumulator =
// the widened identity, counter = 0). Integer ops are associative and commutative, so the result does not
// depend on the order in which groups arrive.
// Ordering: there is no device-scope fence in OpenCL 1.2 (and PoCL lacks mem_fence() for SPIR input), so the
// fence between a group's atomic and its arrival is that of a barrier with CLK_GLOBAL_MEM_FENCE; the last
// group reads the accumulator with an atomic, which sees every atomic update made to it.
// Arguments: in, n (64-bit), accumulator (ATOM), identity (ACC), scratch (local, one ACC per work-item),
// counter (uint), result (T, read when include_initial != 0), include_initial.
#include "zr_grid.h"
#include "zr_group_tree.h"
#include "zr_atomic.h"

#define ZR_ATOMIC_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void zr_atomic_##OP##_##TN(global const T* restrict in, ulong n, global ZR_ATOM_##TN* accumulator,   \
                                    ACC identity, local ACC* scratch, global uint* counter,                   \
                                    global T* result, uint include_initial) {                                 \
    ACC acc = identity;                                                                                       \
    ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc); \
    ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                          \
    if (get_local_id(0) == 0) ZR_ATOMIC(OP, TN, accumulator, ZR_WIDEN_##OP(ZR_ATOM_##TN, acc));               \
    barrier(CLK_GLOBAL_MEM_FENCE); /* the group's atomic is done before the group counts itself */            \
    if (get_local_id(0) != 0 || atomic_inc(counter) != (uint)get_num_groups(0) - 1) return;                   \
    acc = ZR_NARROW_##OP(ACC, ZR_ATOMIC_READ(TN, accumulator));                                               \
    if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, 0), acc);                             \
    ZR_STORE_##TN(result, 0, acc);                                                                            \
    ZR_ATOMIC_WRITE(TN, accumulator, ZR_WIDEN_##OP(ZR_ATOM_##TN, identity));                                  \
    atomic_xchg(counter, 0u);                                                                                 \
  }

#define ZR_ATOMIC_PAIR(OP, TN, T, ACC, ATN) ZR_KEEP_##OP(ZR_ATOMIC_KERNEL, OP, TN, T, ACC, ATN)
ZR_FOR_EACH_PAIR(ZR_ATOMIC_PAIR)
