#include "tuning.hpp"

namespace zr::core {

Tuning tuning_for(const Capabilities& caps) {
  if (caps.type == DeviceType::cpu) {
    // PoCL runs a work-group's items one after another; cpu_chunks launches one item per group. Measured on
    // the H100 host's 16-core Xeon with PoCL 5 (f32 plus, 2^26): 64 chunks per core was best (G = 1024:
    // 190 GB/s, on par with OpenMP in the same run; G = 256 about 20% slower), with chunks of at least 16K
    // elements; on the 2-core CI machine every G from 2 to 256 reads at the memory limit.
    return Tuning{.work_group_size = 64,
                  .groups_per_compute_unit = 64,
                  .min_elements_per_item = 1u << 14,
                  .final_work_group_size = 16,
                  .max_final_inputs = 1u << 16};
  }
  // GPUs: 256-wide groups, 8 per compute unit, 16-byte loads (zr_grid.h): on the H100 (NVIDIA OpenCL) this
  // reads f32/i32 at 1.00x CUB's throughput at 2^28 and 1.03-1.09x at 2^24 (bench/results/h100_sum_*.md).
  return Tuning{.work_group_size = 256,
                .groups_per_compute_unit = 8,
                .min_elements_per_item = 16,
                .final_work_group_size = 256,
                .max_final_inputs = 1u << 14};
}

Tuning refine(Tuning tuning, const KernelHints& hints) {
  if (hints.required_group_size > 0) {
    tuning.work_group_size = hints.required_group_size;
    return tuning;
  }
  if (hints.suggested_group_size > 0 && hints.suggested_group_size < tuning.work_group_size)
    tuning.work_group_size = hints.suggested_group_size;
  if (hints.subgroup_size > 1 && tuning.work_group_size >= hints.subgroup_size)
    tuning.work_group_size -= tuning.work_group_size % hints.subgroup_size;
  return tuning;
}

}  // namespace zr::core
