// queue::transform_reduce: norms, sums of squares, counts and widening sums, against host loops written here,
// for every element type each transform takes, every strategy the default device offers, host and device
// memory, special values and the error cases.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

template <typename T>
std::vector<strategy> strategies_for(queue& q, op_kind op) {
  const auto found = q.get_device().strategies(detail::element_type_of<T>(), op);
  if (found.empty())
    std::printf("[ SKIPPED  ] %s on %s: device '%s' runs no kernel for it\n", std::string(to_string(op)).c_str(),
                std::string(to_string(detail::element_type_of<T>())).c_str(), q.get_device().name().c_str());
  return found;
}

const std::size_t kSizes[] = {0, 1, 17, 1000, 65537, 1 << 20};

// ---- counts: every element type ----------------------------------------------------------------------------
template <typename T>
class Counts : public ::testing::Test {};
using AllTypes = ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                                  std::uint32_t, std::uint64_t, half, float, double>;
TYPED_TEST_SUITE(Counts, AllTypes);

TYPED_TEST(Counts, GivenZerosAndRepeats_WhenEveryStrategyCounts_ThenTheHostCountsAgree) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  const auto nonzero_strategies = strategies_for<T>(q, op_kind::count_nonzero);
  const auto equal_strategies = strategies_for<T>(q, op_kind::count_equal);
  for (std::size_t n : kSizes) {
    const std::vector<T> data = mixed_values<T>(n, static_cast<std::uint32_t>(n + 1));
    const T wanted = static_cast<T>(7);
    const auto nonzero = static_cast<std::uint64_t>(
        std::count_if(data.begin(), data.end(), [](T x) { return as_long_double(x) != 0; }));
    const auto equal = static_cast<std::uint64_t>(
        std::count_if(data.begin(), data.end(), [&](T x) { return as_long_double(x) == as_long_double(wanted); }));
    for (strategy s : nonzero_strategies) {
      SCOPED_TRACE("n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
      const property_list props{property::reduction::use_strategy{s}};
      EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), count_nonzero{}, props), nonzero);
    }
    for (strategy s : equal_strategies) {
      SCOPED_TRACE("n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
      const property_list props{property::reduction::use_strategy{s}};
      EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), count_equal{wanted}, props), equal);
    }
  }
}

TEST(CountsOfBool, GivenBytesOtherThanOne_ThenEveryNonzeroByteIsTrue) {
  ZR_REQUIRE_QUEUE(q);
  std::mt19937 rng(4);
  std::vector<std::uint8_t> bytes(100003);
  for (auto& b : bytes) b = rng() % 3 == 0 ? 0 : static_cast<std::uint8_t>(rng() % 255 + 1);
  const std::span<const bool> data(reinterpret_cast<const bool*>(bytes.data()), bytes.size());
  const auto nonzero = static_cast<std::uint64_t>(std::count_if(bytes.begin(), bytes.end(), [](auto b) { return b != 0; }));
  for (strategy s : strategies_for<bool>(q, op_kind::count_nonzero)) {
    SCOPED_TRACE(std::string(to_string(s)));
    const property_list props{property::reduction::use_strategy{s}};
    EXPECT_EQ(q.transform_reduce_value(data, count_nonzero{}, props), nonzero);
    EXPECT_EQ(q.transform_reduce_value(data, count_equal{true}, props), nonzero);
    EXPECT_EQ(q.transform_reduce_value(data, count_equal{false}, props), bytes.size() - nonzero);
    EXPECT_EQ(q.transform_reduce_value(data, sum_as<std::int64_t>{}, props), static_cast<std::int64_t>(nonzero));
  }
}

// ---- widening integer sums ----------------------------------------------------------------------------------
template <typename T>
class WideningIntegerSums : public ::testing::Test {};
using IntegerTypes = ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                                      std::uint16_t, std::uint32_t, std::uint64_t>;
TYPED_TEST_SUITE(WideningIntegerSums, IntegerTypes);

TYPED_TEST(WideningIntegerSums, GivenValuesNearTheTypesLimits_ThenTheSumIsExactInTheWideType) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  std::mt19937_64 rng(11);
  for (std::size_t n : kSizes) {
    std::vector<T> data(n);
    // Values near the extremes: the sum overflows T long before the end (the point of a wider accumulator).
    for (auto& v : data) v = rng() % 2 ? std::numeric_limits<T>::max() - static_cast<T>(rng() % 7) : static_cast<T>(rng() % 100);
    if (std::is_signed_v<T>)
      for (std::size_t i = 0; i < n; i += 3) data[i] = std::numeric_limits<T>::lowest() + static_cast<T>(rng() % 5);
    std::uint64_t wrapped = 0;  // the sum modulo 2^64 of the values sign-extended: i64 and u64 share its bits
    for (T v : data) wrapped += static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    if constexpr (std::is_unsigned_v<T>) {
      wrapped = 0;
      for (T v : data) wrapped += static_cast<std::uint64_t>(v);
    }
    for (strategy s : strategies_for<T>(q, op_kind::sum_i64)) {
      SCOPED_TRACE("n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
      const property_list props{property::reduction::use_strategy{s}};
      EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), sum_as<std::int64_t>{}, props),
                static_cast<std::int64_t>(wrapped));
      EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), sum_as<std::uint64_t>{}, props), wrapped);
    }
  }
}

// ---- floating-point transforms ------------------------------------------------------------------------------
template <typename T>
class FloatingTransforms : public ::testing::Test {};
using FloatingTypes = ::testing::Types<half, float, double>;
TYPED_TEST_SUITE(FloatingTransforms, FloatingTypes);

// Relative tolerance: the accumulator's unit roundoff times a combining depth no plan here exceeds (a grid of
// at least a few hundred work-items over 2^20 elements, then trees), plus the rounding of a half result.
template <typename T>
long double relative_tolerance() {
  const long double accumulated = std::is_same_v<T, double> ? std::ldexp(1.0L, -53) * 8192 : std::ldexp(1.0L, -24) * 8192;
  return accumulated + (std::is_same_v<T, half> ? std::ldexp(1.0L, -11) : 0.0L);
}

TYPED_TEST(FloatingTransforms, GivenRandomValues_WhenEveryStrategyRuns_ThenNormsAndSquaresAgreeWithTheHost) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  for (std::size_t n : kSizes) {
    std::vector<T> data(n);
    for (auto& v : data) v = static_cast<T>(uniform(rng));
    long double squares = 0, absolutes = 0;
    for (T v : data) {
      squares += as_long_double(v) * as_long_double(v);
      absolutes += std::fabs(as_long_double(v));
    }
    const struct {
      op_kind op;
      long double expected;
    } cases[] = {{op_kind::sum_squares, squares}, {op_kind::norm_l2, std::sqrt(squares)}, {op_kind::norm_l1, absolutes}};
    for (const auto& c : cases)
      for (strategy s : strategies_for<T>(q, c.op)) {
        SCOPED_TRACE(std::string(to_string(c.op)) + " n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
        const property_list props{property::reduction::use_strategy{s}};
        const std::span<const T> input(data);
        const T actual = c.op == op_kind::sum_squares ? q.transform_reduce_value(input, sum_of_squares{}, props)
                         : c.op == op_kind::norm_l2   ? q.transform_reduce_value(input, norm_l2{}, props)
                                                      : q.transform_reduce_value(input, norm_l1{}, props);
        if (std::isinf(static_cast<float>(static_cast<T>(static_cast<float>(c.expected))))) {
          EXPECT_TRUE(std::isinf(static_cast<float>(actual))) << "beyond half's range: infinity";
          continue;
        }
        const long double tolerance = relative_tolerance<T>() * c.expected + (n == 0 ? 0 : 1e-30L);
        EXPECT_LE(std::fabs(as_long_double(actual) - c.expected), tolerance)
            << "got " << static_cast<double>(as_long_double(actual)) << ", expected " << static_cast<double>(c.expected);
      }
  }
}

TYPED_TEST(FloatingTransforms, GivenNaNOrInfinity_ThenNormsAreNaNOrInfinityAndCountsSeeThem) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (strategies_for<T>(q, op_kind::norm_l2).empty()) GTEST_SKIP() << "no kernel for the type";
  std::vector<T> data(70001, static_cast<T>(0.5f));
  data[123] = static_cast<T>(-std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isinf(static_cast<float>(q.transform_reduce_value(std::span<const T>(data), norm_l2{}))));
  EXPECT_TRUE(std::isinf(static_cast<float>(q.transform_reduce_value(std::span<const T>(data), norm_l1{}))));
  data[4567] = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
  data[9] = static_cast<T>(-0.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(q.transform_reduce_value(std::span<const T>(data), norm_l2{}))));
  EXPECT_TRUE(std::isnan(static_cast<float>(q.transform_reduce_value(std::span<const T>(data), sum_of_squares{}))));
  EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), count_nonzero{}), data.size() - 1) << "NaN counts, -0.0 does not";
  EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), count_equal{static_cast<T>(std::numeric_limits<float>::quiet_NaN())}), 0u);
  EXPECT_EQ(q.transform_reduce_value(std::span<const T>(data), count_equal{static_cast<T>(0.0f)}), 1u) << "-0.0 == +0.0";
}

TEST(WideningFloatingSums, GivenFloatsWhoseFloatSumRounds_ThenTheDoubleSumIsExact) {
  ZR_REQUIRE_QUEUE(q);
  if (strategies_for<float>(q, op_kind::sum_f64).empty()) GTEST_SKIP() << "the device has no fp64";
  std::mt19937 rng(8);
  for (std::size_t n : kSizes) {
    std::vector<float> data(n);
    // Integers below 2^24, each exact in float; their sums (below 2^45) are exact in double, not in float.
    for (auto& v : data) v = static_cast<float>(rng() % (1u << 24)) * (rng() % 2 ? 1.0f : -1.0f);
    double expected = 0;
    for (float v : data) expected += v;
    for (strategy s : strategies_for<float>(q, op_kind::sum_f64)) {
      SCOPED_TRACE("n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
      EXPECT_EQ(q.transform_reduce_value(std::span<const float>(data), sum_as<double>{}, {property::reduction::use_strategy{s}}), expected);
    }
  }
}

TEST(WideningFloatingSums, GivenHalvesBeyondHalfsRange_ThenFloatAndDoubleSumsHoldThem) {
  ZR_REQUIRE_QUEUE(q);
  if (strategies_for<half>(q, op_kind::sum_f32).empty()) GTEST_SKIP() << "the device has no fp16";
  const std::vector<half> data(5000, half(1024.0f));  // 5,120,000: far beyond half's 65504, exact in float
  EXPECT_EQ(q.transform_reduce_value(std::span<const half>(data), sum_as<float>{}), 5120000.0f);
  if (!strategies_for<half>(q, op_kind::sum_f64).empty()) {
    EXPECT_EQ(q.transform_reduce_value(std::span<const half>(data), sum_as<double>{}), 5120000.0);
  }
}

// ---- mean and variance --------------------------------------------------------------------------------------
template <typename T>
class MeanVariance : public ::testing::Test {};
TYPED_TEST_SUITE(MeanVariance, ArithmeticTypes);

// The host's two-pass mean and m2 in long double.
template <typename T>
std::pair<long double, long double> two_pass(const std::vector<T>& data) {
  long double sum = 0;
  for (T x : data) sum += as_long_double(x);
  const long double mean = sum / static_cast<long double>(data.size());
  long double m2 = 0;
  for (T x : data) m2 += (as_long_double(x) - mean) * (as_long_double(x) - mean);
  return {mean, m2};
}

template <typename A, typename T>
void expect_moments(queue& q, const std::vector<T>& data, long double relative) {
  const auto [mean, m2] = two_pass(data);
  for (strategy s : strategies_for<T>(q, std::is_same_v<A, double> ? op_kind::mean_var_f64 : op_kind::mean_var_f32)) {
    SCOPED_TRACE("n = " + std::to_string(data.size()) + " strategy " + std::string(to_string(s)) +
                 (std::is_same_v<A, double> ? " in double" : " in float"));
    const moments<A> got = q.transform_reduce_value(std::span<const T>(data), mean_variance<A>{}, {property::reduction::use_strategy{s}});
    EXPECT_EQ(got.count, data.size());
    EXPECT_LE(std::fabs(got.mean - mean), relative * (std::fabs(mean) + std::sqrt(m2 / data.size())) + 1e-30L)
        << got.mean << " against " << static_cast<double>(mean);
    EXPECT_LE(std::fabs(got.m2 - m2), relative * m2 + 1e-30L) << got.m2 << " against " << static_cast<double>(m2);
    EXPECT_NEAR(got.variance(1), static_cast<double>(m2 / (data.size() - 1)), static_cast<double>(relative * m2 / (data.size() - 1)) + 1e-30);
  }
}

TYPED_TEST(MeanVariance, GivenValuesFarFromZero_ThenMeanAndM2AgreeWithTheHostsTwoPasses) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  std::mt19937 rng(12);
  for (std::size_t n : {2, 17, 1000, 65537, 1 << 20}) {
    std::vector<T> data(n);
    // An offset of about 3/4 of the type's range (100 for the 8-bit types and half) and a spread of a tenth of it:
    // a mean far from zero, where a sum-of-squares formula would cancel catastrophically.
    const double offset = sizeof(T) == 1 || std::is_same_v<T, half> ? 100.0 : 30000.0;
    for (auto& v : data) v = static_cast<T>(offset + static_cast<double>(rng() % 21) - 10.0);
    if constexpr (!std::is_same_v<T, double>) expect_moments<float>(q, data, 1e-2L);
    expect_moments<double>(q, data, 1e-9L);
  }
}

TEST(MeanVarianceSpecial, GivenNoneOrNaN_ThenCountZeroOrNaNAndDdofAsNumPy) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> none;
  const auto empty = q.transform_reduce_value(std::span<const float>(none), mean_variance<float>{});
  EXPECT_EQ(empty.count, 0u);
  EXPECT_TRUE(std::isnan(empty.variance()));
  std::vector<float> data(4099, 2.0f);
  data[7] = 6.0f;
  const auto one_off = q.transform_reduce_value(std::span<const float>(data), mean_variance<float>{});
  const double mean = (4098 * 2.0 + 6.0) / 4099;
  EXPECT_NEAR(one_off.mean, mean, 1e-5);
  EXPECT_NEAR(one_off.m2, 4098 * (2 - mean) * (2 - mean) + (6 - mean) * (6 - mean), 1e-3);
  EXPECT_NEAR(one_off.variance(1), one_off.m2 / 4098.0, 1e-6);
  data[4000] = std::numeric_limits<float>::quiet_NaN();
  const auto nan = q.transform_reduce_value(std::span<const float>(data), mean_variance<float>{});
  EXPECT_EQ(nan.count, data.size());
  EXPECT_TRUE(std::isnan(nan.mean) && std::isnan(nan.m2));
  data[4000] = std::numeric_limits<float>::infinity();
  const auto inf = q.transform_reduce_value(std::span<const float>(data), mean_variance<float>{});
  EXPECT_TRUE(std::isnan(inf.mean) && std::isnan(inf.m2)) << "an infinity: NaN, whatever the merge order";
}

// ---- memory, errors -----------------------------------------------------------------------------------------
TEST(TransformReduction, GivenDeviceMemory_WhenTheResultIsSharedMemory_ThenItIsWrittenThere) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> data(123457, 3.0f);
  auto input = make_device_array<float>(q, data.size());
  q.copy(data.data(), input.get(), data.size()).wait();
  auto count = make_shared_array<std::uint64_t>(q, 1);
  count[0] = 99;
  q.transform_reduce(input.get(), data.size(), count_equal{3.0f}, count.get()).wait();
  EXPECT_EQ(count[0], data.size()) << "written, not added to";
  float norm = 0;
  q.transform_reduce(input.get(), data.size(), norm_l1{}, &norm).wait();
  EXPECT_EQ(norm, 3.0f * static_cast<float>(data.size()));
}

TEST(TransformReductionErrors, GivenAnotherStrategyOrReproducible_ThenClearErrors) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> data(100, 1.0f);
  try {
    q.transform_reduce_value(std::span<const float>(data), norm_l2{}, {property::reduction::use_strategy{strategy::global_atomics}});
    FAIL() << "global_atomics was accepted for norm_l2";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find("tree, last_group or cpu_chunks"), std::string::npos) << error.what();
  }
  try {
    q.transform_reduce_value(std::span<const float>(data), norm_l1{}, {property::reduction::reproducible{}});
    FAIL() << "reproducible was accepted for norm_l1";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find("not offered for norm_l1 on f32"), std::string::npos) << error.what();
  }
  // Counts are exact: reproducible is granted.
  EXPECT_EQ(q.transform_reduce_value(std::span<const float>(data), count_nonzero{}, {property::reduction::reproducible{}}), 100u);
  EXPECT_THROW(q.transform_reduce(std::span<const float>(data), norm_l2{}, static_cast<float*>(nullptr)), InvalidArgumentError);
}

}  // namespace
}  // namespace zr::test
