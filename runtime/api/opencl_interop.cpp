// zr::opencl_interop::reducer (include/zereduce/opencl.hpp): the OpenCL backend's appender (runtime/opencl/appender)
// on an application's context, queues and memory. Plans come from the core as for the library's own queues; what
// is here is the translation of the public request and the cache of plans.
#include "opencl/cl.hpp"  // before zereduce/opencl.hpp: the OpenCL version the library targets
#include "zereduce/opencl.hpp"

#include <memory>

#include "api/device_impl.hpp"
#include "api/interop_request.hpp"
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
    return appender_.append(planned ? &planned->plan : nullptr, reduction, queue, input, input_offset, result, result_offset,
                            wait_list);
  }

  cl_event append_pointers(cl_command_queue queue, const void* input, std::uint64_t n, void* result,
                           const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");
    const auto planned = n ? plan(reduction) : nullptr;
    return appender_.append(planned ? &planned->plan : nullptr, reduction, queue, input, result, wait_list);
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
