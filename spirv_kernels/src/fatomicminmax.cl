// Variant "fatomicminmax": one launch for f32 minimum/maximum through hardware float atomic min/max
// (cl_ext_float_atomics; SPIR-V AtomicFloat32MinMaxEXT). The hardware atomics have fmin/fmax semantics: a
// NaN operand is ignored and the order of -0.0 and +0.0 is unspecified. Our semantics (IEEE 754-2019
// minimum/maximum: NaN wins, -0.0 < +0.0) are restored with two flags next to the arrival count:
//   counter[0]  arrival count;
//   counter[1]  bit 0: some group's value is NaN;
//               bit 1: some group's value is -0.0 (minimum) / +0.0 (maximum).
// Each group's value is exact (the local-memory tree uses our combine functions, and every work-item
// starts from the identity, so the identity is folded into every group's value). A NaN group only sets
// bit 0; any other group does the atomic min/max and sets bit 1 if its value is the zero that wins. Then:
//   - bit 0 set: the result is NaN (some group, hence some input or the identity, was NaN);
//   - otherwise the accumulator holds the numeric min/max of the group values (and of its starting value,
//     the identity, which is also in every group's value); if that is a zero of either sign, the winning
//     zero is present exactly when bit 1 is set; any other value is exact.
// The last group to arrive resolves this, folds in the initial value of the result when asked to, stores
// the result, and resets accumulator (= identity) and counter[0..1] (= 0). Integer-like determinism: the
// outcome does not depend on the order in which groups arrive.
// Arguments: in, n (64-bit), accumulator (float), identity, scratch (local, one float per work-item),
// counter (uint[2]), result (float, read when include_initial != 0), include_initial.
#include "zr_grid.h"
#include "zr_group_tree.h"

#define ZR_FLAG_NAN 1u
#define ZR_FLAG_WINNING_ZERO 2u

#define ZR_FATOMIC_MINMAX_KERNEL(OP, FETCH, WINNING_ZERO)                                                      \
  kernel void zr_fatomicminmax_##OP##_f32(global const float* restrict in, ulong n, global float* accumulator, \
                                          float identity, local float* scratch, global uint* counter,          \
                                          global float* result, uint include_initial) {                        \
    float acc = identity;                                                                                      \
    ZR_GRID_ACCUMULATE(OP, f32, f32, in, n, acc); \
    ZR_LOCAL_TREE(zr_##OP##_f32, float, acc, scratch, identity);                                               \
    if (get_local_id(0) != 0) return;                                                                          \
                                                                                                               \
    volatile global atomic_float* extreme = (volatile global atomic_float*)accumulator;                        \
    volatile global atomic_uint* arrived = (volatile global atomic_uint*)counter;                              \
    volatile global atomic_uint* flags = (volatile global atomic_uint*)(counter + 1);                          \
    if (isnan(acc)) {                                                                                          \
      atomic_fetch_or_explicit(flags, ZR_FLAG_NAN, memory_order_relaxed, memory_scope_device);                 \
    } else {                                                                                                   \
      FETCH(extreme, acc, memory_order_relaxed, memory_scope_device);                                          \
      if (as_uint(acc) == as_uint(WINNING_ZERO))                                                               \
        atomic_fetch_or_explicit(flags, ZR_FLAG_WINNING_ZERO, memory_order_relaxed, memory_scope_device);      \
    }                                                                                                          \
    /* global-memory fences next to the acq_rel count, as in fatomicadd.cl */                                  \
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);                   \
    if (atomic_fetch_add_explicit(arrived, 1u, memory_order_acq_rel, memory_scope_device) !=                   \
        get_num_groups(0) - 1)                                                                                 \
      return;                                                                                                  \
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);                   \
                                                                                                               \
    const uint seen = atomic_load_explicit(flags, memory_order_relaxed, memory_scope_device);                  \
    acc = atomic_load_explicit(extreme, memory_order_relaxed, memory_scope_device);                            \
    if (seen & ZR_FLAG_NAN)                                                                                    \
      acc = ZR_NAN_f32;                                                                                        \
    else if (acc == 0.0f)                                                                                      \
      acc = (seen & ZR_FLAG_WINNING_ZERO) ? (WINNING_ZERO) : -(WINNING_ZERO);                                  \
    if (include_initial) acc = zr_##OP##_f32(result[0], acc);                                                  \
    ZR_STORE_f32(result, 0, acc);                                                                              \
    atomic_store_explicit(extreme, identity, memory_order_relaxed, memory_scope_device);                       \
    atomic_store_explicit(flags, 0u, memory_order_relaxed, memory_scope_device);                               \
    atomic_store_explicit(arrived, 0u, memory_order_relaxed, memory_scope_device);                             \
  }

ZR_FATOMIC_MINMAX_KERNEL(minimum, atomic_fetch_min_explicit, -0.0f)
ZR_FATOMIC_MINMAX_KERNEL(maximum, atomic_fetch_max_explicit, +0.0f)
