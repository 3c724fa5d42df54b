// queue::reduce_segments with begin and end arrays: segments anywhere in the input (overlapping, out of order,
// leaving elements out, empty, at the very end), each against a host fold written here; lengths that pick each
// plan family; device and host memory, 32- and 64-bit offsets, initial values; and the bad arrays refused.
#include "support/expect_error.hpp"

#include <algorithm>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

using zr_test::expect_error;

struct Bounds {
  std::vector<std::uint64_t> begins, ends;
};

// `segments` segments of up to `longest` elements at random places in [0, n), with every seventh empty and
// every thirteenth starting at n.
Bounds random_bounds(std::uint64_t n, std::uint64_t segments, std::uint64_t longest, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  Bounds b;
  for (std::uint64_t s = 0; s < segments; ++s) {
    const std::uint64_t begin = s % 13 == 12 ? n : rng() % (n + 1);
    const std::uint64_t end = s % 7 == 3 ? begin : std::min(n, begin + rng() % (longest + 1));
    b.begins.push_back(begin);
    b.ends.push_back(end);
  }
  return b;
}

enum class Where { device, host };

template <typename T, typename Offset, typename Op>
void check_bounds(queue& q, const Bounds& b, std::uint64_t n, Op op, Where offsets_in, bool initialize,
                  std::uint32_t seed) {
  const std::uint64_t segments = b.begins.size();
  const auto data = exact_values<T>(n, seed);
  const auto initial = exact_values<T>(segments, seed + 1);
  std::vector<T> expected(segments);
  for (std::uint64_t s = 0; s < segments; ++s)
    expected[s] = host_fold(std::span<const T>(data.data() + b.begins[s], b.ends[s] - b.begins[s]),
                            initialize ? known_identity_v<Op, T> : initial[s], op);

  const std::vector<Offset> begins(b.begins.begin(), b.begins.end()), ends(b.ends.begin(), b.ends.end());
  auto input = make_device_array<T>(q, n);
  q.copy(data.data(), input.get(), n).wait();
  auto device_begins = make_device_array<Offset>(q, segments), device_ends = make_device_array<Offset>(q, segments);
  q.copy(begins.data(), device_begins.get(), segments).wait();
  q.copy(ends.data(), device_ends.get(), segments).wait();
  std::vector<T> results = initial;
  const property_list props = initialize ? property_list{property::reduction::initialize_to_identity{}} : property_list{};
  std::string kernels;
  event done;
  if (offsets_in == Where::device) {
    done = q.reduce_segments(input.get(), n, device_begins.get(), device_ends.get(), segments, results.data(), op, props);
  } else {
    done = q.reduce_segments(std::span<const T>(data), std::span<const Offset>(begins), std::span<const Offset>(ends),
                             std::span<T>(results), op, props);
  }
  done.wait();
  for (const auto& pass : done.get_profile().passes)
    if (pass.what == pass_profile::kind::kernel) kernels += pass.kernel + " ";
  std::uint64_t wrong = 0;
  for (std::uint64_t s = 0; s < segments; ++s)
    if (results[s] != expected[s] && wrong++ < 5)
      ADD_FAILURE() << "segment " << s << " [" << b.begins[s] << ", " << b.ends[s] << "): got " << +results[s]
                    << ", expected " << +expected[s] << " (" << kernels << ")";
  EXPECT_EQ(wrong, 0u) << kernels;
}

TEST(SegmentBounds, GivenSegmentsAnywhereWhenReducingThenEachMatchesTheHostFoldOfItsOwnRange) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint64_t n = 100'000;
  std::uint32_t seed = 7;
  // Longest 6: a work-item per segment; 700: lanes per segment on GPUs; 40,000: a group per segment (and slices
  // for the few).
  for (std::uint64_t longest : {6u, 700u, 40'000u}) {
    SCOPED_TRACE("longest " + std::to_string(longest));
    const std::uint64_t segments = longest == 40'000u ? 9 : 2 * n / (longest / 2 + 1);
    const Bounds b = random_bounds(n, segments, longest, seed++);
    check_bounds<std::int32_t, std::uint64_t>(q, b, n, plus<>(), Where::device, true, seed++);
    check_bounds<std::int32_t, std::int32_t>(q, b, n, maximum<>(), Where::host, false, seed++);
    check_bounds<float, std::uint32_t>(q, b, n, minimum<>(), Where::device, false, seed++);
    check_bounds<std::int64_t, std::int64_t>(q, b, n, bit_xor<>(), Where::host, true, seed++);
    if (!q.get_device().why_unsupported(element_type::f64, op_kind::plus))
      check_bounds<double, std::uint64_t>(q, b, n, plus<>(), Where::device, false, seed++);
  }
}

TEST(SegmentBounds, GivenOffsetsWrittenAsBeginsAndEndsWhenReducingThenTheResultsAreTheOffsetsOnes) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<std::uint32_t> offsets = {0, 3, 3, 900, 901, 5000, 20000};
  const std::vector<std::uint32_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  const auto data = exact_values<std::int32_t>(offsets.back(), 3);
  std::vector<std::int32_t> by_offsets(begins.size(), 5), by_bounds(begins.size(), 5);
  q.reduce_segments(std::span<const std::int32_t>(data), std::span<const std::uint32_t>(offsets),
                    std::span<std::int32_t>(by_offsets), plus<>())
      .wait();
  q.reduce_segments(std::span<const std::int32_t>(data), std::span<const std::uint32_t>(begins),
                    std::span<const std::uint32_t>(ends), std::span<std::int32_t>(by_bounds), plus<>())
      .wait();
  EXPECT_EQ(by_bounds, by_offsets);
  for (std::size_t s = 0; s < begins.size(); ++s)
    EXPECT_EQ(by_bounds[s], host_fold(std::span<const std::int32_t>(data.data() + begins[s], ends[s] - begins[s]), 5,
                                      std::plus<>()))
        << "segment " << s;
}

TEST(SegmentBoundsMisuse, GivenBadBeginsOrEndsWhenReducingThenInvalidArgumentNamesThem) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> data(100, 1);
  std::vector<int> results(2);
  auto reduce = [&](std::vector<std::int64_t> begins, std::vector<std::int64_t> ends) {
    q.reduce_segments(std::span<const int>(data), std::span<const std::int64_t>(begins),
                      std::span<const std::int64_t>(ends), std::span<int>(results), plus<>())
        .wait();
  };
  expect_error<InvalidArgumentError>([&] { reduce({0, 50}, {10, 40}); }, "segment 1 ends at 40, before it begins at 50");
  expect_error<InvalidArgumentError>([&] { reduce({0, 50}, {10, 101}); }, "segment end 1 is 101, past the end of the input (n = 100)");
  expect_error<InvalidArgumentError>([&] { reduce({-2, 50}, {10, 60}); }, "segment begin 0 is negative (-2)");
  expect_error<InvalidArgumentError>([&] { reduce({0, 50}, {10}); }, "begin offsets are 2 but their end offsets 1");
  expect_error<InvalidArgumentError>([&] { reduce({0, 50, 60}, {10, 60, 70}); },
                                     "the results span holds 2 values but there are 3 segments");

  // Device arrays are read in queue order: the error comes from the event.
  auto input = make_device_array<int>(q, 100);
  q.copy(data.data(), input.get(), 100).wait();
  const std::vector<std::uint32_t> begins = {0, 90}, ends = {100, 80};
  auto device_begins = make_device_array<std::uint32_t>(q, 2), device_ends = make_device_array<std::uint32_t>(q, 2);
  q.copy(begins.data(), device_begins.get(), 2).wait();
  q.copy(ends.data(), device_ends.get(), 2).wait();
  expect_error<InvalidArgumentError>(
      [&] { q.reduce_segments(input.get(), 100, device_begins.get(), device_ends.get(), 2, results.data(), plus<>()).wait(); },
      "segment 1 ends at 80, before it begins at 90");
  expect_error<InvalidArgumentError>(
      [&] { q.reduce_segments(input.get(), 100, device_begins.get(), device_ends.get() + 1, 2, results.data(), plus<>()); },
      "runs past the end of its allocation");
  expect_error<InvalidArgumentError>(
      [&] {
        q.reduce_segments(input.get(), 100, device_begins.get(), static_cast<const std::uint32_t*>(nullptr), 2,
                          results.data(), plus<>());
      },
      "the segments' end offsets are nullptr");
}

}  // namespace
}  // namespace zr::test
