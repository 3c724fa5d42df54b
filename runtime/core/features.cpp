#include "features.hpp"

namespace zr::core {

std::string_view name(Feature f) {
  switch (f) {
    case Feature::fp16: return "fp16";
    case Feature::fp64: return "fp64";
    case Feature::int64_atomics: return "int64_atomics";
    case Feature::subgroups: return "subgroups";
    case Feature::work_group_collectives: return "work_group_collectives";
    case Feature::float_atomic_add: return "float_atomic_add";
    case Feature::float_atomic_min_max: return "float_atomic_min_max";
    case Feature::cpu_device: return "cpu_device";
    case Feature::user_operator_template: return "user_operator_template";
  }
  return "unknown";
}

std::optional<Feature> parse_feature(std::string_view text) {
  for (Feature f : kAllFeatures) {
    if (name(f) == text) return f;
  }
  return std::nullopt;
}

std::string to_string(FeatureSet set) {
  std::string out;
  for (Feature f : kAllFeatures) {
    if (!set.has(f)) continue;
    if (!out.empty()) out += ", ";
    out += name(f);
  }
  return out.empty() ? "none" : out;
}

}  // namespace zr::core
