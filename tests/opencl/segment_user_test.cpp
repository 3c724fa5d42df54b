// A user-defined operator per segment in the plans GPUs get (plans/segmented_user.cpp): a group of work-items per
// segment, slices of a few long segments folded in order by usegjoin, and launches cut to one group, which must
// then stride over every piece and segment. The API tests run on the CPU device's plans (a work-item per piece);
// here the plan is a GPU's (the test device's capabilities as a GPU) and the test device (PoCL in CI) runs it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>

#include "plans/segmented.hpp"
#include "sample_operator_reference.hpp"
#include "test_support.hpp"
#include "tuning.hpp"
#include "user_operator.hpp"

namespace zr::opencl {
namespace {

using bounds = zr_operators::bounds_acc;
using zr_operators::range16;
using namespace zr_operators::reference;

struct UserRun {
  core::Plan plan;
  std::vector<std::byte> results;
};

// Plans the operator per segment for the test device seen as a GPU of `compute_units`, cuts every launch to one
// group when `one_group`, runs it and returns the results (after `initial`, or from the identity).
UserRun run_gpu_plan(const zr::user_operator_source& source, std::span<const std::byte> input, std::uint64_t n,
                     const std::vector<std::uint64_t>& offsets, std::span<const std::byte> initial, bool one_group,
                     std::uint32_t compute_units) {
  Executor& executor = *test::shared_executor();
  Context& context = executor.context();
  core::Capabilities caps = context.capabilities();
  caps.type = core::DeviceType::gpu;
  caps.compute_units = compute_units;
  const std::uint64_t segments = offsets.size() - 1;
  core::SegmentLayout layout{segments, 8, 0, 0};
  for (std::uint64_t s = 0; s < segments; ++s) layout.longest = std::max(layout.longest, offsets[s + 1] - offsets[s]);
  core::ReductionRequest request;
  request.op = core::Op::user;
  request.user_operator = core::load_user_operator({source.name, {source.spirv, source.spirv_words}, source.opencl_c_source});
  request.type = request.user_operator->element_bits();
  request.identity = core::Scalar{request.type, {}};
  request.n = n;
  request.include_initial = !initial.empty();
  UserRun run;
  run.plan = core::make_segmented_plan(caps, request, layout, core::tuning_for(caps));
  if (one_group)
    for (auto& pass : run.plan.passes) pass.global_size = pass.local_size;
  const std::uint64_t result_bytes = segments * request.user_operator->accumulator_bytes;
  Buffer input_buffer = context.create_buffer(std::max<std::uint64_t>(input.size(), 8));
  Buffer offsets_buffer = context.create_buffer(offsets.size() * sizeof(std::uint64_t));
  Buffer result_buffer = context.create_buffer(result_bytes);
  context.write(input_buffer.get(), input);
  context.write(offsets_buffer.get(), std::as_bytes(std::span(offsets)));
  if (!initial.empty()) context.write(result_buffer.get(), initial);
  const cl_mem results[] = {result_buffer.get()};
  (void)executor.wait(executor.enqueue(run.plan, input_buffer.get(), results, Timestamps::on, offsets_buffer.get()));
  run.results.resize(result_bytes);
  context.read(result_buffer.get(), std::span(run.results));
  return run;
}

// Each segment's accumulator against the host fold of its elements (with their input indices), after its initial
// value when there is one.
template <typename T, typename A>
void expect_each_segment(const UserRun& run, const std::vector<T>& input, const std::vector<std::uint64_t>& offsets,
                         const std::vector<A>& initial, const std::string& plan_wanted) {
  ASSERT_NE(core::describe(run.plan).find(plan_wanted), std::string::npos) << core::describe(run.plan);
  const A* tag = nullptr;
  const std::uint64_t segments = offsets.size() - 1;
  ASSERT_EQ(run.results.size(), segments * sizeof(A));
  for (std::uint64_t s = 0; s < segments; ++s) {
    std::optional<A> want;
    if (!initial.empty()) want = initial[s];
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i)
      want = want ? combine(*want, transform(tag, input[i], i)) : transform(tag, input[i], i);
    if constexpr (requires { identity(tag); })
      if (!want) want = identity(tag);
    A got;
    std::memcpy(&got, run.results.data() + s * sizeof(A), sizeof(A));
    ASSERT_TRUE(same(got, *want)) << "segment " << s << " of " << segments << " [" << offsets[s] << ", " << offsets[s + 1]
                                  << ")\n" << core::describe(run.plan);
  }
}

std::vector<float> bounds_input(std::uint64_t n) {
  std::vector<float> x(n);
  for (std::uint64_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 2654435761u) % 4001) / 4.0f - 500.0f;  // ties
  x[n / 2] = std::numeric_limits<float>::quiet_NaN();
  return x;
}

std::vector<std::uint64_t> sized_offsets(std::uint64_t first, std::uint64_t n, std::uint64_t shortest, std::uint64_t longest) {
  std::mt19937_64 rng(45);
  std::vector<std::uint64_t> offsets{first};
  while (offsets.back() + longest < n) offsets.push_back(offsets.back() + shortest + rng() % (longest - shortest + 1));
  offsets.push_back(offsets.back());  // an empty segment at the end
  return offsets;
}

class OpenclSegmentUser : public ::testing::TestWithParam<bool> {};  // one group per launch, or the planned launch

TEST_P(OpenclSegmentUser, GivenMediumSegmentsWhenAGroupTakesEachThenEverySegmentIsTheHostFold) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::uint64_t n = 120007;
  const std::vector<float> input = bounds_input(n);
  const auto offsets = sized_offsets(5, n, 30, 900);
  const auto run = run_gpu_plan(zr_operators::bounds, std::as_bytes(std::span(input)), n, offsets, {}, GetParam(), 2);
  expect_each_segment<float, bounds>(run, input, offsets, {}, "useggroup");
}

TEST_P(OpenclSegmentUser, GivenAFewLongSegmentsWhenSlicedThenTheSlicesFoldInOrderAfterTheInitialValues) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::uint64_t n = 400009;
  const std::vector<float> input = bounds_input(n);
  const std::vector<std::uint64_t> offsets{3, 3, n / 3, n - 2};
  std::vector<bounds> initial{{-1.0f, 1.0f, 1, 2, 3}, {-600.0f, 600.0f, 0, 0, 1}, {-2.0f, 2.0f, 4, 5, 6}};
  const auto run = run_gpu_plan(zr_operators::bounds, std::as_bytes(std::span(input)), n, offsets,
                                std::as_bytes(std::span(initial)), GetParam(), 4);
  expect_each_segment<float, bounds>(run, input, offsets, initial, "usegjoin");
}

TEST_P(OpenclSegmentUser, GivenAnOperatorWithoutIdentityWhenSlicesAndGroupsHoldNoElementThenTheyAddNothing) {
  ZR_REQUIRE_TEST_DEVICE();
  // Segments shorter than a group (most work-items hold nothing), and one long one cut into slices.
  const std::uint64_t n = 200003;
  std::vector<std::int16_t> input(n);
  for (std::uint64_t i = 0; i < n; ++i) input[i] = static_cast<std::int16_t>((i * 2654435761u) % 60001) - 30000;
  const std::vector<std::uint64_t> offsets{0, 9, 9, 40, n - 1};
  const std::vector<range16> initial{{1, 2}, {-7, 7}, {0, 0}, {5, 6}};
  const auto run = run_gpu_plan(zr_operators::i16_range, std::as_bytes(std::span(input)), n, offsets,
                                std::as_bytes(std::span(initial)), GetParam(), 4);
  expect_each_segment<std::int16_t, range16>(run, input, offsets, initial, "usegjoin");
}

INSTANTIATE_TEST_SUITE_P(Launches, OpenclSegmentUser, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "OneGroupPerLaunch" : "PlannedLaunch"; });

}  // namespace
}  // namespace zr::opencl
