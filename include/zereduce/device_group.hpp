#pragma once
// zr::device_group: one reduction over host data split across several devices (several GPUs, a GPU and the
// CPU, or any mix of backends). Each device reduces one contiguous part of the input, its share chosen from
// its weight; the host combines the parts' results and writes the reduction variable; one event covers it all.
//
// With property::reduction::reproducible, a floating-point sum is merged from the devices' unrounded partial
// sums (reproducible_partial.hpp) and rounded once: its bits do not depend on the devices, the weights or the
// split (the same bits as one reproducible sum on one device). Otherwise the parts' results are combined on
// the host in device order, in extended precision for floating sums and products, so a floating result is
// within the plain sum's bound (runtime/core/host_reference.hpp) and, with deterministic, the same for the
// same devices, weights and input.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "zereduce/device.hpp"
#include "zereduce/event.hpp"
#include "zereduce/export.hpp"
#include "zereduce/reduction.hpp"

namespace zr {

namespace detail {
class device_group_impl;
}

class ZR_API device_group {
 public:
  // `weights`: each device's share of every input, in any unit (declared bandwidths in GB/s, say); a device
  // may appear more than once. Left empty, the weights are measured: each device's throughput on a sum of a
  // 16 MiB f32 host array, copies included where the device copies host data (timed once per device and
  // process). zr::InvalidArgumentError for no devices, or weights that are not one finite, non-negative
  // number per device with a positive sum.
  explicit device_group(std::vector<device> devices, std::vector<double> weights = {});

  const std::vector<device>& devices() const;
  // The weights in use (given or measured), and each device's fraction of an input (they add up to 1).
  const std::vector<double>& weights() const;
  std::vector<double> shares() const;

  // Reduces the host data into the reduction's variable, which must be ordinary host memory (not an
  // allocation of a device). Scalar reductions only (an array reduction is refused). Errors of a member device
  // keep their class and name the member; the data must stay valid and unchanged until the event completes.
  template <typename T>
  event reduce(std::span<const T> host_input, reduction_descriptor<T> reduction) {
    return submit(host_input.data(), detail::element_type_of<T>(), host_input.size(), reduction.spec());
  }

 private:
  event submit(const void* input, element_type type, std::uint64_t n, const detail::reduction_spec& spec);
  std::shared_ptr<detail::device_group_impl> impl_;
};

}  // namespace zr
