#include "plans/columns.hpp"

#include <algorithm>
#include <string_view>

#include "identity.hpp"
#include "plans/plan_building.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

using namespace plans;

namespace {
// A column pass folds at least this many rows per work-item before the next level (CPU tuning asks for far
// more: its min_elements_per_item), and the final pass folds at most kColumnFinalRows rows per column.
constexpr std::uint64_t kColumnMinRowsPerLane = 8;
constexpr std::uint64_t kColumnFinalRows = 64;

// CPU devices, three shapes, measured from Python on the 2-core machine (2^24 f32 sums, axis=0, medians of 9;
// bench/README.md), against the GPU shape of a lane striding down the whole array (61 ms, 1.1 GB/s):
//   - 16 columns or more, "columnsrows": a lane folds its block of rows into its partial row, a row at a time over
//     a chunk of kCpuColumnChunkBytes of adjacent columns (a contiguous inner loop that the CPU compiler
//     vectorises, and a partial row that stays in cache). Lanes enough for kCpuColumnItemsPerCore work-items a
//     core, counting the chunks. 256-2^20 columns: 2.2-3.7 ms on both runtimes, against 6-8 ms (Intel) and 3-4
//     (PoCL, columnscpu4) for the two shapes below; 4 columns: 7.5 ms against 2.0 (PoCL) and 5.4 (Intel).
//   - fewer, "columnscpu": a lane folds a contiguous block of rows of about kCpuColumnBlockBytes, which its
//     group's work-items (the block's columns, run one after another on one core) read from cache;
//   - or, where the compiler does not pack work-items into SIMD lanes itself (PoCL), "columnscpu4": the same
//     with four adjacent columns per work-item (4 columns: 2.0 ms against 7.3).
constexpr std::uint64_t kCpuColumnBlockBytes = 256 * 1024;
constexpr std::uint64_t kCpuRowwiseMinColumns = 16;
constexpr std::uint64_t kCpuColumnChunkBytes = 16 * 1024;
constexpr std::uint64_t kCpuColumnItemsPerCore = 16;

// One column pass's kernel and shape (before its buffers).
struct ColumnPassShape {
  std::string_view variant;
  std::uint64_t lanes;
  std::uint64_t local_size;
  std::uint64_t global_size;
  std::uint64_t chunk = 0;  // columnsrows: columns per work-item
};

ColumnPassShape column_pass_shape(const Capabilities& caps, const Tuning& tuning, std::uint64_t rows,
                                  std::uint64_t columns, std::size_t value_size, bool reads_input) {
  const std::uint64_t local = std::max<std::uint64_t>(1, std::min(tuning.work_group_size, caps.max_work_group_size));
  const std::uint64_t most_rows_lanes = ceil_div(std::max<std::uint64_t>(rows, 1), kColumnMinRowsPerLane);
  if (caps.type != DeviceType::cpu) {
    // At most a wave of work-items: more lanes only add partials.
    const std::uint64_t max_items = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit) * local;
    const std::uint64_t per_lane = std::max(kColumnMinRowsPerLane, reads_input ? tuning.min_elements_per_item : 1);
    const std::uint64_t lanes = std::clamp<std::uint64_t>(ceil_div(std::max<std::uint64_t>(rows, 1), per_lane), 1,
                                                          std::max<std::uint64_t>(1, max_items / columns));
    return {"columns", lanes, local, round_up(lanes * columns, local)};
  }
  if (columns >= kCpuRowwiseMinColumns) {
    const std::uint64_t chunk = std::max<std::uint64_t>(1, kCpuColumnChunkBytes / value_size);
    const std::uint64_t chunks = ceil_div(columns, chunk);
    const std::uint64_t wanted_items = std::max<std::uint64_t>(1, caps.compute_units) * kCpuColumnItemsPerCore;
    const std::uint64_t lanes = std::clamp<std::uint64_t>(ceil_div(wanted_items, chunks), 1, most_rows_lanes);
    return {"columnsrows", lanes, 1, lanes * chunks, chunk};
  }
  const std::uint64_t per_lane = std::max(kColumnMinRowsPerLane, kCpuColumnBlockBytes / (columns * value_size));
  const std::uint64_t lanes =
      std::clamp<std::uint64_t>(ceil_div(std::max<std::uint64_t>(rows, 1), per_lane), 1, most_rows_lanes);
  if (!caps.vectorizes_across_work_items) return {"columnscpu4", lanes, local, round_up(lanes * ceil_div(columns, 4), local)};
  return {"columnscpu", lanes, local, round_up(lanes * columns, local)};
}
}  // namespace

void append_column_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, BufferArg source,
                          bool source_is_input, std::uint64_t rows, std::uint64_t columns) {
  const Op op = plan.request.op;
  const DataType type = plan.request.type;
  const DataType acc_type = accumulator_type(type);
  const std::size_t acc_size = size_of(acc_type);
  const Scalar identity = to_accumulator(plan.request.identity);
  const BufferArg result{BufferArg::Which::result, 0};
  bool reads_input = source_is_input;
  while (reads_input || rows > kColumnFinalRows) {
    const ColumnPassShape shape =
        column_pass_shape(caps, tuning, rows, columns, reads_input ? size_of(type) : acc_size, reads_input);
    KernelPass pass = kernel_pass(shape.variant, op, reads_input ? type : acc_type, reads_input ? "partials" : "intermediate");
    pass.local_size = shape.local_size;
    pass.global_size = shape.global_size;
    // One partial row of the accumulator type, the elements' own, and no initial values to fold in after it:
    // it is the result, and no final pass runs.
    const bool last = shape.chunk > 0 && shape.lanes == 1 && acc_type == type && !plan.request.include_initial;
    const BufferArg out = last ? result
                               : add_scratch(plan, shape.lanes * columns * acc_size, std::nullopt,
                                             "column partials of pass " + std::to_string(plan.passes.size() + 1));
    pass.args = {source, u64(rows), u64(columns), out, u64(shape.lanes), identity};
    if (shape.chunk > 0) pass.args.push_back(u64(shape.chunk));
    if (last) pass.label = "final";
    plan.passes.push_back(std::move(pass));
    if (last) return;
    source = out;
    rows = shape.lanes;
    reads_input = false;
  }
  KernelPass final_pass = kernel_pass("columnsfinal", op, type, "final");
  final_pass.local_size = std::max<std::uint64_t>(1, std::min(tuning.final_work_group_size, caps.max_work_group_size));
  final_pass.global_size = round_up(columns, final_pass.local_size);
  final_pass.args = {source, u64(rows), u64(columns), result, identity, u32(plan.request.include_initial ? 1 : 0)};
  plan.passes.push_back(std::move(final_pass));
}

bool is_column_pass(const KernelPass& pass) {
  return pass.entry_point.starts_with("zr_columns_") || pass.entry_point.starts_with("zr_columnscpu_") ||
         pass.entry_point.starts_with("zr_columnscpu4_") || pass.entry_point.starts_with("zr_columnsrows_") ||
         pass.entry_point.starts_with("zr_columnsfinal_");
}

std::uint64_t column_pass_depth(const KernelPass& pass) {
  const std::uint64_t rows = std::get<Scalar>(pass.args[1]).as<std::uint64_t>();
  if (pass.entry_point.starts_with("zr_columnsfinal_")) return rows;  // folded one after another
  return ceil_div(rows, std::get<Scalar>(pass.args[4]).as<std::uint64_t>());  // rows per lane, either shape
}

Plan make_column_plan(const Capabilities& caps, const ReductionRequest& request, std::uint64_t columns,
                      const Tuning& tuning) {
  if (columns == 0) throw InvalidArgumentError("an array reduction needs at least one column");
  if (request.n % columns != 0)
    throw InvalidArgumentError("an array reduction of " + std::to_string(columns) + " columns needs n to be a multiple of " +
                               std::to_string(columns) + "; n = " + std::to_string(request.n));
  if (request.identity.type != request.type)
    throw InvalidArgumentError("identity is a " + std::string(name(request.identity.type)) + " value but the data is " +
                               std::string(name(request.type)));
  Plan plan;
  plan.request = request;
  plan.request.deterministic = true;
  plan.results = {{request.op, request.identity, request.include_initial, columns}};
  plan.strategy = Strategy::tree;
  plan.reason = "array reduction: " + std::to_string(columns) + " columns, rows folded in a fixed order";
  append_column_passes(plan, caps, tuning, BufferArg{BufferArg::Which::input, 0}, true, request.n / columns, columns);
  return plan;
}

}  // namespace zr::core
