// Reproducible requests: which run as binned sums, the strategies and plans they get, and what is refused.
#include <gtest/gtest.h>

#include <string>

#include "binned_sum.hpp"
#include "fake_devices.hpp"
#include "identity.hpp"
#include "plan.hpp"
#include "strategy.hpp"
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
