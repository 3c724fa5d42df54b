#include <gtest/gtest.h>

#include "fake_devices.hpp"
#include "identity.hpp"
#include "strategy.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

ReductionRequest request(Op op, DataType type, bool deterministic = false) {
  ReductionRequest r;
  r.op = op;
  r.type = type;
  r.n = 1 << 20;
  r.identity = known_identity(op, type);
  r.deterministic = deterministic;
  return r;
}

TEST(StrategyChoice, GivenCpuDevice_WhenChoosing_ThenCpuChunks) {
  EXPECT_EQ(choose_strategy(test::pocl_like_cpu(), request(Op::plus, DataType::f32)).strategy, Strategy::cpu_chunks);
  EXPECT_EQ(choose_strategy(test::pocl_like_cpu(), request(Op::bit_xor, DataType::u8)).strategy, Strategy::cpu_chunks);
}

TEST(StrategyChoice, GivenCpuDevices_WhenFloatMinMax_ThenWideLaneStatesOnlyWhereTheCompilerWantsExplicitVectors) {
  for (DataType type : {DataType::f32, DataType::f64}) {
    EXPECT_EQ(first_pass_variant(Strategy::cpu_chunks, Op::maximum, type, test::pocl_like_cpu()), "cpuwide");
    EXPECT_EQ(first_pass_variant(Strategy::cpu_chunks, Op::minimum, type, test::intel_opencl_like_cpu()), "cpu");
    EXPECT_EQ(choose_strategy(test::intel_opencl_like_cpu(), request(Op::maximum, type)).strategy, Strategy::cpu_chunks);
  }
  EXPECT_EQ(first_pass_variant(Strategy::cpu_chunks, Op::plus, DataType::f32, test::pocl_like_cpu()), "cpu");
}

TEST(StrategyChoice, GivenIntelProfiles_WhenF32SumAndMinMax_ThenFloatAtomicsOnlyWhereTheDeviceHasThem) {
  // Issue 4 item 5: pvc uses global float atomics for f32 add and min/max, dg2 for add only, tgllp neither.
  EXPECT_EQ(choose_strategy(test::pvc_like_gpu(), request(Op::plus, DataType::f32)).strategy, Strategy::global_atomics);
  EXPECT_EQ(choose_strategy(test::pvc_like_gpu(), request(Op::minimum, DataType::f32)).strategy, Strategy::global_atomics);
  EXPECT_EQ(choose_strategy(test::pvc_like_gpu(), request(Op::maximum, DataType::f32)).strategy, Strategy::global_atomics);
  EXPECT_EQ(choose_strategy(test::dg2_like_gpu(), request(Op::plus, DataType::f32)).strategy, Strategy::global_atomics);
  EXPECT_EQ(choose_strategy(test::dg2_like_gpu(), request(Op::minimum, DataType::f32)).strategy, Strategy::subgroup);
  EXPECT_EQ(choose_strategy(test::tgllp_like_gpu(), request(Op::plus, DataType::f32)).strategy, Strategy::subgroup);
}

TEST(StrategyChoice, GivenDeterministic_WhenFloatSum_ThenNoFloatAtomics) {
  const auto choice = choose_strategy(test::pvc_like_gpu(), request(Op::plus, DataType::f32, true));
  EXPECT_NE(choice.strategy, Strategy::global_atomics);
  EXPECT_TRUE(why_unavailable(Strategy::global_atomics, test::pvc_like_gpu(), request(Op::plus, DataType::f32, true)));
  EXPECT_TRUE(why_unavailable(Strategy::work_group, test::pvc_like_gpu(), request(Op::plus, DataType::f32, true)));
}

TEST(StrategyChoice, GivenGpuWithoutSubgroups_WhenFloatSum_ThenOneLaunchLastGroup) {
  EXPECT_EQ(choose_strategy(test::nvidia_like_gpu(), request(Op::plus, DataType::f32)).strategy, Strategy::last_group);
  EXPECT_EQ(choose_strategy(test::nvidia_like_gpu(), request(Op::plus, DataType::i32)).strategy, Strategy::global_atomics);
  EXPECT_EQ(choose_strategy(test::nvidia_like_gpu(), request(Op::multiplies, DataType::i32)).strategy, Strategy::last_group);
}

TEST(StrategyChoice, GivenNoFp64_WhenF64Requested_ThenErrorNamesDeviceAndFp64) {
  try {
    choose_strategy(test::tgllp_like_gpu(), request(Op::plus, DataType::f64));
    FAIL() << "expected UnsupportedError";
  } catch (const zr::UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("no fp64"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("fake tgllp"), std::string::npos) << e.what();
  }
}

TEST(StrategyChoice, GivenNoFp16_WhenF16Requested_ThenErrorNamesFp16) {
  auto caps = test::nvidia_like_gpu();
  caps.fp16 = false;
  EXPECT_THROW(choose_strategy(caps, request(Op::plus, DataType::f16)), zr::UnsupportedError);
}

TEST(StrategyChoice, GivenPairNotAllowed_WhenChoosing_ThenInvalidArgument) {
  ReductionRequest r = request(Op::plus, DataType::f32);
  r.op = Op::bit_and;
  EXPECT_THROW(choose_strategy(test::pocl_like_cpu(), r), zr::InvalidArgumentError);
}

TEST(StrategyChoice, GivenRequestedStrategyTheDeviceLacks_WhenChoosing_ThenErrorSaysWhy) {
  ReductionRequest r = request(Op::plus, DataType::f32);
  r.strategy = Strategy::subgroup;
  try {
    choose_strategy(test::pocl_like_cpu(), r);
    FAIL() << "expected UnsupportedError";
  } catch (const zr::UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("has no sub-groups"), std::string::npos) << e.what();
  }
  r.strategy = Strategy::tree;
  EXPECT_EQ(choose_strategy(test::pocl_like_cpu(), r).strategy, Strategy::tree);
}

TEST(StrategyChoice, GivenStrategyNames_WhenParsed_ThenRoundTrip) {
  for (Strategy s : kAllStrategies) EXPECT_EQ(parse_strategy(name(s)), s);
  EXPECT_FALSE(parse_strategy("fastest"));
}

}  // namespace
}  // namespace zr::core
