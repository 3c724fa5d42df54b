// Reproducible requests: which run as binned sums, the strategies and plans they get, and what is refused.
#include <gtest/gtest.h>

#include <string>

#include "binned_sum.hpp"
#include "fake_devices.hpp"
#include "identity.hpp"
#include "plan.hpp"
#include "strategy.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

ReductionRequest reproducible(Op op, DataType type, std::uint64_t n = 1 << 20) {
  ReductionRequest r;
  r.op = op;
  r.type = type;
  r.n = n;
  r.identity = known_identity(op, type);
  r.deterministic = true;
  r.reproducible = true;
  return r;
}

std::string refusal(const Capabilities& caps, const ReductionRequest& request) {
  try {
    choose_strategy(caps, request);
  } catch (const UnsupportedError& error) {
    return error.what();
  }
  return "";
}

TEST(ReproduciblePlan, GivenFloatingSums_WhenPlanned_ThenBinnedPassesOnEveryDeviceKind) {
  for (DataType type : {DataType::f16, DataType::f32, DataType::f64}) {
    const auto cpu = test::pocl_like_cpu();
    const auto on_cpu = make_plan(cpu, reproducible(Op::plus, type), choose_strategy(cpu, reproducible(Op::plus, type)));
    EXPECT_EQ(on_cpu.strategy, Strategy::cpu_chunks);
    ASSERT_EQ(on_cpu.passes.size(), 2u);
    EXPECT_EQ(on_cpu.passes[0].entry_point, "zr_rchunks_plus_" + std::string(name(type)));
    auto many_cores = cpu;
    many_cores.compute_units = 16;  // 4 interleaved streams per work-item instead of 8 (rchunks.cl)
    const ReductionRequest request = reproducible(Op::plus, type);
    EXPECT_EQ(make_plan(many_cores, request, choose_strategy(many_cores, request)).passes[0].entry_point,
              "zr_rchunks4_plus_" + std::string(name(type)));
    EXPECT_EQ(on_cpu.passes[1].entry_point, "zr_rfinal_plus_" + std::string(name(type)));
    EXPECT_EQ(on_cpu.passes[1].global_size, on_cpu.passes[1].local_size);  // one group merges every state

    const auto gpu = test::pvc_like_gpu();
    const auto on_gpu = make_plan(gpu, reproducible(Op::plus, type), choose_strategy(gpu, reproducible(Op::plus, type)));
    EXPECT_EQ(on_gpu.strategy, Strategy::tree);
    ASSERT_EQ(on_gpu.passes.size(), 2u);
    EXPECT_EQ(on_gpu.passes[0].entry_point, "zr_rgrid_plus_" + std::string(name(type)));
    // One 64-byte state per group between the passes.
    EXPECT_EQ(on_gpu.scratch.at(0).bytes, on_gpu.passes[0].group_count() * sizeof(BinnedState));
  }
}

TEST(ReproduciblePlan, GivenAGpuWhoseWaveIsKnown_WhenLargeSumsArePlanned_ThenOneResidentWaveOfGroups) {
  const auto gpu = test::nvidia_like_gpu();
  const Tuning tuning = tuning_for(gpu);
  ASSERT_GT(tuning.wave_groups_per_compute_unit, 0u);
  const std::uint64_t wave = gpu.compute_units * tuning.wave_groups_per_compute_unit;
  for (int log2 : {16, 22, 26, 30, 34}) {
    const auto request = reproducible(Op::plus, DataType::f32, std::uint64_t{1} << log2);
    const Plan plan = make_plan(gpu, request, choose_strategy(gpu, request));
    EXPECT_LE(plan.passes[0].group_count(), wave) << "2^" << log2;
    if (log2 >= 26) {
      EXPECT_EQ(plan.passes[0].group_count(), wave) << "2^" << log2;
    }
  }
}

TEST(ReproduciblePlan, GivenStateOutput_WhenPlanned_ThenRstateWritesOneStateForEveryType) {
  for (DataType type : {DataType::f16, DataType::f32, DataType::f64}) {
    for (const Capabilities& caps : {test::pocl_like_cpu(), test::pvc_like_gpu()}) {
      ReductionRequest request = reproducible(Op::plus, type);
      request.include_initial = false;
      request.binned_state_output = true;
      const Plan plan = make_plan(caps, request, choose_strategy(caps, request));
      ASSERT_EQ(plan.passes.size(), 2u);
      // The merge is integer arithmetic: f16 and f64 states go through the one f32 entry point.
      EXPECT_EQ(plan.passes[1].entry_point, "zr_rstate_plus_f32");
      EXPECT_EQ(plan.passes[1].global_size, plan.passes[1].local_size);
      EXPECT_EQ(plan.passes[1].args.size(), 4u);  // states, count, merged state, scratch: no initial value
      EXPECT_EQ(result_bytes(plan, 0), sizeof(BinnedState));
      EXPECT_FALSE(reads_initial_value(plan, 0));
    }
  }
}

TEST(ReproduciblePlan, GivenStateOutputWithAnInitialValueOrNotBinned_WhenPlanned_ThenRefused) {
  const auto gpu = test::pvc_like_gpu();
  ReductionRequest with_initial = reproducible(Op::plus, DataType::f32);
  with_initial.binned_state_output = true;  // include_initial stays true
  EXPECT_THROW(make_plan(gpu, with_initial, choose_strategy(gpu, with_initial)), InvalidArgumentError);
  ReductionRequest integer = reproducible(Op::plus, DataType::i32);
  integer.include_initial = false;
  integer.binned_state_output = true;
  EXPECT_THROW(make_plan(gpu, integer, choose_strategy(gpu, integer)), InvalidArgumentError);
}

TEST(ReproduciblePlan, GivenOrderIndependentPairs_WhenReproducible_ThenTheUsualStrategies) {
  const auto gpu = test::pvc_like_gpu();
  for (auto [op, type] : {std::pair{Op::plus, DataType::i32}, {Op::maximum, DataType::f32}, {Op::bit_xor, DataType::u64}}) {
    EXPECT_FALSE(is_binned_sum(reproducible(op, type)));
    EXPECT_NO_THROW(choose_strategy(gpu, reproducible(op, type)));
  }
}

TEST(ReproduciblePlan, GivenWhatABinnedSumCannotPromise_WhenChoosing_ThenRefusedWithTheReason) {
  const auto gpu = test::pvc_like_gpu();
  EXPECT_NE(refusal(gpu, reproducible(Op::multiplies, DataType::f32)).find("multiplies"), std::string::npos);
  auto asked = reproducible(Op::plus, DataType::f32);
  asked.strategy = Strategy::global_atomics;
  EXPECT_NE(refusal(gpu, asked).find("tree or cpu_chunks"), std::string::npos);
  auto flushing = gpu;
  flushing.fp32_denormals = false;
  EXPECT_NE(refusal(flushing, reproducible(Op::plus, DataType::f32)).find("subnormals"), std::string::npos);
  EXPECT_EQ(refusal(flushing, reproducible(Op::plus, DataType::f64)), "");  // f64 subnormals are not optional
  const std::uint64_t too_many = binned_max_elements(DataType::f64) + 1;
  EXPECT_NE(refusal(gpu, reproducible(Op::plus, DataType::f64, too_many)).find("at most"), std::string::npos);
}

}  // namespace
}  // namespace zr::core
