#pragma once
// The segments of the segmented benches, the same for ours (segmented_bench.cpp) and CUB's
// (cub/cub_segmented.cu): equal segments of 2^k elements, or power-law sizes (Pareto, alpha 1.2, as
// per-key counts and CSR row lengths tend to be) drawn from a fixed 64-bit LCG, cut to end at `total`.
// Offsets are 32-bit: the benches' totals stay below 2^31 elements.
#include <cmath>
#include <cstdint>
#include <vector>

namespace zr::bench {

inline std::vector<std::uint32_t> equal_offsets(std::uint64_t total, std::uint64_t length) {
  std::vector<std::uint32_t> offsets;
  for (std::uint64_t at = 0; at <= total; at += length) offsets.push_back(static_cast<std::uint32_t>(at));
  return offsets;
}

inline std::vector<std::uint32_t> power_law_offsets(std::uint64_t total, std::uint64_t seed = 1) {
  std::vector<std::uint32_t> offsets{0};
  std::uint64_t state = seed, at = 0;
  while (at < total) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
    const double size = std::floor(std::pow(1.0 - u, -1.0 / 1.2));                  // 1, 2, ... heavy tail
    at += static_cast<std::uint64_t>(std::fmin(size, static_cast<double>(total - at)));
    offsets.push_back(static_cast<std::uint32_t>(at));
  }
  return offsets;
}

}  // namespace zr::bench
