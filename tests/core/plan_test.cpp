#include <gtest/gtest.h>

#include <variant>

#include "fake_devices.hpp"
#include "identity.hpp"
#include "plan.hpp"

namespace zr::core {
namespace {

ReductionRequest request(Op op, DataType type, std::uint64_t n) {
  ReductionRequest r;
  r.op = op;
  r.type = type;
  r.n = n;
  r.identity = known_identity(op, type);
  return r;
}

const std::uint64_t kSizes[] = {0, 1, 2, 3, 255, 256, 257, 65537, (1ull << 20) + 7, (1ull << 31) + 1,
                                (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 5, 1ull << 40};

std::uint64_t scalar_u64(const KernelArg& arg) { return std::get<Scalar>(arg).as<std::uint64_t>(); }

// Checks what every plan must satisfy, whatever the strategy and size.
void check_plan_invariants(const Plan& plan, const Capabilities& caps) {
  SCOPED_TRACE(describe(plan));
  ASSERT_FALSE(plan.passes.empty());
  for (const auto& pass : plan.passes) {
    ASSERT_NE(pass.module, nullptr);
    EXPECT_GE(pass.local_size, 1u);
    EXPECT_LE(pass.local_size, caps.max_work_group_size);
    EXPECT_EQ(pass.global_size % pass.local_size, 0u);
    EXPECT_GE(pass.group_count(), 1u);
    const bool found = std::any_of(pass.module->kernels.begin(), pass.module->kernels.end(),
                                   [&](const EmbeddedKernel& k) { return k.entry_point == pass.entry_point; });
    EXPECT_TRUE(found) << pass.entry_point << " not in module " << pass.module->name;
    for (const auto& arg : pass.args) {
      if (const auto* local = std::get_if<LocalMemoryArg>(&arg)) {
        EXPECT_LE(local->bytes, caps.local_memory_bytes);
      }
      if (const auto* buffer = std::get_if<BufferArg>(&arg); buffer && buffer->which == BufferArg::Which::scratch) {
        EXPECT_LT(buffer->index, plan.scratch.size());
      }
    }
  }
  // The first pass reads exactly n elements of the input: the 64-bit count is passed unchanged.
  EXPECT_EQ(std::get<BufferArg>(plan.passes.front().args[0]).which, BufferArg::Which::input);
  EXPECT_EQ(scalar_u64(plan.passes.front().args[1]), plan.request.n);

  const std::size_t acc = size_of(accumulator_type(plan.request.type));
  if (plan.passes.size() == 1) return;  // one-launch strategies
  // Each later pass reads all the partials the previous pass wrote, and the scratch holds them.
  for (std::size_t i = 1; i < plan.passes.size(); ++i) {
    const auto& prev = plan.passes[i - 1];
    const auto& pass = plan.passes[i];
    const std::uint64_t written = prev.entry_point.starts_with("zr_cpu_") ? prev.global_size : prev.group_count();
    EXPECT_EQ(scalar_u64(pass.args[1]), written) << pass.label;
    const auto& in = std::get<BufferArg>(pass.args[0]);
    EXPECT_EQ(in, std::get<BufferArg>(prev.args[2]));
    EXPECT_GE(plan.scratch[in.index].bytes, written * acc);
  }
  EXPECT_EQ(plan.passes.back().label, "final");
  EXPECT_EQ(plan.passes.back().group_count(), 1u);
  EXPECT_EQ(std::get<BufferArg>(plan.passes.back().args[2]).which, BufferArg::Which::result);
}

void check_all_sizes(const Capabilities& caps, Strategy strategy, Op op, DataType type) {
  for (std::uint64_t n : kSizes) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", strategy " + std::string(name(strategy)));
    ReductionRequest r = request(op, type, n);
    r.strategy = strategy;
    const auto choice = choose_strategy(caps, r);
    check_plan_invariants(make_plan(caps, r, choice), caps);
  }
}

TEST(Plan, GivenEveryStrategyOnAnIntelProfile_WhenPlannedForSizesFrom0ToBeyond2To32_ThenInvariantsHold) {
  const auto caps = test::pvc_like_gpu();
  for (Strategy s : kAllStrategies) {
    const Op op = Op::plus;
    const DataType type = s == Strategy::local_atomics ? DataType::i32 : DataType::f32;
    check_all_sizes(caps, s, op, type);
  }
}

TEST(Plan, GivenCpuDevice_WhenPlanned_ThenOneItemPerGroupAndAFinalPass) {
  const auto caps = test::pocl_like_cpu();
  check_all_sizes(caps, Strategy::cpu_chunks, Op::plus, DataType::f32);
  check_all_sizes(caps, Strategy::tree, Op::maximum, DataType::u8);
  check_all_sizes(caps, Strategy::last_group, Op::multiplies, DataType::f64);
  check_all_sizes(caps, Strategy::global_atomics, Op::bit_or, DataType::i64);
  const auto plan = make_plan(caps, request(Op::plus, DataType::f32, 1ull << 26),
                              choose_strategy(caps, request(Op::plus, DataType::f32, 1ull << 26)));
  EXPECT_EQ(plan.passes.front().local_size, 1u);
  EXPECT_EQ(plan.passes.size(), 2u);
}

TEST(Plan, GivenOneWorkGroupsShareOfInput_WhenNoStrategyIsNamed_ThenTheFinalPassAloneReadsIt) {
  for (const auto& caps : {test::pocl_like_cpu(), test::nvidia_like_gpu(), test::pvc_like_gpu()}) {
    SCOPED_TRACE(caps.device_name);
    const Tuning tuning = tuning_for(caps);
    const std::uint64_t one_group = tuning.final_only_max_elements;
    ASSERT_GT(one_group, 1000u);
    for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, one_group}) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const ReductionRequest r = request(Op::plus, DataType::f32, n);
      const Plan plan = make_plan(caps, r, choose_strategy(caps, r));
      check_plan_invariants(plan, caps);
      ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
      EXPECT_EQ(plan.passes[0].entry_point, "zr_final_plus_f32");
      EXPECT_EQ(plan.strategy, Strategy::tree);
      EXPECT_TRUE(plan.scratch.empty());
    }
    // Beyond one group, a strategy asked for by name, or an accumulator wider than the element: as before.
    const ReductionRequest larger = request(Op::plus, DataType::f32, one_group + 1);
    EXPECT_NE(make_plan(caps, larger, choose_strategy(caps, larger)).passes[0].entry_point, "zr_final_plus_f32");
    ReductionRequest named = request(Op::plus, DataType::f32, 1000);
    named.strategy = choose_strategy(caps, request(Op::plus, DataType::f32, 1ull << 26)).strategy;
    EXPECT_NE(make_plan(caps, named, choose_strategy(caps, named)).passes[0].entry_point, "zr_final_plus_f32");
    const ReductionRequest half = request(Op::plus, DataType::f16, 1000);
    EXPECT_NE(make_plan(caps, half, choose_strategy(caps, half)).passes[0].entry_point, "zr_final_plus_f16");
  }
}

TEST(Plan, GivenHalf_WhenPlanned_ThenPartialsAreFloatAndIntermediatePassesUseF32Kernels) {
  auto caps = test::pocl_like_cpu();
  Tuning tiny = tuning_for(caps);
  tiny.max_final_inputs = 4;  // force intermediate passes
  ReductionRequest r = request(Op::plus, DataType::f16, 1ull << 24);
  r.strategy = Strategy::tree;
  const auto plan = make_plan(caps, r, choose_strategy(caps, r), tiny);
  SCOPED_TRACE(describe(plan));
  ASSERT_GE(plan.passes.size(), 3u);
  EXPECT_EQ(plan.passes[0].entry_point, "zr_tree_plus_f16");
  EXPECT_EQ(plan.passes[1].entry_point, "zr_tree_plus_f32");
  EXPECT_EQ(plan.passes.back().entry_point, "zr_final_plus_f16");
  EXPECT_EQ(std::get<Scalar>(plan.passes[0].args[3]).type, DataType::f32);  // identity as the accumulator
  check_plan_invariants(plan, caps);
}

TEST(Plan, GivenGlobalAtomicsOnNarrowInts_WhenPlanned_ThenAccumulatorHoldsTheWidenedIdentity) {
  const auto caps = test::nvidia_like_gpu();
  ReductionRequest r = request(Op::minimum, DataType::i8, 1000);
  r.strategy = Strategy::global_atomics;
  const auto plan = make_plan(caps, r, choose_strategy(caps, r));
  ASSERT_EQ(plan.passes.size(), 1u);
  ASSERT_EQ(plan.scratch.size(), 2u);
  ASSERT_TRUE(plan.scratch[0].initial_fill);
  EXPECT_EQ(plan.scratch[0].initial_fill->type, DataType::i32);
  EXPECT_EQ(plan.scratch[0].initial_fill->as<std::int32_t>(), 127);
  EXPECT_EQ(plan.scratch[1].initial_fill->as<std::uint32_t>(), 0u);
}

TEST(Plan, GivenIdentityOfAnotherType_WhenPlanned_ThenRejected) {
  const auto caps = test::pocl_like_cpu();
  ReductionRequest r = request(Op::plus, DataType::f32, 10);
  r.identity = known_identity(Op::plus, DataType::i32);
  EXPECT_ANY_THROW(make_plan(caps, r, StrategyChoice{Strategy::tree, "test"}));
}

TEST(Tuning, GivenKernelHints_WhenRefined_ThenRequiredWinsSuggestionCapsAndSubgroupDivides) {
  const Tuning base = tuning_for(test::pvc_like_gpu());
  EXPECT_EQ(refine(base, {}).work_group_size, base.work_group_size);
  EXPECT_EQ(refine(base, {.required_group_size = 96}).work_group_size, 96u);
  EXPECT_EQ(refine(base, {.suggested_group_size = 128}).work_group_size, 128u);
  EXPECT_EQ(refine(base, {.suggested_group_size = 1024}).work_group_size, base.work_group_size);
  EXPECT_EQ(refine(base, {.suggested_group_size = 200, .subgroup_size = 32}).work_group_size, 192u);
  // The plan follows the refined tuning.
  const auto caps = test::pvc_like_gpu();
  ReductionRequest r = request(Op::plus, DataType::f32, 1 << 20);
  r.strategy = Strategy::subgroup;
  const auto plan = make_plan(caps, r, choose_strategy(caps, r), refine(tuning_for(caps), {.suggested_group_size = 128}));
  EXPECT_EQ(plan.passes.front().local_size, 128u);
}

TEST(Plan, GivenInputLargerThanOneAllocation_WhenSplit_ThenChunksCoverItExactlyOnce) {
  const auto chunks = split_input((1ull << 32) + 1000, DataType::u8, 1ull << 32);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].first, 0u);
  EXPECT_EQ(chunks[0].count, 1ull << 32);
  EXPECT_EQ(chunks[1].first, 1ull << 32);
  EXPECT_EQ(chunks[1].count, 1000u);
  const auto floats = split_input(10, DataType::f64, 24);  // 3 doubles per chunk
  ASSERT_EQ(floats.size(), 4u);
  EXPECT_EQ(floats.back().count, 1u);
  const auto empty = split_input(0, DataType::i32, 1024);
  ASSERT_EQ(empty.size(), 1u);  // n = 0 still runs once: the result is the identity (with the initial value)
  EXPECT_EQ(empty[0].count, 0u);
}

TEST(Plan, GivenStrategies_WhenCombineDepthAsked_ThenFarBelowNAndAtLeastTheTreeHeight) {
  const auto caps = test::nvidia_like_gpu();
  for (Strategy s : {Strategy::tree, Strategy::last_group, Strategy::cpu_chunks}) {
    ReductionRequest r = request(Op::plus, DataType::f32, 1ull << 28);
    r.strategy = s;
    const auto plan = make_plan(caps, r, choose_strategy(caps, r));
    const auto depth = combine_depth(plan);
    EXPECT_LT(depth, r.n / 64) << name(s);
    EXPECT_GE(depth, 28u) << name(s);  // no tree over 2^28 inputs is shallower than log2(n)
  }
}

}  // namespace
}  // namespace zr::core
