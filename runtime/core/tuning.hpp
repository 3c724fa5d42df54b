#pragma once
// Launch shapes per device class, kept apart from the strategy logic (like CUB's per-architecture policies).
// Values come from measurements in bench/; each says which.
#include <cstdint>

#include "capabilities.hpp"

namespace zr::core {

struct Tuning {
  std::uint64_t work_group_size;        // upper bound; clipped to the device's maximum
  std::uint64_t groups_per_compute_unit;
  std::uint64_t min_elements_per_item;  // below this, fewer groups are launched
  std::uint64_t final_work_group_size;  // the one group of the final pass
  std::uint64_t max_final_inputs;       // more partials than this get an intermediate pass
};

Tuning tuning_for(const Capabilities& caps);

}  // namespace zr::core
