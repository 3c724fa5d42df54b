#include "level_zero/appender.hpp"

#include <string>

#include "level_zero/pass_recording.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

namespace {

// Every scratch buffer starts at a multiple of this (as allocations do): kernels may use wide or atomic accesses.
constexpr std::uint64_t kScratchAlignment = 256;

std::uint64_t aligned_up(std::uint64_t value, std::uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

std::uint64_t packed_scratch_bytes(const core::Plan& plan) {
  std::uint64_t total = 0;
  for (const auto& buffer : plan.scratch) total = aligned_up(total, kScratchAlignment) + buffer.bytes;
  return total;
}

}  // namespace

Appender::Appender(std::shared_ptr<const Device> device) : device_(std::move(device)) {
  (void)device_->capabilities();  // an unusable device says why now
}

std::uint64_t Appender::scratch_bytes(const core::Plan& plan) {
  const std::uint64_t packed = packed_scratch_bytes(plan);
  return packed ? packed + kScratchAlignment - 1 : 0;
}

void Appender::check_usm(const void* pointer, std::uint64_t bytes, const char* what) const {
  if (!pointer) throw InvalidArgumentError(std::string("level_zero_interop: ") + what + " is a null pointer");
  const auto range = device_->allocation_of(pointer);
  if (!range)
    throw InvalidArgumentError(std::string("level_zero_interop: ") + what +
                               " is not USM memory (zeMemAllocDevice/Host/Shared) of the reducer's context "
                               "(memory of another context, or ordinary host memory)");
  const auto offset = static_cast<std::uint64_t>(static_cast<const std::byte*>(pointer) - static_cast<const std::byte*>(range->base));
  if (bytes > range->bytes - offset)
    throw InvalidArgumentError(std::string("level_zero_interop: ") + what + " of " + std::to_string(bytes) +
                               " bytes runs past the end of its allocation (" + std::to_string(range->bytes - offset) +
                               " bytes from the pointer to the end)");
}

std::vector<void*> Appender::carve_scratch(const core::Plan& plan, std::span<std::byte> given) {
  const std::uint64_t packed = packed_scratch_bytes(plan);
  std::vector<void*> pointers;
  if (packed == 0) return pointers;
  std::byte* base = nullptr;
  if (!given.empty()) {
    if (given.size() < scratch_bytes(plan))
      throw InvalidArgumentError("level_zero_interop: the scratch memory holds " + std::to_string(given.size()) +
                                 " bytes; this reduction needs " + std::to_string(scratch_bytes(plan)) +
                                 " (scratch_bytes)");
    check_usm(given.data(), given.size(), "the scratch memory");
    const auto address = reinterpret_cast<std::uintptr_t>(given.data());
    base = given.data() + (aligned_up(address, kScratchAlignment) - address);
  } else {
    if (own_scratch_.empty() || own_scratch_.back().bytes() < packed)
      own_scratch_.push_back(device_->allocate_device(std::max<std::uint64_t>(packed, 2 * (own_scratch_.empty() ? 0 : own_scratch_.back().bytes())),
                                                      kScratchAlignment));
    base = static_cast<std::byte*>(own_scratch_.back().get());
  }
  std::uint64_t offset = 0;
  for (const auto& buffer : plan.scratch) {
    offset = aligned_up(offset, kScratchAlignment);
    pointers.push_back(base + offset);
    offset += buffer.bytes;
  }
  return pointers;
}

void Appender::append(const core::Plan& plan, const void* input, void* result, const AppendTarget& target,
                      std::span<std::byte> scratch) {
  if (plan.results.size() > 1) throw Error("level_zero_interop: plans with several results are not appended (a bug)");
  void* const results[] = {result};
  append_plan(plan, input, results, {}, target, scratch);
}

void Appender::append_kernel(const core::Plan& plan, std::span<void* const> variables, std::span<const Fill> fills,
                             const AppendTarget& target) {
  append_plan(plan, nullptr, variables, fills, target, {});
}

void Appender::append_plan(const core::Plan& plan, const void* input, std::span<void* const> results,
                           std::span<const Fill> fills, const AppendTarget& target, std::span<std::byte> scratch) {
  const auto& name = device_->name();
  device_->throw_if_unusable();
  if (!target.list) throw InvalidArgumentError("level_zero_interop: the command list is null");
  std::lock_guard lock(mutex_);
  const std::vector<void*> scratch_pointers = carve_scratch(plan, scratch);
  auto* waits = const_cast<ze_event_handle_t*>(target.waits.data());
  const auto wait_count = static_cast<std::uint32_t>(target.waits.size());
  ZR_ZE_CHECK(name, zeCommandListAppendBarrier, target.list, nullptr, wait_count, wait_count ? waits : nullptr);
  bool filled = false;
  for (std::size_t i = 0; i < plan.scratch.size(); ++i) {
    const auto& fill = plan.scratch[i].initial_fill;
    if (!fill) continue;
    ZR_ZE_CHECK(name, zeCommandListAppendMemoryFill, target.list, scratch_pointers[i], fill->data(), fill->size(),
                plan.scratch[i].bytes, nullptr, 0, nullptr);
    filled = true;
  }
  for (const Fill& fill : fills) {
    ZR_ZE_CHECK(name, zeCommandListAppendMemoryFill, target.list, fill.memory, fill.pattern.data(), fill.pattern.size(),
                fill.bytes, nullptr, 0, nullptr);
    filled = true;
  }
  append_passes(*device_, target.list, plan, PassBuffers{input, results, scratch_pointers, nullptr, plan.kernel_pointers},
                {}, filled);
  ZR_ZE_CHECK(name, zeCommandListAppendBarrier, target.list, target.signal, 0, nullptr);
}

void Appender::append_empty(const core::ReductionRequest& request, void* result, const AppendTarget& target) {
  const auto& name = device_->name();
  device_->throw_if_unusable();
  if (!target.list) throw InvalidArgumentError("level_zero_interop: the command list is null");
  auto* waits = const_cast<ze_event_handle_t*>(target.waits.data());
  const auto wait_count = static_cast<std::uint32_t>(target.waits.size());
  if (request.include_initial) {
    ZR_ZE_CHECK(name, zeCommandListAppendBarrier, target.list, target.signal, wait_count, wait_count ? waits : nullptr);
    return;
  }
  ZR_ZE_CHECK(name, zeCommandListAppendBarrier, target.list, nullptr, wait_count, wait_count ? waits : nullptr);
  ZR_ZE_CHECK(name, zeCommandListAppendMemoryFill, target.list, result, request.identity.data(), request.identity.size(),
              request.identity.size(), nullptr, 0, nullptr);
  ZR_ZE_CHECK(name, zeCommandListAppendBarrier, target.list, target.signal, 0, nullptr);
}

}  // namespace zr::level_zero
