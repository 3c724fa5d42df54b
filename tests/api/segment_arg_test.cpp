// Argmin/argmax per segment: each segment's result must be the host scan of that segment alone (its first
// extreme, the index counted from the segment's begin), for every numeric type; segments of every size (a
// work-item, a few lanes, a group, slices of a few long ones), skewed sizes, offsets and begin/end arrays in host
// and device memory, rows; NaN first for floating types. Empty segments have no extreme and are refused.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "arg_test_support.hpp"

namespace zr::test {
namespace {

template <typename T>
class SegmentArg : public ::testing::Test {};
TYPED_TEST_SUITE(SegmentArg, ArithmeticTypes);

// A queue on the test device `q`, the test skipped where that device has no arg-reductions of T (a macro, so that
// GTEST_SKIP leaves the test body, not a helper).
#define ZR_REQUIRE_ARG_QUEUE(q, T)                                                                    \
  ZR_REQUIRE_QUEUE(q);                                                                              \
  if (const auto zr_why_ = q.get_device().why_unsupported(detail::element_type_of<T>(), op_kind::argmax)) \
  GTEST_SKIP() << q.get_device().name() << ": " << *zr_why_

// Every segment [begins[s], ends[s]) of data against results[s].
template <typename T>
void expect_segments(const std::vector<T>& data, const std::vector<std::uint64_t>& begins,
                     const std::vector<std::uint64_t>& ends, const std::vector<arg_result<T>>& results, bool largest) {
  std::uint64_t wrong = 0;
  for (std::size_t s = 0; s < begins.size(); ++s) {
    const arg_result<T> expected = scan(std::span<const T>(data.data() + begins[s], ends[s] - begins[s]), largest);
    const bool same = same_value(results[s].value, expected.value) && results[s].index == expected.index;
    if (!same && wrong++ < 5)
      ADD_FAILURE() << (largest ? "argmax" : "argmin") << " of segment " << s << " [" << begins[s] << ", " << ends[s]
                    << "): got " << describe(results[s]) << ", expected " << describe(expected);
  }
  EXPECT_EQ(wrong, 0u);
}

// argmax (largest) or argmin of each segment between consecutive offsets, from host memory.
template <typename T>
std::vector<arg_result<T>> reduce_by_offsets(queue& q, const std::vector<T>& data, const std::vector<std::uint64_t>& offsets,
                                             bool largest) {
  std::vector<arg_result<T>> results(offsets.size() - 1);
  const std::span<const T> input(data);
  const std::span<const std::uint64_t> bounds(offsets);
  if (largest) q.reduce_segments(input, bounds, std::span<arg_result<T>>(results), argmax<>()).wait();
  else q.reduce_segments(input, bounds, std::span<arg_result<T>>(results), argmin<>()).wait();
  return results;
}

// Segments of `sizes` one after another from 0, given as offsets.
template <typename T>
void check_offsets(queue& q, const std::vector<std::uint64_t>& sizes, std::uint32_t seed) {
  std::vector<std::uint64_t> offsets{0};
  for (auto size : sizes) offsets.push_back(offsets.back() + size);
  std::vector<T> data = tied_values<T>(offsets.back(), seed);
  if constexpr (detail::is_floating_v<T>)
    if (data.size() > 100) data[data.size() / 2] = data[data.size() / 2 + 7] = T(std::numeric_limits<float>::quiet_NaN());
  const std::vector<std::uint64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  for (bool largest : {false, true}) {
    const std::vector<arg_result<T>> results = reduce_by_offsets(q, data, offsets, largest);
    expect_segments(data, begins, ends, results, largest);
  }
}

TYPED_TEST(SegmentArg, GivenSegmentsOfEverySize_WhenEachIsArgReduced_ThenEachIsItsOwnFirstExtreme) {
  using T = TypeParam;
  ZR_REQUIRE_ARG_QUEUE(q, T);
  std::mt19937 rng(11);
  std::vector<std::uint64_t> tiny(500), lanes(300), groups(40), skewed(2000);
  for (auto& s : tiny) s = 1 + rng() % 7;
  for (auto& s : lanes) s = 20 + rng() % 500;
  for (auto& s : groups) s = 3000 + rng() % 9000;
  for (auto& s : skewed) s = 1 + rng() % 4;
  skewed[1234] = 90000;
  const std::vector<std::uint64_t> few_long = {70001, 1, 130000};
  std::uint32_t seed = 1;
  for (const auto& sizes : {tiny, lanes, groups, skewed, few_long}) check_offsets<T>(q, sizes, seed++);
}

// Skewed sizes (a few long segments among many short ones; GPUs split them by elements and rank values in keys)
// over each type's edge values: both zeros, both infinities and NaN, or the integer limits. Each result is the
// host scan's, and its value is the element at its index, bit for bit outside NaN (the zero's sign included).
TYPED_TEST(SegmentArg, GivenSkewedSizesOverEdgeValues_WhenArgReduced_ThenEachResultIsTheElementAtItsFirstExtreme) {
  using T = TypeParam;
  ZR_REQUIRE_ARG_QUEUE(q, T);
  std::mt19937 rng(23);
  std::vector<T> edges;
  if constexpr (detail::is_floating_v<T>) {
    for (float v : {-0.0f, 0.0f, -1.0f, 1.0f, -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()})
      edges.push_back(T(v));
  } else {
    edges = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), T(0), T(1)};
  }
  std::vector<std::uint64_t> offsets{0};
  for (int s = 0; s < 3000; ++s) {
    const std::uint64_t size = s % 701 == 5 ? 4000 + rng() % 9000 : 1 + rng() % 6;
    offsets.push_back(offsets.back() + size);
  }
  std::vector<T> data(offsets.back());
  for (auto& v : data) v = edges[rng() % edges.size()];
  if constexpr (detail::is_floating_v<T>) {
    for (std::uint64_t i = 17; i < data.size(); i += 2003) data[i] = T(std::numeric_limits<float>::quiet_NaN());
  }
  const std::vector<std::uint64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  for (bool largest : {false, true}) {
    const std::vector<arg_result<T>> results = reduce_by_offsets(q, data, offsets, largest);
    expect_segments(data, begins, ends, results, largest);
    auto is_nan = [](T x) {
      if constexpr (detail::is_floating_v<T>) return std::isnan(static_cast<float>(x));
      else return false;
    };
    std::uint64_t other_bits = 0;
    for (std::size_t s = 0; s < begins.size(); ++s) {
      const T element = data[begins[s] + std::min(results[s].index, ends[s] - begins[s] - 1)];
      if (is_nan(element)) continue;
      if (std::memcmp(&element, &results[s].value, sizeof(T)) != 0 && other_bits++ < 5)
        ADD_FAILURE() << "segment " << s << ": the value's bits are not those of the element at index " << results[s].index;
    }
    EXPECT_EQ(other_bits, 0u);
  }
}

TYPED_TEST(SegmentArg, GivenDeviceMemoryAndBeginEndArrays_WhenArgReduced_ThenEachSegmentIsItsOwnFirstExtreme) {
  using T = TypeParam;
  ZR_REQUIRE_ARG_QUEUE(q, T);
  // Overlapping windows in reverse order, one long, from 32-bit arrays in device memory into device results.
  const std::uint64_t n = 40000;
  const std::vector<T> data = tied_values<T>(n, 7);
  std::vector<std::uint64_t> begins, ends;
  for (std::uint64_t b = n - 50; b > 100; b -= 97) {
    begins.push_back(b);
    ends.push_back(std::min(n, b + 1 + b % 300));
  }
  begins.push_back(3);
  ends.push_back(n);
  const std::uint64_t segments = begins.size();
  const std::vector<std::uint32_t> begins32(begins.begin(), begins.end()), ends32(ends.begin(), ends.end());
  auto device_data = make_device_array<T>(q, n);
  auto device_begins = make_device_array<std::uint32_t>(q, segments);
  auto device_ends = make_device_array<std::uint32_t>(q, segments);
  auto device_results = make_device_array<arg_result<T>>(q, segments);
  q.copy(data.data(), device_data.get(), n).wait();
  q.copy(begins32.data(), device_begins.get(), segments).wait();
  q.copy(ends32.data(), device_ends.get(), segments).wait();
  for (bool largest : {false, true}) {
    if (largest)
      q.reduce_segments(device_data.get(), n, device_begins.get(), device_ends.get(), segments, device_results.get(), argmax<>())
          .wait();
    else
      q.reduce_segments(device_data.get(), n, device_begins.get(), device_ends.get(), segments, device_results.get(), argmin<>())
          .wait();
    std::vector<arg_result<T>> results(segments);
    q.copy(device_results.get(), results.data(), segments).wait();
    expect_segments(data, begins, ends, results, largest);
  }
}

TYPED_TEST(SegmentArg, GivenRows_WhenArgReduced_ThenEachRowIsItsOwnFirstExtreme) {
  using T = TypeParam;
  ZR_REQUIRE_ARG_QUEUE(q, T);
  for (std::uint64_t columns : {1u, 5u, 300u, 20000u}) {
    const std::uint64_t rows = columns > 1000 ? 3 : 211;
    const std::vector<T> data = tied_values<T>(rows * columns, static_cast<std::uint32_t>(columns));
    std::vector<std::uint64_t> begins, ends;
    for (std::uint64_t r = 0; r < rows; ++r) {
      begins.push_back(r * columns);
      ends.push_back((r + 1) * columns);
    }
    std::vector<arg_result<T>> results(rows);
    q.reduce_rows(std::span<const T>(data), columns, std::span<arg_result<T>>(results), argmin<>()).wait();
    expect_segments(data, begins, ends, results, false);
  }
}

TEST(SegmentArgErrors, GivenAnEmptySegment_WhenArgReduced_ThenItIsRefusedByName) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> data(10, 1.0f);
  std::vector<arg_result<float>> results(3);
  auto expect_refused = [](auto&& call, const std::string& segment) {
    try {
      call();
      ADD_FAILURE() << "an empty segment was not refused";
    } catch (const InvalidArgumentError& error) {
      EXPECT_NE(std::string(error.what()).find(segment + " is empty"), std::string::npos) << error.what();
    }
  };
  const std::vector<std::uint64_t> offsets = {0, 4, 4, 10};
  expect_refused([&] {
    q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(offsets),
                      std::span<arg_result<float>>(results), argmax<>()).wait();
  }, "segment 1");
  const std::vector<std::uint32_t> begins = {0, 2, 9}, ends = {1, 5, 9};
  expect_refused([&] {
    q.reduce_segments(std::span<const float>(data), std::span<const std::uint32_t>(begins), std::span<const std::uint32_t>(ends),
                      std::span<arg_result<float>>(results), argmin<>()).wait();
  }, "segment 2");
  expect_refused([&] {
    q.reduce_rows(static_cast<const float*>(nullptr), 3, 0, results.data(), argmin<>()).wait();
  }, "segment 0");
  // The other ops give their identity for the same segments.
  std::vector<float> sums(3);
  q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(offsets), std::span<float>(sums), plus<>(),
                    property::reduction::initialize_to_identity{}).wait();
  EXPECT_EQ(sums[1], 0.0f);
}

}  // namespace
}  // namespace zr::test
