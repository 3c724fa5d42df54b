#include "plan.hpp"

#include <algorithm>
#include <sstream>

#include "binned_sum.hpp"
#include "identity.hpp"
#include "plans/columns.hpp"
#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"
#include "user_operator.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

using plans::add_scratch;
using plans::ceil_div;
using plans::ceil_log2;
using plans::kernel_pass;
using plans::local_bytes;
using plans::local_tree_depth;
using plans::round_up;
using plans::u32;
using plans::u64;
using plans::user_kernel_pass;
using plans::user_tree_depth;

namespace {
// The value the global-atomics accumulator holds: the accumulator widened to 32 bits for narrower integers
// (sign-extended for signed types), as the atomic kernels widen it.
Scalar widened_for_atomics(const Scalar& acc) {
  switch (acc.type) {
    case DataType::i8: return Scalar::from<std::int32_t>(DataType::i32, acc.as<std::int8_t>());
    case DataType::i16: return Scalar::from<std::int32_t>(DataType::i32, acc.as<std::int16_t>());
    case DataType::u8: return Scalar::from<std::uint32_t>(DataType::u32, acc.as<std::uint8_t>());
    case DataType::u16: return Scalar::from<std::uint32_t>(DataType::u32, acc.as<std::uint16_t>());
    case DataType::boolean: return Scalar::from<std::uint32_t>(DataType::u32, acc.as<std::uint8_t>());
    default: return acc;
  }
}

struct Shape {
  std::uint64_t local_size;
  std::uint64_t groups;
};

// Work-group size for the tree-like kernels: the tuning's size, within the device's limits, with room for
// one accumulator per work-item in local memory, and a multiple of the largest sub-group size for sub-groups.
std::uint64_t group_size(const Capabilities& caps, const Tuning& tuning, Strategy strategy, std::size_t acc_size) {
  std::uint64_t size = std::min(tuning.work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) size = std::min<std::uint64_t>(size, caps.local_memory_bytes / (2 * acc_size));
  if (strategy == Strategy::subgroup) {
    // The largest sub-group size that fits: the compiler's choice among the listed sizes then divides it.
    std::uint64_t sg = 1;
    for (std::uint32_t s : caps.subgroup_sizes)
      if (s <= size) sg = std::max<std::uint64_t>(sg, s);
    size -= size % sg;
  }
  return std::max<std::uint64_t>(size, 1);
}

// Groups: plans::launch_groups, the grid every 1-D reduction takes.
Shape grid_shape(const Capabilities& caps, const Tuning& tuning, std::uint64_t n, std::uint64_t local_size) {
  return {local_size, plans::launch_groups(caps, tuning, n, local_size)};
}

// Intermediate tree passes (the tree kernels of op on the accumulator type) while the partials are too many
// for one group: `partials` and `partial_count` then name the last pass's output.
void append_intermediate_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, Op op, DataType acc_type,
                                const Scalar& acc_identity, BufferArg& partials, std::uint64_t& partial_count) {
  const std::size_t acc_size = size_of(acc_type);
  const std::uint64_t tree_wg = group_size(caps, tuning, Strategy::tree, acc_size);
  while (partial_count > tuning.max_final_inputs) {
    const Shape next = grid_shape(caps, tuning, partial_count, tree_wg);
    KernelPass pass = kernel_pass("tree", op, acc_type, "intermediate");
    pass.local_size = next.local_size;
    pass.global_size = next.groups * next.local_size;
    const BufferArg out = add_scratch(plan, next.groups * acc_size, std::nullopt,
                                      "partials of pass " + std::to_string(plan.passes.size() + 1));
    pass.args = {partials, u64(partial_count), out, acc_identity, LocalMemoryArg{local_bytes(next.local_size, acc_size)}};
    plan.passes.push_back(std::move(pass));
    partials = out;
    partial_count = next.groups;
  }
}

// Intermediate tree passes while the partials are too many for one group, then the final pass into result
// `result_index`.
void append_final_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, Op op, DataType type,
                         const Scalar& acc_identity, BufferArg partials, std::uint64_t partial_count,
                         std::uint32_t result_index, bool include_initial) {
  const DataType acc_type = accumulator_type(type);
  const std::size_t acc_size = size_of(acc_type);
  append_intermediate_passes(plan, caps, tuning, op, acc_type, acc_identity, partials, partial_count);
  KernelPass final_pass = kernel_pass("final", op, type, "final");
  final_pass.local_size = std::max<std::uint64_t>(1, std::min(tuning.final_work_group_size, caps.max_work_group_size));
  final_pass.global_size = final_pass.local_size;
  final_pass.args = {partials, u64(partial_count), BufferArg{BufferArg::Which::result, result_index}, acc_identity,
                     u32(include_initial ? 1 : 0), LocalMemoryArg{local_bytes(final_pass.local_size, acc_size)}};
  plan.passes.push_back(std::move(final_pass));
}
// A reproducible floating-point sum (spirv_kernels/src/zr_binned.h): a binned state per group (rgrid) or per
// work-item (rchunks, CPU devices), then one group of rfinal merges them and rounds once (or, for a state
// output, one group of rstate merges them and stores the state). There are never intermediate passes: the
// last pass's work-items each merge a strided share of the states first.
constexpr std::size_t kBinnedStateBytes = sizeof(BinnedState);  // the kernels' zr_binned
// The kernels' zr_arg partial: {ACC value; ulong index}, 8-byte aligned (spirv_kernels/src/zr_arg.h).
constexpr std::size_t kArgPartialBytes = 16;

void plan_binned_sum(Plan& plan, const Capabilities& caps, const Tuning& tuning) {
  const ReductionRequest& request = plan.request;
  const bool chunks = plan.strategy == Strategy::cpu_chunks;
  const std::string_view variant = binned_variant(plan.strategy, caps);
  Shape shape = chunks ? grid_shape(caps, tuning, request.n, 1)
                       : grid_shape(caps, tuning, request.n, group_size(caps, tuning, Strategy::tree, kBinnedStateBytes));
  // At most one resident wave of groups where the tuning knows it: each group ends in a 64-byte state merge,
  // and a partial second wave leaves most of the device idle. H100 sweep of 2026-11-25 (zr_tune_sweep
  // --reproducible 1, bench/results/notes/reproducible_shape_h100.md): f32 2^26 2538 GB/s with 528 groups of
  // 384 (one wave) against 2050 with the 683 groups the plain sums' rule gave; 2^28 2932 against 2724.
  if (!chunks && tuning.wave_groups_per_compute_unit > 0)
    shape.groups = std::min<std::uint64_t>(shape.groups, std::max<std::uint64_t>(1, caps.compute_units * tuning.wave_groups_per_compute_unit));
  const std::uint64_t states = shape.groups * (chunks ? shape.local_size : 1);
  KernelPass first = kernel_pass(variant, Op::plus, request.type, "partials");
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  const BufferArg partials = add_scratch(plan, states * kBinnedStateBytes, std::nullopt,
                                         "binned states, one per " + std::string(chunks ? "work-item" : "work-group"));
  first.args = {BufferArg{BufferArg::Which::input, 0}, u64(request.n), partials,
                LocalMemoryArg{chunks ? 8 : local_bytes(shape.local_size, kBinnedStateBytes)}};
  plan.passes.push_back(std::move(first));

  // rstate merges bins as integers, whatever the element type: its one entry point is the f32 one.
  KernelPass final_pass = request.binned_state_output ? kernel_pass("rstate", Op::plus, DataType::f32, "final")
                                                      : kernel_pass("rfinal", Op::plus, request.type, "final");
  std::uint64_t final_size = std::min(tuning.final_work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) final_size = std::min<std::uint64_t>(final_size, caps.local_memory_bytes / kBinnedStateBytes);
  final_pass.local_size = std::max<std::uint64_t>(1, final_size);
  final_pass.global_size = final_pass.local_size;
  const BufferArg result{BufferArg::Which::result, 0};
  const LocalMemoryArg scratch{local_bytes(final_pass.local_size, kBinnedStateBytes)};
  if (request.binned_state_output)
    final_pass.args = {partials, u64(states), result, scratch};
  else
    final_pass.args = {partials, u64(states), result, u32(request.include_initial ? 1 : 0), scratch};
  plan.passes.push_back(std::move(final_pass));
}

// An arg-reduction: a first pass leaves one {value, index} partial per work-group (argtree) or per work-item
// (argcpu, CPU devices), and one group of argfinal picks the first of them in the arg order and writes the
// result; or, for last_group, arglast does both in one launch (its last group to finish combines). Every combine is a choice between two candidates, so no order or shape changes the result; there
// are no intermediate passes (the first pass launches at most the tuning's maximum groups, which one group
// reads in a few strided steps). The identity (best value, index UINT64_MAX) is built into the kernels.
void plan_arg_reduction(Plan& plan, const Capabilities& caps, const Tuning& tuning) {
  const ReductionRequest& request = plan.request;
  if (request.n == 0)
    throw InvalidArgumentError(std::string(name(request.op)) + " of an empty input (n = 0) has no result");
  const bool chunks = plan.strategy == Strategy::cpu_chunks;
  const Shape shape = chunks ? grid_shape(caps, tuning, request.n, 1)
                             : grid_shape(caps, tuning, request.n, group_size(caps, tuning, Strategy::tree, kArgPartialBytes));
  const std::uint64_t partial_count = shape.groups * (chunks ? shape.local_size : 1);
  // The GPU-shaped scan numbers a work-item's vector visits in 32 bits (zr_arg_grid.h).
  const std::uint64_t vectors = request.n / std::max<std::size_t>(1, 16 / size_of(request.type));
  if (!chunks && vectors / (shape.groups * shape.local_size) >= UINT32_MAX)
    throw UnsupportedError(std::string(name(request.op)) + " of n = " + std::to_string(request.n) + " on " +
                           std::to_string(shape.groups * shape.local_size) + " work-items exceeds 2^32 vector reads per work-item");
  if (plan.strategy == Strategy::last_group) {
    KernelPass pass = kernel_pass("arglast", request.op, request.type, "single pass");
    pass.local_size = shape.local_size;
    pass.global_size = shape.groups * shape.local_size;
    const BufferArg partials = add_scratch(plan, partial_count * kArgPartialBytes, std::nullopt,
                                           "{value, index} partials, one per work-group");
    const BufferArg counter = add_scratch(plan, sizeof(std::uint32_t), u32(0), "work-group arrival counter");
    pass.args = {BufferArg{BufferArg::Which::input, 0}, u64(request.n), partials,
                 LocalMemoryArg{local_bytes(shape.local_size, kArgPartialBytes)}, counter, BufferArg{BufferArg::Which::result, 0}};
    plan.passes.push_back(std::move(pass));
    return;
  }
  KernelPass first = kernel_pass(chunks ? "argcpu" : "argtree", request.op, request.type, "partials");
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  const BufferArg partials = add_scratch(plan, partial_count * kArgPartialBytes, std::nullopt,
                                         "{value, index} partials, one per " + std::string(chunks ? "work-item" : "work-group"));
  first.args = {BufferArg{BufferArg::Which::input, 0}, u64(request.n), partials,
                LocalMemoryArg{local_bytes(shape.local_size, kArgPartialBytes)}};
  plan.passes.push_back(std::move(first));

  KernelPass final_pass = kernel_pass("argfinal", request.op, request.type, "final");
  std::uint64_t final_size = std::min(tuning.final_work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) final_size = std::min<std::uint64_t>(final_size, caps.local_memory_bytes / kArgPartialBytes);
  final_pass.local_size = std::max<std::uint64_t>(1, final_size);
  final_pass.global_size = final_pass.local_size;
  final_pass.args = {partials, u64(partial_count), BufferArg{BufferArg::Which::result, 0},
                     LocalMemoryArg{local_bytes(final_pass.local_size, kArgPartialBytes)}};
  plan.passes.push_back(std::move(final_pass));
}

// A transform-reduction: ttree leaves one ACC partial sum per group (tcpu, on CPU devices, one per work-item of
// groups of one), intermediate passes are the plain tree
// kernels' plus on ACC, and one group of tfinal sums, finishes (norm_l2's square root) and stores the result;
// or, for last_group, tlast does it all in one launch. The sums start from zero, built into the kernels; the
// result is written, never read.
void plan_transform_reduction(Plan& plan, const Capabilities& caps, const Tuning& tuning) {
  const ReductionRequest& request = plan.request;
  const DataType acc_type = transform_accumulator_type(request.op, request.type);
  const std::size_t acc_size = size_of(acc_type);
  const bool chunks = plan.strategy == Strategy::cpu_chunks;
  const Shape shape = chunks ? grid_shape(caps, tuning, request.n, 1)
                             : grid_shape(caps, tuning, request.n, group_size(caps, tuning, Strategy::tree, acc_size));
  const Scalar value = plans::transform_lane_value(request);
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg result{BufferArg::Which::result, 0};
  const bool one_launch = plan.strategy == Strategy::last_group;
  const std::string_view variant = one_launch ? "tlast" : chunks ? "tcpu" : "ttree";
  KernelPass first = kernel_pass(variant, request.op, request.type, one_launch ? "single pass" : "partials");
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  const BufferArg partials = add_scratch(plan, shape.groups * acc_size, std::nullopt,
                                         chunks ? "partial sums, one per work-item" : "partial sums, one per work-group");
  first.args = {input, u64(request.n), partials, value, LocalMemoryArg{local_bytes(shape.local_size, acc_size)}};
  if (one_launch) {
    first.args.push_back(add_scratch(plan, sizeof(std::uint32_t), u32(0), "work-group arrival counter"));
    first.args.push_back(result);
    plan.passes.push_back(std::move(first));
    return;
  }
  plan.passes.push_back(std::move(first));

  BufferArg sums = partials;
  std::uint64_t count = shape.groups;
  append_intermediate_passes(plan, caps, tuning, Op::plus, acc_type, known_identity(Op::plus, acc_type), sums, count);
  KernelPass final_pass = kernel_pass("tfinal", request.op, request.type, "final");
  final_pass.local_size = std::max<std::uint64_t>(1, std::min(tuning.final_work_group_size, caps.max_work_group_size));
  final_pass.global_size = final_pass.local_size;
  final_pass.args = {sums, u64(count), result, LocalMemoryArg{local_bytes(final_pass.local_size, acc_size)}};
  plan.passes.push_back(std::move(final_pass));
}

// A mean and variance (zr_moments.h): mtree leaves one {count, mean, m2} state per group (mcpu, on CPU devices,
// one per work-item of groups of one), and one group of mfinal merges them in index order and stores the
// result; or, for last_group, mlast does both in one launch. No intermediate passes: the first pass launches
// at most the tuning's maximum groups, which the last pass's items read in a few strided steps.
void plan_moments(Plan& plan, const Capabilities& caps, const Tuning& tuning) {
  const ReductionRequest& request = plan.request;
  const std::uint64_t state_bytes = moments_bytes(request.op);
  const bool chunks = plan.strategy == Strategy::cpu_chunks;
  const Shape shape = chunks ? grid_shape(caps, tuning, request.n, 1)
                             : grid_shape(caps, tuning, request.n, group_size(caps, tuning, Strategy::tree, state_bytes));
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg result{BufferArg::Which::result, 0};
  const bool one_launch = plan.strategy == Strategy::last_group;
  const std::string_view variant = one_launch ? "mlast" : chunks ? "mcpu" : "mtree";
  KernelPass first = kernel_pass(variant, request.op, request.type, one_launch ? "single pass" : "partials");
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  const BufferArg partials = add_scratch(plan, shape.groups * state_bytes, std::nullopt,
                                         chunks ? "{count, mean, m2} states, one per work-item"
                                                : "{count, mean, m2} states, one per work-group");
  first.args = {input, u64(request.n), partials, LocalMemoryArg{local_bytes(shape.local_size, state_bytes)}};
  if (one_launch) {
    first.args.push_back(add_scratch(plan, sizeof(std::uint32_t), u32(0), "work-group arrival counter"));
    first.args.push_back(result);
    plan.passes.push_back(std::move(first));
    return;
  }
  plan.passes.push_back(std::move(first));
  KernelPass final_pass = kernel_pass("mfinal", request.op, moments_accumulator(request.op), "final");
  std::uint64_t final_size = std::min(tuning.final_work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) final_size = std::min<std::uint64_t>(final_size, caps.local_memory_bytes / state_bytes);
  final_pass.local_size = std::max<std::uint64_t>(1, final_size);
  final_pass.global_size = final_pass.local_size;
  final_pass.args = {partials, u64(shape.groups), result, LocalMemoryArg{local_bytes(final_pass.local_size, state_bytes)}};
  plan.passes.push_back(std::move(final_pass));
}
// A user-defined operator (user_operator.hpp, zr_user.h): utree leaves one accumulator slot and its flag per
// group (ucpu, on CPU devices, per work-item of groups of one), and one group of ufinal combines them in index
// order and stores the result; or, for last_group, ulast does both in one launch. No intermediate passes: the
// first pass launches at most the tuning's maximum groups. The templates are linked with the operator here,
// once per process.
void plan_user_reduction(Plan& plan, const Capabilities& caps, const Tuning& tuning) {
  const ReductionRequest& request = plan.request;
  if (!request.user_operator) throw InvalidArgumentError("a user-defined reduction names no operator");
  const UserOperator& op = *request.user_operator;
  const std::uint64_t slot = op.slot_bytes();
  const std::uint64_t flag = sizeof(std::uint32_t);
  const bool chunks = plan.strategy == Strategy::cpu_chunks;
  const Shape shape = chunks ? grid_shape(caps, tuning, request.n, 1)
                             : grid_shape(caps, tuning, request.n, group_size(caps, tuning, Strategy::tree, slot + flag));
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg result{BufferArg::Which::result, 0};
  const Scalar include_initial = u32(request.include_initial ? 1 : 0);
  const bool one_launch = plan.strategy == Strategy::last_group;
  const std::string_view variant = one_launch ? "ulast" : chunks ? "ucpu" : "utree";
  KernelPass first = user_kernel_pass(variant, op, one_launch ? "single pass" : "partials");
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  const std::string per = chunks ? "work-item" : "work-group";
  const BufferArg partials = add_scratch(plan, shape.groups * slot, std::nullopt, "accumulators, one per " + per);
  const BufferArg flags = add_scratch(plan, shape.groups * flag, std::nullopt, "whether each accumulator holds a value");
  first.args = {input, u64(request.n), partials, flags, LocalMemoryArg{local_bytes(shape.local_size, slot)},
                LocalMemoryArg{local_bytes(shape.local_size, flag)}};
  if (one_launch) {
    first.args.push_back(add_scratch(plan, sizeof(std::uint32_t), u32(0), "work-group arrival counter"));
    first.args.push_back(result);
    first.args.push_back(include_initial);
    plan.passes.push_back(std::move(first));
    return;
  }
  plan.passes.push_back(std::move(first));
  KernelPass final_pass = user_kernel_pass("ufinal", op, "final");
  std::uint64_t final_size = std::min(tuning.final_work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) final_size = std::min<std::uint64_t>(final_size, caps.local_memory_bytes / (2 * (slot + flag)));
  final_pass.local_size = std::max<std::uint64_t>(1, final_size);
  final_pass.global_size = final_pass.local_size;
  final_pass.args = {partials, flags, u64(shape.groups), result, include_initial,
                     LocalMemoryArg{local_bytes(final_pass.local_size, slot)},
                     LocalMemoryArg{local_bytes(final_pass.local_size, flag)}};
  plan.passes.push_back(std::move(final_pass));
}
}  // namespace

std::uint64_t result_bytes(const Plan& plan, std::size_t index) {
  if (plan.request.binned_state_output) return kBinnedStateBytes;
  const std::uint64_t elements = index < plan.results.size() ? plan.results[index].elements : 1;
  if (index < plan.results.size() && plan.results[index].element_bytes) return elements * plan.results[index].element_bytes;
  const Op op = plan.request.op;
  std::uint64_t each = size_of(plan.request.type);
  if (is_arg_op(op)) each = kArgResultBytes;
  else if (is_transform_op(op)) each = size_of(transform_result_type(op, plan.request.type));
  else if (is_moments_op(op)) each = moments_bytes(op);
  else if (is_user_op(op) && plan.request.user_operator) each = plan.request.user_operator->accumulator_bytes;
  return elements * each;
}

bool reads_initial_value(const Plan& plan, std::size_t index) {
  return index < plan.results.size() ? plan.results[index].include_initial : plan.request.include_initial;
}

Plan make_plan(const Capabilities& caps, const ReductionRequest& request, const StrategyChoice& choice) {
  return make_plan(caps, request, choice, tuning_for(caps));
}

Plan make_plan(const Capabilities& caps, const ReductionRequest& request, const StrategyChoice& choice,
               const Tuning& tuning) {
  if (request.identity.type != request.type)
    throw InvalidArgumentError("identity is a " + std::string(name(request.identity.type)) + " value but the data is " +
                               std::string(name(request.type)));
  Plan plan;
  plan.request = request;
  plan.results = {{request.op, request.identity, request.include_initial, 1}};
  plan.strategy = choice.strategy;
  plan.reason = choice.reason;
  if (request.binned_state_output && (!is_binned_sum(request) || request.include_initial))
    throw InvalidArgumentError("a binned state output is only for a reproducible floating-point sum without an "
                               "initial value (" + std::string(name(request.op)) + " on " +
                               std::string(name(request.type)) + (request.include_initial ? ", with one" : "") + ")");
  if (is_binned_sum(request)) {
    plan.request.deterministic = true;
    plan_binned_sum(plan, caps, tuning);
    return plan;
  }
  // Arg-reductions, transform-reductions and means/variances run their own kernels in a fixed order, and
  // write their variable without reading it.
  if (is_arg_op(request.op) || is_transform_op(request.op) || is_moments_op(request.op)) {
    plan.request.deterministic = true;
    plan.request.include_initial = false;
    plan.results.front().include_initial = false;
    if (is_arg_op(request.op)) plan_arg_reduction(plan, caps, tuning);
    else if (is_moments_op(request.op)) plan_moments(plan, caps, tuning);
    else plan_transform_reduction(plan, caps, tuning);
    return plan;
  }
  // User-defined operators combine in a fixed order too, and read the variable unless initialize_to_identity.
  if (is_user_op(request.op)) {
    plan.request.deterministic = true;
    plan_user_reduction(plan, caps, tuning);
    return plan;
  }

  const Op op = request.op;
  const DataType type = request.type;
  const DataType acc_type = accumulator_type(type);
  const std::size_t acc_size = size_of(acc_type);
  const Scalar identity = to_accumulator(request.identity);
  const std::uint64_t n = request.n;
  const Scalar include_initial = u32(request.include_initial ? 1 : 0);
  const std::string_view variant = first_pass_variant(choice.strategy, op, type, caps);

  auto add_scratch = [&](std::uint64_t bytes, std::optional<Scalar> fill, std::string purpose) {
    return zr::core::add_scratch(plan, bytes, std::move(fill), std::move(purpose));
  };
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg result{BufferArg::Which::result, 0};

  // The first pass's launch: cpu_chunks runs one work-item per group, the others tuned work-groups.
  const Shape shape = choice.strategy == Strategy::cpu_chunks
                          ? grid_shape(caps, tuning, n, 1)
                          : grid_shape(caps, tuning, n, group_size(caps, tuning, choice.strategy, acc_size));

  // A small input that the strategy would give a single work-group and then reduce its one partial (a
  // second launch, or the group counting itself in global memory): the final kernel alone reads the input
  // instead, one launch and the same fixed-order tree (up to the tuning's final_only_max_elements). It reads
  // the accumulator type, so only where that is the element type; and not where a strategy was asked for by
  // name (that one runs its own kernels).
  if (!request.strategy && shape.groups == 1 && acc_type == type && n <= tuning.final_only_max_elements &&
      n <= tuning.max_final_inputs) {
    plan.strategy = Strategy::tree;
    plan.reason = "n = " + std::to_string(n) + " is one work-group's share: the final pass alone reads the input (" +
                  std::string(name(choice.strategy)) + " would launch a single group too)";
    append_final_passes(plan, caps, tuning, op, type, identity, input, n, 0, request.include_initial);
    return plan;
  }

  if (choice.strategy == Strategy::last_group || choice.strategy == Strategy::global_atomics) {
    const std::uint64_t wg = shape.local_size;
    KernelPass pass = kernel_pass(variant, op, type, "single pass");
    pass.local_size = shape.local_size;
    pass.global_size = shape.groups * shape.local_size;
    const Scalar counter_zero = u32(0);
    if (choice.strategy == Strategy::last_group) {
      const BufferArg partials = add_scratch(shape.groups * acc_size, std::nullopt, "partials, one per work-group");
      const BufferArg counter = add_scratch(sizeof(std::uint32_t), counter_zero, "work-group arrival counter");
      pass.args = {input, u64(n), partials, identity, LocalMemoryArg{local_bytes(wg, acc_size)}, counter, result, include_initial};
    } else {
      const Scalar widened = widened_for_atomics(identity);
      const BufferArg accumulator = add_scratch(widened.size(), widened, "atomic accumulator (holds the identity between runs)");
      const BufferArg counter = add_scratch(2 * sizeof(std::uint32_t), counter_zero, "arrival counter and flags");
      pass.args = {input, u64(n), accumulator, identity, LocalMemoryArg{local_bytes(wg, acc_size)}, counter, result, include_initial};
    }
    plan.passes.push_back(std::move(pass));
    return plan;
  }

  // Partials, then intermediate passes while there are too many for one group, then the final pass.
  // cpu_chunks writes one partial per work-item, the others one per work-group.
  std::uint64_t partial_count = choice.strategy == Strategy::cpu_chunks ? shape.groups * shape.local_size : shape.groups;
  KernelPass first = kernel_pass(variant, op, type, "partials");
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  BufferArg partials = add_scratch(partial_count * acc_size, std::nullopt, "partials of pass 1");
  first.args = {input, u64(n), partials, identity, LocalMemoryArg{local_bytes(shape.local_size, acc_size)}};
  plan.passes.push_back(std::move(first));

  append_final_passes(plan, caps, tuning, op, type, identity, partials, partial_count, 0, request.include_initial);
  return plan;
}


Plan make_fused_plan(const Capabilities& caps, DataType type, std::uint64_t n, std::span<const PlanResultSpec> results,
                     const Tuning& tuning) {
  if (results.empty()) throw InvalidArgumentError("a fused plan needs at least one result");
  for (const auto& result : results) {
    if (result.identity.type != type)
      throw InvalidArgumentError("identity is a " + std::string(name(result.identity.type)) + " value but the data is " +
                                 std::string(name(type)));
    if (!is_supported(result.op, type))
      throw InvalidArgumentError(std::string(name(result.op)) + " is not defined for " + std::string(name(type)));
  }
  const DataType acc_type = accumulator_type(type);
  const std::size_t acc_size = size_of(acc_type);
  const auto found = find_kernel("fused", type);
  if (!found) throw UnsupportedError("no 'fused' kernel is embedded for " + std::string(name(type)));

  Plan plan;
  plan.request.op = results.front().op;
  plan.request.type = type;
  plan.request.n = n;
  plan.request.identity = results.front().identity;
  plan.request.include_initial = results.front().include_initial;
  plan.request.deterministic = true;
  plan.strategy = Strategy::tree;
  plan.reason = "fused: " + std::to_string(results.size()) + " reductions in one read of the input (one local-memory tree)";

  // Every active op keeps one accumulator per work-item in local memory at once.
  std::uint64_t active_ops = 0;
  for (Op op : kAllOps)
    active_ops += std::any_of(results.begin(), results.end(), [op](const auto& r) { return r.op == op; });
  const std::uint64_t wg = group_size(caps, tuning, Strategy::tree, acc_size * active_ops);
  const Shape shape = grid_shape(caps, tuning, n, wg);
  KernelPass first;
  first.module = found->module;
  first.entry_point = std::string(found->kernel->entry_point);
  first.label = "partials (fused)";
  first.local_size = shape.local_size;
  first.global_size = shape.groups * shape.local_size;
  first.args = {BufferArg{BufferArg::Which::input, 0}, u64(n)};
  // One (partials, identity, local scratch) slot per op of the type, in the kernel's order; the first result
  // of an op switches its slot on.
  std::vector<std::pair<Op, BufferArg>> partials_of;
  for (Op op : kAllOps) {
    if (!is_supported(op, type)) continue;
    const auto first_result = std::find_if(results.begin(), results.end(), [op](const auto& r) { return r.op == op; });
    BufferArg partials{BufferArg::Which::none, 0};
    Scalar identity = to_accumulator(known_identity(op, type));
    if (first_result != results.end()) {
      partials = add_scratch(plan, shape.groups * acc_size, std::nullopt,
                             "partials of " + std::string(name(op)) + ", one per work-group");
      identity = to_accumulator(first_result->identity);
      partials_of.emplace_back(op, partials);
    }
    first.args.push_back(partials);
    first.args.push_back(identity);
    first.args.push_back(LocalMemoryArg{first_result != results.end() ? local_bytes(shape.local_size, acc_size) : 8});
  }
  plan.passes.push_back(std::move(first));

  for (std::size_t j = 0; j < results.size(); ++j) {
    const auto& result = results[j];
    const auto partials = std::find_if(partials_of.begin(), partials_of.end(), [&](const auto& p) { return p.first == result.op; });
    append_final_passes(plan, caps, tuning, result.op, type, to_accumulator(result.identity), partials->second,
                        shape.groups, static_cast<std::uint32_t>(j), result.include_initial);
    plan.results.push_back({result.op, result.identity, result.include_initial, 1});
  }
  return plan;
}

namespace {
// The cpu variant keeps at least this many independent accumulators per work-item (2 states of 2 lanes for
// 8-byte types, more for narrower ones: spirv_kernels/src/cpu.cl), so one chain sees chunk / 4 elements.
constexpr std::uint64_t kCpuMinIndependentChains = 4;
constexpr std::uint64_t kCpuChunkMultiple = 16;

// A user operator's pass (zr_user.h): every element and partial goes through the operator one at a time, the
// accumulator starting from the identity where there is one (one combine more than from the first element).
std::uint64_t user_pass_depth(const KernelPass& pass, std::uint64_t count, std::uint64_t lanes, Strategy strategy) {
  const std::uint64_t tree = user_tree_depth(pass.local_size);
  std::uint64_t depth = 0;
  if (pass.entry_point.starts_with("zr_ucpu_")) {
    depth = ceil_div(ceil_div(count, pass.global_size), kCpuChunkMultiple) * kCpuChunkMultiple + 1;
  } else if (pass.entry_point.starts_with("zr_ufinal_")) {
    depth = ceil_div(count, pass.local_size) + 1 + tree;
  } else {
    depth = lanes * ceil_div(ceil_div(count, lanes), pass.global_size) + 1 + tree;
  }
  if (strategy == Strategy::last_group) depth += ceil_div(pass.group_count(), pass.local_size) + 1 + tree;
  return depth;
}
}  // namespace

std::uint64_t combine_depth(const Plan& plan) {
  if (is_arg_op(plan.request.op)) return 0;  // choices between candidates: nothing is rounded
  if (plan.segments) return segmented_combine_depth(plan);
  if (plan.kernel_indices) {
    // The body's combines in a work-item's indices (a grid apart, or a chunk of as many), the group's tree, the
    // last group's share of the partials and its tree, and the initial value.
    const KernelPass& pass = plan.passes.front();
    const std::uint64_t tree = local_tree_depth(pass.local_size) + 1;
    return ceil_div(*plan.kernel_indices, pass.global_size) + tree + ceil_div(pass.group_count(), pass.local_size) +
           tree + 1;
  }
  std::uint64_t depth = plan.request.include_initial ? 1 : 0;
  // The grid kernels read 16-byte vectors strided by the global size (zr_grid.h), so a work-item's chain is a
  // whole number of vectors, plus at most one element of the tail; the narrowest element read has the most
  // lanes (later passes read the accumulator type, never narrower).
  const std::uint64_t lanes = std::max<std::uint64_t>(1, 16 / size_of(plan.request.type));
  for (const auto& pass : plan.passes) {
    // Every kernel takes its count second, but for ufinal (after the partials' flags).
    const std::size_t count_arg = pass.entry_point.starts_with("zr_ufinal_") ? 2 : 1;
    const std::uint64_t count = std::get<Scalar>(pass.args[count_arg]).as<std::uint64_t>();
    if (is_user_op(plan.request.op)) {
      depth += user_pass_depth(pass, count, lanes, plan.strategy);
      continue;
    }
    if (is_column_pass(pass)) {
      depth += column_pass_depth(pass);
      continue;
    }
    const bool cpu = pass.entry_point.starts_with("zr_cpu_");
    const std::uint64_t tree = local_tree_depth(pass.local_size) + 1;
    if (cpu) {
      const std::uint64_t chunk = ceil_div(ceil_div(count, pass.global_size), kCpuChunkMultiple) * kCpuChunkMultiple;
      depth += ceil_div(chunk, kCpuMinIndependentChains) + ceil_log2(kCpuChunkMultiple) + 2;
    } else {
      depth += lanes * ceil_div(ceil_div(count, lanes), pass.global_size) + 1 + tree;
    }
    if (plan.strategy == Strategy::last_group) depth += ceil_div(pass.group_count(), pass.local_size) + tree;
    if (plan.strategy == Strategy::global_atomics) depth += pass.group_count();  // arrival order, one by one
  }
  return depth;
}

std::vector<InputChunk> split_input(std::uint64_t n, DataType type, std::uint64_t max_allocation_bytes) {
  const std::uint64_t per_chunk = max_allocation_bytes / size_of(type);
  if (per_chunk == 0)
    throw UnsupportedError("the device cannot allocate even one " + std::string(name(type)) + " element");
  std::vector<InputChunk> chunks;
  for (std::uint64_t first = 0; first < n || chunks.empty(); first += per_chunk)
    chunks.push_back({first, std::min(per_chunk, n - first)});
  return chunks;
}

std::string describe(const Plan& plan) {
  std::ostringstream out;
  out << name(plan.request.op) << " over " << plan.request.n << " x " << name(plan.request.type) << ", strategy "
      << name(plan.strategy) << " (" << plan.reason << ")\n";
  if (plan.segments)
    out << "  " << plan.segments->segments << " segments"
        << (plan.segments->offset_bytes ? " given by " + std::to_string(plan.segments->offset_bytes * 8) + "-bit offsets"
                                        : " of " + std::to_string(plan.segments->length) + " elements")
        << ", longest " << plan.segments->longest << '\n';
  for (std::size_t i = 0; i < plan.scratch.size(); ++i)
    out << "  scratch " << i << ": " << plan.scratch[i].bytes << " bytes, " << plan.scratch[i].purpose << '\n';
  for (const auto& pass : plan.passes)
    out << "  " << pass.label << ": " << pass.entry_point << " [" << pass.module->name << "] " << pass.group_count()
        << " group(s) x " << pass.local_size << '\n';
  return out.str();
}

}  // namespace zr::core
