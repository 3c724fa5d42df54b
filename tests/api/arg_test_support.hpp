#pragma once
// Shared by the arg-reduction tests (arg_reduction_test.cpp, segment_arg_test.cpp): the host reference scan, the
// comparison of results and values with many ties.
#include <cmath>
#include <random>
#include <string>

#include "api_test_support.hpp"

namespace zr::test {

// The host reference: one pass, a later element replaces the best only when strictly better.
template <typename T>
arg_result<T> scan(std::span<const T> data, bool largest) {
  auto value = [](T x) {
    if constexpr (std::is_same_v<T, half>) return static_cast<float>(x);
    else return x;
  };
  auto is_nan = [&](T x) {
    if constexpr (detail::is_floating_v<T>) return std::isnan(value(x));
    else return false;
  };
  std::uint64_t best = 0;
  for (std::uint64_t i = 1; i < data.size(); ++i) {
    if (is_nan(data[best])) break;
    const bool better = is_nan(data[i]) || (largest ? value(data[best]) < value(data[i]) : value(data[i]) < value(data[best]));
    if (better) best = i;
  }
  return {data[best], best};
}

template <typename T>
bool same_value(T a, T b) {
  if constexpr (std::is_same_v<T, half>) {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    return (std::isnan(x) && std::isnan(y)) || x == y;
  } else if constexpr (std::is_floating_point_v<T>) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
  } else {
    return a == b;
  }
}

// Few distinct values, so that the extreme occurs many times and ties decide the index.
template <typename T>
std::vector<T> tied_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> values(n);
  for (auto& v : values) v = static_cast<T>(static_cast<int>(rng() % 37) - (std::is_signed_v<T> || detail::is_floating_v<T> ? 18 : 0));
  return values;
}

template <typename T>
std::string describe(const arg_result<T>& r) {
  if constexpr (std::is_same_v<T, half>) return std::to_string(static_cast<float>(r.value)) + " at " + std::to_string(r.index);
  else return std::to_string(+r.value) + " at " + std::to_string(r.index);
}

#define ZR_EXPECT_ARG(actual, expected)                                                          \
  EXPECT_TRUE(same_value((actual).value, (expected).value) && (actual).index == (expected).index) \
      << "got " << describe(actual) << ", expected " << describe(expected)

}  // namespace zr::test
