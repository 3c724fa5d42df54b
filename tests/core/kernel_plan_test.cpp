// The plan of an application's kernel with reducers (runtime/core/plans/kernel_reducers.hpp) as plain data: the
// launch a range gets on GPUs and CPU devices, an nd_range taken as given or refused, the arguments in the order
// reducer_cl.h's ZR_KERNEL declares them, the results, the error bound's depth; and the reducer codes.
#include <gtest/gtest.h>

#include "fake_devices.hpp"
#include "identity.hpp"
#include "plans/kernel_reducers.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

const EmbeddedModule kModule{};  // the plan only points at it

KernelLaunch launch(std::uint64_t n, std::uint64_t global = 0, std::uint64_t local = 0) {
  KernelLaunch l;
  l.module = &kModule;
  l.entry_point = "axpy_norm";
  l.n = n;
  l.global = global;
  l.local = local;
  static int x, y;
  l.arguments = {{true, &x, {}}, {true, &y, {}}, {false, nullptr, Scalar::from(DataType::u32, 0x3fc00000u)}};
  l.reductions = {{{Op::plus, DataType::f32, false}, 1, known_identity(Op::plus, DataType::f32), false},
                  {{Op::maximum, DataType::f16, false}, 1, known_identity(Op::maximum, DataType::f16), true},
                  {{Op::plus, DataType::u32, true}, 37, known_identity(Op::plus, DataType::u32), true}};
  return l;
}

std::uint64_t u64_arg(const KernelPass& pass, std::size_t i) { return std::get<Scalar>(pass.args[i]).as<std::uint64_t>(); }
const BufferArg& buffer_arg(const KernelPass& pass, std::size_t i) { return std::get<BufferArg>(pass.args[i]); }

TEST(KernelPlan, GivenARange_WhenPlannedForAGpu_ThenWideGroupsTakeIndicesAGridApart) {
  for (const Capabilities& caps : {test::nvidia_like_gpu(), test::pvc_like_gpu(), test::tgllp_like_gpu()}) {
    const Plan plan = make_kernel_plan(caps, launch(1 << 28), tuning_for(caps));
    ASSERT_EQ(plan.passes.size(), 1u);
    const KernelPass& pass = plan.passes.front();
    EXPECT_GE(pass.local_size, 64u) << caps.device_name;
    EXPECT_EQ(pass.global_size % pass.local_size, 0u);
    EXPECT_LE(pass.group_count(), caps.compute_units * tuning_for(caps).groups_per_compute_unit);
    EXPECT_EQ(u64_arg(pass, 3), 1u << 28);  // n after the application's three arguments
    EXPECT_EQ(u64_arg(pass, 4), 0u);        // a grid apart
    EXPECT_EQ(plan.strategy, Strategy::last_group);
    EXPECT_EQ(plan.kernel_indices, std::optional<std::uint64_t>(1u << 28));
  }
}

TEST(KernelPlan, GivenARange_WhenPlannedForACpuDevice_ThenAWorkItemPerGroupTakesAContiguousChunk) {
  const Capabilities caps = test::pocl_like_cpu();
  for (std::uint64_t n : {0ull, 1ull, 100000ull, 1ull << 26}) {
    const Plan plan = make_kernel_plan(caps, launch(n), tuning_for(caps));
    const KernelPass& pass = plan.passes.front();
    EXPECT_EQ(pass.local_size, 1u);
    const std::uint64_t chunk = u64_arg(pass, 4);
    EXPECT_GE(chunk * pass.global_size, n) << "every index is some work-item's";
    EXPECT_LT((chunk - 1) * pass.global_size, std::max<std::uint64_t>(n, 1)) << "no larger chunks than needed";
  }
}

TEST(KernelPlan, GivenAKernelLaunch_WhenPlanned_ThenItsArgumentsFollowTheKernelsDeclaration) {
  const Capabilities caps = test::nvidia_like_gpu();
  const Plan plan = make_kernel_plan(caps, launch(1000), tuning_for(caps));
  const KernelPass& pass = plan.passes.front();
  // x, y (the application's pointers), a, n, chunk, partials, the partials' slot bytes, counter, scratch, mask, then
  // per reducer its variable (and a span's size).
  ASSERT_EQ(pass.args.size(), 14u);
  EXPECT_EQ(buffer_arg(pass, 0), (BufferArg{BufferArg::Which::kernel_pointer, 0}));
  EXPECT_EQ(buffer_arg(pass, 1), (BufferArg{BufferArg::Which::kernel_pointer, 1}));
  EXPECT_EQ(std::get<Scalar>(pass.args[2]).as<std::uint32_t>(), 0x3fc00000u);
  ASSERT_EQ(plan.kernel_pointers.size(), 2u);
  EXPECT_EQ(buffer_arg(pass, 5).which, BufferArg::Which::scratch);
  EXPECT_EQ(plan.scratch[buffer_arg(pass, 5).index].bytes, 3 * pass.group_count() * 8) << "a ulong per reducer and group";
  EXPECT_EQ(u64_arg(pass, 6), 8u) << "a ulong a slot: no reducer of the kernel's own";
  EXPECT_EQ(buffer_arg(pass, 7).which, BufferArg::Which::scratch);
  EXPECT_TRUE(plan.scratch[buffer_arg(pass, 7).index].initial_fill.has_value()) << "the counter starts at 0";
  EXPECT_EQ(std::get<LocalMemoryArg>(pass.args[8]).bytes, pass.local_size * 8);
  EXPECT_EQ(std::get<Scalar>(pass.args[9]).as<std::uint32_t>(), 0b110u) << "the reducers that fold initial values in";
  EXPECT_EQ(buffer_arg(pass, 10), (BufferArg{BufferArg::Which::result, 0}));
  EXPECT_EQ(buffer_arg(pass, 11), (BufferArg{BufferArg::Which::result, 1}));
  EXPECT_EQ(buffer_arg(pass, 12), (BufferArg{BufferArg::Which::result, 2}));
  EXPECT_EQ(u64_arg(pass, 13), 37u);
  // Results of their own types and sizes.
  ASSERT_EQ(plan.results.size(), 3u);
  EXPECT_EQ(result_bytes(plan, 0), 4u);
  EXPECT_EQ(result_bytes(plan, 1), 2u);
  EXPECT_EQ(result_bytes(plan, 2), 37u * 4);
  EXPECT_FALSE(reads_initial_value(plan, 0));
  EXPECT_TRUE(reads_initial_value(plan, 2));
}

TEST(KernelPlan, GivenAReducerOfTheKernelsOwn_WhenPlanned_ThenSlotsFitItsAccumulator) {
  const Capabilities caps = test::nvidia_like_gpu();
  KernelLaunch l = launch(1 << 20);
  l.reductions.push_back({{Op::user, DataType::u8, false, 24}, 1, Scalar{DataType::u8, {}}, true});
  const Plan plan = make_kernel_plan(caps, l, tuning_for(caps));
  const KernelPass& pass = plan.passes.front();
  EXPECT_EQ(u64_arg(pass, 6), 32u) << "24 bytes rounded up to 16";
  EXPECT_EQ(plan.scratch[buffer_arg(pass, 5).index].bytes, 4 * pass.group_count() * 32);
  EXPECT_EQ(std::get<LocalMemoryArg>(pass.args[8]).bytes, pass.local_size * 32);
  EXPECT_EQ(result_bytes(plan, 3), 24u);
}

TEST(KernelPlan, GivenAnNdRange_WhenPlanned_ThenItRunsAsGivenOrIsRefused) {
  const Capabilities caps = test::nvidia_like_gpu();
  const Plan plan = make_kernel_plan(caps, launch(0, 64 * 100, 64), tuning_for(caps));
  EXPECT_EQ(plan.passes.front().global_size, 6400u);
  EXPECT_EQ(plan.passes.front().local_size, 64u);
  EXPECT_EQ(u64_arg(plan.passes.front(), 3), 6400u);
  EXPECT_THROW(make_kernel_plan(caps, launch(0, 100, 64), tuning_for(caps)), InvalidArgumentError);
  EXPECT_THROW(make_kernel_plan(caps, launch(0, 0, 64), tuning_for(caps)), InvalidArgumentError);
  EXPECT_THROW(make_kernel_plan(caps, launch(0, 2 * caps.max_work_group_size, 2 * caps.max_work_group_size),
                                tuning_for(caps)),
               InvalidArgumentError);
}

TEST(KernelPlan, GivenMoreIndicesPerWorkItem_WhenPlanned_ThenTheBoundsDepthGrowsWithThem) {
  const Capabilities caps = test::nvidia_like_gpu();
  const std::uint64_t small = combine_depth(make_kernel_plan(caps, launch(1000), tuning_for(caps)));
  const std::uint64_t large = combine_depth(make_kernel_plan(caps, launch(1ull << 30), tuning_for(caps)));
  EXPECT_GT(large, small);
  const Plan plan = make_kernel_plan(caps, launch(1ull << 30), tuning_for(caps));
  EXPECT_GE(large, (1ull << 30) / plan.passes.front().global_size);
}

TEST(KernelReducerCodes, GivenReducerCl_hsCodes_WhenRead_ThenEveryPairAndOnlyThose) {
  // op x 16 + type, + 256 for spans (reducer_cl.h).
  EXPECT_EQ(reducer_of_code(0 * 16 + 9, 4), (KernelReducer{Op::plus, DataType::f32, false, 4}));
  EXPECT_EQ(reducer_of_code(256 + 3 * 16 + 6, 4), (KernelReducer{Op::maximum, DataType::u32, true, 4}));
  EXPECT_EQ(reducer_of_code(7 * 16 + 11, 1), (KernelReducer{Op::logical_and, DataType::boolean, false, 1}));
  EXPECT_EQ(reducer_of_code(512, 24), (KernelReducer{Op::user, DataType::u8, false, 24}));
  EXPECT_FALSE(reducer_of_code(0 * 16 + 9, 8).has_value()) << "an f32 reducer of 8-byte values";
  EXPECT_FALSE(reducer_of_code(512, 65).has_value()) << "a reducer of its own past 64 bytes";
  EXPECT_FALSE(reducer_of_code(4 * 16 + 9, 4).has_value()) << "bit_and of f32";
  EXPECT_FALSE(reducer_of_code(9 * 16, 4).has_value()) << "argmin is no reducer";
  EXPECT_FALSE(reducer_of_code(15, 1).has_value());
  EXPECT_EQ(describe(KernelReducer{Op::plus, DataType::u32, true, 4}), "span plus of u32");
}

}  // namespace
}  // namespace zr::core
