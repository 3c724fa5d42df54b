// The executor: core plans (tree strategy and the device's own choice) against the host reference, for
// several (op, type) pairs and sizes; scratch reuse; timings; argument checks.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {
namespace {

using core::DataType;
using core::Op;

struct Case {
  Op op;
  DataType type;
  std::uint64_t n;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << core::name(c.op) << ' ' << core::name(c.type) << " n=" << c.n;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return std::string(core::name(info.param.op)) + "_" + std::string(core::name(info.param.type)) + "_n" +
         std::to_string(info.param.n);
}

std::vector<Case> tree_cases() {
  const std::pair<Op, DataType> pairs[] = {{Op::plus, DataType::i32},
                                           {Op::plus, DataType::f32},
                                           {Op::multiplies, DataType::u64},
                                           {Op::minimum, DataType::f64},
                                           {Op::maximum, DataType::i8},
                                           {Op::bit_xor, DataType::u16},
                                           {Op::logical_and, DataType::boolean},
                                           {Op::plus, DataType::f16}};
  const std::uint64_t sizes[] = {0, 1, 2, 1000003, (1u << 20) + 7};
  std::vector<Case> cases;
  for (auto [op, type] : pairs) {
    for (auto n : sizes) cases.push_back({op, type, n});
  }
  return cases;
}

void expect_agrees(const test::Outcome& outcome) {
  std::string why;
  EXPECT_TRUE(core::agrees(outcome.reference, outcome.result, &why))
      << why << "\n got " << outcome.result.to_string() << ", expected " << outcome.reference.value.to_string() << "\n"
      << core::describe(outcome.plan);
}

// A macro, so that GTEST_SKIP returns from the test itself.
#define ZR_SKIP_UNLESS_TYPE_SUPPORTED(caps, type)                                                      \
  do {                                                                                                 \
    if ((type) == DataType::f16 && !(caps).fp16) GTEST_SKIP() << (caps).device_name << " has no fp16"; \
    if ((type) == DataType::f64 && !(caps).fp64) GTEST_SKIP() << (caps).device_name << " has no fp64"; \
  } while (0)

// A sum over n elements of `type` that folds in the result's initial value.
core::ReductionRequest sum_request(DataType type, std::uint64_t n) {
  core::ReductionRequest request;
  request.op = Op::plus;
  request.type = type;
  request.n = n;
  request.identity = core::known_identity(Op::plus, type);
  return request;
}

class OpenclTreePlan : public testing::TestWithParam<Case> {};

TEST_P(OpenclTreePlan, GivenATreePlan_WhenRun_ThenTheResultMatchesTheHost) {
  ZR_REQUIRE_TEST_DEVICE();
  const Case c = GetParam();
  Executor& executor = *test::shared_executor();
  ZR_SKIP_UNLESS_TYPE_SUPPORTED(executor.context().capabilities(), c.type);
  const auto outcome = test::reduce(executor, c.op, c.type, c.n, core::Strategy::tree);
  EXPECT_EQ(outcome.plan.strategy, core::Strategy::tree);
  expect_agrees(outcome);
  ASSERT_EQ(outcome.profile.passes.size(), outcome.plan.passes.size());
  EXPECT_TRUE(outcome.profile.timestamps_valid);
  for (std::size_t i = 0; i < outcome.plan.passes.size(); ++i) {
    EXPECT_EQ(outcome.profile.passes[i].kernel, outcome.plan.passes[i].entry_point);
    EXPECT_EQ(outcome.profile.passes[i].label, outcome.plan.passes[i].label);
    EXPECT_LE(outcome.profile.passes[i].start_ns, outcome.profile.passes[i].end_ns);
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, OpenclTreePlan, testing::ValuesIn(tree_cases()), case_name);

TEST(OpenclExecutor, GivenNoInitialValue_WhenRun_ThenTheResultIgnoresTheResultBuffer) {
  ZR_REQUIRE_TEST_DEVICE();
  Executor& executor = *test::shared_executor();
  for (std::uint64_t n : {0u, 5u, 4099u}) {
    const auto outcome = test::reduce(executor, Op::plus, DataType::i64, n, core::Strategy::tree, false);
    expect_agrees(outcome);
  }
}

TEST(OpenclExecutor, GivenEveryStrategyTheDeviceAllows_WhenRun_ThenEachMatchesTheHost) {
  ZR_REQUIRE_TEST_DEVICE();
  Executor& executor = *test::shared_executor();
  const auto& caps = executor.context().capabilities();
  for (core::Strategy strategy : core::kAllStrategies) {
    for (auto [op, type] : {std::pair{Op::plus, DataType::i32}, {Op::maximum, DataType::f32}}) {
      core::ReductionRequest request;
      request.op = op;
      request.type = type;
      request.n = 300007;
      request.identity = core::known_identity(op, type);
      if (auto why = core::why_unavailable(strategy, caps, request)) {
        std::cout << "  " << core::name(strategy) << " unavailable: " << *why << '\n';
        continue;
      }
      SCOPED_TRACE(std::string(core::name(strategy)) + " " + std::string(core::name(op)) + " " +
                   std::string(core::name(type)));
      // Twice: kernels that keep state in scratch buffers (counters) must leave them ready for the next run.
      try {  // report every strategy that fails, not only the first
        for (std::uint64_t seed : {1u, 2u}) {
          expect_agrees(test::reduce(executor, op, type, request.n, strategy, true, seed));
        }
      } catch (const Error& error) {
        ADD_FAILURE() << error.what();
      }
    }
  }
}

TEST(OpenclExecutor, GivenPlansOfManySizes_WhenRun_ThenOneScratchSetIsReusedAndGrown) {
  ZR_REQUIRE_TEST_DEVICE();
  Context& context = *test::shared_context();
  Executor executor(context);
  std::uint64_t seed = 5;
  for (std::uint64_t n : {77777u, 77777u, 12u, 3000000u, 1u, 77777u}) {
    expect_agrees(test::reduce(executor, Op::plus, DataType::u32, n, core::Strategy::tree, true, ++seed));
    EXPECT_EQ(executor.cached_scratch_sets(), 1u);
  }
  // A plan whose scratch needs an initial fill (a counter) gets a set of its own, filled once, and repeated
  // runs find the counter restored.
  const auto& caps = context.capabilities();
  core::ReductionRequest request;
  request.op = Op::plus;
  request.type = DataType::u32;
  request.n = 1;
  request.identity = core::known_identity(Op::plus, DataType::u32);
  if (!core::why_unavailable(core::Strategy::last_group, caps, request)) {
    for (std::uint64_t n : {100003u, 5u, 100003u}) {
      expect_agrees(test::reduce(executor, Op::plus, DataType::u32, n, core::Strategy::last_group, true, ++seed));
    }
    EXPECT_EQ(executor.cached_scratch_sets(), 2u);
  }
}

TEST(OpenclExecutor, GivenCallerBuffers_WhenRunThroughTheClMemApi_ThenTheResultBufferHoldsTheReduction) {
  ZR_REQUIRE_TEST_DEVICE();
  Executor& executor = *test::shared_executor();
  Context& context = executor.context();
  std::vector<std::int32_t> values(5000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i % 97) - 40;
  std::int64_t expected = 10;  // the initial value
  for (auto v : values) expected += v;
  const core::ReductionRequest request = sum_request(DataType::i32, values.size());
  const auto plan =
      core::make_plan(context.capabilities(), request, core::choose_strategy(context.capabilities(), request));
  Buffer input = context.create_buffer(values.size() * sizeof(std::int32_t));
  context.write(input.get(), std::as_bytes(std::span(values)));
  Buffer result = context.create_buffer(sizeof(std::int32_t));
  const std::int32_t initial = 10;
  context.write(result.get(), std::as_bytes(std::span(&initial, 1)));
  const Submission submission = executor.enqueue(plan, input.get(), result.get());
  EXPECT_NE(submission.last_event(), nullptr);
  const core::RunProfile profile = executor.wait(submission);
  EXPECT_EQ(profile.passes.size(), plan.passes.size());
  std::int32_t got = 0;
  context.read(result.get(), std::as_writable_bytes(std::span(&got, 1)));
  EXPECT_EQ(got, expected);
}

// A kernel keeps its arguments between launches: a plan run again sets only its cl_mem arguments (a released
// buffer's handle may come back as a new buffer's), and every result is the reduction of what the buffers hold then,
// a buffer made where a released one was included.
TEST(OpenclExecutor, GivenTheSamePlanRunAgain_WhenItsValuesAreUnchanged_ThenOnlyBuffersAreSetAndResultsStayRight) {
  ZR_REQUIRE_TEST_DEVICE();
  Context& context = *test::shared_context();
  Executor executor(context);
  const std::size_t n = 100003;
  core::ReductionRequest request = sum_request(DataType::i32, n);
  request.strategy = core::Strategy::tree;  // several passes, scratch between them
  const auto plan =
      core::make_plan(context.capabilities(), request, core::choose_strategy(context.capabilities(), request));
  std::uint64_t plan_arguments = 0;
  std::uint64_t buffer_arguments = 0;
  for (const auto& pass : plan.passes) {
    plan_arguments += pass.args.size();
    for (const auto& arg : pass.args) buffer_arguments += std::holds_alternative<core::BufferArg>(arg) ? 1 : 0;
  }
  ASSERT_LT(buffer_arguments, plan_arguments) << "the tree plan passes sizes and local memory too";
  std::vector<Buffer> inputs;
  inputs.push_back(context.create_buffer(n * 4));
  inputs.push_back(context.create_buffer(n * 4));
  Buffer result = context.create_buffer(4);
  auto run = [&](std::size_t input, std::int32_t salt) {
    std::vector<std::int32_t> values(n);
    std::int64_t expected = salt;  // the result's initial value is folded in
    for (std::size_t i = 0; i < n; ++i) {
      values[i] = static_cast<std::int32_t>((i * 7919 + static_cast<std::size_t>(salt)) % 201) - 100;
      expected += values[i];
    }
    context.write(inputs[input].get(), std::as_bytes(std::span(values)));
    context.write(result.get(), std::as_bytes(std::span(&salt, 1)));
    executor.wait(executor.enqueue(plan, inputs[input].get(), result.get()));
    std::int32_t got = 0;
    context.read(result.get(), std::as_writable_bytes(std::span(&got, 1)));
    EXPECT_EQ(got, static_cast<std::int32_t>(expected)) << "input " << input << ", salt " << salt;
  };
  run(0, 1);
  const auto first = executor.argument_counts();
  EXPECT_EQ(first.set + first.kept, plan_arguments);
  EXPECT_GE(first.set, buffer_arguments);  // another executor of the shared context may have set the others
  run(0, 2);
  run(1, 3);
  EXPECT_EQ(executor.argument_counts().set, first.set + 2 * buffer_arguments);
  EXPECT_EQ(executor.argument_counts().kept, first.kept + 2 * (plan_arguments - buffer_arguments));
  for (int round = 0; round < 4; ++round) {
    inputs[1] = Buffer();  // released first: the new buffer may take its handle
    inputs[1] = context.create_buffer(n * 4);
    run(1, 4 + round);
  }
}

TEST(OpenclExecutor, GivenAnUntimedMultiPassRun_WhenWaitedFor_ThenTheResultIsRightAndThePassesHaveNoTimes) {
  ZR_REQUIRE_TEST_DEVICE();
  Executor& executor = *test::shared_executor();
  Context& context = executor.context();
  std::vector<std::int64_t> values(300001);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i * 7919 % 1013) - 500;
  const std::int64_t initial = -3;
  std::int64_t expected = initial;
  for (auto v : values) expected += v;
  core::ReductionRequest request = sum_request(DataType::i64, values.size());
  // The tree strategy: several passes in order, so the wait must cover more than one untimed kernel.
  request.strategy = core::Strategy::tree;
  const auto plan =
      core::make_plan(context.capabilities(), request, core::choose_strategy(context.capabilities(), request));
  ASSERT_GE(plan.passes.size(), 2u) << core::describe(plan);
  Buffer input = context.create_buffer(values.size() * sizeof(std::int64_t));
  context.write(input.get(), std::as_bytes(std::span(values)));
  Buffer result = context.create_buffer(sizeof(std::int64_t));
  context.write(result.get(), std::as_bytes(std::span(&initial, 1)));
  const cl_mem results[] = {result.get()};
  const Submission submission = executor.enqueue(plan, input.get(), results, Timestamps::off);
  EXPECT_EQ(submission.last_event(), nullptr) << "an untimed run makes no event per pass";
  const core::RunProfile profile = executor.wait(submission);
  EXPECT_FALSE(profile.timestamps_valid);
  ASSERT_EQ(profile.passes.size(), plan.passes.size());
  for (std::size_t i = 0; i < plan.passes.size(); ++i) {
    EXPECT_EQ(profile.passes[i].kernel, plan.passes[i].entry_point);
    EXPECT_EQ(profile.passes[i].duration_ns(), 0u);
  }
  std::int64_t got = 0;
  context.read(result.get(), std::as_writable_bytes(std::span(&got, 1)));
  EXPECT_EQ(got, expected);
}

TEST(OpenclExecutor, GivenMismatchedArguments_WhenRun_ThenInvalidArgumentErrorsSaySo) {
  ZR_REQUIRE_TEST_DEVICE();
  Executor& executor = *test::shared_executor();
  const auto& caps = executor.context().capabilities();
  core::ReductionRequest request;
  request.op = Op::plus;
  request.type = DataType::i32;
  request.n = 10;
  request.identity = core::known_identity(Op::plus, DataType::i32);
  const auto plan = core::make_plan(caps, request, core::choose_strategy(caps, request));
  std::vector<std::byte> too_short(9 * 4);
  EXPECT_THROW(executor.run(plan, too_short, core::Scalar::from<std::int32_t>(DataType::i32, 0)), InvalidArgumentError);
  std::vector<std::byte> right(10 * 4);
  EXPECT_THROW(executor.run(plan, right, core::Scalar::from<float>(DataType::f32, 0)), InvalidArgumentError);
  EXPECT_THROW(executor.run(plan, nullptr, nullptr), InvalidArgumentError);
}

}  // namespace
}  // namespace zr::opencl
