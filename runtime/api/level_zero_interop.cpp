// zr::level_zero_interop (include/zereduce/level_zero.hpp): the Level Zero backend over an application's driver,
// context and device. Plans come from the core as for the library's own devices; what is here is the checking
// of the application's pointers and the choice between the blocking device and the appender.
#include "zereduce/level_zero.hpp"

#include <cstdint>
#include <string>

#include "api/device_impl.hpp"
#include "api/interop_request.hpp"
#include "api/kernel_launch.hpp"
#include "api/level_zero_backend.hpp"
#include "api/plan_cache.hpp"
#include "data_types.hpp"
#include "level_zero/adoption.hpp"
#include "level_zero/appender.hpp"
#include "level_zero/planning.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero_interop {

namespace {

zr::device device_over(std::shared_ptr<level_zero::Device> adopted) {
  return zr::device(std::make_shared<zr::detail::device_impl>(api::make_level_zero_backend(std::move(adopted)), device_kind::gpu));
}

void check_alignment(const void* pointer, std::uint64_t element, const char* what, core::DataType type) {
  if (reinterpret_cast<std::uintptr_t>(pointer) % element != 0)
    throw InvalidArgumentError(std::string("level_zero_interop: ") + what + " is not aligned to its " +
                               std::to_string(element) + "-byte " + std::string(core::name(type)) + " elements");
}

}  // namespace

zr::device make_device(ze_driver_handle_t driver, ze_context_handle_t context, ze_device_handle_t device) {
  return device_over(level_zero::adopt_device(driver, context, device));
}

namespace detail {

class reducer_impl {
 public:
  explicit reducer_impl(std::shared_ptr<level_zero::Device> device)
      : device_(device), public_device_(device_over(device)), appender_(std::move(device)) {}

  const level_zero::Device& device() const { return *device_; }
  const zr::device& public_device() const { return public_device_; }

  std::shared_ptr<const api::PlannedRun> plan(const core::ReductionRequest& request) {
    return plans_.get(request, [&] { return api::planned_run(level_zero::plan_for(*device_, request)); });
  }

  void append(ze_command_list_handle_t list, const void* input, std::uint64_t n, void* result,
              const zr::detail::interop_request& request, std::span<std::byte> scratch, ze_event_handle_t signal,
              std::span<const ze_event_handle_t> waits, bool scratch_given) {
    const core::ReductionRequest reduction = api::core_request(request, n, "level_zero_interop");
    const std::uint64_t element = core::size_of(reduction.type);
    check_alignment(result, element, "the result", reduction.type);
    appender_.check_usm(result, element, "the result");
    const level_zero::AppendTarget target{list, signal, waits};
    if (n == 0) {
      appender_.append_empty(reduction, result, target);
      return;
    }
    check_alignment(input, element, "the input", reduction.type);
    appender_.check_usm(input, n * element, "the input");
    const auto planned = plan(reduction);
    const std::uint64_t needed = level_zero::Appender::scratch_bytes(planned->plan);
    if (scratch_given && scratch.size() < needed)
      throw InvalidArgumentError("level_zero_interop: the scratch memory holds " + std::to_string(scratch.size()) +
                                 " bytes; this reduction needs " + std::to_string(needed) + " (scratch_bytes)");
    appender_.append(planned->plan, input, result, target, scratch_given && needed ? scratch : std::span<std::byte>{});
  }

  void append_kernel(ze_command_list_handle_t list, const kernel& k, const zr::detail::kernel_call& call,
                     ze_event_handle_t signal, std::span<const ze_event_handle_t> waits) {
    std::vector<void*> variables;
    api::KernelMemoryChecks checks;
    checks.argument = [&](const void* pointer, std::size_t index) {
      appender_.check_usm(pointer, 1, ("pointer argument " + std::to_string(index)).c_str());
    };
    checks.variable = [&](void* variable, std::uint64_t bytes, std::size_t r) {
      const std::string which = "the variable of reduction " + std::to_string(r);
      const auto& spec = call.specs[r];
      if (spec.op != op_kind::user) {
        const auto type = static_cast<core::DataType>(spec.type);
        check_alignment(variable, core::size_of(type), which.c_str(), type);
      }
      appender_.check_usm(variable, bytes, which.c_str());
      variables.push_back(variable);
    };
    const api::CheckedKernelLaunch launch(device_->capabilities(), device_->name(), k, call, checks);
    std::vector<level_zero::Appender::Fill> fills;
    for (const auto& f : launch.identity_fills())
      fills.push_back({variables[f.reduction], std::span(f.identity.data(), f.identity.size()), f.bytes});
    appender_.append_kernel(launch.plan(), variables, fills, level_zero::AppendTarget{list, signal, waits});
  }

  plan_summary describe(std::uint64_t n, const zr::detail::interop_request& request) {
    const core::ReductionRequest reduction = api::core_request(request, n, "level_zero_interop");
    if (n == 0) return api::empty_input_summary(reduction);
    return plan(reduction)->summary;
  }

  std::uint64_t scratch_bytes(std::uint64_t n, const zr::detail::interop_request& request) {
    if (n == 0) return 0;
    return level_zero::Appender::scratch_bytes(plan(api::core_request(request, n, "level_zero_interop"))->plan);
  }

 private:
  std::shared_ptr<level_zero::Device> device_;
  zr::device public_device_;
  level_zero::Appender appender_;
  api::PlanCache plans_;
};

}  // namespace detail

reducer::reducer(ze_driver_handle_t driver, ze_context_handle_t context, ze_device_handle_t device)
    : impl_(std::make_unique<detail::reducer_impl>(level_zero::adopt_device(driver, context, device))) {}
reducer::reducer(reducer&&) noexcept = default;
reducer& reducer::operator=(reducer&&) noexcept = default;
reducer::~reducer() = default;

ze_context_handle_t reducer::context() const { return impl_->device().context(); }
ze_device_handle_t reducer::device_handle() const { return impl_->device().handle(); }
zr::device reducer::device() const { return impl_->public_device(); }

void reducer::append(ze_command_list_handle_t list, const void* input, std::uint64_t n, void* result,
                     const zr::detail::interop_request& request, std::span<std::byte> scratch,
                     ze_event_handle_t signal_event, std::span<const ze_event_handle_t> wait_events, bool scratch_given) {
  impl_->device().keep_if_lost(
      [&] { impl_->append(list, input, n, result, request, scratch, signal_event, wait_events, scratch_given); });
}

void reducer::append_kernel(ze_command_list_handle_t list, const kernel& k, const zr::detail::kernel_call& call,
                            ze_event_handle_t signal_event, std::span<const ze_event_handle_t> wait_events) {
  impl_->device().keep_if_lost([&] { impl_->append_kernel(list, k, call, signal_event, wait_events); });
}

plan_summary reducer::describe_of(std::uint64_t n, const zr::detail::interop_request& request) const {
  return impl_->describe(n, request);
}

std::optional<native_handles> native_handles_of(const zr::device& device) {
  if (device.get_backend() != zr::backend::level_zero) return std::nullopt;
  const api::NativeHandles handles = device.impl()->backend().native_handles();
  return native_handles{static_cast<ze_driver_handle_t>(handles.driver), static_cast<ze_context_handle_t>(handles.context),
                        static_cast<ze_device_handle_t>(handles.device)};
}

std::uint64_t reducer::scratch_bytes_of(std::uint64_t n, const zr::detail::interop_request& request) const {
  return impl_->scratch_bytes(n, request);
}

}  // namespace zr::level_zero_interop
