#pragma once
// Reduction properties, as SYCL 2020 (initialize_to_identity) and sycl_ext_oneapi_reduction_properties
// (deterministic) define them, ze-reduce's reproducible, plus a request for one strategy (for testing and tuning); and the queue
// property that turns device timestamps on (SYCL 2020 property::queue::enable_profiling).
#include <cstdint>
#include <optional>
#include <string_view>

#include "zereduce/export.hpp"

namespace zr {

// How a reduction is carried out (README, "Strategies"). Asking for one the device cannot run is an error.
enum class strategy : std::uint8_t {
  tree, subgroup, work_group, local_atomics, cpu_chunks, last_group, global_atomics
};
ZR_API std::string_view to_string(strategy s);

namespace property::reduction {
// The variable's value before the reduction is NOT combined into the result (SYCL 2020 4.9.2.2).
struct initialize_to_identity {};
// Same device, same launch configuration, same input: bitwise-identical result. Rules out floating-point
// atomics and every step whose combine order depends on timing.
struct deterministic {};
// Stronger than deterministic (and implies it): the same input VALUES give a bitwise-identical result on every
// device, strategy and launch shape, in any order. Floating-point plus (f16, f32, f64) then runs a binned sum
// with one final rounding, within n * 2^-48 * max|x| (f16, f32) or n * 2^-60 * max|x| (f64) plus half an ulp
// of the exact sum (README, "Reproducible sums"). Every other op and type is order-independent already
// (integer arithmetic wraps exactly; minimum, maximum, bitwise and logical ops are exact) and runs as usual;
// floating-point multiplies is not, and is refused with zr::UnsupportedError.
struct reproducible {};
// Use exactly this strategy (zr::UnsupportedError before any work when the device cannot).
struct use_strategy {
  zr::strategy value;
};
}  // namespace property::reduction

namespace property::queue {
// Every kernel pass and copy of the queue's work carries device timestamps in the event's profile. Off by
// default, as in SYCL: on some drivers a timed kernel costs several microseconds more to launch and wait for
// (NVIDIA's OpenCL on an H100: a blocking 2^10-element reduction into a host variable took 19 us untimed, 35 us
// timed; bench/results/h100.md).
struct enable_profiling {};
}  // namespace property::queue

class property_list {
 public:
  template <typename... Properties>
  property_list(Properties... properties) {  // NOLINT: implicit, as sycl::property_list
    (add(properties), ...);
  }

  // A copy with one more property.
  template <typename Property>
  property_list with(Property property) const {
    property_list copy = *this;
    copy.add(property);
    return copy;
  }

  bool initialize_to_identity() const { return initialize_to_identity_; }
  bool deterministic() const { return deterministic_ || reproducible_; }
  bool reproducible() const { return reproducible_; }
  std::optional<zr::strategy> requested_strategy() const { return strategy_; }
  bool enable_profiling() const { return enable_profiling_; }

 private:
  void add(property::reduction::initialize_to_identity) { initialize_to_identity_ = true; }
  void add(property::reduction::deterministic) { deterministic_ = true; }
  void add(property::reduction::reproducible) { reproducible_ = true; }
  void add(property::reduction::use_strategy s) { strategy_ = s.value; }
  void add(property::queue::enable_profiling) { enable_profiling_ = true; }

  bool initialize_to_identity_ = false;
  bool deterministic_ = false;
  bool reproducible_ = false;
  bool enable_profiling_ = false;
  std::optional<zr::strategy> strategy_;
};

}  // namespace zr
