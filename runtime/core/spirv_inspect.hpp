#pragma once
// Reads what a SPIR-V module declares and uses: its capabilities, its kernel entry points, and from those
// the optional device features it needs; its exported and imported functions, and the constants functions
// return. Used at build time to check each module against kernels.table, and at run time to read a
// user-defined operator's interface (user_operator.hpp).
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "features.hpp"

namespace zr::core {

struct SpirvSummary {
  std::uint32_t memory_addressing = 0;  // 2 = Physical64
  std::uint32_t memory_model = 0;       // 2 = OpenCL
  std::set<std::uint32_t> capabilities;
  std::vector<std::string> entry_points;
  FeatureSet features;  // derived from capabilities, group-operation scopes and built-ins
  // Functions with linkage attributes, by linkage name: their result ids.
  std::map<std::string, std::uint32_t, std::less<>> exported_functions;
  std::map<std::string, std::uint32_t, std::less<>> imported_functions;
  // Functions whose every OpReturnValue returns the same 32-bit integer OpConstant: that constant, by result id.
  std::map<std::uint32_t, std::uint32_t> returned_constants;
};

// Throws std::runtime_error on a malformed module.
SpirvSummary inspect_spirv(std::span<const std::uint32_t> words);

}  // namespace zr::core
