#pragma once
// Optional device features a kernel module may require. A module is loaded on a device only when the device
// offers every feature the module requires; the build checks each module's SPIR-V against what it declares.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zr::core {

enum class Feature : std::uint32_t {
  fp16 = 1u << 0,
  fp64 = 1u << 1,
  int64_atomics = 1u << 2,
  subgroups = 1u << 3,
  work_group_collectives = 1u << 4,
  float_atomic_add = 1u << 5,
  float_atomic_min_max = 1u << 6,
  // Not a capability of the SPIR-V but the kind of device: modules tuned for CPUs (cpu_wide.cl) require it,
  // so GPUs never load them and no GPU compiler is asked to build them.
  cpu_device = 1u << 7,
  // Not a capability either: the module is a template that imports a user-defined operator's functions
  // (spirv_kernels/src/zr_user.h). No device loads it as it is; the runtime links an operator into it first
  // (user_operator.hpp), and the linked module requires the operator's features instead.
  user_operator_template = 1u << 8,
};

inline constexpr Feature kAllFeatures[] = {Feature::fp16,          Feature::fp64,
                                           Feature::int64_atomics, Feature::subgroups,
                                           Feature::work_group_collectives, Feature::float_atomic_add,
                                           Feature::float_atomic_min_max, Feature::cpu_device,
                                           Feature::user_operator_template};

class FeatureSet {
 public:
  constexpr FeatureSet() = default;
  constexpr explicit FeatureSet(std::uint32_t bits) : bits_(bits) {}
  constexpr FeatureSet(Feature f) : bits_(static_cast<std::uint32_t>(f)) {}  // NOLINT: implicit on purpose

  constexpr bool has(Feature f) const { return (bits_ & static_cast<std::uint32_t>(f)) != 0; }
  constexpr bool contains(FeatureSet other) const { return (bits_ & other.bits_) == other.bits_; }
  constexpr FeatureSet operator|(FeatureSet other) const { return FeatureSet(bits_ | other.bits_); }
  constexpr FeatureSet& operator|=(FeatureSet other) { bits_ |= other.bits_; return *this; }
  constexpr FeatureSet missing_from(FeatureSet offered) const { return FeatureSet(bits_ & ~offered.bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool operator==(const FeatureSet&) const = default;

 private:
  std::uint32_t bits_ = 0;
};

constexpr FeatureSet operator|(Feature a, Feature b) { return FeatureSet(a) | FeatureSet(b); }

// The features of a module that its SPIR-V shows (through capabilities and extensions): all but the kind of
// device it is meant for and whether it is a template.
constexpr FeatureSet spirv_visible(FeatureSet required) {
  return required.missing_from(Feature::cpu_device | Feature::user_operator_template);
}

std::string_view name(Feature f);
std::optional<Feature> parse_feature(std::string_view text);
// "fp64, int64_atomics", or "none".
std::string to_string(FeatureSet set);

}  // namespace zr::core
