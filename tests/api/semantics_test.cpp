// SYCL 2020 reduction semantics through the public API, checked against a host fold on real data: every op
// with every property combination on i32 and f32 (and bool's logical ops), user and known identities,
// initial values, several reductions in one pass, array reductions.
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <limits>
#include <numeric>
#include <tuple>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

struct PropertyCase {
  bool initialize_to_identity;
  bool deterministic;
};
constexpr PropertyCase kPropertyCases[] = {{false, false}, {true, false}, {false, true}, {true, true}};

property_list properties_of(PropertyCase c) {
  property_list props;
  if (c.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.deterministic) props = props.with(property::reduction::deterministic{});
  return props;
}

// Reduces `values` with Op under every property combination, the variable in host memory and in device
// memory, and compares with the host fold (initial value included unless initialize_to_identity).
template <typename T, typename Op, typename HostOp = Op>
void check_every_property(queue& q, const std::vector<T>& values, T initial, HostOp host_op = {}) {
  const Op op{};
  T* device_values = q.malloc_device<T>(values.size());
  T* device_var = q.malloc_device<T>(1);
  q.copy(values.data(), device_values, values.size()).wait();
  for (const PropertyCase c : kPropertyCases) {
    const T start = c.initialize_to_identity ? known_identity_v<Op, T> : initial;
    const T expected = host_fold<T>(values, start, host_op);
    SCOPED_TRACE(std::string("op ") + std::string(to_string(detail::op_of<Op>::kind)) + ", n " +
                 std::to_string(values.size()) + ", initialize_to_identity " + std::to_string(c.initialize_to_identity) +
                 ", deterministic " + std::to_string(c.deterministic));
    T host_var = initial;
    q.reduce(device_values, values.size(), reduction(&host_var, op, properties_of(c))).wait();
    EXPECT_EQ(host_var, expected) << "variable in host memory";

    q.copy(&initial, device_var, 1).wait();
    q.reduce(device_values, values.size(), reduction(device_var, op, properties_of(c))).wait();
    T read_back{};
    q.copy(device_var, &read_back, 1).wait();
    EXPECT_EQ(read_back, expected) << "variable in device memory";
  }
  q.free(device_values);
  q.free(device_var);
}

class EveryPropertyCombination : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EveryPropertyCombination, GivenIntegersWhenReducedWithEveryOpThenMatchesHostFold) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = GetParam();
  const auto values = exact_values<std::int32_t>(n, 7);
  const auto product_values = exact_values<std::int32_t>(n, 8, true);
  check_every_property<std::int32_t, plus<std::int32_t>>(q, values, 1000);
  // Integer products wrap modulo 2^32 on the device; the host computes them in unsigned arithmetic.
  auto wrapping_product = [](std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
  };
  check_every_property<std::int32_t, multiplies<std::int32_t>>(q, product_values, -3, wrapping_product);
  check_every_property<std::int32_t, minimum<std::int32_t>>(q, values, -1);
  check_every_property<std::int32_t, maximum<std::int32_t>>(q, values, 2);
  check_every_property<std::int32_t, bit_and<std::int32_t>>(q, values, 0x7ff0);
  check_every_property<std::int32_t, bit_or<std::int32_t>>(q, values, 0x100);
  check_every_property<std::int32_t, bit_xor<std::int32_t>>(q, values, 0x5a5a);
}

TEST_P(EveryPropertyCombination, GivenFloatsWhenReducedWithEveryOpThenMatchesHostFold) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = GetParam();
  const auto values = exact_values<float>(n, 9);
  const auto product_values = exact_values<float>(n, 10, true);
  check_every_property<float, plus<float>>(q, values, 0.5f);
  check_every_property<float, multiplies<float>>(q, product_values, -4.0f);
  check_every_property<float, minimum<float>>(q, values, -100.0f);
  check_every_property<float, maximum<float>>(q, values, 100.0f);
}

TEST_P(EveryPropertyCombination, GivenBoolsWhenReducedWithLogicalOpsThenMatchesHostFold) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = GetParam();
  // bool data travels as bytes; a std::vector<bool> has none to point to.
  const auto generated = exact_values<bool>(n, 11);
  const auto values = std::make_unique<bool[]>(n ? n : 1);
  std::copy(generated.begin(), generated.end(), values.get());
  const std::vector<bool> copy(generated.begin(), generated.end());
  bool* device_values = q.malloc_device<bool>(n ? n : 1);
  q.copy(values.get(), device_values, n).wait();
  for (const bool initial : {false, true}) {
    bool all = initial;
    bool any = initial;
    q.reduce(device_values, n, reduction(&all, logical_and<>()), reduction(&any, logical_or<>())).wait();
    bool expected_all = initial;
    bool expected_any = initial;
    for (bool v : copy) {
      expected_all = expected_all && v;
      expected_any = expected_any || v;
    }
    EXPECT_EQ(all, expected_all) << "initial " << initial;
    EXPECT_EQ(any, expected_any) << "initial " << initial;
  }
  q.free(device_values);
}

INSTANTIATE_TEST_SUITE_P(Sizes, EveryPropertyCombination, ::testing::Values(0, 1, 33, 4097, 65537),
                         ::testing::PrintToStringParamName());

TEST(Identities, GivenUserIdentityWhenReducingThenSameResultAsKnownIdentity) {
  ZR_REQUIRE_QUEUE(q);
  const auto values = exact_values<std::int32_t>(1000, 12);
  const std::span<const std::int32_t> host(values);
  std::int32_t known = 5;
  std::int32_t user = 5;
  q.reduce(host, reduction(&known, maximum<>())).wait();
  q.reduce(host, reduction(&user, std::numeric_limits<std::int32_t>::lowest(), maximum<>())).wait();
  EXPECT_EQ(known, user);
  EXPECT_EQ(known, host_fold(host, 5, maximum<std::int32_t>()));
}

TEST(Identities, GivenNegativeZeroUserIdentityWhenSummingNegativeZerosThenResultIsNegativeZero) {
  // The user identity initialises the temporaries: with -0.0 (the true identity of IEEE addition) a sum of
  // -0.0 values stays -0.0; with the known identity 0.0 it becomes +0.0.
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> zeros(257, -0.0f);
  float with_user = 1.0f;
  float with_known = 1.0f;
  q.reduce(std::span<const float>(zeros), reduction(&with_user, -0.0f, plus<>(), property::reduction::initialize_to_identity{}))
      .wait();
  q.reduce(std::span<const float>(zeros), reduction(&with_known, plus<>(), property::reduction::initialize_to_identity{}))
      .wait();
  EXPECT_TRUE(std::signbit(with_user));
  EXPECT_FALSE(std::signbit(with_known));
}

TEST(InitialValue, GivenNonIdentityInitialValueWhenInitializeToIdentityIsOffThenItIsIncluded) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<std::int64_t> values(100, 3);
  std::int64_t included = 1'000'000;
  std::int64_t replaced = 1'000'000;
  q.reduce(std::span<const std::int64_t>(values), reduction(&included, plus<>())).wait();
  q.reduce(std::span<const std::int64_t>(values), reduction(&replaced, plus<>(), property::reduction::initialize_to_identity{}))
      .wait();
  EXPECT_EQ(included, 1'000'300);
  EXPECT_EQ(replaced, 300);
}

// combine(initial, r) as ze-reduce defines it (zr_types.h, docs/api.md), written here on its own: integers wrap (the
// public function objects), floating minimum/maximum are IEEE 754-2019's (a NaN wins, -0.0 below +0.0), and a
// floating NaN result is the canonical quiet NaN.
template <typename T, typename Op>
T combine_as_defined(T initial, T r) {
  if constexpr (std::is_floating_point_v<T>) {
    constexpr bool kMinimum = std::is_same_v<Op, minimum<T>>, kMaximum = std::is_same_v<Op, maximum<T>>;
    T value;
    if ((kMinimum || kMaximum) && (std::isnan(initial) || std::isnan(r))) value = std::numeric_limits<T>::quiet_NaN();
    else if ((kMinimum || kMaximum) && initial == r) value = std::signbit(initial) == kMinimum ? initial : r;
    else value = Op{}(initial, r);
    return std::isnan(value) ? std::numeric_limits<T>::quiet_NaN() : value;
  } else {
    return Op{}(initial, r);
  }
}

// A host variable's initial value joins the result on the host, after the kernels (api/reduction_job.cpp); a
// device variable's inside the kernels. The host variable's result must be combine(initial, the same reduction
// without it), bit for bit, for every op and the initial values whose combine has rules of its own: NaN, -0.0
// against +0.0, infinities, integer wrap-around. (Deterministic, so that both runs of the one plan combine in one
// order.) Where the result does not depend on the order of combining (integers, floating minimum/maximum), the
// device variable's must be the same bits too: the kernels fold the initial value in as the host does.
template <typename T, typename Op>
void check_initial_value_bits(queue& q, const std::vector<T>& values, const T* device_values, T initial, T* device_var) {
  const std::size_t n = values.size();
  const property_list deterministic{property::reduction::deterministic{}};
  T without = initial;
  q.reduce(device_values, n,
           reduction(&without, Op{}, deterministic.with(property::reduction::initialize_to_identity{})))
      .wait();
  T in_host = initial;
  q.reduce(device_values, n, reduction(&in_host, Op{}, deterministic)).wait();
  const T expected = combine_as_defined<T, Op>(initial, without);
  const std::string what = std::string(to_string(detail::op_of<Op>::kind)) + ", n " + std::to_string(n);
  EXPECT_EQ(std::memcmp(&in_host, &expected, sizeof(T)), 0)
      << what << ", initial " << +initial << ": host variable " << +in_host << ", expected " << +expected;
  constexpr bool kOrderFree = std::is_integral_v<T> || std::is_same_v<Op, minimum<T>> || std::is_same_v<Op, maximum<T>>;
  if constexpr (kOrderFree) {
    q.copy(&initial, device_var, 1).wait();
    q.reduce(device_values, n, reduction(device_var, Op{}, deterministic)).wait();
    T in_device{};
    q.copy(device_var, &in_device, 1).wait();
    EXPECT_EQ(std::memcmp(&in_device, &expected, sizeof(T)), 0)
        << what << ", initial " << +initial << ": device variable " << +in_device << ", expected " << +expected;
  }
  if constexpr (std::is_integral_v<T>) {
    EXPECT_EQ(in_host, host_fold<T>(values, initial, Op{})) << what;
  }
}

template <typename T>
class InitialValueBits : public ::testing::Test {};
using InitialValueTypes = ::testing::Types<float, double, std::int8_t, std::uint16_t, std::int32_t, std::uint64_t>;
TYPED_TEST_SUITE(InitialValueBits, InitialValueTypes);

TYPED_TEST(InitialValueBits, GivenSpecialInitialValues_WhenTheVariableIsInHostOrDeviceMemory_ThenTheBitsAgree) {
  ZR_REQUIRE_QUEUE(q);
  using T = TypeParam;
  using Limits = std::numeric_limits<T>;
  std::vector<T> initials = {T(0), T(1), Limits::max(), Limits::lowest()};
  if constexpr (std::is_floating_point_v<T>)
    initials.insert(initials.end(), {T(-0.0), Limits::quiet_NaN(), Limits::infinity(), -Limits::infinity(), T(1.5)});
  else if constexpr (std::is_signed_v<T>)
    initials.push_back(T(-1));
  std::mt19937 rng(11);
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{70000}}) {
    // Random values, and (floating types) negative zeros alone, whose result's sign the initial value decides.
    for (int kind = 0; kind < (std::is_floating_point_v<T> ? 2 : 1); ++kind) {
      std::vector<T> values(n);
      for (T& v : values) {
        if constexpr (std::is_floating_point_v<T>) v = kind ? T(-0.0) : T(std::uniform_real_distribution<double>(-1, 1)(rng));
        else v = static_cast<T>(rng());
      }
      T* device_values = q.malloc_device<T>(n);
      T* device_var = q.malloc_device<T>(1);
      q.copy(values.data(), device_values, n).wait();
      for (const T initial : initials) {
        check_initial_value_bits<T, plus<T>>(q, values, device_values, initial, device_var);
        check_initial_value_bits<T, multiplies<T>>(q, values, device_values, initial, device_var);
        check_initial_value_bits<T, minimum<T>>(q, values, device_values, initial, device_var);
        check_initial_value_bits<T, maximum<T>>(q, values, device_values, initial, device_var);
        if constexpr (std::is_integral_v<T>) {
          check_initial_value_bits<T, bit_and<T>>(q, values, device_values, initial, device_var);
          check_initial_value_bits<T, bit_or<T>>(q, values, device_values, initial, device_var);
          check_initial_value_bits<T, bit_xor<T>>(q, values, device_values, initial, device_var);
        }
      }
      q.free(device_values);
      q.free(device_var);
    }
  }
}

TEST(SeveralReductions, GivenSumAndMaxOf0To1023WhenReducedInOnePassThenSyclExampleResults) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<int> values(1024);
  std::iota(values.begin(), values.end(), 0);
  int* data = q.malloc_device<int>(values.size());
  q.copy(values.data(), data, values.size()).wait();
  int sum = 0;
  int max = 0;
  const event done = q.reduce(data, values.size(), reduction(&sum, plus<>()), reduction(&max, maximum<>()));
  done.wait();
  EXPECT_EQ(sum, 523776);
  EXPECT_EQ(max, 1023);
  // One plan for both: the input is read once.
  ASSERT_EQ(done.get_profile().plans.size(), 1u);
  q.free(data);
}

TEST(SeveralReductions, GivenEveryIntegerOpAtOnceWhenReducedThenEachMatchesItsHostFold) {
  ZR_REQUIRE_QUEUE(q);
  for (std::size_t n : {0u, 1u, 255u, 4097u, 100'003u}) {
    const auto values = exact_values<std::int16_t>(n, 13);
    const std::span<const std::int16_t> host(values);
    std::array<std::int16_t, 9> r{10, 1, 7, -7, -1, 0, 3, 0, 5};
    q.reduce(host, reduction(&r[0], plus<>()), reduction(&r[1], multiplies<>()), reduction(&r[2], minimum<>()),
             reduction(&r[3], maximum<>()), reduction(&r[4], bit_and<>()), reduction(&r[5], bit_or<>()),
             reduction(&r[6], bit_xor<>()), reduction(&r[7], plus<>(), property::reduction::initialize_to_identity{}),
             reduction(&r[8], maximum<>(), property::reduction::deterministic{}))
        .wait();
    SCOPED_TRACE("n " + std::to_string(n));
    auto wrap = [](auto op) {
      return [op](std::int16_t a, std::int16_t b) { return static_cast<std::int16_t>(op(a, b)); };
    };
    EXPECT_EQ(r[0], host_fold<std::int16_t>(host, 10, wrap(std::plus<int>())));
    EXPECT_EQ(r[1], host_fold<std::int16_t>(host, 1, wrap(std::multiplies<int>())));
    EXPECT_EQ(r[2], host_fold<std::int16_t>(host, 7, minimum<std::int16_t>()));
    EXPECT_EQ(r[3], host_fold<std::int16_t>(host, -7, maximum<std::int16_t>()));
    EXPECT_EQ(r[4], host_fold<std::int16_t>(host, -1, bit_and<std::int16_t>()));
    EXPECT_EQ(r[5], host_fold<std::int16_t>(host, 0, bit_or<std::int16_t>()));
    EXPECT_EQ(r[6], host_fold<std::int16_t>(host, 3, bit_xor<std::int16_t>()));
    EXPECT_EQ(r[7], host_fold<std::int16_t>(host, 0, wrap(std::plus<int>())));
    EXPECT_EQ(r[8], host_fold<std::int16_t>(host, 5, maximum<std::int16_t>()));
  }
}

// Array reductions: the input is rows of N values; column j must equal a scalar reduction of column j.
template <std::size_t N>
void check_columns(queue& q, std::size_t rows) {
  const auto values = exact_values<float>(rows * N, 14 + N);
  std::array<float, N> sums{};
  std::array<float, N> mins{};
  for (std::size_t j = 0; j < N; ++j) {
    sums[j] = static_cast<float>(j);
    mins[j] = 1000.0f;
  }
  std::array<float, N> expected_sums = sums;
  std::array<float, N> expected_mins = mins;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < N; ++j) {
      expected_sums[j] += values[r * N + j];
      expected_mins[j] = std::min(expected_mins[j], values[r * N + j]);
    }
  float* device_sums = q.malloc_device<float>(N);
  q.copy(sums.data(), device_sums, N).wait();
  const std::span<const float> host(values);
  q.reduce(host, reduction(std::span<float, N>(mins), minimum<>())).wait();
  q.reduce(host, reduction(std::span<float, N>(device_sums, N), plus<>())).wait();
  q.copy(device_sums, sums.data(), N).wait();
  q.free(device_sums);
  for (std::size_t j = 0; j < N; ++j) {
    EXPECT_EQ(sums[j], expected_sums[j]) << "N " << N << ", rows " << rows << ", column " << j;
    EXPECT_EQ(mins[j], expected_mins[j]) << "N " << N << ", rows " << rows << ", column " << j;
  }
}

// The host function objects wrap integer sums and products as the kernels do. Evaluated as constants, a signed
// overflow would not compile: these lines fail to build where the operators overflow a signed type.
static_assert(plus<std::int32_t>()(INT32_MAX, 1) == INT32_MIN);
static_assert(multiplies<std::int32_t>()(INT32_MIN, 2) == 0);
static_assert(multiplies<std::int64_t>()(INT64_MAX, INT64_MAX) == 1);
static_assert(plus<std::int8_t>()(127, 1) == -128);
static_assert(multiplies<std::uint16_t>()(65535, 65535) == 1);  // promoted to int, this would overflow it
static_assert(plus<>()(INT32_MAX, 1) == INT32_MIN);
static_assert(multiplies<>()(std::int64_t{INT64_MIN}, std::int64_t{-1}) == INT64_MIN);
static_assert(plus<>()(1.5, 2) == 3.5);

TEST(Functional, GivenIntegerOverflow_WhenTheHostFunctionObjectsCombine_ThenTheyWrapAsTheKernelsDo) {
  // At run time too, with values the compiler cannot see (UBSan reports a signed overflow here otherwise).
  volatile std::int32_t big_value = INT32_MAX, low_value = INT32_MIN;
  const std::int32_t big = big_value, low = low_value;
  EXPECT_EQ(plus<std::int32_t>()(big, 1), INT32_MIN);
  EXPECT_EQ(multiplies<std::int32_t>()(low, -1), INT32_MIN);
  EXPECT_EQ(plus<>()(big, 1), INT32_MIN);
}

TEST(ArrayReductions, GivenRowsOfNValuesWhenReducedThenEachColumnMatchesItsScalarReduction) {
  ZR_REQUIRE_QUEUE(q);
  for (std::size_t rows : {0u, 1u, 2u, 1000u, 20'011u}) {
    check_columns<1>(q, rows);
    check_columns<3>(q, rows);
    check_columns<8>(q, rows);
    check_columns<64>(q, rows);
  }
}

TEST(ArrayReductions, GivenArrayAndScalarReductionsInOneCallThenBothAreRight) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<std::uint32_t> values(3 * 500);
  std::iota(values.begin(), values.end(), 1u);
  std::array<std::uint32_t, 3> columns{};
  std::uint32_t total = 0;
  q.reduce(std::span<const std::uint32_t>(values), reduction(std::span<std::uint32_t, 3>(columns), plus<>()),
           reduction(&total, plus<>()))
      .wait();
  EXPECT_EQ(total, 1500u * 1501u / 2u);
  for (std::uint32_t j = 0; j < 3; ++j) {
    std::uint32_t expected = 0;
    for (std::uint32_t r = 0; r < 500; ++r) expected += values[r * 3 + j];
    EXPECT_EQ(columns[j], expected) << "column " << j;
  }
}

TEST(Deterministic, GivenOrderSensitiveFloatsWhenSummed20TimesThenEveryResultIsBitwiseIdentical) {
  ZR_REQUIRE_QUEUE(q);
  // Magnitudes from 1e-6 to 1e6 with both signs: the rounded sum depends on the order of the additions.
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> exponent(-6.0f, 6.0f);
  std::vector<float> values(1 << 20);
  for (auto& v : values) v = std::pow(10.0f, exponent(rng)) * (rng() % 2 ? 1.0f : -1.0f);
  float* data = q.malloc_device<float>(values.size());
  q.copy(values.data(), data, values.size()).wait();
  double reference = 0;
  double magnitude = 0;
  for (float v : values) {
    reference += v;
    magnitude += std::fabs(v);
  }
  std::uint32_t first_bits = 0;
  for (int run = 0; run < 20; ++run) {
    float sum = 0;
    q.reduce(data, values.size(), reduction(&sum, plus<>(), property::reduction::deterministic{})).wait();
    std::uint32_t bits = 0;
    std::memcpy(&bits, &sum, sizeof bits);
    if (run == 0) {
      first_bits = bits;
      // A sanity bound on the value itself (f32 accumulation of 2^20 terms, tree-shaped).
      EXPECT_NEAR(sum, reference, magnitude * 1e-5);
    }
    EXPECT_EQ(bits, first_bits) << "run " << run;
  }
  q.free(data);
}

}  // namespace
}  // namespace zr::test
