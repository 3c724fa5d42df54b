// Offsets in device memory are checked by a kernel (segcheck, runtime/core/plans/segment_check.hpp), offsets in host
// memory by the host: the same offsets must give the same error, word for word, or the same plan and the same
// results, whatever the offsets' width and signedness, for segments + 1 offsets and for begin and end arrays, with
// every kind of bad bound (negative, past n, decreasing, an end before its begin, an empty segment where the op
// refuses one) at the start, in the middle and at the end: a few offsets (read back and checked on the host) and
// hundreds of thousands (checked by the device, in many groups).
#include "support/expect_error.hpp"

#include <algorithm>
#include <numeric>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

// What one call gave: its error's message, or its plan and a digest of its results.
struct Outcome {
  std::string error;
  std::string plan;
  std::vector<std::int64_t> results;
  bool operator==(const Outcome&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Outcome& o) {
  if (!o.error.empty()) return out << "error: " << o.error;
  return out << "plan: " << o.plan << " (" << o.results.size() << " results)";
}

template <typename Run>
Outcome outcome_of(Run run) {
  Outcome o;
  try {
    event done = run();
    done.wait();
    if (!done.get_profile().plans.empty()) o.plan = done.get_profile().plans.front().description;
  } catch (const InvalidArgumentError& e) {
    o.error = e.what();
  }
  return o;
}

enum class Op { plus, argmax };

// The same offsets (segments + 1 of them, or begins then ends when begin_end) given in host and in device memory,
// with the input in device memory both times: the outcomes must agree. `shifted`: the device offsets start one
// element into their allocation (off the 16-byte boundary where the device check loads vectors of them).
template <typename Offset>
void expect_same_outcome(queue& q, std::uint64_t n, const std::vector<Offset>& bounds, bool begin_end, Op op,
                         bool shifted = false) {
  const std::uint64_t segments = begin_end ? bounds.size() / 2 : bounds.size() - 1;
  std::vector<int> data(n);
  for (std::uint64_t i = 0; i < n; ++i) data[i] = static_cast<int>(i * 7919 % 1000) + 1;
  auto input = make_device_array<int>(q, n ? n : 1);
  if (n) q.copy(data.data(), input.get(), n).wait();
  auto device_allocation = make_device_array<Offset>(q, bounds.size() + 1);
  Offset* const device_bounds = device_allocation.get() + (shifted ? 1 : 0);
  q.copy(bounds.data(), device_bounds, bounds.size()).wait();
  auto run = [&](const Offset* where) {
    return outcome_of([&]() -> event {
      const Offset* ends = where + segments;
      if (op == Op::argmax) {
        std::vector<arg_result<int>> results(segments);
        event e = begin_end ? q.reduce_segments(input.get(), n, where, ends, segments, results.data(), argmax<>())
                            : q.reduce_segments(input.get(), n, where, segments, results.data(), argmax<>());
        e.wait();
        return e;
      }
      std::vector<int> results(segments, 7);
      event e = begin_end ? q.reduce_segments(input.get(), n, where, ends, segments, results.data(), plus<>())
                          : q.reduce_segments(input.get(), n, where, segments, results.data(), plus<>());
      e.wait();
      return e;
    });
  };
  // The results themselves: the host offsets' run against a host fold, then the device offsets' run against it.
  auto results_of = [&](const Offset* where) {
    std::vector<std::int64_t> digest;
    const Offset* ends = where + segments;
    if (op == Op::argmax) {
      std::vector<arg_result<int>> results(segments);
      (begin_end ? q.reduce_segments(input.get(), n, where, ends, segments, results.data(), argmax<>())
                 : q.reduce_segments(input.get(), n, where, segments, results.data(), argmax<>()))
          .wait();
      for (const auto& r : results) digest.push_back(static_cast<std::int64_t>(r.index) * 1000003 + r.value);
    } else {
      std::vector<int> results(segments, 7);
      (begin_end ? q.reduce_segments(input.get(), n, where, ends, segments, results.data(), plus<>())
                 : q.reduce_segments(input.get(), n, where, segments, results.data(), plus<>()))
          .wait();
      digest.assign(results.begin(), results.end());
    }
    return digest;
  };
  Outcome on_host = run(bounds.data());
  Outcome on_device = run(device_bounds);
  if (on_host.error.empty() && on_device.error.empty()) {
    on_host.results = results_of(bounds.data());
    on_device.results = results_of(device_bounds);
    // Every segment against the host fold of its own range (argmax: the first greatest, counted from the begin).
    for (std::uint64_t s = 0; s < segments; ++s) {
      const auto begin = static_cast<std::uint64_t>(bounds[s]);
      const auto end = static_cast<std::uint64_t>(begin_end ? bounds[segments + s] : bounds[s + 1]);
      std::int64_t expected = 0;
      if (op == Op::argmax) {
        const auto best = std::max_element(data.begin() + begin, data.begin() + end);
        expected = static_cast<std::int64_t>(best - (data.begin() + begin)) * 1000003 + *best;
      } else {
        expected = std::accumulate(data.begin() + begin, data.begin() + end, 7);  // after the initial value
      }
      ASSERT_EQ(on_device.results[s], expected) << "segment " << s << " [" << begin << ", " << end << ")";
    }
  }
  EXPECT_EQ(on_device, on_host);
}

template <typename Offset>
void expect_same_outcomes(queue& q) {
  constexpr bool is_signed = std::is_signed_v<Offset>;
  const Offset minus_one = is_signed ? Offset(-1) : Offset(0);
  const std::vector<std::vector<Offset>> offsets = {
      {0, 10, 20, 30, 40, 50},   // equal segments from 0 to n: planned as rows
      {0, 1, 2, 3, 40, 41, 50},  // skewed
      {5, 10, 45},               // not from 0 to n
      {0, 10, 5, 50},            // decreasing
      {0, 10, 51},               // the last past n
      {51, 60},                  // the first past n
      {0, 10, 10, 50},           // an empty segment: argmax refuses it
      {50},                      // no segments
      {51},                      // no segments, the one offset past n
  };
  for (const auto& o : offsets)
    for (Op op : {Op::plus, Op::argmax}) {
      SCOPED_TRACE(std::string(op == Op::plus ? "plus" : "argmax") + ", offsets of " + std::to_string(o.size()));
      expect_same_outcome<Offset>(q, 50, o, false, op);
    }
  if (is_signed) {
    expect_same_outcome<Offset>(q, 50, {minus_one, 10, 50}, false, Op::plus);
    expect_same_outcome<Offset>(q, 50, {0, minus_one, 50}, false, Op::plus);
    expect_same_outcome<Offset>(q, 50, {0, 10, 40, minus_one}, true, Op::plus);  // an end negative
  }
  // Begins, then ends.
  for (const auto& b : std::vector<std::vector<Offset>>{{0, 30, 20, 10, 50, 25},     // overlapping, gaps
                                                        {0, 30, 10, 20},             // an end before its begin
                                                        {0, 30, 10, 51},             // an end past n
                                                        {0, 51, 10, 60},             // a begin past n
                                                        {0, 30, 10, 30}})            // an empty segment
    for (Op op : {Op::plus, Op::argmax}) {
      SCOPED_TRACE(std::string(op == Op::plus ? "plus" : "argmax") + ", begins and ends");
      expect_same_outcome<Offset>(q, 50, b, true, op);
    }

  // Many groups: 300,003 segments of one (not a whole number of the check's vectors of bounds), a bad bound at the
  // start, in the middle, near the end.
  const std::uint64_t many = 300'003;
  std::vector<Offset> ones(many + 1);
  std::iota(ones.begin(), ones.end(), Offset(0));
  expect_same_outcome<Offset>(q, many, ones, false, Op::plus);
  for (std::uint64_t at : {std::uint64_t{1}, many / 2 + 3, many - 1}) {
    SCOPED_TRACE("a bad bound at " + std::to_string(at));
    std::vector<Offset> decreasing = ones;
    decreasing[at] = Offset(at + 5);  // offset at > offset at + 1
    expect_same_outcome<Offset>(q, many, decreasing, false, Op::plus);
    std::vector<Offset> empty = ones;
    empty[at] = Offset(at - 1);  // segment at - 1 empty
    expect_same_outcome<Offset>(q, many, empty, false, Op::argmax);
    std::vector<Offset> past = ones;
    past[at] = Offset(many + 1);
    expect_same_outcome<Offset>(q, many, past, false, Op::plus);
    expect_same_outcome<Offset>(q, many, past, false, Op::plus, /*shifted=*/true);
  }
  expect_same_outcome<Offset>(q, many, ones, false, Op::argmax, /*shifted=*/true);
  // The same as begins and ends (many enough that the device checks them too).
  std::vector<Offset> pairs(2 * many);
  for (std::uint64_t s = 0; s < many; ++s) {
    pairs[s] = Offset(s);
    pairs[many + s] = Offset(s + 1);
  }
  expect_same_outcome<Offset>(q, many, pairs, true, Op::argmax);
  for (std::uint64_t at : {std::uint64_t{0}, many / 2 + 3, many - 1}) {
    SCOPED_TRACE("a bad begin or end at " + std::to_string(at));
    std::vector<Offset> backwards = pairs;
    backwards[many + at] = Offset(at / 2);  // an end before its begin (or empty at 0)
    expect_same_outcome<Offset>(q, many, backwards, true, Op::plus);
    std::vector<Offset> empty = pairs;
    empty[many + at] = Offset(at);
    expect_same_outcome<Offset>(q, many, empty, true, Op::argmax);
    std::vector<Offset> past = pairs;
    past[at] = Offset(many + 1);
    expect_same_outcome<Offset>(q, many, past, true, Op::plus);
    if (is_signed) {
      std::vector<Offset> negative = pairs;
      negative[many + at] = minus_one;
      expect_same_outcome<Offset>(q, many, negative, true, Op::plus);
      std::vector<Offset> negative_offset = ones;
      negative_offset[at] = minus_one;
      expect_same_outcome<Offset>(q, many, negative_offset, false, Op::plus);
    }
  }
  // Equal segments of 3 but one of 2 followed by one of 4, at each of the four places in the check's vectors of
  // bounds: the device's check must find the longest wherever it lies (the plan is chosen from it).
  const std::uint64_t threes = 100'001;
  for (std::uint64_t at : {threes / 2, threes / 2 + 1, threes / 2 + 2, threes / 2 + 3}) {
    SCOPED_TRACE("one segment of 2 then one of 4 at " + std::to_string(at - 1));
    std::vector<Offset> bounds(threes + 1);
    for (std::uint64_t s = 0; s <= threes; ++s) bounds[s] = static_cast<Offset>(3 * s);
    bounds[at] = static_cast<Offset>(3 * at - 1);
    expect_same_outcome<Offset>(q, 3 * threes, bounds, false, Op::plus);
  }
  // Skewed over many groups: lengths 1, 2, ... 7 and one of 100,000.
  std::vector<Offset> skewed{0};
  for (std::uint64_t s = 0; skewed.back() < Offset(many); ++s)
    skewed.push_back(static_cast<Offset>(std::min<std::uint64_t>(many, static_cast<std::uint64_t>(skewed.back()) +
                                                                           (s == 1000 ? 100'000 : s % 7 + 1))));
  expect_same_outcome<Offset>(q, many, skewed, false, Op::plus);
  expect_same_outcome<Offset>(q, many, skewed, false, Op::argmax);
}

TEST(DeviceOffsets, GivenTheSameOffsetsInHostOrDeviceMemoryWhenReducingThenTheErrorsPlansAndResultsAgree) {
  ZR_REQUIRE_QUEUE(q);
  {
    SCOPED_TRACE("uint32");
    expect_same_outcomes<std::uint32_t>(q);
  }
  {
    SCOPED_TRACE("int32");
    expect_same_outcomes<std::int32_t>(q);
  }
  {
    SCOPED_TRACE("uint64");
    expect_same_outcomes<std::uint64_t>(q);
  }
  {
    SCOPED_TRACE("int64");
    expect_same_outcomes<std::int64_t>(q);
  }
}

// Begins in host memory and ends in device memory (and the other way round), few and many: the results of the
// arrays both in host memory, and the same error for an end before its begin.
TEST(DeviceOffsets, GivenBeginsAndEndsInDifferentMemoriesWhenReducingThenTheyActAsBothOnTheHost) {
  ZR_REQUIRE_QUEUE(q);
  for (std::uint64_t segments : {3u, 10'000u}) {
    SCOPED_TRACE(std::to_string(segments) + " segments");
    const std::uint64_t n = 3 * segments + 5;
    std::vector<std::uint32_t> begins(segments), ends(segments);
    for (std::uint64_t s = 0; s < segments; ++s) {
      begins[s] = static_cast<std::uint32_t>((s * 7) % n);
      ends[s] = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, begins[s] + s % 9));
    }
    std::vector<int> data(n);
    for (std::uint64_t i = 0; i < n; ++i) data[i] = static_cast<int>(i % 13) - 6;
    auto input = make_device_array<int>(q, n);
    q.copy(data.data(), input.get(), n).wait();
    auto device_begins = make_device_array<std::uint32_t>(q, segments), device_ends = make_device_array<std::uint32_t>(q, segments);
    auto reduce = [&](const std::uint32_t* b, const std::uint32_t* e) {
      std::vector<int> results(segments, 1);
      q.reduce_segments(input.get(), n, b, e, segments, results.data(), plus<>()).wait();
      return results;
    };
    auto error_of = [&](const std::uint32_t* b, const std::uint32_t* e) {
      try {
        reduce(b, e);
      } catch (const InvalidArgumentError& error) {
        return std::string(error.what());
      }
      return std::string("no error");
    };
    q.copy(begins.data(), device_begins.get(), segments).wait();
    q.copy(ends.data(), device_ends.get(), segments).wait();
    const std::vector<int> on_host = reduce(begins.data(), ends.data());
    for (std::uint64_t s = 0; s < segments; ++s)
      ASSERT_EQ(on_host[s], std::accumulate(data.begin() + begins[s], data.begin() + ends[s], 1)) << "segment " << s;
    EXPECT_EQ(reduce(begins.data(), device_ends.get()), on_host);
    EXPECT_EQ(reduce(device_begins.get(), ends.data()), on_host);
    ends[1] = begins[1] - 1;  // begins[1] is 7
    q.copy(ends.data(), device_ends.get(), segments).wait();
    const std::string expected = error_of(begins.data(), ends.data());
    EXPECT_NE(expected.find("before it begins"), std::string::npos) << expected;
    EXPECT_EQ(error_of(begins.data(), device_ends.get()), expected);
    EXPECT_EQ(error_of(device_begins.get(), ends.data()), expected);
  }
}

// The check is a pass of its own in the profile where the device makes it (more offsets than a few KiB); a few
// device offsets are read back and checked on the host, as host offsets are checked when the call is made.
TEST(DeviceOffsets, GivenManyOrFewDeviceOffsetsWhenReducingThenTheProfileListsTheCheckOnlyForMany) {
  ZR_REQUIRE_QUEUE(q);
  const auto labels = [](const event& e) {
    std::vector<std::string> kernels;
    for (const auto& pass : e.get_profile().passes)
      if (pass.what == pass_profile::kind::kernel) kernels.push_back(pass.label);
    return kernels;
  };
  for (std::uint64_t segments : {3u, 100'000u}) {
    SCOPED_TRACE(std::to_string(segments) + " segments");
    std::vector<std::uint32_t> offsets(segments + 1);
    for (std::uint64_t s = 0; s <= segments; ++s) offsets[s] = static_cast<std::uint32_t>(s * s % 7 + 3 * s);
    const std::uint64_t n = offsets.back();
    auto input = make_device_array<float>(q, n);
    const std::vector<float> data(n, 1.0f);
    q.copy(data.data(), input.get(), n).wait();
    auto device_offsets = make_device_array<std::uint32_t>(q, offsets.size());
    q.copy(offsets.data(), device_offsets.get(), offsets.size()).wait();
    std::vector<float> results(segments);
    event on_device = q.reduce_segments(input.get(), n, device_offsets.get(), segments, results.data(), plus<>(),
                                        {property::reduction::initialize_to_identity{}});
    on_device.wait();
    for (std::uint64_t s = 0; s < segments; ++s)
      ASSERT_EQ(results[s], static_cast<float>(offsets[s + 1] - offsets[s])) << "segment " << s;
    const auto device_kernels = labels(on_device);
    ASSERT_GE(device_kernels.size(), 1u);
    if (segments > 4096) {
      EXPECT_EQ(device_kernels.front(), "check segment offsets");
    } else {
      for (const auto& label : device_kernels) EXPECT_NE(label, "check segment offsets");
    }
    event on_host = q.reduce_segments(input.get(), n, offsets.data(), segments, results.data(), plus<>());
    on_host.wait();
    for (const auto& label : labels(on_host)) EXPECT_NE(label, "check segment offsets");
  }
}

}  // namespace
}  // namespace zr::test
