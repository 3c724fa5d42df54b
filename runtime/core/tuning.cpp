#include "tuning.hpp"

namespace zr::core {

Tuning tuning_for(const Capabilities& caps) {
  if (caps.type == DeviceType::cpu) {
    // PoCL runs a work-group's items one after another; cpu_chunks launches one item per group, and a few
    // chunks per core keep both cores busy without tiny chunks. Provisional until bench/ measures it.
    return Tuning{.work_group_size = 64,
                  .groups_per_compute_unit = 4,
                  .min_elements_per_item = 1u << 14,
                  .final_work_group_size = 16,
                  .max_final_inputs = 1u << 16};
  }
  // GPUs: 256-wide groups, enough of them per compute unit to keep loads in flight. Provisional until
  // bench/ measures it on the H100.
  return Tuning{.work_group_size = 256,
                .groups_per_compute_unit = 8,
                .min_elements_per_item = 16,
                .final_work_group_size = 256,
                .max_final_inputs = 1u << 14};
}

}  // namespace zr::core
