// Array (column) plans as plain data: GPUs stride each lane down the whole array ("columns"), CPU devices give each
// lane a contiguous block of rows that its group reads from cache ("columnscpu", or "columnscpu4", four columns a
// work-item, where the compiler does not pack work-items into SIMD lanes); all end in "columnsfinal", and every
// pass's rows per lane is what combine_depth counts.
#include <gtest/gtest.h>

#include <utility>
#include <variant>

#include "fake_devices.hpp"
#include "identity.hpp"
#include "plan.hpp"
#include "tuning.hpp"

namespace zr::core {
namespace {

Plan column_plan(const Capabilities& caps, DataType type, std::uint64_t rows, std::uint64_t columns,
                 bool include_initial = true) {
  ReductionRequest r;
  r.op = Op::plus;
  r.type = type;
  r.n = rows * columns;
  r.include_initial = include_initial;
  r.identity = known_identity(Op::plus, type);
  return make_column_plan(caps, r, columns, tuning_for(caps));
}

std::uint64_t u64_arg(const KernelPass& pass, std::size_t i) { return std::get<Scalar>(pass.args[i]).as<std::uint64_t>(); }

TEST(ColumnPlan, GivenACpuDeviceAndFewColumns_WhenPlanning_ThenEachLaneFoldsABlockOfRowsThatFitsInCache) {
  for (const auto& caps : {test::pocl_like_cpu(), test::intel_opencl_like_cpu()}) {
    for (const std::uint64_t columns : {std::uint64_t{1}, std::uint64_t{4}, std::uint64_t{15}}) {
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

TEST(ColumnPlan, GivenACpuDeviceAndManyColumns_WhenPlanning_ThenEachWorkItemFoldsRowsOfAChunkOfColumns) {
  for (const auto& caps : {test::pocl_like_cpu(), test::intel_opencl_like_cpu()}) {
    bool wrote_the_result = false;
    for (const std::uint64_t columns : {std::uint64_t{16}, std::uint64_t{257}, std::uint64_t{1} << 20}) {
      SCOPED_TRACE(std::to_string(columns) + " columns on " + caps.device_name);
      const std::uint64_t rows = (std::uint64_t{1} << 24) / columns;
      for (const auto& [type, include_initial] : {std::pair{DataType::f32, false}, std::pair{DataType::f32, true},
                                                   std::pair{DataType::f64, false}, std::pair{DataType::i8, false}}) {
        const Plan plan = column_plan(caps, type, rows, columns, include_initial);
        const KernelPass& first = plan.passes.front();
        EXPECT_TRUE(first.entry_point.starts_with("zr_columnsrows_")) << first.entry_point;
        EXPECT_EQ(first.local_size, 1u);
        const std::uint64_t lanes = u64_arg(first, 4);
        const std::uint64_t chunk = u64_arg(first, 6);
        // A chunk's partial row is 16 KiB of the element type (it stays in cache); every core gets several
        // work-items, counting chunks and lanes; each lane folds at least 8 rows.
        EXPECT_EQ(chunk * size_of(type), 16u * 1024);
        const std::uint64_t chunks = (columns + chunk - 1) / chunk;
        EXPECT_EQ(first.global_size, lanes * chunks);
        EXPECT_GE(first.global_size, std::min<std::uint64_t>(4 * caps.compute_units, chunks * (rows / 8)));
        EXPECT_GE((rows + lanes - 1) / lanes, 8u);
        EXPECT_GE(combine_depth(plan), (rows + lanes - 1) / lanes);
        // One lane of the elements' own accumulator writes the result: no final pass. Otherwise columnsfinal.
        const bool alone = lanes == 1 && accumulator_type(type) == type && !include_initial;
        wrote_the_result = wrote_the_result || alone;
        EXPECT_EQ(plan.passes.size() == 1, alone) << describe(plan);
        EXPECT_EQ(std::get<BufferArg>(first.args[3]).which == BufferArg::Which::result, alone);
        EXPECT_EQ(plan.passes.back().entry_point.starts_with("zr_columnsfinal_"), !alone);
      }
    }
    EXPECT_TRUE(wrote_the_result) << "2^20 f32 columns: one lane, no final pass";
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
