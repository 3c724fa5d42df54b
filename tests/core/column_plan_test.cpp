// Array (column) plans as plain data: GPUs stride each lane down the whole array ("columns"), CPU devices give each
// lane a contiguous block of rows that its group reads from cache ("columnscpu", or "columnscpu4", four columns a
// work-item, where the compiler does not pack work-items into SIMD lanes); all end in "columnsfinal", and every
// pass's rows per lane is what combine_depth counts.
#include <gtest/gtest.h>

#include <variant>

#include "fake_devices.hpp"
#include "identity.hpp"
#include "plan.hpp"
#include "tuning.hpp"

namespace zr::core {
namespace {

Plan column_plan(const Capabilities& caps, DataType type, std::uint64_t rows, std::uint64_t columns) {
  ReductionRequest r;
  r.op = Op::plus;
  r.type = type;
  r.n = rows * columns;
  r.identity = known_identity(Op::plus, type);
  return make_column_plan(caps, r, columns, tuning_for(caps));
}

std::uint64_t u64_arg(const KernelPass& pass, std::size_t i) { return std::get<Scalar>(pass.args[i]).as<std::uint64_t>(); }

TEST(ColumnPlan, GivenACpuDevice_WhenPlanningColumns_ThenEachLaneFoldsABlockOfRowsThatFitsInCache) {
  for (const auto& caps : {test::pocl_like_cpu(), test::intel_opencl_like_cpu()}) {
    for (const std::uint64_t columns : {std::uint64_t{4}, std::uint64_t{256}, std::uint64_t{1} << 20}) {
      const std::uint64_t rows = (std::uint64_t{1} << 24) / columns;
      const Plan plan = column_plan(caps, DataType::f32, rows, columns);
      ASSERT_GE(plan.passes.size(), 2u);
      const KernelPass& first = plan.passes.front();
      const bool quads = !caps.vectorizes_across_work_items;
      const std::string variant = quads ? "zr_columnscpu4_plus_f32" : "zr_columnscpu_plus_f32";
      EXPECT_EQ(first.entry_point, variant) << columns << " columns";
      const std::uint64_t lanes = u64_arg(first, 4);
      const std::uint64_t rows_per_lane = (rows + lanes - 1) / lanes;
      // A block is at most 256 KiB, unless one lane's least (8 rows) is more.
      EXPECT_LE(rows_per_lane * columns * 4, std::max<std::uint64_t>(256 * 1024, 8 * columns * 4)) << columns;
      EXPECT_GE(rows_per_lane, 8u) << columns;
      EXPECT_EQ(first.global_size % first.local_size, 0u);
      EXPECT_GE(first.global_size, lanes * (quads ? (columns + 3) / 4 : columns));
      EXPECT_LT(first.global_size, lanes * (quads ? (columns + 3) / 4 : columns) + first.local_size);
      for (std::size_t p = 1; p + 1 < plan.passes.size(); ++p)
        EXPECT_EQ(plan.passes[p].entry_point, variant) << "intermediate pass " << p;
      EXPECT_EQ(plan.passes.back().entry_point, "zr_columnsfinal_plus_f32");
      EXPECT_LE(u64_arg(plan.passes.back(), 1), 64u) << "the final pass folds at most 64 rows";
      EXPECT_GE(combine_depth(plan), rows_per_lane);
    }
  }
}

TEST(ColumnPlan, GivenAGpu_WhenPlanningColumns_ThenLanesStrideTheArrayWithinAWave) {
  const Capabilities caps = test::nvidia_like_gpu();
  const Plan plan = column_plan(caps, DataType::f32, std::uint64_t{1} << 22, 4);
  const KernelPass& first = plan.passes.front();
  EXPECT_EQ(first.entry_point, "zr_columns_plus_f32");
  const Tuning tuning = tuning_for(caps);
  EXPECT_LE(u64_arg(first, 4) * 4, caps.compute_units * tuning.groups_per_compute_unit * first.local_size);
  EXPECT_EQ(plan.passes.back().entry_point, "zr_columnsfinal_plus_f32");
}

}  // namespace
}  // namespace zr::core
