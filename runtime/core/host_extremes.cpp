#include "host_extremes.hpp"

#include <cstring>
#include <limits>
#include <type_traits>
#include <string>

#include "zereduce/errors.hpp"

namespace zr::core::host_fold {

namespace {

// One scan in vectors of kBytes: 8 vectors of selects per step (GCC's and Clang's vector extensions: the compiler's
// SLP pass left the select scalar, 4x slower), beside two masks of the elements that are NaN (x != x). Eight
// sums of x * 0 in their place needed 16 accumulators, more than AVX2's 16 registers hold with the loads: the
// spilled ones made the scan 1.35x slower (2^16 f32, 59 against 80 GB/s on the 2-core EPYC). Always inlined
// into the wrappers below, so that it is compiled for each one's target; internal, so that no other
// translation unit can end up calling a copy built for instructions the CPU lacks.
template <typename T, bool kMinimum, unsigned kBytes>
[[gnu::always_inline]] inline ExtremeScan<T> scan_in(const std::byte* data, std::uint64_t n, T identity) {
  typedef T Vector __attribute__((vector_size(kBytes)));
  typedef std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t> Bits;
  typedef Bits Mask __attribute__((vector_size(kBytes)));
  constexpr std::uint64_t kWidth = kBytes / sizeof(T), kVectors = 8, kMasks = 2, kStep = kWidth * kVectors;
  Vector lane[kVectors];
  Mask nan_seen[kMasks];
  for (auto& v : lane) v = Vector{} + identity;
  for (auto& m : nan_seen) m = Mask{};
  std::uint64_t i = 0;
  for (; i + kStep <= n; i += kStep)
    for (std::uint64_t k = 0; k < kVectors; ++k) {
      Vector x;
      std::memcpy(&x, data + (i + k * kWidth) * sizeof(T), sizeof x);
      lane[k] = kMinimum ? (x < lane[k] ? x : lane[k]) : (lane[k] < x ? x : lane[k]);
      nan_seen[k % kMasks] |= (x != x);
    }
  // The lanes hold no NaN (the select never takes one), so they combine by the same select.
  for (std::uint64_t k = 1; k < kVectors; ++k)
    lane[0] = kMinimum ? (lane[k] < lane[0] ? lane[k] : lane[0]) : (lane[0] < lane[k] ? lane[k] : lane[0]);
  for (std::uint64_t k = 1; k < kMasks; ++k) nan_seen[0] |= nan_seen[k];
  ExtremeScan<T> scan{i, identity, 0};
  Bits any_nan = 0;
  for (std::uint64_t j = 0; j < kWidth; ++j) {
    const T v = lane[0][j];
    scan.result = kMinimum ? (v < scan.result ? v : scan.result) : (scan.result < v ? v : scan.result);
    any_nan |= nan_seen[0][j];
  }
  if (any_nan) scan.poisoned = std::numeric_limits<T>::quiet_NaN();
  return scan;
}

template <typename T, unsigned kBytes>
[[gnu::always_inline]] inline ExtremeScan<T> scan_either(const std::byte* data, std::uint64_t n, T identity, bool minimum) {
  return minimum ? scan_in<T, true, kBytes>(data, n, identity) : scan_in<T, false, kBytes>(data, n, identity);
}

// No 64-byte (AVX-512) scan: GCC 12 turns its NaN masks (x != x on 64-byte vectors) into one scalar compare per
// element, and on a Skylake-AVX512 host it took 72-78 us for 2^16 float32 against AVX2's 4.6 us (2026-12-01).
#if defined(__x86_64__) || defined(__i386__)
#define ZR_HOST_EXTREMES_WIDE 1
template <typename T>
[[gnu::target("avx2")]] ExtremeScan<T> scan_avx2(const std::byte* data, std::uint64_t n, T identity, bool minimum) {
  return scan_either<T, 32>(data, n, identity, minimum);
}
#endif

unsigned widest_vector_bytes() {
#ifdef ZR_HOST_EXTREMES_WIDE
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return 32;
#endif
  return 16;
}

template <typename T>
ExtremeScan<T> scan(unsigned bytes, const std::byte* data, std::uint64_t n, T identity, bool minimum) {
  if (bytes > extreme_vector_bytes() || (bytes != 16 && bytes != 32))
    throw InvalidArgumentError("host extremes: no " + std::to_string(bytes) + "-byte vectors on this CPU");
#ifdef ZR_HOST_EXTREMES_WIDE
  if (bytes == 32) return scan_avx2<T>(data, n, identity, minimum);
#endif
  return scan_either<T, 16>(data, n, identity, minimum);
}

}  // namespace

unsigned extreme_vector_bytes() {
  static const unsigned bytes = widest_vector_bytes();
  return bytes;
}
ExtremeScan<float> scan_extremes(const std::byte* data, std::uint64_t n, float identity, bool minimum) {
  return scan<float>(extreme_vector_bytes(), data, n, identity, minimum);
}
ExtremeScan<double> scan_extremes(const std::byte* data, std::uint64_t n, double identity, bool minimum) {
  return scan<double>(extreme_vector_bytes(), data, n, identity, minimum);
}
ExtremeScan<float> scan_extremes_in(unsigned vector_bytes, const std::byte* data, std::uint64_t n, float identity,
                                    bool minimum) {
  return scan<float>(vector_bytes, data, n, identity, minimum);
}
ExtremeScan<double> scan_extremes_in(unsigned vector_bytes, const std::byte* data, std::uint64_t n, double identity,
                                     bool minimum) {
  return scan<double>(vector_bytes, data, n, identity, minimum);
}

}  // namespace zr::core::host_fold
