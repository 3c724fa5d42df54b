// Transforms per segment (queue::reduce_segments and reduce_rows with zereduce/transform.hpp's transforms): each
// segment's result must be what host loops written here give for that segment alone (counts and integer sums
// exactly, floating sums, norms, means and variances within a bound of their length), for every element type each
// transform takes; segments of every size (a work-item, lanes, a group, slices of a few long ones), skewed sizes,
// empty segments, begin/end arrays and results in device memory, rows. Runs are repeated: the same bits each time.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

// Small values with zeros and repeats, floating ones not all integers.
template <typename T>
std::vector<T> segment_values(std::size_t n, std::uint32_t seed) {
  std::vector<T> values = mixed_values<T>(n, seed);
  if constexpr (detail::is_floating_v<T>)
    for (auto& v : values) v = static_cast<T>(as_long_double(v) * 0.375L);
  return values;
}

// The unit roundoff of a transform's accumulator (half and float data accumulate in float).
template <typename A>
long double unit_roundoff() {
  return std::is_same_v<A, double> ? 0x1p-53L : 0x1p-24L;
}

struct Segments {
  std::vector<std::uint64_t> offsets;  // segments + 1
  std::uint64_t count() const { return offsets.size() - 1; }
  std::uint64_t begin(std::uint64_t s) const { return offsets[s]; }
  std::uint64_t end(std::uint64_t s) const { return offsets[s + 1]; }
};

Segments segments_of(const std::vector<std::uint64_t>& sizes) {
  Segments segments{{0}};
  for (auto size : sizes) segments.offsets.push_back(segments.offsets.back() + size);
  return segments;
}

// Runs `transform` over every segment twice (the second run must give the same bytes) and returns the results.
template <typename T, typename Transform>
std::vector<transform_result_t<Transform, T>> run_twice(queue& q, const std::vector<T>& data, const Segments& segments,
                                                        Transform transform) {
  using Result = transform_result_t<Transform, T>;
  std::vector<Result> first(segments.count()), second(segments.count());
  q.reduce_segments(std::span<const T>(data), std::span<const std::uint64_t>(segments.offsets), std::span<Result>(first),
                    transform)
      .wait();
  q.reduce_segments(std::span<const T>(data), std::span<const std::uint64_t>(segments.offsets), std::span<Result>(second),
                    transform)
      .wait();
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(Result)), 0) << "run 2 gave other bits";
  return first;
}

// Counts and integer sums: exact.
template <typename T>
void check_exact(queue& q, const std::vector<T>& data, const Segments& segments) {
  const T wanted = static_cast<T>(3);
  const auto nonzero = run_twice(q, data, segments, count_nonzero{});
  const auto equal = run_twice(q, data, segments, count_equal<T>{wanted});
  std::uint64_t wrong = 0;
  for (std::uint64_t s = 0; s < segments.count(); ++s) {
    std::uint64_t expected_nonzero = 0, expected_equal = 0;
    for (std::uint64_t i = segments.begin(s); i < segments.end(s); ++i) {
      expected_nonzero += as_long_double(data[i]) != 0;
      expected_equal += as_long_double(data[i]) == as_long_double(wanted);
    }
    if ((nonzero[s] != expected_nonzero || equal[s] != expected_equal) && wrong++ < 5)
      ADD_FAILURE() << "segment " << s << " [" << segments.begin(s) << ", " << segments.end(s) << "): count_nonzero "
                    << nonzero[s] << " (expected " << expected_nonzero << "), count_equal(3) " << equal[s]
                    << " (expected " << expected_equal << ")";
  }
  if constexpr (detail::is_integer_v<T>) {
    const auto signed_sums = run_twice(q, data, segments, sum_as<std::int64_t>{});
    const auto unsigned_sums = run_twice(q, data, segments, sum_as<std::uint64_t>{});
    for (std::uint64_t s = 0; s < segments.count(); ++s) {
      std::uint64_t expected = 0;  // modulo 2^64, the values converted as C++ converts them
      for (std::uint64_t i = segments.begin(s); i < segments.end(s); ++i) expected += static_cast<std::uint64_t>(data[i]);
      if ((static_cast<std::uint64_t>(signed_sums[s]) != expected || unsigned_sums[s] != expected) && wrong++ < 5)
        ADD_FAILURE() << "segment " << s << ": sum_as<int64> " << signed_sums[s] << ", sum_as<uint64> " << unsigned_sums[s]
                      << ", expected " << expected;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

// |got - exact| within (length + 64) roundings of the accumulator on the sum of |terms|, plus the result's own
// rounding (half results: 2^-11 relative, and infinite past the largest half).
template <typename T, typename A>
bool within(long double got, long double exact, long double magnitude, std::uint64_t length) {
  // A half result past the largest half (65504, rounding up from 65520) is infinite.
  if (std::is_same_v<T, half> && std::fabs(exact) >= 65520) return std::isinf(got);
  const long double result_rounding = std::is_same_v<T, half> ? 0x1p-10L : 0.0L;
  const long double bound = (static_cast<long double>(length) + 64) * unit_roundoff<A>() * magnitude +
                            result_rounding * std::fabs(exact) + std::numeric_limits<float>::min();
  return std::fabs(got - exact) <= bound;
}

// Sums of squares, L1 and L2 norms of floating data.
template <typename T>
void check_norms(queue& q, const std::vector<T>& data, const Segments& segments) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const auto squares = run_twice(q, data, segments, sum_of_squares{});
  const auto l1 = run_twice(q, data, segments, norm_l1{});
  const auto l2 = run_twice(q, data, segments, norm_l2{});
  std::uint64_t wrong = 0;
  for (std::uint64_t s = 0; s < segments.count(); ++s) {
    long double sum_squares = 0, sum_abs = 0;
    for (std::uint64_t i = segments.begin(s); i < segments.end(s); ++i) {
      sum_squares += as_long_double(data[i]) * as_long_double(data[i]);
      sum_abs += std::fabs(as_long_double(data[i]));
    }
    const std::uint64_t length = segments.end(s) - segments.begin(s);
    const bool good = within<T, A>(as_long_double(squares[s]), sum_squares, sum_squares, length) &&
                      within<T, A>(as_long_double(l1[s]), sum_abs, sum_abs, length) &&
                      within<T, A>(as_long_double(l2[s]), std::sqrt(sum_squares), std::sqrt(sum_squares), length);
    if (!good && wrong++ < 5)
      ADD_FAILURE() << "segment " << s << " (" << length << " elements): sum of squares " << as_long_double(squares[s])
                    << " (exact " << sum_squares << "), norm_l1 " << as_long_double(l1[s]) << " (exact " << sum_abs
                    << "), norm_l2 " << as_long_double(l2[s]) << " (exact " << std::sqrt(sum_squares) << ")";
  }
  EXPECT_EQ(wrong, 0u);
}

// Means and variances in A: the count exactly, the mean and m2 within the length's roundings of their magnitudes.
template <typename T, typename A>
void check_moments(queue& q, const std::vector<T>& data, const Segments& segments) {
  const auto found = run_twice(q, data, segments, mean_variance<A>{});
  std::uint64_t wrong = 0;
  for (std::uint64_t s = 0; s < segments.count(); ++s) {
    const std::uint64_t length = segments.end(s) - segments.begin(s);
    long double sum = 0, sum_abs = 0;
    for (std::uint64_t i = segments.begin(s); i < segments.end(s); ++i) {
      sum += as_long_double(data[i]);
      sum_abs += std::fabs(as_long_double(data[i]));
    }
    const long double mean = length ? sum / length : 0;
    long double m2 = 0, m2_magnitude = 0;
    for (std::uint64_t i = segments.begin(s); i < segments.end(s); ++i) {
      m2 += (as_long_double(data[i]) - mean) * (as_long_double(data[i]) - mean);
      m2_magnitude += as_long_double(data[i]) * as_long_double(data[i]);
    }
    const long double scale = length ? sum_abs / length : 0;
    const bool good = found[s].count == length && within<float, A>(found[s].mean, mean, scale, length) &&
                      within<float, A>(found[s].m2, m2, m2_magnitude, length);
    if (!good && wrong++ < 5)
      ADD_FAILURE() << "segment " << s << " (" << length << " elements): count " << found[s].count << " mean "
                    << found[s].mean << " (exact " << mean << ") m2 " << found[s].m2 << " (exact " << m2 << ")";
  }
  EXPECT_EQ(wrong, 0u);
}

template <typename T>
bool runs(queue& q, op_kind op) {
  return !q.get_device().why_unsupported(detail::element_type_of<T>(), op).has_value();
}

template <typename T>
void check_every_transform(queue& q, const std::vector<T>& data, const Segments& segments) {
  check_exact(q, data, segments);
  if constexpr (detail::is_floating_v<T>)
    if (runs<T>(q, op_kind::norm_l2)) check_norms(q, data, segments);
  if constexpr (!std::is_same_v<T, double>)
    if (runs<T>(q, op_kind::mean_var_f32)) check_moments<T, float>(q, data, segments);
  if (runs<T>(q, op_kind::mean_var_f64)) check_moments<T, double>(q, data, segments);
}

template <typename T>
class SegmentTransform : public ::testing::Test {};
TYPED_TEST_SUITE(SegmentTransform, ArithmeticTypes);

TYPED_TEST(SegmentTransform, GivenSegmentsOfEverySize_WhenTransformedPerSegment_ThenEachIsItsOwnTransformReduction) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (!runs<T>(q, op_kind::count_nonzero))
    GTEST_SKIP() << q.get_device().name() << ": " << *q.get_device().why_unsupported(detail::element_type_of<T>(), op_kind::count_nonzero);
  std::mt19937 rng(23);
  std::vector<std::uint64_t> tiny(500), lanes(300), groups(30), skewed(2000);
  for (auto& s : tiny) s = rng() % 8;  // empty ones among them: 0, a count of 0
  for (auto& s : lanes) s = 20 + rng() % 500;
  for (auto& s : groups) s = 3000 + rng() % 9000;
  for (auto& s : skewed) s = 1 + rng() % 4;
  skewed[1234] = 90000;
  const std::vector<std::uint64_t> few_long = {70001, 0, 130000};
  // Equal offsets of one element are planned as rows of one, which GPUs read a 16-byte vector of rows at a time
  // (segtransform.cl): a count that is not a whole number of vectors leaves a tail.
  const std::vector<std::uint64_t> ones(1001, 1);
  std::uint32_t seed = 1;
  for (const auto& sizes : {tiny, lanes, groups, skewed, few_long, ones}) {
    const Segments segments = segments_of(sizes);
    SCOPED_TRACE(std::to_string(segments.count()) + " segments of " + std::to_string(segments.offsets.back()) + " elements");
    check_every_transform(q, segment_values<T>(segments.offsets.back(), seed++), segments);
  }
}

TEST(SegmentTransformOfBool, GivenBytesOtherThanOne_ThenEveryNonzeroByteCountsAsTrue) {
  ZR_REQUIRE_QUEUE(q);
  std::mt19937 rng(5);
  std::vector<std::uint8_t> bytes(30011);
  for (auto& b : bytes) b = rng() % 3 == 0 ? 0 : static_cast<std::uint8_t>(rng() % 255 + 1);
  const std::span<const bool> data(reinterpret_cast<const bool*>(bytes.data()), bytes.size());
  const std::uint64_t columns = 1000;
  const std::uint64_t rows = bytes.size() / columns;
  std::vector<std::uint64_t> counts(rows), trues(rows);
  std::vector<std::int64_t> sums(rows);
  q.reduce_rows(data.first(rows * columns), columns, std::span<std::uint64_t>(counts), count_nonzero{}).wait();
  q.reduce_rows(data.first(rows * columns), columns, std::span<std::uint64_t>(trues), count_equal{true}).wait();
  q.reduce_rows(data.first(rows * columns), columns, std::span<std::int64_t>(sums), sum_as<std::int64_t>{}).wait();
  for (std::uint64_t r = 0; r < rows; ++r) {
    std::uint64_t expected = 0;
    for (std::uint64_t c = 0; c < columns; ++c) expected += bytes[r * columns + c] != 0;
    EXPECT_EQ(counts[r], expected) << "row " << r;
    EXPECT_EQ(trues[r], expected) << "row " << r;
    EXPECT_EQ(sums[r], static_cast<std::int64_t>(expected)) << "row " << r;
  }
}

TEST(SegmentTransformPlacement, GivenDeviceBeginEndArraysAndDeviceResults_WhenNormsAndMomentsArePerSegment_ThenEachIsItsOwn) {
  ZR_REQUIRE_QUEUE(q);
  // Overlapping windows in reverse order, one empty and one long, from 32-bit arrays in device memory.
  const std::uint64_t n = 50000;
  const std::vector<float> data = segment_values<float>(n, 9);
  std::vector<std::uint32_t> begins, ends;
  for (std::uint32_t b = n - 50; b > 100; b -= 97) {
    begins.push_back(b);
    ends.push_back(std::min<std::uint32_t>(n, b + b % 300));
  }
  begins.push_back(3);
  ends.push_back(n);
  const std::uint64_t segments = begins.size();
  auto device_data = make_device_array<float>(q, n);
  auto device_begins = make_device_array<std::uint32_t>(q, segments);
  auto device_ends = make_device_array<std::uint32_t>(q, segments);
  auto device_norms = make_device_array<float>(q, segments);
  auto device_moments = make_device_array<moments<float>>(q, segments);
  q.copy(data.data(), device_data.get(), n).wait();
  q.copy(begins.data(), device_begins.get(), segments).wait();
  q.copy(ends.data(), device_ends.get(), segments).wait();
  q.reduce_segments(device_data.get(), n, device_begins.get(), device_ends.get(), segments, device_norms.get(), norm_l2{});
  q.reduce_segments(device_data.get(), n, device_begins.get(), device_ends.get(), segments, device_moments.get(),
                    mean_variance<float>{});
  std::vector<float> norms(segments);
  std::vector<moments<float>> found(segments);
  q.copy(device_norms.get(), norms.data(), segments).wait();
  q.copy(device_moments.get(), found.data(), segments).wait();
  for (std::uint64_t s = 0; s < segments; ++s) {
    long double squares = 0, sum = 0;
    for (std::uint64_t i = begins[s]; i < ends[s]; ++i) {
      squares += static_cast<long double>(data[i]) * data[i];
      sum += data[i];
    }
    const std::uint64_t length = ends[s] - begins[s];
    EXPECT_TRUE((within<float, float>(norms[s], std::sqrt(squares), std::sqrt(squares), length)))
        << "segment " << s << ": norm " << norms[s] << ", exact " << std::sqrt(squares);
    EXPECT_EQ(found[s].count, length) << "segment " << s;
    const long double mean = length ? sum / length : 0;
    EXPECT_TRUE((within<float, float>(found[s].mean, mean, 5, length))) << "segment " << s << ": mean " << found[s].mean << ", exact " << mean;
  }
}

TEST(SegmentTransformErrors, GivenTheWrongResultTypeOrAnUnsupportedPair_ThenItIsRefused) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> data(12, 1.0f);
  const std::vector<std::uint64_t> offsets = {0, 5, 12};
  std::vector<double> sums(2);
  // sum_as<double> needs fp64: refused by name on a device without it, else each segment in double.
  if (const auto why = q.get_device().why_unsupported(element_type::f32, op_kind::sum_f64)) {
    EXPECT_THROW(q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(offsets),
                                   std::span<double>(sums), sum_as<double>{}),
                 UnsupportedError);
  } else {
    q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(offsets), std::span<double>(sums),
                      sum_as<double>{})
        .wait();
    EXPECT_EQ(sums, (std::vector<double>{5.0, 7.0}));
  }
  std::vector<std::uint64_t> too_few(1);
  EXPECT_THROW(q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(offsets),
                                 std::span<std::uint64_t>(too_few), count_nonzero{}),
               InvalidArgumentError);
}

}  // namespace
}  // namespace zr::test
