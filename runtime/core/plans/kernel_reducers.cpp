#include "plans/kernel_reducers.hpp"

#include <algorithm>

#include "plans/plan_building.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

using namespace plans;

namespace {

constexpr std::uint64_t kPartialBytes = 8;  // a ulong per reducer and group, but for reducers of the application's own
constexpr std::size_t kMaxReductions = 32;  // bits of the initial-value mask

// CPU devices: at least this many indices per work-item (as cpu_chunks' chunks: plan.cpp).
constexpr std::uint64_t kCpuMinChunk = 16384;

struct Launch {
  std::uint64_t global = 0;
  std::uint64_t local = 0;
  std::uint64_t chunk = 0;  // consecutive indices per work-item; 0: a grid apart
};

// A range on a GPU: groups as wide as the device and tuning allow, as many as give each work-item a few indices, at
// most the tuning's groups per compute unit (the body is the application's: no more is known of its cost), each
// work-item taking indices a grid apart (coalesced). On a CPU device, whose runtime runs a group's items one after
// another, a work-item per group and a contiguous chunk of indices each: a grid apart they cost a cache line per
// index (PoCL, 2^20 f32: the fused norm took 2.4 ms a grid apart against 0.34 ms for a plain kernel).
Launch range_launch(const Capabilities& caps, const Tuning& tuning, std::uint64_t n, std::uint64_t slot) {
  const std::uint64_t most = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  if (caps.type == DeviceType::cpu) {
    const std::uint64_t groups = std::clamp<std::uint64_t>(ceil_div(n, kCpuMinChunk), 1, most);
    return {groups, 1, std::max<std::uint64_t>(1, ceil_div(n, groups))};
  }
  const std::uint64_t local = widest_group(caps, tuning, slot);
  const std::uint64_t wanted = ceil_div(n, local * std::max<std::uint64_t>(1, tuning.min_elements_per_item));
  return {std::clamp<std::uint64_t>(wanted, 1, most) * local, local, 0};
}

Launch nd_launch(const Capabilities& caps, const KernelLaunch& launch, std::uint64_t slot) {
  if (launch.global == 0 || launch.global % launch.local != 0)
    throw InvalidArgumentError("nd_range: the global size " + std::to_string(launch.global) +
                               " is not a positive multiple of the local size " + std::to_string(launch.local));
  if (launch.local > caps.max_work_group_size)
    throw InvalidArgumentError("nd_range: work-groups of " + std::to_string(launch.local) +
                               " work-items exceed the device's maximum of " + std::to_string(caps.max_work_group_size));
  if (caps.local_memory_bytes && launch.local * slot > caps.local_memory_bytes)
    throw InvalidArgumentError("nd_range: work-groups of " + std::to_string(launch.local) +
                               " work-items need more local memory than the device's " +
                               std::to_string(caps.local_memory_bytes) + " bytes");
  return {launch.global, launch.local, 0};
}

}  // namespace

Plan make_kernel_plan(const Capabilities& caps, const KernelLaunch& launch, const Tuning& tuning) {
  if (launch.reductions.empty()) throw InvalidArgumentError("a kernel with reducers needs at least one reduction");
  if (launch.reductions.size() > kMaxReductions)
    throw InvalidArgumentError("a kernel takes at most " + std::to_string(kMaxReductions) + " reductions, not " +
                               std::to_string(launch.reductions.size()));
  std::uint64_t slot = kPartialBytes;
  for (const KernelReduction& reduction : launch.reductions)
    if (reduction.reducer.op == Op::user) slot = std::max<std::uint64_t>(slot, round_up(reduction.reducer.bytes, 16));
  const Launch shape = launch.local ? nd_launch(caps, launch, slot) : range_launch(caps, tuning, launch.n, slot);
  const std::uint64_t groups = shape.global / shape.local;

  Plan plan;
  plan.request.n = 0;  // no input of ze-reduce's: the kernel reads its own
  plan.request.type = launch.reductions.front().reducer.type;
  plan.request.identity = launch.reductions.front().identity;
  plan.request.deterministic = true;
  plan.strategy = Strategy::last_group;
  plan.reason = "an application's kernel with reducers: its groups' partials folded by the last group";
  plan.kernel_indices = launch.local ? launch.global : launch.n;

  KernelPass pass;
  pass.module = launch.module;
  pass.entry_point = launch.entry_point;
  pass.global_size = shape.global;
  pass.local_size = shape.local;
  pass.label = "kernel";
  for (const KernelArgument& argument : launch.arguments) {
    if (argument.pointer) {
      pass.args.push_back(BufferArg{BufferArg::Which::kernel_pointer, static_cast<std::uint32_t>(plan.kernel_pointers.size())});
      plan.kernel_pointers.push_back(argument.address);
    } else {
      pass.args.push_back(argument.value);
    }
  }
  pass.args.push_back(u64(launch.local ? launch.global : launch.n));
  pass.args.push_back(u64(shape.chunk));
  pass.args.push_back(add_scratch(plan, launch.reductions.size() * groups * slot, std::nullopt, "partials"));
  pass.args.push_back(u64(slot));
  pass.args.push_back(add_scratch(plan, 4, Scalar::from(DataType::u32, 0u), "arrival counter"));
  pass.args.push_back(LocalMemoryArg{std::max<std::uint64_t>(shape.local * slot, 16)});
  std::uint32_t initial_mask = 0;
  for (std::size_t r = 0; r < launch.reductions.size(); ++r)
    if (launch.reductions[r].include_initial) initial_mask |= 1u << r;
  pass.args.push_back(u32(initial_mask));
  for (std::size_t r = 0; r < launch.reductions.size(); ++r) {
    const KernelReduction& reduction = launch.reductions[r];
    pass.args.push_back(BufferArg{BufferArg::Which::result, static_cast<std::uint32_t>(r)});
    if (reduction.reducer.span) pass.args.push_back(u64(reduction.elements));
    PlanResult result;
    result.op = reduction.reducer.op;
    result.identity = reduction.identity;
    result.include_initial = reduction.include_initial;
    result.elements = reduction.elements;
    result.element_bytes = reduction.reducer.bytes ? reduction.reducer.bytes : size_of(reduction.reducer.type);
    plan.results.push_back(result);
  }
  plan.passes.push_back(std::move(pass));
  return plan;
}

}  // namespace zr::core
