#include "api/kernel_launch.hpp"

#include <cstring>

#include "api/plan_cache.hpp"
#include "api/requests.hpp"
#include "identity.hpp"
#include "tuning.hpp"
#include "user_kernel.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

namespace {

core::UserKernelSource source_of(const kernel& k) {
  const kernel_source& s = k.source();
  if (!s.name || !s.spirv || !s.opencl_c_source || !k.name())
    throw InvalidArgumentError("a kernel source needs a name, SPIR-V and OpenCL C source, and the kernel a name (use "
                               "the header zereduce_add_kernel() generates)");
  return {s.name, {s.spirv, s.spirv_words}, {s.opencl_c_source, std::strlen(s.opencl_c_source)}, k.name()};
}

core::Scalar value_of(const detail::kernel_arg& arg) {
  core::DataType bits;
  switch (arg.bytes) {
    case 1: bits = core::DataType::u8; break;
    case 2: bits = core::DataType::u16; break;
    case 4: bits = core::DataType::u32; break;
    case 8: bits = core::DataType::u64; break;
    default:
      throw InvalidArgumentError("a kernel's by-value argument of " + std::to_string(arg.bytes) +
                                 " bytes: ze-reduce passes scalars of 1, 2, 4 or 8 bytes (larger data by pointer)");
  }
  core::Scalar value{bits, {}};
  std::memcpy(value.bytes.data(), arg.value, arg.bytes);
  return value;
}

// The kernel's name before the caller's message.
void checked_argument(const core::UserKernel& kern, const KernelMemoryChecks& checks, const void* pointer,
                      std::size_t index) {
  try {
    checks.argument(pointer, index);
  } catch (const InvalidArgumentError& e) {
    throw InvalidArgumentError(kern.label() + ": " + e.what());
  }
}

}  // namespace

CheckedKernelLaunch::CheckedKernelLaunch(const core::Capabilities& caps, const std::string& device_name, const kernel& k,
                                         const detail::kernel_call& call, const KernelMemoryChecks& checks)
    : specs_(call.specs) {
  kernel_ = core::load_user_kernel(source_of(k));
  const core::UserKernel& kern = *kernel_;
  if (call.arg_after_reduction)
    throw InvalidArgumentError(kern.label() + ": give the kernel's own arguments first, then its reductions");
  if (call.args.size() != kern.parameters)
    throw InvalidArgumentError(kern.label() + " takes " + std::to_string(kern.parameters) + " argument(s) of its own, " +
                               std::to_string(call.args.size()) + " given");
  check_reductions(kern);

  core::KernelLaunch launch;
  launch.entry_point = kern.entry_point;
  launch.n = call.global;
  if (call.local) {
    launch.global = call.global;
    launch.local = call.local;
  }
  for (const auto& arg : call.args) {
    core::KernelArgument argument;
    argument.pointer = arg.pointer;
    argument.address = arg.address;
    if (!arg.pointer) argument.value = value_of(arg);
    else if (arg.address) checked_argument(kern, checks, arg.address, launch.arguments.size());
    launch.arguments.push_back(argument);
  }
  for (std::size_t r = 0; r < specs_.size(); ++r) {
    launch.reductions.push_back(reduction_of(specs_[r], kern.reducers[r]));
    checks.variable(specs_[r].var, variable_bytes(r), r);
  }

  const core::EmbeddedModule& linked = core::linked_kernel_module(kern, caps);
  const core::FeatureSet missing = linked.required.missing_from(caps.features());
  if (!missing.empty())
    throw UnsupportedError(kern.label() + " needs " + core::to_string(missing) + ", which device '" + device_name +
                           "' lacks");
  if (!caps.accepts_spirv && !caps.accepts_opencl_c)
    throw UnsupportedError("device '" + device_name + "' takes neither SPIR-V nor OpenCL C source, the forms of a "
                           "linked kernel");
  launch.module = &linked;
  plan_ = core::make_kernel_plan(caps, launch, core::tuning_for(caps));
  summary_ = planned_run(plan_).summary;
  for (std::size_t r = 0; r < specs_.size(); ++r)
    if (specs_[r].span && specs_[r].properties.initialize_to_identity())
      identity_fills_.push_back(
          {r, core::known_identity(static_cast<core::Op>(specs_[r].op), static_cast<core::DataType>(specs_[r].type)),
           variable_bytes(r)});
}

std::uint64_t CheckedKernelLaunch::variable_bytes(std::size_t r) const {
  const core::KernelReducer& reducer = kernel_->reducers[r];
  return (reducer.span ? specs_[r].columns : 1) * reducer.bytes;
}

void CheckedKernelLaunch::check_reductions(const core::UserKernel& kern) const {
  if (specs_.size() != kern.reducers.size())
    throw InvalidArgumentError(kern.label() + " has " + std::to_string(kern.reducers.size()) + " reducer(s), " +
                               std::to_string(specs_.size()) + " reduction(s) given");
  for (std::size_t r = 0; r < specs_.size(); ++r) {
    const detail::reduction_spec& spec = specs_[r];
    const bool own = spec.op == op_kind::user && !spec.user;
    const core::KernelReducer given{static_cast<core::Op>(spec.op), static_cast<core::DataType>(spec.type), spec.span,
                                    own ? spec.kernel_value_bytes
                                        : static_cast<std::uint32_t>(core::size_of(static_cast<core::DataType>(spec.type)))};
    const std::string which = "reduction " + std::to_string(r) + " (" + core::describe(given) + ")";
    if (!(given == kern.reducers[r]))
      throw InvalidArgumentError(which + " does not match reducer " + std::to_string(r) + " of " + kern.label() + " (" +
                                 core::describe(kern.reducers[r]) + ")");
    if (spec.partial || spec.user)
      throw InvalidArgumentError(which + ": kernels take zr::reduction(var, op), zr::reduction(span, op) and "
                                 "zr::user_reduction(var) only");
    if (own && spec.kernel_value_alignment > 16)
      throw InvalidArgumentError(which + ": its variable's type is aligned to " +
                                 std::to_string(spec.kernel_value_alignment) + " bytes: at most 16 are supported");
    if (spec.properties.requested_strategy())
      throw InvalidArgumentError(which + ": a kernel's reductions take no strategy (the epilogue is chosen for the device)");
    if (own && spec.properties.reproducible())
      throw UnsupportedError(which + ": ze-reduce cannot tell whether a combine of the kernel's own depends on the "
                             "order, so reproducible is refused (deterministic holds: the same launch gives the same bits)");
    const bool floating = core::is_floating(given.type);
    if (spec.properties.reproducible() && floating && (given.op == core::Op::plus || given.op == core::Op::multiplies))
      throw UnsupportedError(which + ": reproducible floating-point sums and products are not offered in kernels yet "
                             "(deterministic ones are: the result is the same for the same launch on the same device)");
    if (spec.properties.deterministic() && given.span && floating)
      throw UnsupportedError(which + ": a span's floating-point sum is combined with atomics in whatever order the "
                             "work-items reach them, so it is not deterministic");
    if (spec.has_user_identity && !own) {
      const core::Scalar identity = identity_of(spec);
      if (!core::is_identity(given.op, identity))
        throw InvalidArgumentError(which + ": " + identity.to_string() + " is not an identity of " +
                                   std::string(core::name(given.op)) + " on " + std::string(core::name(given.type)) +
                                   " (this one is " + core::known_identity(given.op, given.type).to_string() + ")");
    }
  }
}

core::KernelReduction CheckedKernelLaunch::reduction_of(const detail::reduction_spec& spec, const core::KernelReducer& reducer) const {
  core::KernelReduction reduction;
  reduction.reducer = reducer;
  reduction.elements = reducer.span ? spec.columns : 1;
  // A reducer of the kernel's own has its identity in the kernel.
  reduction.identity = reducer.op == core::Op::user ? core::Scalar{core::DataType::u8, {}}
                                                    : core::known_identity(reducer.op, reducer.type);
  // A span starts from its identity by being filled with it (identity_fills), then always reads its values.
  reduction.include_initial = reducer.span || !spec.properties.initialize_to_identity();
  return reduction;
}

}  // namespace zr::api
