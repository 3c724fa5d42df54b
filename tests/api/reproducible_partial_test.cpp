// queue::reduce_partial and reproducible_partial: partial sums of any split of the data, merged in any order
// and rounded once, give the bits of one reproducible sum of all of it.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

// Values of many magnitudes and both signs, so that a plain sum's order would show in its low bits.
template <typename T>
std::vector<T> wide_values(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(std::is_same_v<T, half> ? -10 : -30, std::is_same_v<T, half> ? 10 : 30);
  std::vector<T> values(n);
  for (auto& v : values) v = static_cast<T>(std::ldexp(mantissa(rng), exponent(rng)));
  return values;
}

template <typename T>
T reproducible_sum(queue& q, std::span<const T> data) {
  T sum{};
  q.reduce(data, reduction(&sum, plus<>(), {property::reduction::reproducible{},
                                             property::reduction::initialize_to_identity{}})).wait();
  return sum;
}

template <typename T>
auto bits(T value) {
  if constexpr (std::is_same_v<T, half>) return std::bit_cast<std::uint16_t>(value);
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<std::uint32_t>(value);
  else return std::bit_cast<std::uint64_t>(value);
}

template <typename T>
class ReproduciblePartial : public ::testing::Test {};
using PartialTypes = ::testing::Types<half, float, double>;
TYPED_TEST_SUITE(ReproduciblePartial, PartialTypes);

TYPED_TEST(ReproduciblePartial, GivenSplits_WhenPartialsMergeInAnyOrder_ThenTheBitsOfOneReproducibleSum) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().strategies(detail::element_type_of<T>(), op_kind::plus, true, true).empty())
    GTEST_SKIP() << q.get_device().name() << " runs no reproducible " << to_string(detail::element_type_of<T>()) << " sum";
  const std::vector<T> data = wide_values<T>(300007, 11);
  const std::span<const T> all(data);
  const T whole = reproducible_sum(q, all);

  reproducible_partial<T> one;
  q.reduce_partial(all, &one).wait();
  EXPECT_EQ(bits(one.value()), bits(whole)) << "one partial of everything";

  for (std::size_t pieces : {2u, 3u, 7u}) {
    std::vector<reproducible_partial<T>> partials(pieces);
    std::vector<event> events;
    for (std::size_t p = 0; p < pieces; ++p) {
      const std::size_t first = data.size() * p / pieces * p / pieces;  // uneven pieces, the first one small
      const std::size_t last = p + 1 == pieces ? data.size() : data.size() * (p + 1) / pieces * (p + 1) / pieces;
      events.push_back(q.reduce_partial(all.subspan(first, last - first), &partials[p]));
    }
    for (auto& e : events) e.wait();
    reproducible_partial<T> forward, backward;
    for (std::size_t p = 0; p < pieces; ++p) forward += partials[p];
    for (std::size_t p = pieces; p-- > 0;) backward += partials[p];
    EXPECT_EQ(forward, backward) << "the merge is exact: the same state in any order";
    EXPECT_EQ(bits(forward.value()), bits(whole)) << pieces << " pieces";
  }
}

TYPED_TEST(ReproduciblePartial, GivenDeviceMemoryAndAnInitialValue_WhenAdded_ThenAsTheVariableWouldBe) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().strategies(detail::element_type_of<T>(), op_kind::plus, true, true).empty())
    GTEST_SKIP() << q.get_device().name() << " runs no reproducible " << to_string(detail::element_type_of<T>()) << " sum";
  const std::vector<T> data = wide_values<T>(4099, 5);
  auto on_device = make_device_array<T>(q, data.size());
  q.copy(data.data(), on_device.get(), data.size()).wait();
  reproducible_partial<T> from_device;
  q.reduce_partial(on_device.get(), data.size(), &from_device).wait();
  // The partial itself in device memory too, copied back as 64 bytes.
  auto partial_on_device = make_device_array<reproducible_partial<T>>(q, 1);
  q.reduce_partial(on_device.get(), data.size(), partial_on_device.get()).wait();
  reproducible_partial<T> copied_back;
  q.copy(partial_on_device.get(), &copied_back, 1).wait();
  EXPECT_EQ(copied_back, from_device);

  const T initial = static_cast<T>(0.375);
  T with_initial = initial;
  q.reduce(std::span<const T>(data), reduction(&with_initial, plus<>(), {property::reduction::reproducible{}})).wait();
  from_device.add(initial);
  EXPECT_EQ(bits(from_device.value()), bits(with_initial));
}

// The library splits such an input into chunks of one allocation; a reproducible sum merges their partial
// sums and rounds once. The reference: partials of other pieces (each small enough), merged by hand.
TYPED_TEST(ReproduciblePartial, GivenHostDataLargerThanOneAllocation_WhenReproducibleSum_ThenOneRounding) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().strategies(detail::element_type_of<T>(), op_kind::plus, true, true).empty())
    GTEST_SKIP() << q.get_device().name() << " runs no reproducible " << to_string(detail::element_type_of<T>()) << " sum";
  const std::uint64_t allocation = q.get_device().capabilities().max_allocation_bytes;
  if (allocation > (std::uint64_t{64} << 20))
    GTEST_SKIP() << q.get_device().name() << " allocates " << allocation << " bytes at once: ctest "
                 << "level_zero_cpu.api_small_allocations runs this with a 4 MiB limit (ZRT_MAX_ALLOCATION)";
  const std::size_t per_allocation = allocation / sizeof(T);
  const std::vector<T> data = wide_values<T>(per_allocation * 5 / 2 + 13, 21);
  const std::span<const T> all(data);

  reproducible_partial<T> expected;
  for (std::size_t first = 0; first < data.size(); first += per_allocation / 3) {
    reproducible_partial<T> piece;
    q.reduce_partial(all.subspan(first, std::min(per_allocation / 3, data.size() - first)), &piece).wait();
    expected += piece;
  }
  reproducible_partial<T> whole;
  q.reduce_partial(all, &whole).wait();
  EXPECT_EQ(whole, expected) << "a partial of the whole input, made in the library's chunks";

  const T initial = static_cast<T>(-0.75);
  T sum = initial;
  q.reduce(all, reduction(&sum, plus<>(), {property::reduction::reproducible{}})).wait();
  EXPECT_EQ(bits(sum), bits(expected.add(initial).value())) << "the initial value joins once, rounded once";
  T from_identity = initial;
  q.reduce(all, reduction(&from_identity, plus<>(), {property::reduction::reproducible{},
                                                     property::reduction::initialize_to_identity{}})).wait();
  reproducible_partial<T> data_only = whole;
  EXPECT_EQ(bits(from_identity), bits(data_only.value()));
}

// Values that walk a reproducible sum through every path of its kernels: zeros and the smallest values first
// (the state's top too low for the CPU kernel's unscaled constants), then values of every exponent, each next
// to a power of two, in random order, with the larger exponents only later (the top rises in the middle of
// work-items' chunks). Nothing reaches 2^highest, a top bin's limit (spirv_kernels/src/zr_binned.h: 2^(W-1)
// times that bin's unit): values just under it are refused by the range check of the CPU kernel's vector
// steps without raising the top, many of them late, when no later rise drops the low bins.
// Long enough for work-items of the CPU kernel to flush their lanes' sums within a chunk.
// f16 and f32 (summed as f32) have 16-bit bins from 2^-149, a boundary at 2^(16 top - 134); f64 20-bit bins
// from 2^-1074, at 2^(20 top - 1055).
int within_the_unscaled_tops(element_type type) {  // tops 9 (f16), 14 (f32), 60 (f64)
  return type == element_type::f16 ? 10 : type == element_type::f32 ? 90 : 145;
}
int beyond_the_unscaled_tops(element_type type) {  // tops 16 (f32), 103 (f64): rchunks.cl scales such inputs again
  return type == element_type::f32 ? 122 : 1005;
}
template <typename T>
std::vector<T> values_across_the_exponents(std::size_t n, std::uint32_t seed, int highest) {
  constexpr bool is_half = std::is_same_v<T, half>;
  const int lowest = is_half ? -24 : std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits;
  const int digits = is_half ? 11 : std::numeric_limits<T>::digits;
  std::mt19937_64 rng(seed);
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    // The exponents allowed so far grow with i: the first quarter stays within the lowest 24, the last
    // quarter has them all.
    const int reach = i < n / 4 ? lowest + 24
                                : std::min(highest, lowest + static_cast<int>((highest - lowest) * (i + 1) / (n * 3 / 4)));
    const int e = std::uniform_int_distribution<int>(lowest, std::max(lowest, reach))(rng);
    const double near_power = std::ldexp(1.0, e);
    double v = 0;
    switch (rng() % 6) {
      case 0: v = 0; break;
      case 1: v = near_power; break;
      case 2: v = near_power * (1 - std::ldexp(1.0, -digits)); break;  // the largest value below it
      case 3: v = near_power * (1 + std::ldexp(1.0, 1 - digits)); break;
      case 4: v = near_power * 1.5; break;
      default: v = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng), e); break;
    }
    if (v >= std::ldexp(1.0, highest)) v = std::ldexp(1.0, highest) * (1 - std::ldexp(1.0, -digits));
    values[i] = static_cast<T>(rng() % 2 ? -v : v);
  }
  return values;
}

TYPED_TEST(ReproduciblePartial, GivenValuesOfEveryExponent_WhenSummedByEveryStrategy_ThenTheHostsStateAndBits) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  const std::vector<strategy> strategies =
      q.get_device().strategies(detail::element_type_of<T>(), op_kind::plus, true, true);
  if (strategies.empty())
    GTEST_SKIP() << q.get_device().name() << " runs no reproducible " << to_string(detail::element_type_of<T>()) << " sum";
  const element_type type = detail::element_type_of<T>();
  std::vector<int> highest_exponents{within_the_unscaled_tops(type)};
  if (type != element_type::f16) highest_exponents.push_back(beyond_the_unscaled_tops(type));  // f16 never gets there
  for (int highest : highest_exponents) {
    SCOPED_TRACE("values up to 2^" + std::to_string(highest));
    const std::vector<T> data = values_across_the_exponents<T>((std::size_t{1} << 20) + 37, 29, highest);
    reproducible_partial<T> on_host;
    for (const T& v : data) on_host.add(v);

    reproducible_partial<T> on_device;
    q.reduce_partial(std::span<const T>(data), &on_device).wait();
    EXPECT_EQ(on_device, on_host) << "the device's state is the host's, value by value";
    for (strategy s : strategies) {
      T sum{};
      q.reduce(std::span<const T>(data),
               reduction(&sum, plus<>(), {property::reduction::reproducible{},
                                          property::reduction::initialize_to_identity{},
                                          property::reduction::use_strategy{s}}))
          .wait();
      EXPECT_EQ(bits(sum), bits(on_host.value())) << to_string(s);
    }
  }
}

TEST(ReproduciblePartialSpecials, GivenInfinitiesAndNan_WhenMerged_ThenAsThePlainSum) {
  const float inf = std::numeric_limits<float>::infinity();
  reproducible_partial<float> positive, negative, empty;
  positive.add(inf);
  negative.add(-inf);
  EXPECT_EQ(positive.value(), inf);
  EXPECT_TRUE(std::isnan((positive + negative).value()));
  EXPECT_EQ(bits(empty.value()), bits(0.0f)) << "an empty sum is +0.0";
  reproducible_partial<double> tiny;
  tiny.add(0x1p-1074).add(0x1p-1074);
  EXPECT_EQ(tiny.value(), 0x1p-1073);
}

TEST(ReproduciblePartialErrors, GivenANullInput_WhenReduced_ThenRefusedWithTheReason) {
  ZR_REQUIRE_QUEUE(q);
  reproducible_partial<float> partial;
  EXPECT_THROW(q.reduce_partial(static_cast<const float*>(nullptr), 10, &partial).wait(), InvalidArgumentError);
  EXPECT_THROW(q.reduce_partial(std::span<const float>(), static_cast<reproducible_partial<float>*>(nullptr)).wait(),
               InvalidArgumentError);
}

}  // namespace
}  // namespace zr::test
