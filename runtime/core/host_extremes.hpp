#pragma once
// The vector part of the host path's floating minimum and maximum (host_fold.hpp's extreme_vectorised), in the
// widest vectors this CPU runs (AVX2 or the portable 16 bytes), chosen once at run time. Internal to
// runtime/core.
#include <cstddef>
#include <cstdint>

namespace zr::core::host_fold {

// Elements [0, end) of n folded with `x < m ? x : m` (or its maximum twin) from `identity` into `result`, beside
// `poisoned`: NaN where one of them is a NaN, else 0, as extreme_vectorised goes on from them: the caller folds
// [end, n) and settles NaNs and zero signs. end is a multiple of the block.
template <typename T>
struct ExtremeScan {
  std::uint64_t end;
  T result;
  T poisoned;
};
ExtremeScan<float> scan_extremes(const std::byte* data, std::uint64_t n, float identity, bool minimum);
ExtremeScan<double> scan_extremes(const std::byte* data, std::uint64_t n, double identity, bool minimum);

// The vector width the scans run in, in bytes (16 or 32): the widest this CPU runs.
unsigned extreme_vector_bytes();
// The same scans in vectors of `vector_bytes` (16 or 32, at most extreme_vector_bytes(): else
// InvalidArgumentError), for the tests that every width gives the same result.
ExtremeScan<float> scan_extremes_in(unsigned vector_bytes, const std::byte* data, std::uint64_t n, float identity,
                                    bool minimum);
ExtremeScan<double> scan_extremes_in(unsigned vector_bytes, const std::byte* data, std::uint64_t n, double identity,
                                     bool minimum);

}  // namespace zr::core::host_fold
