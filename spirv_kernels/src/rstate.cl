// Variant "rstate": the last pass of a reproducible sum whose caller merges states itself (queue::
// reduce_partial: one sum over several devices, MPI ranks or chunks). One work-group merges `count` binned
// states (zr_binned.h) and stores the merged state, unrounded, for the host to merge with others and round
// once (runtime/core/binned_sum.hpp reads the same 64 bytes).
// Merging is integer arithmetic on the bins, the same for every element type, so the f32 entry point serves
// f16 and f64 states too (runtime/core/plan.cpp).
// Arguments: states, count (64-bit), merged (one zr_binned), scratch (local, one zr_binned per work-item).
// Launch exactly one work-group.
#include "zr_binned.h"

kernel void zr_rstate_plus_f32(global const zr_binned* restrict states, ulong count, global zr_binned* merged,
                               local zr_binned* scratch) {
  const zr_binned state = zr_binned_merge_states(states, count, scratch);
  if (get_local_id(0) == 0) merged[0] = state;
}
