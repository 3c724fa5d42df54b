#include "plans/columns.hpp"

#include <algorithm>

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
// CPU devices (columnscpu.cl): a lane folds a contiguous block of rows of about this many bytes, which its
// group's work-items (the block's columns, run one after another on one core) read from cache. Measured on
// the 2-core machine (PoCL 3.1, f32 sums of 2^24 values in 4 to 2^20 columns): the GPU shape, each lane striding
// down the whole array, read 1.1 GB/s.
constexpr std::uint64_t kCpuColumnBlockBytes = 256 * 1024;
}  // namespace

void append_column_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, BufferArg source,
                          bool source_is_input, std::uint64_t rows, std::uint64_t columns) {
  const Op op = plan.request.op;
  const DataType type = plan.request.type;
  const DataType acc_type = accumulator_type(type);
  const std::size_t acc_size = size_of(acc_type);
  const Scalar identity = to_accumulator(plan.request.identity);
  const std::uint64_t local = std::max<std::uint64_t>(1, std::min(tuning.work_group_size, caps.max_work_group_size));
  const std::uint64_t max_items = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit) * local;
  const bool cpu = caps.type == DeviceType::cpu;
  bool reads_input = source_is_input;
  while (reads_input || rows > kColumnFinalRows) {
    const std::size_t row_bytes = columns * (reads_input ? size_of(type) : acc_size);
    const std::uint64_t per_lane =
        cpu ? std::max(kColumnMinRowsPerLane, kCpuColumnBlockBytes / row_bytes)
            : std::max(kColumnMinRowsPerLane, reads_input ? tuning.min_elements_per_item : 1);
    // GPUs: at most a wave of work-items (more lanes only add partials); CPU devices: blocks of the size above.
    const std::uint64_t most_lanes = cpu ? ceil_div(std::max<std::uint64_t>(rows, 1), kColumnMinRowsPerLane)
                                         : std::max<std::uint64_t>(1, max_items / columns);
    const std::uint64_t lanes =
        std::clamp<std::uint64_t>(ceil_div(std::max<std::uint64_t>(rows, 1), per_lane), 1, most_lanes);
    // Four columns per work-item where the CPU compiler does not pack work-items into SIMD lanes (PoCL).
    const bool quads = cpu && !caps.vectorizes_across_work_items;
    KernelPass pass = kernel_pass(quads ? "columnscpu4" : cpu ? "columnscpu" : "columns", op,
                                  reads_input ? type : acc_type, reads_input ? "partials" : "intermediate");
    pass.local_size = local;
    pass.global_size = round_up(lanes * (quads ? ceil_div(columns, 4) : columns), local);
    const BufferArg out = add_scratch(plan, lanes * columns * acc_size, std::nullopt,
                                      "column partials of pass " + std::to_string(plan.passes.size() + 1));
    pass.args = {source, u64(rows), u64(columns), out, u64(lanes), identity};
    plan.passes.push_back(std::move(pass));
    source = out;
    rows = lanes;
    reads_input = false;
  }
  KernelPass final_pass = kernel_pass("columnsfinal", op, type, "final");
  final_pass.local_size = std::max<std::uint64_t>(1, std::min(tuning.final_work_group_size, caps.max_work_group_size));
  final_pass.global_size = round_up(columns, final_pass.local_size);
  final_pass.args = {source, u64(rows), u64(columns), BufferArg{BufferArg::Which::result, 0}, identity,
                     u32(plan.request.include_initial ? 1 : 0)};
  plan.passes.push_back(std::move(final_pass));
}

bool is_column_pass(const KernelPass& pass) {
  return pass.entry_point.starts_with("zr_columns_") || pass.entry_point.starts_with("zr_columnscpu_") ||
         pass.entry_point.starts_with("zr_columnscpu4_") ||
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
