#pragma once
// How one input is split across several devices (zr::device_group): contiguous parts in device order, each
// as large as its weight's share of n, as plain data so that the split is unit-tested without a device.
#include <cstdint>
#include <span>
#include <vector>

#include "plan.hpp"

namespace zr::core {

// Parts of [0, n) in order, part i about n * weights[i] / sum(weights) elements (largest remainders get the
// leftover elements, the earlier device on a tie, so the split is a pure function of its arguments).
// Weights must be finite and >= 0 with a positive sum (zr::InvalidArgumentError otherwise); a zero weight
// gives an empty part.
std::vector<InputChunk> split_by_weights(std::uint64_t n, std::span<const double> weights);

}  // namespace zr::core
