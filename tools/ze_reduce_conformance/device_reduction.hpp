#pragma once
// One reduction of a case through the public API (zr::queue::reduce with zr::reduction and its properties),
// with the result returned as bytes.
#include <cstdint>
#include <span>

#include "conformance_case.hpp"
#include "moments_reference.hpp"
#include "scalar.hpp"

namespace zr::conformance {

struct DeviceRun {
  core::Scalar result;
  // The most combines one input value went through (event profile), the m of the host reference's bound.
  std::uint64_t combine_depth = 0;
  zr::strategy strategy = zr::strategy::tree;  // what the library says it ran
  bool host_path = false;                      // ... on the calling thread, without a kernel
  std::uint64_t index = 0;                    // argmin/argmax: the index of the result's value
  core::Moments moments;                      // mean_var_f32/f64: count, mean and m2 (result is unused)
};

// Reduces the case's n elements at `input` (a device allocation of q's device, or host data when
// c.from_host_span) into a host variable holding `initial`, forcing c.strategy, with c's properties.
// Waits for completion; rethrows what the library throws. argmin/argmax run queue::argmin/argmax (no initial).
DeviceRun reduce_once(queue& q, const ConformanceCase& c, const void* input, const core::Scalar& initial);

// A reproducible floating-point sum made another way: queue::reduce_partial over three uneven chunks of the
// input (some empty at small n) with c.strategy, the partials merged last to first, the initial value added
// unless c initializes to the identity, rounded once. It must give reduce_once's bits.
core::Scalar reduce_in_chunks(queue& q, const ConformanceCase& c, const void* input, const core::Scalar& initial);

}  // namespace zr::conformance
