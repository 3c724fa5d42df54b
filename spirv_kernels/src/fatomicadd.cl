// Variant "fatomicadd": one launch for f32 plus through a hardware float atomic add (cl_ext_float_atomics;
// SPIR-V AtomicFloat32AddEXT), as "atomic" does for integers. Each work-group reduces a grid-strided share
// of the input through the local-memory tree; its work-item 0 adds the group's sum to accumulator[0] and
// then counts the group in counter[0]. The group that arrives last reads the accumulator, folds in the
// initial value of the result when asked to, stores the result, and puts accumulator (= identity) and
// counter (= 0) back to the values the plan filled them with once. Not deterministic: the order of the
// float additions depends on the order in which groups arrive.
// OpenCL 2.0 atomics: the counter's acq_rel increment at device scope (with global-memory fences around it)
// publishes the group's add before its arrival, and makes every add visible to the last group.
// Arguments: in, n (64-bit), accumulator (float), identity, scratch (local, one float per work-item),
// counter (uint), result (float, read when include_initial != 0), include_initial.
#include "zr_grid.h"
#include "zr_group_tree.h"

kernel void zr_fatomicadd_plus_f32(global const float* restrict in, ulong n, global float* accumulator,
                                   float identity, local float* scratch, global uint* counter,
                                   global float* result, uint include_initial) {
  float acc = identity;
  ZR_GRID_ACCUMULATE(plus, f32, f32, in, n, acc);
  ZR_LOCAL_TREE(zr_plus_f32, float, acc, scratch, identity);
  if (get_local_id(0) != 0) return;

  volatile global atomic_float* total = (volatile global atomic_float*)accumulator;
  volatile global atomic_uint* arrived = (volatile global atomic_uint*)counter;
  atomic_fetch_add_explicit(total, acc, memory_order_relaxed, memory_scope_device);
  // Explicit global-memory fences next to the acq_rel count: llvm-spirv gives the count's ordering no
  // storage-class bits, and the fences make sure it is global memory that they order.
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  if (atomic_fetch_add_explicit(arrived, 1u, memory_order_acq_rel, memory_scope_device) != get_num_groups(0) - 1)
    return;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);

  acc = atomic_load_explicit(total, memory_order_relaxed, memory_scope_device);
  if (include_initial) acc = zr_plus_f32(result[0], acc);
  ZR_STORE_f32(result, 0, acc);
  atomic_store_explicit(total, identity, memory_order_relaxed, memory_scope_device);
  atomic_store_explicit(arrived, 0u, memory_order_relaxed, memory_scope_device);
}
