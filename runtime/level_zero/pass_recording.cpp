#include "level_zero/pass_recording.hpp"

#include <mutex>
#include <string>
#include <variant>

#include "zereduce/errors.hpp"

namespace zr::level_zero {

namespace {

const void* pointer_for(const core::BufferArg& buffer, const PassBuffers& buffers, const core::KernelPass& pass) {
  switch (buffer.which) {
    case core::BufferArg::Which::input: return buffers.input;
    case core::BufferArg::Which::result:
      if (buffer.index >= buffers.results.size())
        throw Error("plan pass '" + pass.label + "' names result " + std::to_string(buffer.index) + " of " +
                    std::to_string(buffers.results.size()));
      return buffers.results[buffer.index];
    case core::BufferArg::Which::scratch:
      if (buffer.index >= buffers.scratch.size())
        throw Error("plan pass '" + pass.label + "' names scratch buffer " + std::to_string(buffer.index) + " of " +
                    std::to_string(buffers.scratch.size()));
      return buffers.scratch[buffer.index];
    case core::BufferArg::Which::segment_offsets:
      if (!buffers.segment_offsets) throw Error("plan pass '" + pass.label + "' reads segment offsets but none were given");
      return buffers.segment_offsets;
    case core::BufferArg::Which::kernel_pointer:
      if (buffer.index >= buffers.kernel_pointers.size())
        throw Error("plan pass '" + pass.label + "' names kernel pointer " + std::to_string(buffer.index) + " of " +
                    std::to_string(buffers.kernel_pointers.size()));
      return buffers.kernel_pointers[buffer.index];
    case core::BufferArg::Which::none: break;  // a null pointer
  }
  return nullptr;
}

}  // namespace

void append_passes(const Device& device, ze_command_list_handle_t list, const core::Plan& plan, const PassBuffers& buffers,
                   std::span<const ze_event_handle_t> pass_events, bool barrier_before_first) {
  const auto& name = device.name();
  std::lock_guard lock(device.recording_mutex());
  bool barrier_needed = barrier_before_first;
  for (std::size_t p = 0; p < plan.passes.size(); ++p) {
    const auto& pass = plan.passes[p];
    if (barrier_needed) ZR_ZE_CHECK(name, zeCommandListAppendBarrier, list, nullptr, 0, nullptr);
    barrier_needed = true;
    const KernelEntry& entry = device.modules().kernel(*pass.module, pass.entry_point);
    if (entry.info.num_args != pass.args.size())
      throw Error("plan pass '" + pass.label + "' gives " + std::to_string(pass.args.size()) + " arguments but kernel " +
                  pass.entry_point + " takes " + std::to_string(entry.info.num_args));
    const ze_kernel_handle_t kernel = entry.handle.get();
    ZR_ZE_CHECK(name, zeKernelSetGroupSize, kernel, static_cast<std::uint32_t>(pass.local_size), 1, 1);
    for (std::uint32_t a = 0; a < pass.args.size(); ++a) {
      const auto& arg = pass.args[a];
      ze_result_t set = ZE_RESULT_SUCCESS;
      if (const auto* buffer = std::get_if<core::BufferArg>(&arg)) {
        const void* pointer = pointer_for(*buffer, buffers, pass);
        // A null pointer goes as a null argument value (the Level Zero spec's form): Intel's driver takes a
        // pointer value only if it is an allocation of the context, and null is none.
        set = ZR_ZE_RESULT(zeKernelSetArgumentValue, kernel, a, sizeof(pointer), pointer ? &pointer : nullptr);
      } else if (const auto* local = std::get_if<core::LocalMemoryArg>(&arg)) {
        set = ZR_ZE_RESULT(zeKernelSetArgumentValue, kernel, a, local->bytes, nullptr);
      } else {
        const auto& value = std::get<core::Scalar>(arg);
        set = ZR_ZE_RESULT(zeKernelSetArgumentValue, kernel, a, value.size(), value.data());
      }
      if (set != ZE_RESULT_SUCCESS)
        check(set, "zeKernelSetArgumentValue", name,
              "argument " + std::to_string(a) + " of kernel " + pass.entry_point + " (module " +
                  std::string(pass.module->name) + ", plan pass '" + pass.label + "')");
    }
    const ze_group_count_t groups{static_cast<std::uint32_t>(pass.group_count()), 1, 1};
    const ze_event_handle_t signal = p < pass_events.size() ? pass_events[p] : nullptr;
    ZR_ZE_CHECK(name, zeCommandListAppendLaunchKernel, list, kernel, &groups, signal, 0, nullptr);
  }
}

}  // namespace zr::level_zero
