// User-defined operators per segment (queue::reduce_segments and reduce_rows with a zr::user_operator): each
// segment's accumulator must be what a host loop written here gives for that segment alone, the transform seeing
// each element's index in the input, for the sample operators of tools/operators (with and without an identity,
// accumulators of 4 to 32 bytes, elements of 1 to 8 bytes); segments of every size (a work-item each, a group each,
// slices of a few long ones), empty ones, begin/end arrays, rows, results in host and device memory, initial values
// and initialize_to_identity. Runs are repeated: the same bits each time.
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include "api_test_support.hpp"
#include "sample_operator_reference.hpp"

namespace zr::test {
namespace {

using bounds = zr_operators::bounds_acc;
using zr_operators::histogram8;
using zr_operators::mix_state;
using zr_operators::range16;
using namespace zr_operators::reference;

// Distinct initial values per segment, so that a result folded after the wrong segment's shows.
bounds initial_of(const bounds*, std::uint64_t s) {
  return {-0.25f - static_cast<float>(s % 5), 0.25f + static_cast<float>(s % 3), 7 + s, 9 + s, 3};
}
range16 initial_of(const range16*, std::uint64_t s) { return {static_cast<std::int16_t>(-3 - s % 7), 4}; }
histogram8 initial_of(const histogram8*, std::uint64_t s) {
  return {{1, 2, 3, 4, 5, 6, 7, static_cast<std::uint32_t>(s)}};
}
mix_state initial_of(const mix_state*, std::uint64_t s) { return {-5 - static_cast<std::int64_t>(s), 0x9e3779b97f4a7c15ull}; }

template <typename T>
std::vector<T> operator_input(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> x(n);
  for (auto& v : x) {
    if constexpr (std::is_same_v<T, float>) v = static_cast<float>(static_cast<int>(rng() % 301) - 150) / 4.0f;  // ties
    else v = static_cast<T>(rng());
  }
  if constexpr (std::is_same_v<T, float>)
    if (n > 10) x[n / 3] = std::numeric_limits<float>::quiet_NaN();
  return x;
}

// Segment s is [begins[s], ends[s]).
struct Bounds {
  std::vector<std::uint64_t> begins, ends;
};
Bounds from_offsets(const std::vector<std::uint64_t>& offsets) {
  return {{offsets.begin(), offsets.end() - 1}, {offsets.begin() + 1, offsets.end()}};
}
std::vector<std::uint64_t> offsets_of_sizes(std::uint64_t first, const std::vector<std::uint64_t>& sizes) {
  std::vector<std::uint64_t> offsets{first};
  for (auto size : sizes) offsets.push_back(offsets.back() + size);
  return offsets;
}

// Each segment's host fold: after its initial value (`initial`), or from its first element with
// initialize_to_identity (the identity for an empty segment).
template <typename T, typename A>
std::vector<A> host_segments(const std::vector<T>& x, const Bounds& b, const std::vector<A>* initial) {
  const A* tag = nullptr;
  std::vector<A> want;
  for (std::size_t s = 0; s < b.begins.size(); ++s) {
    std::optional<A> acc;
    if (initial) acc = (*initial)[s];
    for (std::uint64_t i = b.begins[s]; i < b.ends[s]; ++i) acc = acc ? combine(*acc, transform(tag, x[i], i)) : transform(tag, x[i], i);
    if constexpr (requires { identity(tag); }) {
      if (!acc) acc = identity(tag);
    }
    want.push_back(*acc);
  }
  return want;
}

template <typename A>
void expect_each_segment(const std::vector<A>& got, const std::vector<A>& want, const std::string& where) {
  ASSERT_EQ(got.size(), want.size());
  int reported = 0;
  for (std::size_t s = 0; s < got.size() && reported < 5; ++s)
    if (!same(got[s], want[s])) {
      ADD_FAILURE() << where << ": segment " << s << " of " << got.size() << " differs from the host fold";
      ++reported;
    }
}

// Runs the operator over the segments (offsets when `offsets` is set, else begin and end arrays) twice, into host or
// device results, and checks both runs against the host folds.
template <typename T, typename A>
void check_operator(queue& q, const user_operator_source& source, const std::vector<T>& x, const Bounds& b,
                    const std::vector<std::uint64_t>* offsets, bool from_identity, bool device_results,
                    const std::string& where) {
  const user_operator<T, A> op(source);
  const std::uint64_t segments = b.begins.size();
  std::vector<A> initial(segments);
  for (std::uint64_t s = 0; s < segments; ++s) initial[s] = initial_of(static_cast<const A*>(nullptr), s);
  const std::vector<A> want = host_segments(x, b, from_identity ? nullptr : &initial);
  const property_list props = from_identity ? property_list{property::reduction::initialize_to_identity{}} : property_list{};
  auto input = make_device_array<T>(q, x.size());
  q.copy(x.data(), input.get(), x.size()).wait();
  std::vector<A> runs[2];
  for (auto& got : runs) {
    got = initial;
    auto results = make_device_array<A>(q, std::max<std::uint64_t>(segments, 1));
    A* target = got.data();
    if (device_results) {
      q.copy(got.data(), results.get(), segments).wait();
      target = results.get();
    }
    if (offsets)
      q.reduce_segments(input.get(), x.size(), offsets->data(), segments, target, op, props).wait();
    else
      q.reduce_segments(input.get(), x.size(), b.begins.data(), b.ends.data(), segments, target, op, props).wait();
    if (device_results) q.copy(results.get(), got.data(), segments).wait();
    expect_each_segment(got, want, where);
  }
  EXPECT_EQ(std::memcmp(runs[0].data(), runs[1].data(), segments * sizeof(A)), 0) << where << ": run 2 gave other bytes";
}

// The segment shapes every operator runs over: n elements in tiny segments (a work-item each), medium ones (a group
// each), two long ones (slices), skewed sizes with empty segments, and a few elements before and after.
std::vector<std::pair<std::string, std::vector<std::uint64_t>>> offset_shapes(std::uint64_t n) {
  std::mt19937_64 rng(43);
  std::vector<std::uint64_t> tiny, medium, skewed;
  for (std::uint64_t total = 0; total + 8 <= n;) total += tiny.emplace_back(rng() % 9);
  for (std::uint64_t total = 0; total + 700 <= n;) total += medium.emplace_back(20 + rng() % 681);
  for (std::uint64_t total = 0; total + 40 <= n / 2;) total += skewed.emplace_back(rng() % 3 == 0 ? 0 : rng() % 41);
  skewed.insert(skewed.begin() + static_cast<std::ptrdiff_t>(skewed.size() / 2), n / 3);
  return {{"tiny segments", offsets_of_sizes(2, tiny)},
          {"medium segments", offsets_of_sizes(0, medium)},
          {"two long segments and an empty one", offsets_of_sizes(1, {n / 2 - 1, 0, n / 2 - 3})},
          {"skewed sizes with empty segments", offsets_of_sizes(3, skewed)}};
}

template <typename T, typename A>
void check_every_shape(const user_operator_source& source, bool has_identity, std::uint32_t seed) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint64_t n = 300007;
  const std::vector<T> x = operator_input<T>(n, seed);
  for (const auto& [shape, offsets] : offset_shapes(n)) {
    const Bounds b = from_offsets(offsets);
    bool has_empty = false;
    for (std::size_t s = 0; s < b.begins.size(); ++s) has_empty |= b.ends[s] == b.begins[s];
    for (bool from_identity : {false, true}) {
      if (from_identity && has_empty && !has_identity) continue;  // refused: see the misuse test below
      for (bool device_results : {false, true})
        check_operator<T, A>(q, source, x, b, &offsets, from_identity, device_results,
                             std::string(source.name) + ", " + shape + (from_identity ? ", from the identity" : ", after initial values") +
                                 (device_results ? ", device results" : ", host results"));
    }
  }
}

TEST(SegmentUserOperators, GivenBoundsWithIndicesWhenReducingEverySegmentShapeThenEachSegmentIsTheHostFoldWithInputIndices) {
  check_every_shape<float, bounds>(zr_operators::bounds, true, 1);
}

TEST(SegmentUserOperators, GivenAnOperatorWithoutIdentityWhenReducingEverySegmentShapeThenEachSegmentIsTheHostFold) {
  check_every_shape<std::int16_t, range16>(zr_operators::i16_range, false, 2);
}

TEST(SegmentUserOperators, GivenByteHistogramsWhenReducingEverySegmentShapeThenEachSegmentIsTheHostFold) {
  check_every_shape<std::uint8_t, histogram8>(zr_operators::u8_histogram, true, 3);
}

TEST(SegmentUserOperators, GivenAnIndexedMixOf64BitValuesWhenReducingEverySegmentShapeThenEachSegmentIsTheHostFold) {
  check_every_shape<std::int64_t, mix_state>(zr_operators::i64_mix, true, 4);
}

TEST(SegmentUserOperators, GivenBeginAndEndArraysThatOverlapWhenReducingThenEachSegmentIsTheHostFoldOfItsOwnRange) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint64_t n = 50000;
  const std::vector<float> x = operator_input<float>(n, 5);
  std::mt19937_64 rng(6);
  Bounds b;
  for (int s = 0; s < 900; ++s) {
    const std::uint64_t begin = rng() % (n + 1);
    const std::uint64_t length = s % 50 == 0 ? rng() % (n / 3) : rng() % 60;
    b.begins.push_back(begin);
    b.ends.push_back(s % 17 == 4 ? begin : std::min(n, begin + length));
  }
  for (bool from_identity : {false, true})
    check_operator<float, bounds>(q, zr_operators::bounds, x, b, nullptr, from_identity, false,
                                  std::string("bounds, begin and end arrays") + (from_identity ? ", from the identity" : ""));
}

TEST(SegmentUserOperators, GivenRowsWhenReducingThenEachRowIsTheHostFold) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<std::int64_t, mix_state> op(zr_operators::i64_mix);
  for (std::uint64_t columns : {1ull, 5ull, 3000ull}) {
    const std::uint64_t rows = 120000 / columns;
    const std::vector<std::int64_t> x = operator_input<std::int64_t>(rows * columns, 7);
    std::vector<std::uint64_t> offsets;
    for (std::uint64_t r = 0; r <= rows; ++r) offsets.push_back(r * columns);
    const std::vector<mix_state> want = host_segments<std::int64_t, mix_state>(x, from_offsets(offsets), nullptr);
    std::vector<mix_state> got(rows);
    q.reduce_rows(std::span<const std::int64_t>(x), columns, std::span<mix_state>(got), op,
                  property_list{property::reduction::initialize_to_identity{}})
        .wait();
    expect_each_segment(got, want, "i64_mix, rows of " + std::to_string(columns));
  }
}

TEST(SegmentUserOperatorsMisuse, GivenAnEmptySegmentAndAnOperatorWithoutIdentityWhenStartingFromTheIdentityThenItIsRefused) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<std::int16_t, range16> op(zr_operators::i16_range);
  const std::vector<std::int16_t> x = operator_input<std::int16_t>(100, 8);
  const std::vector<std::uint64_t> offsets{0, 40, 40, 100};
  std::vector<range16> results(3, range16{1, 2});
  try {
    q.reduce_segments(std::span<const std::int16_t>(x), std::span<const std::uint64_t>(offsets),
                      std::span<range16>(results), op, property_list{property::reduction::initialize_to_identity{}})
        .wait();
    FAIL() << "an empty segment without an identity was accepted";
  } catch (const InvalidArgumentError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("segment 1 is empty"), std::string::npos) << what;
    EXPECT_NE(what.find("i16_range"), std::string::npos) << what;
  }
  // Folded into initial values, the empty segment keeps its own.
  const std::vector<range16> initial(3, range16{1, 2});
  results = initial;
  q.reduce_segments(std::span<const std::int16_t>(x), std::span<const std::uint64_t>(offsets), std::span<range16>(results), op)
      .wait();
  expect_each_segment(results, host_segments(x, from_offsets(offsets), &initial), "i16_range after initial values");
  EXPECT_TRUE(same(results[1], range16{1, 2}));
}

TEST(SegmentUserOperatorsMisuse, GivenResultsNotAlignedToTheAccumulatorWhenReducingThenTheAlignmentIsNamed) {
  ZR_REQUIRE_QUEUE(q);
  const user_operator<float, bounds> op(zr_operators::bounds);
  const std::vector<float> x(64, 1.0f);
  auto input = make_device_array<float>(q, x.size());
  q.copy(x.data(), input.get(), x.size()).wait();
  const std::vector<std::uint64_t> offsets{0, 32, 64};
  std::vector<std::byte> storage(3 * sizeof(bounds) + 8);
  auto* misaligned = reinterpret_cast<bounds*>(storage.data() + 4 + (8 - reinterpret_cast<std::uintptr_t>(storage.data()) % 8) % 8);
  try {
    q.reduce_segments(input.get(), x.size(), offsets.data(), 2, misaligned, op).wait();
    FAIL() << "misaligned results were accepted";
  } catch (const InvalidArgumentError& error) {
    EXPECT_NE(std::string(error.what()).find("not aligned"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace zr::test
