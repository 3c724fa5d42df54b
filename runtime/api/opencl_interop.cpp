// zr::opencl_interop::reducer (include/zereduce/opencl.hpp): the OpenCL backend's appender (runtime/opencl/appender)
// on an application's context, queues and memory. Plans come from the core as for the library's own queues; what
// is here is the translation of the public request and the cache of plans.
#include "opencl/cl.hpp"  // before zereduce/opencl.hpp: the OpenCL version the library targets
#include "zereduce/opencl.hpp"

#include <memory>

#include "api/device_impl.hpp"
#include "api/interop_request.hpp"
#include "api/kernel_launch.hpp"
#include "api/plan_cache.hpp"
#include "opencl/appender.hpp"
#include "strategy.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl_interop {

namespace detail {

// The public reducer over the backend's appender: the request's translation and the plans (cached).
class reducer_impl {
 public:
  reducer_impl(cl_context context, cl_device_id device) : appender_(context, device) {}

  const opencl::Context& context() const { return appender_.context(); }

  cl_event append(cl_command_queue queue, cl_mem input, std::uint64_t input_offset, std::uint64_t n, cl_mem result,
                  std::uint64_t result_offset, const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");
    const auto planned = n ? plan(reduction) : nullptr;
    return context().keep_if_lost([&] {
      return appender_.append(planned ? &planned->plan : nullptr, reduction, queue, input, input_offset, result,
                              result_offset, wait_list);
    });
  }

  cl_event append_pointers(cl_command_queue queue, const void* input, std::uint64_t n, void* result,
                           const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");
    const auto planned = n ? plan(reduction) : nullptr;
    return context().keep_if_lost([&] {
      return appender_.append(planned ? &planned->plan : nullptr, reduction, queue, input, result, wait_list);
    });
  }

  cl_event append_kernel(cl_command_queue queue, const kernel& k, const zr::detail::kernel_call& call,
                         std::span<const cl_event> wait_list) {
    using opencl::GlobalMemory;
    std::vector<GlobalMemory> pointers, variables;  // the non-null pointer arguments, the variables: in order
    api::KernelMemoryChecks checks;
    checks.argument = [&](const void* pointer, std::size_t index) {
      pointers.push_back(appender_.checked_pointer(pointer, 1, "pointer argument " + std::to_string(index), core::DataType::u8));
    };
    checks.variable = [&](void* variable, std::uint64_t bytes, std::size_t r) {
      const auto& spec = call.specs[r];
      // A reducer of the kernel's own has no element type of the library's.
      const auto type = spec.op == op_kind::user ? core::DataType::u8 : static_cast<core::DataType>(spec.type);
      variables.push_back(appender_.checked_pointer(variable, bytes, "variable of reduction " + std::to_string(r), type));
    };
    const auto& caps = appender_.context().capabilities();
    const api::CheckedKernelLaunch launch(caps, appender_.context().device().name, k, call, checks);
    std::vector<GlobalMemory> kernel_pointers;
    auto next = pointers.begin();
    for (const void* pointer : launch.plan().kernel_pointers) kernel_pointers.push_back(pointer ? *next++ : GlobalMemory{});
    std::vector<opencl::Appender::Fill> fills;
    for (const auto& f : launch.identity_fills())
      fills.push_back({variables[f.reduction], std::span(f.identity.data(), f.identity.size()), f.bytes});
    return context().keep_if_lost(
        [&] { return appender_.append_kernel(launch.plan(), queue, variables, kernel_pointers, fills, wait_list); });
  }

  plan_summary describe(std::uint64_t n, const zr::detail::interop_request& request) {
    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");
    if (n == 0) return api::empty_input_summary(reduction);
    return plan(reduction)->summary;
  }

 private:
  std::shared_ptr<const api::PlannedRun> plan(const core::ReductionRequest& reduction) {
    return plans_.get(reduction, [&] {
      const auto& caps = appender_.context().capabilities();
      return api::planned_run(core::make_plan(caps, reduction, core::choose_strategy(caps, reduction), core::tuning_for(caps)));
    });
  }

  opencl::Appender appender_;
  api::PlanCache plans_;
};

}  // namespace detail

reducer::reducer(cl_context context, cl_device_id device) {
  if (!context) throw InvalidArgumentError("opencl_interop: the context is null");
  impl_ = std::make_unique<detail::reducer_impl>(context, device);
}
reducer::reducer(reducer&&) noexcept = default;
reducer& reducer::operator=(reducer&&) noexcept = default;
reducer::~reducer() = default;

cl_context reducer::context() const { return impl_->context().handle(); }
cl_device_id reducer::device() const { return impl_->context().device().id; }

cl_event reducer::append_pointers(cl_command_queue queue, const void* input, std::uint64_t n, void* result,
                                  const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
  return impl_->append_pointers(queue, input, n, result, request, wait_list);
}

cl_event reducer::append_kernel(cl_command_queue queue, const kernel& k, const zr::detail::kernel_call& call,
                               std::span<const cl_event> wait_list) {
  return impl_->append_kernel(queue, k, call, wait_list);
}

plan_summary reducer::describe_of(std::uint64_t n, const zr::detail::interop_request& request) const {
  return impl_->describe(n, request);
}

std::optional<cl_device_id> native_device_of(const zr::device& device) {
  if (device.get_backend() != zr::backend::opencl) return std::nullopt;
  return static_cast<cl_device_id>(device.impl()->backend().native_handles().device);
}

cl_event reducer::append(cl_command_queue queue, cl_mem input, std::uint64_t input_offset, std::uint64_t n, cl_mem result,
                         std::uint64_t result_offset, const zr::detail::interop_request& request,
                         std::span<const cl_event> wait_list) {
  return impl_->append(queue, input, input_offset, n, result, result_offset, request, wait_list);
}

}  // namespace zr::opencl_interop
