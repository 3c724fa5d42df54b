// The host model of the reproducible sum (runtime/core/binned_sum.hpp): the same state whatever the order
// and grouping of the values, and within its stated bound of the exact sum (exact_sum.hpp).
#include "binned_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "exact_sum.hpp"
#include "half.hpp"

namespace zr::core {
namespace {

template <typename T>
std::vector<T> wide_range_values(std::mt19937_64& rng, std::size_t n, int min_exponent, int max_exponent) {
  std::uniform_int_distribution<int> exponent(min_exponent, max_exponent);
  std::uniform_real_distribution<double> fraction(0.5, 1.0);
  std::vector<T> values(n);
  for (auto& v : values) v = static_cast<T>((rng() & 1 ? -1.0 : 1.0) * std::ldexp(fraction(rng), exponent(rng)));
  return values;
}

template <typename T>
std::span<const std::byte> bytes(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

template <typename T>
BinnedState state_of(const std::vector<T>& values, DataType type) {
  return binned_add_all({}, bytes(values), values.size(), type);
}

template <typename T>
double as_double(const Scalar& s) { return static_cast<double>(s.as<T>()); }

// The state of every order and split is the state of the whole.
template <typename T>
void expect_split_invariant(const std::vector<T>& values, DataType type, std::mt19937_64& rng) {
  const BinnedState whole = state_of(values, type);
  for (int round = 0; round < 8; ++round) {
    std::vector<T> shuffled = values;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    std::vector<BinnedState> parts;
    for (std::size_t first = 0; first < shuffled.size();) {
      const std::size_t count = std::min<std::size_t>(shuffled.size() - first, 1 + rng() % 97);
      parts.push_back(binned_add_all({}, bytes(shuffled).subspan(first * sizeof(T)), count, type));
      first += count;
    }
    std::shuffle(parts.begin(), parts.end(), rng);
    BinnedState merged;
    for (const auto& part : parts) merged = binned_merge(part, merged);
    EXPECT_EQ(merged, whole) << "round " << round;
  }
}

template <typename T>
void expect_within_bound(const std::vector<T>& values, DataType type) {
  const BinnedState state = state_of(values, type);
  const Scalar result = binned_value(state, type);
  ExactSum exact;
  for (T v : values) exact.add(static_cast<double>(v));
  const double computed = type == DataType::f16 ? half_bits_to_float(result.as<std::uint16_t>()) : as_double<T>(result);
  exact.add(-computed);
  const long double error = std::fabs(exact.value());
  EXPECT_LE(error, binned_error_bound(state, values.size(), type)) << "n = " << values.size();
}

TEST(BinnedSum, EveryOrderAndSplitGivesTheSameStateF32) {
  std::mt19937_64 rng(1);
  for (auto [lo, hi] : {std::pair{-20, 20}, {-149, 127}, {-140, -100}, {100, 127}, {-60, 60}}) {
    const auto values = wide_range_values<float>(rng, 3000, lo, std::min(hi, 126));
    expect_split_invariant(values, DataType::f32, rng);
  }
}

TEST(BinnedSum, EveryOrderAndSplitGivesTheSameStateF64) {
  std::mt19937_64 rng(2);
  for (auto [lo, hi] : {std::pair{-30, 30}, {-1074, 1023}, {-1070, -1000}, {960, 1023}, {-300, 300}}) {
    const auto values = wide_range_values<double>(rng, 3000, lo, hi);
    expect_split_invariant(values, DataType::f64, rng);
  }
}

TEST(BinnedSum, WithinItsBoundOfTheExactSum) {
  std::mt19937_64 rng(3);
  for (auto [lo, hi] : {std::pair{-10, 10}, {-149, 110}, {-149, -120}, {-40, 0}}) {
    expect_within_bound(wide_range_values<float>(rng, 20000, lo, hi), DataType::f32);
  }
  for (auto [lo, hi] : {std::pair{-10, 10}, {-1074, 1000}, {-1074, -1000}, {-400, 400}}) {
    expect_within_bound(wide_range_values<double>(rng, 20000, lo, hi), DataType::f64);
  }
  // Heavy cancellation: values and their negatives with a small remainder.
  auto values = wide_range_values<double>(rng, 5000, -20, 40);
  const std::size_t count = values.size();
  for (std::size_t i = 0; i < count; ++i) values.push_back(-values[i]);
  values.push_back(0x1p-30);
  expect_within_bound(values, DataType::f64);
  EXPECT_EQ(binned_value(state_of(values, DataType::f64), DataType::f64).as<double>(), 0x1p-30);
}

TEST(BinnedSum, RoundsOnceToNearestEven) {
  // 1 + 2^-24 is halfway between two floats: to even (1); a little more rounds up.
  EXPECT_EQ(binned_value(state_of(std::vector<float>{1.0f, 0x1p-24f}, DataType::f32), DataType::f32).as<float>(), 1.0f);
  EXPECT_EQ(binned_value(state_of(std::vector<float>{1.0f, 0x1p-24f, 0x1p-40f}, DataType::f32), DataType::f32).as<float>(),
            1.0f + 0x1p-23f);
  // Plain float addition from the left loses each 2^-24 in turn (1.0); the exact 1 + 3 * 2^-24 is a tie
  // between 1 + 2^-23 and 1 + 2^-22: to even.
  EXPECT_EQ(binned_value(state_of(std::vector<float>{1.0f, 0x1p-24f, 0x1p-24f, 0x1p-24f}, DataType::f32), DataType::f32).as<float>(),
            1.0f + 0x1p-22f);
  // Subnormal results are rounded at the subnormal unit, once.
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(binned_value(state_of(std::vector<float>{3 * tiny, -tiny}, DataType::f32), DataType::f32).as<float>(), 2 * tiny);
  // f16 data rounds to half: 2048 + 1 is a tie (to 2048), 2048 + 1 + 1 is 2050.
  const auto h = [](float v) { return float_to_half_bits(v); };
  EXPECT_EQ(binned_value(state_of(std::vector<std::uint16_t>{h(2048), h(1)}, DataType::f16), DataType::f16).as<std::uint16_t>(), h(2048));
  EXPECT_EQ(binned_value(state_of(std::vector<std::uint16_t>{h(2048), h(1), h(1)}, DataType::f16), DataType::f16).as<std::uint16_t>(), h(2050));
}

TEST(BinnedSum, InfinitiesNanAndOverflowAsThePlainSum) {
  const float inf = std::numeric_limits<float>::infinity();
  const float big = std::numeric_limits<float>::max();
  auto sum = [](std::vector<float> v) { return binned_value(state_of(v, DataType::f32), DataType::f32).as<float>(); };
  EXPECT_EQ(sum({1, inf, 2}), inf);
  EXPECT_EQ(sum({1, -inf}), -inf);
  EXPECT_TRUE(std::isnan(sum({inf, -inf})));
  EXPECT_TRUE(std::isnan(sum({1, std::numeric_limits<float>::quiet_NaN()})));
  EXPECT_EQ(sum({big, big}), inf);       // the exact sum is beyond the largest float
  EXPECT_EQ(sum({big, big, -big}), big);  // but not here, in any order: no intermediate overflow
  EXPECT_EQ(sum({-big, big, big}), big);
  const float zero = sum({1, -1});
  EXPECT_EQ(zero, 0.0f);
  EXPECT_FALSE(std::signbit(zero));
}

TEST(ExactSum, AddsExactly) {
  ExactSum sum;
  sum.add(0x1p1000);
  sum.add(0x1p-1074);
  sum.add(-0x1p1000);
  EXPECT_EQ(sum.value(), 0x1p-1074L);
}

}  // namespace
}  // namespace zr::core
