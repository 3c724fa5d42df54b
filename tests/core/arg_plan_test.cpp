// Arg-reduction plans (argmin/argmax) as plain data, and the host order and reference they are checked with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <variant>
#include <vector>

#include "arg_reference.hpp"
#include "fake_devices.hpp"
#include "identity.hpp"
#include "plan.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

ReductionRequest arg_request(Op op, DataType type, std::uint64_t n) {
  ReductionRequest r;
  r.op = op;
  r.type = type;
  r.n = n;
  r.identity = known_identity(op, type);
  return r;
}

std::uint64_t u64_arg(const KernelArg& arg) { return std::get<Scalar>(arg).as<std::uint64_t>(); }

TEST(ArgPlan, GivenGpuAndCpuProfiles_WhenPlanned_ThenTheArgKernelsReadNAndTheResultIs16Bytes) {
  const std::uint64_t sizes[] = {1, 2, 255, 65537, (1ull << 32) + 5, 1ull << 40};
  for (const auto& caps : {test::pvc_like_gpu(), test::tgllp_like_gpu(), test::pocl_like_cpu()})
    for (Strategy s : {Strategy::tree, Strategy::last_group, Strategy::cpu_chunks})
      for (std::uint64_t n : sizes) {
        ReductionRequest r = arg_request(Op::argmax, DataType::f32, n);
        r.strategy = s;
        if (auto why = why_unavailable(s, caps, r)) {  // argcpu is for CPU devices only
          EXPECT_TRUE(s == Strategy::cpu_chunks && caps.type != DeviceType::cpu) << *why;
          continue;
        }
        const Plan plan = make_plan(caps, r, choose_strategy(caps, r));
        SCOPED_TRACE(describe(plan));
        EXPECT_EQ(result_bytes(plan, 0), 16u);
        EXPECT_FALSE(reads_initial_value(plan, 0)) << "an arg-reduction never reads its variable";
        EXPECT_EQ(combine_depth(plan), 0u);
        const KernelPass& first = plan.passes.front();
        EXPECT_EQ(u64_arg(first.args[1]), n);
        if (s == Strategy::last_group) {
          ASSERT_EQ(plan.passes.size(), 1u);
          EXPECT_TRUE(first.entry_point.starts_with("zr_arglast_argmax_f32"));
          EXPECT_EQ(std::get<BufferArg>(first.args[5]).which, BufferArg::Which::result);
          continue;
        }
        ASSERT_EQ(plan.passes.size(), 2u);
        EXPECT_EQ(first.entry_point, s == Strategy::cpu_chunks ? "zr_argcpu_argmax_f32" : "zr_argtree_argmax_f32");
        const KernelPass& final_pass = plan.passes.back();
        EXPECT_EQ(final_pass.entry_point, "zr_argfinal_argmax_f32");
        EXPECT_EQ(final_pass.group_count(), 1u);
        const std::uint64_t partials = s == Strategy::cpu_chunks ? first.global_size : first.group_count();
        EXPECT_EQ(u64_arg(final_pass.args[1]), partials);
        EXPECT_GE(plan.scratch[std::get<BufferArg>(final_pass.args[0]).index].bytes, partials * 16);
      }
}

TEST(ArgPlan, GivenOtherStrategiesOrNoElementsOrBool_ThenRefusedWithTheReason) {
  const auto caps = test::pvc_like_gpu();
  ReductionRequest r = arg_request(Op::argmin, DataType::i32, 100);
  r.strategy = Strategy::global_atomics;
  try {
    choose_strategy(caps, r);
    FAIL() << "global_atomics accepted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("tree, last_group or cpu_chunks"), std::string::npos) << e.what();
  }
  r.strategy.reset();
  r.n = 0;
  EXPECT_THROW(make_plan(caps, r, choose_strategy(caps, r)), InvalidArgumentError);
  EXPECT_FALSE(is_supported(Op::argmax, DataType::boolean));
  EXPECT_EQ(choose_strategy(test::pocl_like_cpu(), arg_request(Op::argmax, DataType::f32, 1 << 20)).strategy,
            Strategy::cpu_chunks);
  EXPECT_EQ(choose_strategy(caps, arg_request(Op::argmax, DataType::f32, 1 << 20)).strategy, Strategy::last_group);
}

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST(ArgReference, GivenTiesNaNsAndSignedZeros_ThenNumPysAnswers) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> values{1.0f, 3.0f, -inf, 3.0f, -inf, 0.5f};
  const auto data = bytes_of(values);
  EXPECT_EQ(arg_reference(Op::argmax, DataType::f32, data, values.size()).index, 1u);
  EXPECT_EQ(arg_reference(Op::argmin, DataType::f32, data, values.size()).index, 2u);
  const std::vector<float> with_nan{1.0f, -nan, 7.0f, nan};
  const auto r = arg_reference(Op::argmin, DataType::f32, bytes_of(with_nan), with_nan.size());
  EXPECT_EQ(r.index, 1u);
  EXPECT_EQ(r.value.as<std::uint32_t>(), 0x7fc00000u) << "the canonical quiet NaN";
  const std::vector<float> zeros{-0.0f, 0.0f};
  EXPECT_EQ(arg_reference(Op::argmax, DataType::f32, bytes_of(zeros), 2).index, 0u);
  const std::vector<std::uint64_t> big{1ull << 63, (1ull << 63) + 1, 5};
  EXPECT_EQ(arg_reference(Op::argmax, DataType::u64, bytes_of(big), 3).index, 1u) << "exact beyond 2^53";
}

TEST(ArgReference, GivenCandidates_WhenOrdered_ThenNaNFirstThenValueThenIndex) {
  auto candidate = [](float v, std::uint64_t i) { return ArgCandidate{Scalar::from(DataType::f32, v), i}; };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(arg_precedes(Op::argmax, candidate(nan, 9), candidate(5.0f, 1)));
  EXPECT_TRUE(arg_precedes(Op::argmin, candidate(nan, 9), candidate(-5.0f, 1)));
  EXPECT_TRUE(arg_precedes(Op::argmax, candidate(nan, 2), candidate(nan, 3)));
  EXPECT_TRUE(arg_precedes(Op::argmax, candidate(6.0f, 9), candidate(5.0f, 1)));
  EXPECT_TRUE(arg_precedes(Op::argmin, candidate(5.0f, 9), candidate(6.0f, 1)));
  EXPECT_TRUE(arg_precedes(Op::argmin, candidate(5.0f, 1), candidate(5.0f, 9)));
  EXPECT_FALSE(arg_precedes(Op::argmin, candidate(5.0f, 9), candidate(5.0f, 1)));
  std::byte result[16];
  arg_to_bytes(candidate(2.5f, 77), result);
  const ArgCandidate back = arg_from_bytes(DataType::f32, result);
  EXPECT_EQ(back.index, 77u);
  EXPECT_EQ(back.value.as<float>(), 2.5f);
}

}  // namespace
}  // namespace zr::core
