#include "strategy.hpp"

#include <algorithm>

#include "binned_sum.hpp"
#include "user_operator.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {
struct StrategyName {
  Strategy strategy;
  std::string_view name;
  std::string_view variant;
};
constexpr StrategyName kNames[] = {
    {Strategy::tree, "tree", "tree"},
    {Strategy::subgroup, "subgroup", "subgroup"},
    {Strategy::work_group, "work_group", "workgroup"},
    {Strategy::local_atomics, "local_atomics", "localatomic"},
    {Strategy::cpu_chunks, "cpu_chunks", "cpu"},
    {Strategy::last_group, "last_group", "lastgroup"},
    {Strategy::global_atomics, "global_atomics", "atomic"},
};

std::string device_label(const Capabilities& caps) { return "device '" + caps.device_name + "'"; }

// Whether the embedded kernel exists and the device can load its module; the reason if not.
std::optional<std::string> kernel_unavailable(std::string_view variant, Op op, DataType type, const Capabilities& caps) {
  const auto found = find_kernel(variant, op, type);
  if (!found) return "no '" + std::string(variant) + "' kernel is built for " + std::string(name(op)) + " on " + std::string(name(type));
  if (!caps.can_load(*found->module)) {
    const FeatureSet missing = found->module->required.missing_from(caps.features());
    if (!missing.empty())
      return device_label(caps) + " lacks " + to_string(missing) + " needed by module " + std::string(found->module->name);
    return device_label(caps) + " cannot load module " + std::string(found->module->name) +
           ": it takes neither SPIR-V nor SPIR 1.2, and its OpenCL C compiler is older than the module's " +
           std::string(found->module->cl_std);
  }
  return std::nullopt;
}

bool float_atomic_op_supported(const Capabilities& caps, Op op, DataType type) {
  const auto& atomics = caps.float_atomics(type);
  if (op == Op::plus) return atomics.global_add;
  if (op == Op::minimum || op == Op::maximum) return atomics.global_min_max;
  return false;
}
}  // namespace

std::string_view name(Strategy strategy) { return kNames[static_cast<int>(strategy)].name; }

std::optional<Strategy> parse_strategy(std::string_view text) {
  for (const auto& n : kNames) {
    if (n.name == text) return n.strategy;
  }
  return std::nullopt;
}

std::string_view kernel_variant(Strategy strategy) { return kNames[static_cast<int>(strategy)].variant; }

bool is_binned_sum(const ReductionRequest& request) {
  return request.reproducible && request.op == Op::plus && is_floating(request.type);
}

// A binned sum (zr_binned.h): its first pass, then rfinal (or rstate).
std::string_view binned_variant(Strategy strategy, const Capabilities& caps) {
  if (strategy != Strategy::cpu_chunks) return "rgrid";
  return caps.compute_units >= 8 ? "rchunks4" : "rchunks";
}

namespace {
// An arg-reduction (Op::argmin, Op::argmax) has three shapes: argtree then argfinal (Strategy::tree), arglast
// (one launch, the last group combines: Strategy::last_group), argcpu then argfinal (Strategy::cpu_chunks).
std::optional<std::string> why_arg_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request) {
  if (strategy == Strategy::last_group) return kernel_unavailable("arglast", request.op, request.type, caps);
  if (strategy != Strategy::tree && strategy != Strategy::cpu_chunks)
    return "argmin and argmax run with strategy tree, last_group or cpu_chunks only";
  if (auto missing = kernel_unavailable(strategy == Strategy::cpu_chunks ? "argcpu" : "argtree", request.op, request.type, caps))
    return missing;
  return kernel_unavailable("argfinal", request.op, request.type, caps);
}

// A transform-reduction (transform.hpp) has three shapes: ttree or tcpu (CPU devices), tree passes on the
// accumulator, tfinal (Strategy::tree, Strategy::cpu_chunks); tlast in one launch (Strategy::last_group).
std::optional<std::string> why_transform_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request) {
  if (strategy == Strategy::last_group) return kernel_unavailable("tlast", request.op, request.type, caps);
  if (strategy != Strategy::tree && strategy != Strategy::cpu_chunks)
    return "transform-reductions run with strategy tree, last_group or cpu_chunks only";
  if (auto missing = kernel_unavailable(strategy == Strategy::cpu_chunks ? "tcpu" : "ttree", request.op, request.type, caps))
    return missing;
  if (auto missing = kernel_unavailable("tree", Op::plus, transform_accumulator_type(request.op, request.type), caps))
    return missing;
  return kernel_unavailable("tfinal", request.op, request.type, caps);
}

// A mean and variance (zr_moments.h) has the same three shapes: mtree or mcpu (CPU devices), then mfinal, whose
// entry point of the accumulator's own type serves every element type; or mlast in one launch.
std::optional<std::string> why_moments_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request) {
  if (strategy == Strategy::last_group) return kernel_unavailable("mlast", request.op, request.type, caps);
  if (strategy != Strategy::tree && strategy != Strategy::cpu_chunks)
    return "means and variances run with strategy tree, last_group or cpu_chunks only";
  if (auto missing = kernel_unavailable(strategy == Strategy::cpu_chunks ? "mcpu" : "mtree", request.op, request.type, caps))
    return missing;
  return kernel_unavailable("mfinal", request.op, moments_accumulator(request.op), caps);
}

// A user-defined operator (user_operator.hpp) has the three shapes of the transform-reductions: utree or ucpu
// (CPU devices), then ufinal (Strategy::tree, Strategy::cpu_chunks); or ulast in one launch
// (Strategy::last_group). Each template is linked with the operator when planned; what a device needs of the
// linked module is the template's and the operator's features, and SPIR-V or OpenCL C to build it from.
std::optional<std::string> user_module_unavailable(std::string_view variant, const Capabilities& caps, const UserOperator& op) {
  const EmbeddedModule* module = user_template(variant, op);
  if (!module) return "no '" + std::string(variant) + "' template is embedded for " + std::to_string(op.element_bytes) + "-byte elements";
  const FeatureSet needed = module->required.missing_from(Feature::user_operator_template) | op.required;
  const FeatureSet missing = needed.missing_from(caps.features());
  if (!missing.empty())
    return device_label(caps) + " lacks " + to_string(missing) + " needed by user operator '" + op.name + "' in " +
           std::string(module->name);
  if (!caps.accepts_spirv && !caps.accepts_opencl_c)
    return device_label(caps) + " takes neither SPIR-V nor OpenCL C source, the forms a linked user operator has";
  return std::nullopt;
}

std::optional<std::string> why_user_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request) {
  if (!request.user_operator) return "the request names no user operator";
  const UserOperator& op = *request.user_operator;
  // On the GPUs that take SPIR-V (Intel's) the operators run as utree, then ufinal. The one-launch template was
  // held back because Intel's compiler spilled registers in it on tgllp and pvc (no longer: kernels_ocloc_compile
  // builds it linked with every sample operator, zero spills) and because the Level Zero test driver's PoCL back
  // end crashed running it for the i16 range operator (cause not found): offering it needs that crash understood.
  if (strategy == Strategy::last_group && caps.type == DeviceType::gpu && caps.accepts_spirv)
    return "on Intel GPUs user-defined operators run with strategy tree (the one-launch template has not run with "
           "checked results on a device that takes SPIR-V)";
  if (strategy == Strategy::last_group) return user_module_unavailable("ulast", caps, op);
  if (strategy != Strategy::tree && strategy != Strategy::cpu_chunks)
    return "user-defined operators run with strategy tree, last_group or cpu_chunks only";
  if (auto missing = user_module_unavailable(strategy == Strategy::cpu_chunks ? "ucpu" : "utree", caps, op)) return missing;
  return user_module_unavailable("ufinal", caps, op);
}

std::optional<std::string> why_binned_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request) {
  if (strategy != Strategy::tree && strategy != Strategy::cpu_chunks)
    return "reproducible floating-point sums run as binned sums, with strategy tree or cpu_chunks only";
  if (request.type == DataType::f32 && !caps.fp32_denormals)
    return device_label(caps) + " flushes f32 subnormals, which a reproducible f32 sum cannot allow";
  if (auto missing = kernel_unavailable(binned_variant(strategy, caps), Op::plus, request.type, caps)) return missing;
  return kernel_unavailable("rfinal", Op::plus, request.type, caps);
}
}  // namespace

std::string_view first_pass_variant(Strategy strategy, Op op, DataType type, const Capabilities& caps) {
  if (strategy == Strategy::global_atomics && is_floating(type))
    return op == Op::plus ? "fatomicadd" : "fatomicminmax";
  // cpuwide's 64-byte lane states won on PoCL; Intel's CPU compiler, which vectorises across work-items,
  // ran the narrower states of cpu.cl faster (2-core EPYC, 2^25 elements: maximum f32 51.8 GB/s against
  // 42.1, f64 52.2 against 44.1).
  if (strategy == Strategy::cpu_chunks && (op == Op::minimum || op == Op::maximum) &&
      !caps.vectorizes_across_work_items && !kernel_unavailable("cpuwide", op, type, caps))
    return "cpuwide";
  return kernel_variant(strategy);
}

std::optional<std::string> why_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request) {
  if (is_binned_sum(request)) return why_binned_unavailable(strategy, caps, request);
  if (is_arg_op(request.op)) return why_arg_unavailable(strategy, caps, request);
  if (is_transform_op(request.op)) return why_transform_unavailable(strategy, caps, request);
  if (is_moments_op(request.op)) return why_moments_unavailable(strategy, caps, request);
  if (is_user_op(request.op)) return why_user_unavailable(strategy, caps, request);
  const Op op = request.op;
  const DataType type = request.type;
  const bool floating = is_floating(type);
  switch (strategy) {
    case Strategy::subgroup:
      if (caps.subgroup_sizes.empty()) return device_label(caps) + " has no sub-groups";
      break;
    case Strategy::work_group:
      if (!caps.work_group_collectives) return device_label(caps) + " has no work-group collective functions";
      if (request.deterministic && floating && op == Op::plus)
        return "work_group_reduce_add combines in an order the implementation chooses, which the deterministic "
               "property does not allow for floating-point sums";
      break;
    case Strategy::local_atomics:
      if ((!is_integer(type) && type != DataType::boolean) || size_of(type) > 4)
        return "local atomics are used for integer and bool types of up to 32 bits only";
      if (op == Op::multiplies) return "there is no atomic multiply";
      break;
    case Strategy::global_atomics:
      if (op == Op::multiplies) return "there is no atomic multiply";
      if (floating) {
        if (request.deterministic)
          return "floating-point atomics combine in arrival order, which the deterministic property does not allow";
        if (type != DataType::f32) return "global float atomics are used for f32 only";
        if (!float_atomic_op_supported(caps, op, type))
          return device_label(caps) + " has no global f32 atomic " + (op == Op::plus ? "add" : "min/max");
      }
      break;
    case Strategy::tree:
    case Strategy::cpu_chunks:
    case Strategy::last_group:
      break;
  }
  if (auto missing = kernel_unavailable(first_pass_variant(strategy, op, type, caps), op, type, caps)) return missing;
  const bool needs_final = strategy != Strategy::last_group && strategy != Strategy::global_atomics;
  if (needs_final) {
    if (auto missing = kernel_unavailable("final", op, type, caps)) return missing;
    // Intermediate passes reduce partials with the tree kernel of the accumulator type.
    if (auto missing = kernel_unavailable("tree", op, accumulator_type(type), caps)) return missing;
  }
  return std::nullopt;
}

StrategyChoice choose_strategy(const Capabilities& caps, const ReductionRequest& request) {
  const Op op = request.op;
  const DataType type = request.type;
  if (!is_supported(op, type))
    throw InvalidArgumentError(std::string(name(op)) + " is not defined for " + std::string(name(type)) +
                               " (bitwise ops take integers, logical ops take bool, argmin/argmax take numbers; " +
                               transform_type_rule(op) + ")");
  if (type == DataType::f64 && !caps.fp64)
    throw UnsupportedError(device_label(caps) + " has no fp64: it cannot reduce f64 (double) data");
  if (type == DataType::f16 && !caps.fp16)
    throw UnsupportedError(device_label(caps) + " has no fp16: it cannot reduce f16 (half) data");

  if (request.reproducible && op == Op::multiplies && is_floating(type))
    throw UnsupportedError("the reproducible property is not offered for floating-point multiplies: its result "
                           "depends on the order of the products (plus, minimum and maximum are offered)");
  if (request.reproducible && is_moments_op(op))
    throw UnsupportedError("the reproducible property is not offered for " + std::string(name(op)) + ": its mean and "
                           "variance are rounded in an order that depends on the launch shape");
  if (request.reproducible && is_transform_op(op) && is_floating(transform_accumulator_type(op, type)))
    throw UnsupportedError("the reproducible property is not offered for " + std::string(name(op)) + " on " +
                           std::string(name(type)) + ": its floating-point sum depends on the order of the adds "
                           "(counts and integer sums are exact, and offered)");
  if (is_binned_sum(request) && request.n > binned_max_elements(type))
    throw UnsupportedError("a reproducible " + std::string(name(type)) + " sum takes at most " +
                           std::to_string(binned_max_elements(type)) + " elements (its bins' integer sums could "
                           "overflow beyond); n = " + std::to_string(request.n));

  if (is_user_op(op)) {
    if (!request.user_operator) throw InvalidArgumentError("a user-defined reduction names no operator");
    if (request.reproducible)
      throw UnsupportedError("the reproducible property is not offered for user operator '" + request.user_operator->name +
                             "': ze-reduce cannot tell whether its result depends on the order of combining (it is "
                             "deterministic for a given device and launch shape)");
  }

  if (request.strategy) {
    if (auto why = why_unavailable(*request.strategy, caps, request))
      throw UnsupportedError("strategy " + std::string(name(*request.strategy)) + " is not available on " +
                             device_label(caps) + " for " + std::string(name(op)) + " on " +
                             std::string(name(type)) + ": " + *why);
    return {*request.strategy, "requested"};
  }

  auto available = [&](Strategy s) { return !why_unavailable(s, caps, request).has_value(); };
  const bool floating = is_floating(type);

  if (is_arg_op(op)) {
    if (caps.type == DeviceType::cpu && available(Strategy::cpu_chunks))
      return {Strategy::cpu_chunks, "CPU device: one contiguous chunk per work-item, a {value, block} pair per vector lane"};
    if (available(Strategy::last_group))
      return {Strategy::last_group, "{value, index} per work-item over 16-byte loads, a local-memory tree per group, "
                                    "and the last group to finish combines the groups' candidates: one launch"};
    if (auto why = why_unavailable(Strategy::tree, caps, request))
      throw UnsupportedError("no strategy can run " + std::string(name(op)) + " on " + std::string(name(type)) + " on " +
                             device_label(caps) + ": " + *why);
    return {Strategy::tree, "{value, index} per work-item over 16-byte loads, a local-memory tree per group, a final pass"};
  }

  if (is_moments_op(op)) {
    if (caps.type == DeviceType::cpu && available(Strategy::cpu_chunks))
      return {Strategy::cpu_chunks, "CPU device: one contiguous chunk per work-item, {count, mean, m2} merged block by block"};
    if (available(Strategy::last_group))
      return {Strategy::last_group, "{count, mean, m2} per work-item, merged block by block over 16-byte loads, then "
                                    "pairwise through the group's tree, and the last group merges the groups': one launch"};
    if (auto why = why_unavailable(Strategy::tree, caps, request))
      throw UnsupportedError("no strategy can run " + std::string(name(op)) + " on " + std::string(name(type)) + " on " +
                             device_label(caps) + ": " + *why);
    return {Strategy::tree, "{count, mean, m2} per work-item and group, merged pairwise, a final pass"};
  }

  if (is_user_op(op)) {
    if (caps.type == DeviceType::cpu && available(Strategy::cpu_chunks))
      return {Strategy::cpu_chunks, "CPU device: one contiguous chunk per work-item, combined in index order"};
    if (available(Strategy::last_group))
      return {Strategy::last_group, "the operator's accumulator per work-item over 16-byte loads, four-way through "
                                    "the group's tree, and the last group to finish combines the groups': one launch"};
    if (auto why = why_unavailable(Strategy::tree, caps, request))
      throw UnsupportedError("no strategy can run user operator '" + request.user_operator->name + "' on " +
                             device_label(caps) + ": " + *why);
    return {Strategy::tree, "the operator's accumulator per work-item and group, a four-way group tree, a final pass"};
  }

  if (is_transform_op(op)) {
    if (caps.type == DeviceType::cpu && available(Strategy::cpu_chunks))
      return {Strategy::cpu_chunks, "CPU device: one contiguous chunk per work-item, four vector sums of transformed values"};
    if (available(Strategy::last_group))
      return {Strategy::last_group, "transformed values summed per work-item over 16-byte loads, a local-memory tree per "
                                    "group, and the last group to finish sums the groups' partials: one launch"};
    if (auto why = why_unavailable(Strategy::tree, caps, request))
      throw UnsupportedError("no strategy can run " + std::string(name(op)) + " on " + std::string(name(type)) + " on " +
                             device_label(caps) + ": " + *why);
    return {Strategy::tree, "transformed values summed per work-item over 16-byte loads, a local-memory tree per "
                            "group, a final pass"};
  }

  if (caps.type == DeviceType::cpu && available(Strategy::cpu_chunks))
    return {Strategy::cpu_chunks,
            "CPU device: one contiguous chunk per work-item with wide vector loads (its work-items run one after "
            "another, so GPU-style striding would be slow)"};
  if (available(Strategy::global_atomics)) {
    if (floating)
      return {Strategy::global_atomics, "device has global f32 atomic " + std::string(op == Op::plus ? "add" : "min/max") +
                                            ": one launch, one atomic per work-group (not deterministic)"};
    return {Strategy::global_atomics,
            "integer/bool op with a device atomic: one launch, one atomic per work-group, exact"};
  }
  if (available(Strategy::subgroup))
    return {Strategy::subgroup, "device has sub-groups: shuffle reduction within each sub-group, then local memory"};
  if (available(Strategy::work_group))
    return {Strategy::work_group, "device has work-group collectives: work_group_reduce per group"};
  if (available(Strategy::last_group))
    return {Strategy::last_group,
            "no sub-groups or suitable atomics: local-memory tree, and the last work-group to finish reduces the "
            "partials in a fixed order (one launch, deterministic)"};
  if (auto why = why_unavailable(Strategy::tree, caps, request))
    throw UnsupportedError("no strategy can reduce " + std::string(name(op)) + " on " + std::string(name(type)) +
                           " on " + device_label(caps) + ": " + *why);
  return {Strategy::tree, "local-memory tree with a final pass"};
}

}  // namespace zr::core
