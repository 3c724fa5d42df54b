// The skewed-size segmented plan (segspan + segjoin, plans/segmented.cpp) when its launches are smaller than its
// spans: each pass cut to one group, which must then stride over every span and every block of spans, and spans
// of several tiles (the plan made for one compute unit), so that runs carry from tile to tile. The conformance
// suite's sizes never launch fewer work-items than spans, nor give a span more than one tile, so this is the
// test of those loops. The
// plan is a GPU's (the test device's capabilities as a GPU); the test device (PoCL in CI) runs every kernel of the
// table, so the same kernels execute here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "plans/segmented.hpp"
#include "test_support.hpp"
#include "tuning.hpp"

namespace zr::opencl {
namespace {

using core::DataType;
using core::Op;

// A few elements before the first segment and after the last; segments of 0..longest_small elements (a third of
// them empty), a huge one in the middle, empty ones at the end: skewed enough for the span plan.
std::vector<std::uint64_t> skewed_offsets(std::uint64_t n, std::uint64_t longest_small = 40) {
  std::mt19937_64 rng(44);
  std::vector<std::uint64_t> offsets{3};
  while (offsets.back() < n - 5) {
    const std::uint64_t size = offsets.size() == 200 ? n / 2 : (rng() % 3 == 0 ? 0 : rng() % (longest_small + 1));
    offsets.push_back(std::min(n - 5, offsets.back() + size));
  }
  for (int k = 0; k < 3; ++k) offsets.push_back(offsets.back());
  return offsets;
}

template <typename T>
std::vector<T> run_spans_in_one_group(Op op, const std::vector<T>& input, const std::vector<std::uint64_t>& offsets,
                                      const std::vector<T>& initial, core::Plan* planned,
                                      std::uint64_t local_memory_bytes = 0, std::uint64_t lanes = 32,
                                      std::uint32_t offset_bytes = 8) {
  Executor& executor = *test::shared_executor();
  Context& context = executor.context();
  core::Capabilities caps = context.capabilities();
  caps.type = core::DeviceType::gpu;
  caps.compute_units = 1;
  if (local_memory_bytes > 0) caps.local_memory_bytes = local_memory_bytes;
  const std::uint64_t segments = offsets.size() - 1;
  core::SegmentLayout layout{segments, offset_bytes, 0, 0};
  for (std::uint64_t s = 0; s < segments; ++s) layout.longest = std::max(layout.longest, offsets[s + 1] - offsets[s]);
  core::ReductionRequest request;
  request.op = op;
  request.type = std::is_same_v<T, float> ? DataType::f32 : DataType::i32;
  request.n = input.size();
  request.identity = core::known_identity(op, request.type);
  request.include_initial = true;
  core::Tuning tuning = core::tuning_for(caps);
  tuning.segment_span_lanes = lanes;  // 32: tiles of 512, spans of several tiles at these sizes
  core::Plan plan = core::make_segmented_plan(caps, request, layout, tuning);
  *planned = plan;
  if (plan.passes.size() != 2 || !plan.passes[0].entry_point.starts_with("zr_segspan_")) return {};
  const std::uint64_t tile = plan.passes[0].local_size * core::segment_span_items(sizeof(T));
  if (std::get<core::Scalar>(plan.passes[0].args[5]).as<std::uint64_t>() < 2 * tile) {
    ADD_FAILURE() << "spans of fewer than two tiles:\n" << core::describe(plan);
    return {};
  }
  for (auto& pass : plan.passes) pass.global_size = pass.local_size;

  const auto bytes_of = [](const auto& values) {
    return std::as_bytes(std::span(values.data(), values.size()));
  };
  Buffer input_buffer = context.create_buffer(input.size() * sizeof(T));
  Buffer offsets_buffer = context.create_buffer(offsets.size() * offset_bytes);
  Buffer result_buffer = context.create_buffer(segments * sizeof(T));
  context.write(input_buffer.get(), bytes_of(input));
  if (offset_bytes == 4) {
    const std::vector<std::uint32_t> narrow(offsets.begin(), offsets.end());
    context.write(offsets_buffer.get(), bytes_of(narrow));
  } else {
    context.write(offsets_buffer.get(), bytes_of(offsets));
  }
  context.write(result_buffer.get(), bytes_of(initial));
  const cl_mem results[] = {result_buffer.get()};
  (void)executor.wait(executor.enqueue(plan, input_buffer.get(), results, Timestamps::on, offsets_buffer.get()));
  std::vector<T> got(segments);
  context.read(result_buffer.get(), std::as_writable_bytes(std::span(got)));
  return got;
}

// Each result against its initial value folded with its segment's elements in order, on the host.
template <typename T, typename Fold>
void expect_each_segment(const std::vector<T>& got, const std::vector<T>& input, const std::vector<std::uint64_t>& offsets,
                         const std::vector<T>& initial, Fold fold, const core::Plan& plan) {
  ASSERT_EQ(got.size(), initial.size()) << "not the span plan:\n" << core::describe(plan);
  for (std::size_t s = 0; s < got.size(); ++s) {
    T expected = initial[s];
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) expected = fold(expected, input[i]);
    ASSERT_EQ(got[s], expected) << "segment " << s << " of " << got.size() << " [" << offsets[s] << ", "
                                << offsets[s + 1] << ")\n" << core::describe(plan);
  }
}

TEST(OpenclSegmentSpans, GivenOneGroupPerPassWhenSummingSkewedSegmentsThenEverySegmentIsExact) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::uint64_t n = 20011;
  std::vector<std::int32_t> input(n);
  for (std::uint64_t i = 0; i < n; ++i) input[i] = static_cast<std::int32_t>((i * 2654435761u) % 2001) - 1000;
  const auto offsets = skewed_offsets(n);
  std::vector<std::int32_t> initial(offsets.size() - 1);
  for (std::size_t s = 0; s < initial.size(); ++s) initial[s] = static_cast<std::int32_t>(s % 7) - 3;
  core::Plan plan;
  const auto got = run_spans_in_one_group(Op::plus, input, offsets, initial, &plan);
  expect_each_segment(got, input, offsets, initial, std::plus<>(), plan);
}

TEST(OpenclSegmentSpans, GivenOneGroupPerPassWhenTakingMaximaOfSkewedSegmentsThenEverySegmentMatches) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::uint64_t n = 30011;
  std::vector<float> input(n);
  for (std::uint64_t i = 0; i < n; ++i) input[i] = static_cast<float>((i * 2654435761u) % 100003) / 7.0f - 5000.0f;
  const auto offsets = skewed_offsets(n);
  // The identity as every initial value: each result is its segment's maximum, -inf for the empty ones.
  std::vector<float> initial(offsets.size() - 1, -std::numeric_limits<float>::infinity());
  core::Plan plan;
  const auto got = run_spans_in_one_group(Op::maximum, input, offsets, initial, &plan);
  expect_each_segment(got, input, offsets, initial, [](float a, float b) { return std::max(a, b); }, plan);
}

// With 64-bit offsets, and with 32-bit ones into fewer than 2^32 elements, which the kernel marks in 32-bit arithmetic.
TEST(OpenclSegmentSpans, GivenMoreSegmentsPerTileThanLanesWhenTakingMinimaThenEverySegmentMatches) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::uint64_t n = 40009;
  std::vector<std::int32_t> input(n);
  for (std::uint64_t i = 0; i < n; ++i) input[i] = static_cast<std::int32_t>((i * 2654435761u) % 1000003) - 500000;
  // Segments of 0..3 elements: a tile holds several times as many segments as its group has lanes.
  const auto offsets = skewed_offsets(n, 3);
  std::vector<std::int32_t> initial(offsets.size() - 1);
  for (std::size_t s = 0; s < initial.size(); ++s) initial[s] = static_cast<std::int32_t>(s % 1000) * 1000 - 400000;
  for (const std::uint32_t offset_bytes : {8u, 4u}) {
    SCOPED_TRACE(std::to_string(offset_bytes) + "-byte offsets");
    core::Plan plan;
    const auto got = run_spans_in_one_group(Op::minimum, input, offsets, initial, &plan, 0, 32, offset_bytes);
    expect_each_segment(got, input, offsets, initial, [](std::int32_t a, std::int32_t b) { return std::min(a, b); }, plan);
  }
}

TEST(OpenclSegmentSpans, GivenLittleLocalMemoryWhenSummingSkewedSegmentsThenNarrowTilesGiveEverySegment) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::uint64_t n = 9001;
  std::vector<std::int32_t> input(n);
  for (std::uint64_t i = 0; i < n; ++i) input[i] = static_cast<std::int32_t>((i * 2654435761u) % 2001) - 1000;
  const auto offsets = skewed_offsets(n, 5);
  std::vector<std::int32_t> initial(offsets.size() - 1, 0);
  core::Plan plan;
  // 4 KiB: fewer lanes than the 256 asked for.
  const auto got = run_spans_in_one_group(Op::plus, input, offsets, initial, &plan, 4096, 256);
  ASSERT_FALSE(plan.passes.empty()) << core::describe(plan);
  EXPECT_LT(plan.passes[0].local_size, 256u) << core::describe(plan);
  expect_each_segment(got, input, offsets, initial, std::plus<>(), plan);
}

}  // namespace
}  // namespace zr::opencl
