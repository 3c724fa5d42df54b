#include "api/kernel_job.hpp"

#include <cstring>

#include "api/memory_checks.hpp"
#include "api/run_profiles.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

namespace {

KernelMemoryChecks checks_of(BackendDevice& device, std::vector<core::ResultTarget>& targets) {
  KernelMemoryChecks checks;
  checks.argument = [&device](const void* pointer, std::size_t index) {
    if (!device.find(pointer))
      throw InvalidArgumentError("pointer argument " + std::to_string(index) + " (" + address(pointer) +
                                 ") is not an allocation of device '" + device.name() +
                                 "' (kernels read and write the device's memory: malloc_device, malloc_shared or "
                                 "malloc_host of a queue on it)");
  };
  checks.variable = [&device, &targets](void* variable, std::uint64_t bytes, std::size_t r) {
    const bool host = is_host_range(device, variable, bytes, "reduction " + std::to_string(r) + "'s variable", true);
    targets.push_back({variable, host});
  };
  return checks;
}

}  // namespace

KernelJob::KernelJob(BackendDevice& device, const kernel& k, const detail::kernel_call& call, core::Timestamps timestamps)
    : device_(device),
      timestamps_(timestamps),
      indices_(call.global),
      launch_(device.capabilities(), device.name(), k, call, checks_of(device, targets_)) {}

void KernelJob::execute(profile& out) {
  out.plans.push_back(launch_.summary());
  for (const auto& fill : launch_.identity_fills()) {
    std::vector<std::byte> filled(fill.bytes);
    for (std::uint64_t at = 0; at < fill.bytes; at += fill.identity.size())
      std::memcpy(filled.data() + at, fill.identity.data(), fill.identity.size());
    const core::ResultTarget& target = targets_[fill.reduction];
    if (target.host_memory) std::memcpy(target.pointer, filled.data(), filled.size());
    else device_.copy(target.pointer, filled.data(), filled.size());
  }
  add_run(out, device_.run(launch_.plan(), nullptr, targets_, timestamps_));
}

}  // namespace zr::api
