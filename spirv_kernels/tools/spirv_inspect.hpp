#pragma once
// Reads what a SPIR-V module declares and uses: its capabilities, its kernel entry points, and from those
// the optional device features it needs. Used at build time to check each module against kernels.table.
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "features.hpp"

namespace zr::build {

struct SpirvSummary {
  std::uint32_t memory_addressing = 0;  // 2 = Physical64
  std::uint32_t memory_model = 0;       // 2 = OpenCL
  std::set<std::uint32_t> capabilities;
  std::vector<std::string> entry_points;
  zr::core::FeatureSet features;  // derived from capabilities, group-operation scopes and built-ins
};

// Throws std::runtime_error on a malformed module.
SpirvSummary inspect_spirv(std::span<const std::uint32_t> words);

}  // namespace zr::build
