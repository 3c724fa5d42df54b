// User-defined operators (zereduce/user_operator.hpp) linked at run time into the reduction templates: the
// sample operators of tools/operators against host loops written here, for every strategy the default device
// offers them, with and without an initial value, empty inputs, host and device memory, and the errors.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "api_test_support.hpp"
#include "sample_operators.hpp"

namespace zr::test {
namespace {

using bounds = zr_operators::bounds_acc;
using zr_operators::histogram8;
using zr_operators::mix_state;
using zr_operators::range16;

// Every strategy the device offers the operator (all sample operators but f32_sum_f64 need nothing): tree
// everywhere, and last_group (but on Intel GPUs) or cpu_chunks (CPU devices).
std::vector<strategy> user_strategies(queue& q) {
  const auto out = q.get_device().strategies(zr_operators::f32_sum);
  EXPECT_NE(std::find(out.begin(), out.end(), strategy::tree), out.end()) << q.get_device().name();
  return out;
}

property_list with_strategy(strategy s) {
  return property_list{property::reduction::use_strategy{s}, property::reduction::initialize_to_identity{}};
}

const std::size_t kSizes[] = {1, 2, 17, 1000, 65537, (1 << 20) + 3};

// ---- host references: the operators' meaning, written again in C++ ------------------------------------------
bounds host_bounds(const std::vector<float>& x) {
  bounds b{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), UINT64_MAX, UINT64_MAX, 0};
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) continue;
    if (x[i] < b.lo) b.lo = x[i], b.lo_index = i;
    if (x[i] > b.hi) b.hi = x[i], b.hi_index = i;
    ++b.count;
  }
  return b;
}

std::vector<float> values_with_ties(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> x(n);
  for (auto& v : x) v = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 8.0f;  // repeats: ties
  if (n > 10) x[n / 3] = std::numeric_limits<float>::quiet_NaN();
  return x;
}

void expect_same_bounds(const bounds& got, const bounds& want, const std::string& where) {
  EXPECT_EQ(got.lo, want.lo) << where;
  EXPECT_EQ(got.hi, want.hi) << where;
  EXPECT_EQ(got.lo_index, want.lo_index) << where;
  EXPECT_EQ(got.hi_index, want.hi_index) << where;
  EXPECT_EQ(got.count, want.count) << where;
}

TEST(UserOperators, GivenTheSampleOperators_WhenDescribed_ThenTheirSPIRVGivesTheSizesOfTheirTypes) {
  const auto info = describe(zr_operators::bounds);
  EXPECT_EQ(info.name, "bounds");
  EXPECT_EQ(info.element_bytes, 4u);
  EXPECT_EQ(info.accumulator_bytes, sizeof(bounds));
  EXPECT_EQ(info.accumulator_alignment, alignof(bounds));
  EXPECT_TRUE(info.has_identity);
  EXPECT_FALSE(describe(zr_operators::i16_range).has_identity);
  EXPECT_EQ(describe(zr_operators::u8_histogram).accumulator_bytes, 32u);
  EXPECT_EQ(describe(zr_operators::i64_mix).element_bytes, 8u);
}

TEST(UserOperators, GivenMinMaxWithIndices_WhenEveryStrategyReduces_ThenTheFirstExtremesAndTheCountAreTheHosts) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, bounds> op(zr_operators::bounds);
  for (strategy s : user_strategies(q)) {
    for (std::size_t n : kSizes) {
      const auto x = values_with_ties(n, static_cast<std::uint32_t>(n));
      auto input = make_device_array<float>(q, n);
      q.copy(x.data(), input.get(), n).wait();
      const bounds got = q.reduce_value(input.get(), n, op, with_strategy(s));
      expect_same_bounds(got, host_bounds(x), std::string(to_string(s)) + " n=" + std::to_string(n));
    }
  }
}

TEST(UserOperators, GivenAnInitialValue_WhenReduced_ThenItIsCombinedWithTheReductionAndAnEmptyInputKeepsIt) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, bounds> op(zr_operators::bounds);
  const std::vector<float> x{3.0f, -2.0f, 7.0f, -2.0f};
  const bounds initial{-5.0f, 1.0f, 100, 101, 9};
  for (strategy s : user_strategies(q)) {
    const property_list props{property::reduction::use_strategy{s}};
    bounds result = initial;  // ordinary host memory: staged by the runtime
    q.reduce(std::span<const float>(x), op, &result, props).wait();
    expect_same_bounds(result, bounds{-5.0f, 7.0f, 100, 2, 13}, std::string(to_string(s)));
    auto device_result = make_device_array<bounds>(q, 1);
    q.copy(&initial, device_result.get(), 1).wait();
    q.reduce(static_cast<const float*>(nullptr), 0, op, device_result.get(), props).wait();
    bounds kept{};
    q.copy(device_result.get(), &kept, 1).wait();
    expect_same_bounds(kept, initial, std::string(to_string(s)) + " n=0");
    bounds identity{};
    q.reduce(static_cast<const float*>(nullptr), 0, op, &identity, with_strategy(s)).wait();
    expect_same_bounds(identity, bounds{INFINITY, -INFINITY, UINT64_MAX, UINT64_MAX, 0}, std::string(to_string(s)) + " identity");
  }
}

TEST(UserOperators, GivenAPlainSumOperator_WhenReducedInOneFixedOrder_ThenItMatchesTheHostWithinRounding) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, float> op(zr_operators::f32_sum);
  for (strategy s : user_strategies(q)) {
    for (std::size_t n : kSizes) {
      std::vector<float> x(n);
      std::mt19937 rng(static_cast<std::uint32_t>(n) + 5);
      // Integers below 16: every partial sum of up to 2^20 + 3 of them is below 2^24, so exact in every order (values
      // with fractions were exact only in the order of one tree).
      for (auto& v : x) v = static_cast<float>(rng() % 16);
      const double want = std::accumulate(x.begin(), x.end(), 0.0);
      const float got = q.reduce_value(std::span<const float>(x), op, with_strategy(s));
      EXPECT_EQ(static_cast<double>(got), static_cast<float>(want)) << to_string(s) << " n=" << n;
    }
  }
}

TEST(UserOperators, GivenAnOperatorWithoutIdentity_WhenReduced_ThenPartialsAreSeededFromTheInput) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<std::int16_t, range16> op(zr_operators::i16_range);
  for (strategy s : user_strategies(q)) {
    for (std::size_t n : kSizes) {
      std::vector<std::int16_t> x(n);
      std::mt19937 rng(static_cast<std::uint32_t>(n) + 11);
      for (auto& v : x) v = static_cast<std::int16_t>(static_cast<int>(rng() % 20001) - 10000);
      const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
      const range16 got = q.reduce_value(std::span<const std::int16_t>(x), op, with_strategy(s));
      EXPECT_EQ(got.lo, *lo) << to_string(s) << " n=" << n;
      EXPECT_EQ(got.hi, *hi) << to_string(s) << " n=" << n;
    }
    // With an initial value and no identity, an empty input leaves it; without one there is no result.
    range16 initial{-3, 4};
    q.reduce(std::span<const std::int16_t>(), op, &initial, property_list{property::reduction::use_strategy{s}}).wait();
    EXPECT_EQ(initial.lo, -3);
    EXPECT_EQ(initial.hi, 4);
    range16 none{};
    EXPECT_THROW(q.reduce(std::span<const std::int16_t>(), op, &none, with_strategy(s)), InvalidArgumentError);
  }
}

TEST(UserOperators, GivenByteElementsAndAnArrayAccumulator_WhenReduced_ThenEveryBucketIsTheHosts) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<std::uint8_t, histogram8> op(zr_operators::u8_histogram);
  for (strategy s : user_strategies(q)) {
    for (std::size_t n : kSizes) {
      std::vector<std::uint8_t> x(n);
      std::mt19937 rng(static_cast<std::uint32_t>(n) + 17);
      for (auto& v : x) v = static_cast<std::uint8_t>(rng() % 251);
      histogram8 want{};
      for (auto v : x) ++want.counts[v >> 5];
      const histogram8 got = q.reduce_value(std::span<const std::uint8_t>(x), op, with_strategy(s));
      for (int b = 0; b < 8; ++b) EXPECT_EQ(got.counts[b], want.counts[b]) << to_string(s) << " n=" << n << " bucket " << b;
    }
  }
}

TEST(UserOperators, GivenEightByteElementsAndTheirIndices_WhenReduced_ThenSumAndIndexHashAreTheHosts) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<std::int64_t, mix_state> op(zr_operators::i64_mix);
  for (strategy s : user_strategies(q)) {
    for (std::size_t n : kSizes) {
      std::vector<std::int64_t> x(n);
      std::mt19937_64 rng(n + 23);
      for (auto& v : x) v = static_cast<std::int64_t>(rng());
      mix_state want{0, 0};
      for (std::size_t i = 0; i < n; ++i) {
        want.sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(want.sum) + static_cast<std::uint64_t>(x[i]));
        want.hash ^= static_cast<std::uint64_t>(x[i]) * (i | 1);
      }
      const mix_state got = q.reduce_value(std::span<const std::int64_t>(x), op, with_strategy(s));
      EXPECT_EQ(got.sum, want.sum) << to_string(s) << " n=" << n;
      EXPECT_EQ(got.hash, want.hash) << to_string(s) << " n=" << n;
    }
  }
}

TEST(UserOperators, GivenAnFp64Operator_WhenTheDeviceHasFp64_ThenItSumsInDouble) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, double> op(zr_operators::f32_sum_f64);
  if (!q.get_device().capabilities().fp64) {
    EXPECT_TRUE(q.get_device().strategies(zr_operators::f32_sum_f64).empty());
    EXPECT_NE(q.get_device().why_unsupported(zr_operators::f32_sum_f64)->find("fp64"), std::string::npos);
    GTEST_SKIP() << "device '" << q.get_device().name() << "' has no fp64";
  }
  std::vector<float> x(100001);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (i % 2 ? 1.0f : -1.0f) * 1.0e-3f * static_cast<float>(i % 7);
  double want = 0;
  for (float v : x) want += v;
  for (strategy s : user_strategies(q)) {
    const double got = q.reduce_value(std::span<const float>(x), op, with_strategy(s));
    EXPECT_NEAR(got, want, 1e-9) << to_string(s);
  }
}

TEST(UserOperators, GivenTheSameReductionTwice_WhenRun_ThenTheBitsAreTheSame) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, float> op(zr_operators::f32_sum);
  std::vector<float> x(300007);
  std::mt19937 rng(3);
  for (auto& v : x) v = std::ldexp(static_cast<float>(rng() % 100000), -static_cast<int>(rng() % 20));
  for (strategy s : user_strategies(q)) {
    const float first = q.reduce_value(std::span<const float>(x), op, with_strategy(s));
    const float second = q.reduce_value(std::span<const float>(x), op, with_strategy(s));
    EXPECT_EQ(std::memcmp(&first, &second, sizeof first), 0) << to_string(s);
  }
}

TEST(UserOperators, GivenMismatchedCppTypes_WhenBound_ThenTheErrorNamesTheSizes) {
  try {
    user_operator<float, range16> wrong(zr_operators::bounds);
    FAIL() << "a 4-byte accumulator type was accepted for a 32-byte one";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("32-byte accumulator"), std::string::npos) << e.what();
  }
  EXPECT_THROW((user_operator<double, bounds>(zr_operators::bounds)), InvalidArgumentError);
}

TEST(UserOperators, GivenSomethingThatIsNotAnOperator_WhenBound_ThenTheErrorSaysWhy) {
  static constexpr std::uint32_t not_spirv[] = {1, 2, 3, 4, 5, 6};
  const user_operator_source bad{"bad", not_spirv, 6, ""};
  try {
    describe(bad);
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("user operator 'bad'"), std::string::npos) << e.what();
  }
  // An operator's SPIR-V header alone is a module without the operator's functions.
  const user_operator_source header_only{"header_only", zr_operators::bounds.spirv, 5, zr_operators::bounds.opencl_c_source};
  try {
    describe(header_only);
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("exports no function zr_user_interface_version"), std::string::npos) << e.what();
  }
}

TEST(UserOperators, GivenReproducibleOrAStrategyTheyLack_WhenAsked_ThenRefusedWithAReason) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, float> op(zr_operators::f32_sum);
  const std::vector<float> x(100, 1.0f);
  float result = 0;
  EXPECT_THROW(q.reduce(std::span<const float>(x), op, &result, property_list{property::reduction::reproducible{}}),
               UnsupportedError);
  try {
    q.reduce(std::span<const float>(x), op, &result, property_list{property::reduction::use_strategy{strategy::subgroup}});
    FAIL();
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("tree, last_group or cpu_chunks"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zr::test
