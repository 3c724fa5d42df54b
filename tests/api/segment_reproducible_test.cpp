// Reproducible segmented sums: every segment's result must have the bits of the reproducible sum of that segment
// alone (queue::reduce with property::reduction::reproducible over the same elements), for f32, f64 and f16,
// segments of every size, initial values or the identity, offsets and begin/end arrays, and values across
// many magnitudes (where a plain sum's order would show), with an infinity and a NaN in some segments.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

template <typename T>
std::vector<T> wide_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> values(n);
  for (auto& v : values) {
    const double magnitude = std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 24) - 12);
    const double value = rng() % 2 ? magnitude : -magnitude;
    if constexpr (std::is_same_v<T, double>) v = value;
    else v = T(static_cast<float>(value));
  }
  return values;
}

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
double shown(T v) {
  return static_cast<double>(static_cast<float>(v));
}
template <>
double shown(double v) {
  return v;
}

// Segments of `sizes` one after another from 0; as offsets, or as begin and end arrays in reverse order.
template <typename T>
void check_reproducible(queue& q, const std::vector<std::uint64_t>& sizes, bool with_initial, bool as_bounds,
                        std::uint32_t seed) {
  std::vector<std::uint64_t> offsets{0};
  for (auto s : sizes) offsets.push_back(offsets.back() + s);
  const std::uint64_t segments = sizes.size(), n = offsets.back();
  std::vector<T> data = wide_values<T>(n, seed);
  if (n > 10) {
    data[n / 3] = T(std::numeric_limits<float>::infinity());
    data[n / 2] = T(std::numeric_limits<float>::quiet_NaN());
  }
  const std::vector<T> initial = wide_values<T>(segments, seed + 1);
  const property_list reproducible{property::reduction::reproducible{}};
  const property_list props = with_initial ? reproducible : reproducible.with(property::reduction::initialize_to_identity{});

  std::vector<T> results = initial;
  if (as_bounds) {
    std::vector<std::uint64_t> begins(offsets.rbegin() + 1, offsets.rend()), ends(offsets.rbegin(), offsets.rend() - 1);
    std::vector<T> reversed(initial.rbegin(), initial.rend());
    q.reduce_segments(std::span<const T>(data), std::span<const std::uint64_t>(begins), std::span<const std::uint64_t>(ends),
                      std::span<T>(reversed), plus<>(), props)
        .wait();
    results.assign(reversed.rbegin(), reversed.rend());
  } else {
    q.reduce_segments(std::span<const T>(data), std::span<const std::uint64_t>(offsets), std::span<T>(results), plus<>(), props)
        .wait();
  }
  std::uint64_t wrong = 0;
  for (std::uint64_t s = 0; s < segments; ++s) {
    T expected = with_initial ? initial[s] : T(0.0f);
    const std::span<const T> segment(data.data() + offsets[s], sizes[s]);
    q.reduce(segment, reduction(&expected, plus<>(), props)).wait();
    if (!same_bits(results[s], expected) && wrong++ < 5)
      ADD_FAILURE() << "segment " << s << " of " << sizes[s] << " elements: " << shown(results[s])
                    << ", but its own reproducible sum is " << shown(expected);
  }
  EXPECT_EQ(wrong, 0u);
}

template <typename T>
void check_type(queue& q) {
  if (const auto why = q.get_device().why_unsupported(detail::element_type_of<T>(), op_kind::plus))
    GTEST_SKIP() << q.get_device().name() << ": " << *why;
  std::mt19937 rng(5);
  std::vector<std::uint64_t> tiny(300), medium(60);
  for (auto& s : tiny) s = rng() % 7;
  for (auto& s : medium) s = 20 + rng() % 700;
  const std::vector<std::uint64_t> few_long = {30000, 0, 41234};
  std::uint32_t seed = 1;
  for (const auto& sizes : {tiny, medium, few_long}) {
    check_reproducible<T>(q, sizes, false, false, seed++);
    check_reproducible<T>(q, sizes, true, true, seed++);
  }
}

template <typename T>
class SegmentsReproducible : public ::testing::Test {};
using FloatingTypes = ::testing::Types<float, double, half>;
TYPED_TEST_SUITE(SegmentsReproducible, FloatingTypes);

TYPED_TEST(SegmentsReproducible, GivenSegmentsWhenSummedReproduciblyThenEachHasItsOwnReproducibleSumsBits) {
  ZR_REQUIRE_QUEUE(q);
  check_type<TypeParam>(q);
}

}  // namespace
}  // namespace zr::test
