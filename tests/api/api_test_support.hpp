#pragma once
// Shared by the API tests: the queue on the default device (the test skips, saying why, when there is none)
// and an independent host reference written with the public function objects.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "zereduce/zereduce.hpp"

namespace zr::test {

// One queue per test binary: building kernels for a device is the slow part, and a queue is meant to be
// shared. nullopt when no device executes kernels here.
// ZR_TEST_DEVICE_MATCH picks the first device whose description contains it instead (a run that asks for a
// device it cannot find fails, rather than test another one).
inline std::optional<queue>& shared_queue() {
  static std::optional<queue> q = []() -> std::optional<queue> {
    try {
      if (const char* match = std::getenv("ZR_TEST_DEVICE_MATCH"); match && *match) {
        for (const device& candidate : get_devices())
          if (candidate.description().find(match) != std::string::npos) return queue(candidate);
        std::fprintf(stderr, "ZR_TEST_DEVICE_MATCH='%s': no device's description contains it\n", match);
        std::exit(1);
      }
      return queue(default_device());
    } catch (const Error& error) {
      std::fprintf(stderr, "no default device: %s\n", error.what());
      return std::nullopt;
    }
  }();
  return q;
}

#define ZR_REQUIRE_QUEUE(q)                                                                  \
  if (!::zr::test::shared_queue()) GTEST_SKIP() << "no device executes kernels on this machine"; \
  ::zr::queue& q = *::zr::test::shared_queue()

// Every integer and floating-point element type (no bool), for typed tests.
using ArithmeticTypes = ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                                         std::uint32_t, std::uint64_t, half, float, double>;

// Folds op over values, starting from `initial` (the host reference: plain sequential code).
template <typename T, typename Op>
T host_fold(std::span<const T> values, T initial, Op op) {
  T acc = initial;
  for (const T& v : values) acc = op(acc, v);
  return acc;
}

// Values for which every op gives an exact result in any order: small integers (sums stay far below 2^24),
// and for multiplies only +-1 and +-2 spread thinly (products stay exact powers of two).
template <typename T>
std::vector<T> exact_values(std::size_t n, std::uint32_t seed, bool for_product = false) {
  std::mt19937 rng(seed);
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {  // by index: std::vector<bool> has no element references
    if constexpr (std::is_same_v<T, bool>) {
      values[i] = rng() % 8 != 0;
    } else if (for_product) {
      const std::uint32_t r = rng() % 64;
      values[i] = static_cast<T>(r == 0 ? 2 : r == 1 ? -1 : 1);
    } else {
      values[i] = static_cast<T>(static_cast<int>(rng() % 129) - 64);
    }
  }
  return values;
}

template <typename T>
long double as_long_double(T x) {
  if constexpr (std::is_same_v<T, half>) return static_cast<float>(x);
  else return static_cast<long double>(x);
}

// Values with zeros and repeats (so that counts are neither 0 nor n), spread over the type's sign range.
template <typename T>
std::vector<T> mixed_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> values(n);
  for (auto& v : values) {
    const int r = static_cast<int>(rng() % 23) - (std::is_signed_v<T> || detail::is_floating_v<T> ? 11 : 0);
    v = static_cast<T>(r % 5 == 0 ? 0 : r);
  }
  return values;
}

// The kernels of a reduction's own passes, in order, each followed by a space: the check of device offsets that a
// segmented reduction runs first ("check segment offsets", core/plans/segment_check.hpp) left out.
inline std::string reduction_kernels(const event& done) {
  std::string kernels;
  for (const auto& pass : done.get_profile().passes)
    if (pass.what == pass_profile::kind::kernel && pass.label != "check segment offsets") kernels += pass.kernel + " ";
  return kernels;
}

}  // namespace zr::test
