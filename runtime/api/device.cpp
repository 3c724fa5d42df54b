// zr::device, enumeration and the default-device rule.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "api/device_impl.hpp"
#include "api/user_operators.hpp"
#include "api/level_zero_backend.hpp"
#include "api/opencl_backend.hpp"
#include "api/probe.hpp"
#include "host_path.hpp"
#include "level_zero/device.hpp"
#include "log.hpp"
#include "opencl/device.hpp"
#include "opencl/selection.hpp"
#include "host_path.hpp"
#include "strategy.hpp"
#include "zereduce/errors.hpp"

namespace zr {

namespace detail {

device_impl::device_impl(std::unique_ptr<api::BackendDevice> backend, device_kind kind)
    : backend_(std::move(backend)), kind_(kind) {}

const device_capabilities& device_impl::capabilities() const {
  std::call_once(capabilities_once_, [this] {
    const core::Capabilities& caps = backend_->capabilities();
    capabilities_.compute_units = caps.compute_units;
    capabilities_.max_work_group_size = caps.max_work_group_size;
    capabilities_.local_memory_bytes = caps.local_memory_bytes;
    capabilities_.max_allocation_bytes = caps.max_allocation_bytes;
    capabilities_.global_memory_bytes = caps.global_memory_bytes;
    capabilities_.sub_group_sizes = caps.subgroup_sizes;
    capabilities_.work_group_collectives = caps.work_group_collectives;
    capabilities_.int64_atomics = caps.int64_atomics;
    capabilities_.fp16 = caps.fp16;
    capabilities_.fp64 = caps.fp64;
    capabilities_.f32_atomic_add = caps.f32_atomics.global_add;
    capabilities_.f32_atomic_min_max = caps.f32_atomics.global_min_max;
  });
  return capabilities_;
}

const kernel_execution& device_impl::execution() const {
  std::call_once(probe_once_, [this] { execution_ = api::probe_execution(*backend_); });
  return execution_;
}

}  // namespace detail

namespace {

device_kind kind_of(core::DeviceType type) {
  switch (type) {
    case core::DeviceType::gpu: return device_kind::gpu;
    case core::DeviceType::cpu: return device_kind::cpu;
    case core::DeviceType::accelerator: return device_kind::accelerator;
    default: return device_kind::other;
  }
}

std::vector<device> enumerate() {
  std::vector<device> found;
  for (const auto& ze_device : level_zero::devices())
    found.emplace_back(std::make_shared<detail::device_impl>(api::make_level_zero_backend(ze_device), device_kind::gpu));
  std::vector<opencl::Device> cl_devices;
  try {
    cl_devices = opencl::devices_by_preference(opencl::list_devices());
  } catch (const Error& error) {
    logger().debug("api: OpenCL devices could not be listed: {}", error.what());
  }
  for (auto& cl_device : cl_devices) {
    const device_kind kind = kind_of(cl_device.type);
    found.emplace_back(std::make_shared<detail::device_impl>(api::make_opencl_backend(std::move(cl_device)), kind));
  }
  return found;
}

core::ReductionRequest request_for(element_type type, op_kind op, bool deterministic, bool reproducible = false) {
  core::ReductionRequest request;
  request.type = static_cast<core::DataType>(type);
  request.op = static_cast<core::Op>(op);
  request.n = 1;
  request.identity = core::Scalar{request.type, {}};
  request.deterministic = deterministic || reproducible;
  request.reproducible = reproducible;
  return request;
}

}  // namespace

device::device(std::shared_ptr<detail::device_impl> impl) : impl_(std::move(impl)) {}

const std::string& device::name() const { return impl_->backend().name(); }
zr::backend device::get_backend() const { return impl_->backend().backend(); }
device_kind device::kind() const { return impl_->kind(); }
const std::string& device::driver_version() const { return impl_->backend().driver_version(); }
std::string device::description() const { return impl_->backend().description(); }
const device_capabilities& device::capabilities() const { return impl_->capabilities(); }
bool device::executes_kernels() const { return execution().state == kernel_execution::status::yes; }
const kernel_execution& device::execution() const { return impl_->execution(); }

std::optional<std::string> device::why_unsupported(element_type type, op_kind op) const {
  const auto request = request_for(type, op, false);
  try {
    core::choose_strategy(impl_->backend().capabilities(), request);
    return std::nullopt;
  } catch (const Error& error) {
    return std::string(error.what());
  }
}

namespace {
// The strategy choose_strategy picks first, then every other the device allows; empty when it refuses the request.
std::vector<strategy> allowed_strategies(const core::Capabilities& caps, const core::ReductionRequest& request) {
  std::vector<strategy> allowed;
  try {
    allowed.push_back(static_cast<strategy>(core::choose_strategy(caps, request).strategy));
  } catch (const Error&) {
    return allowed;
  }
  for (core::Strategy s : core::kAllStrategies)
    if (!core::why_unavailable(s, caps, request) && static_cast<strategy>(s) != allowed.front())
      allowed.push_back(static_cast<strategy>(s));
  return allowed;
}

core::ReductionRequest user_request(const user_operator_source& op) {
  core::ReductionRequest request;
  request.op = core::Op::user;
  request.user_operator = api::load_user_operator(op);
  request.type = request.user_operator->element_bits();
  request.identity = core::Scalar{request.type, {}};
  request.n = 1 << 20;
  return request;
}
}  // namespace

std::optional<std::string> device::why_unsupported(const user_operator_source& op) const {
  const core::ReductionRequest request = user_request(op);
  try {
    core::choose_strategy(impl_->backend().capabilities(), request);
    return std::nullopt;
  } catch (const Error& error) {
    return std::string(error.what());
  }
}

std::vector<strategy> device::strategies(element_type type, op_kind op, bool deterministic, bool reproducible) const {
  return allowed_strategies(impl_->backend().capabilities(), request_for(type, op, deterministic, reproducible));
}

std::uint64_t device::host_path_max_bytes() const {
  return impl_->backend().reads_host_input_in_place() ? core::host_path_max_bytes(impl_->backend().capabilities()) : 0;
}

std::uint64_t device::host_path_max_segment_bytes() const {
  return impl_->backend().reads_host_input_in_place() ? core::host_path_segment_max_bytes(impl_->backend().capabilities())
                                                      : 0;
}

std::vector<strategy> device::strategies(const user_operator_source& op) const {
  return allowed_strategies(impl_->backend().capabilities(), user_request(op));
}

namespace {
// Whether `child` is "<path>.<one more part>".
bool is_sub_device_path(const std::string& path, const std::string& child) {
  return child.size() > path.size() + 1 && child.compare(0, path.size(), path) == 0 && child[path.size()] == '.' &&
         child.find('.', path.size() + 1) == std::string::npos;
}
}  // namespace

std::vector<device> device::sub_devices() const {
  std::vector<device> out;
  const std::optional<std::string> path = impl_->backend().hierarchy_path();
  if (!path) return out;
  for (const device& candidate : get_devices()) {
    const std::optional<std::string> candidate_path = candidate.impl()->backend().hierarchy_path();
    if (candidate.get_backend() == get_backend() && candidate_path && is_sub_device_path(*path, *candidate_path))
      out.push_back(candidate);
  }
  return out;
}

std::optional<device> device::parent() const {
  const std::optional<std::string> path = impl_->backend().hierarchy_path();
  if (!path) return std::nullopt;
  for (const device& candidate : get_devices()) {
    const std::optional<std::string> candidate_path = candidate.impl()->backend().hierarchy_path();
    if (candidate.get_backend() == get_backend() && candidate_path && is_sub_device_path(*candidate_path, *path))
      return candidate;
  }
  return std::nullopt;
}

const std::vector<device>& get_devices() {
  static const std::vector<device> devices = enumerate();
  return devices;
}

device get_device(std::size_t index) {
  const auto& devices = get_devices();
  if (index >= devices.size())
    throw InvalidArgumentError("device index " + std::to_string(index) + " is out of range: there " +
                               (devices.size() == 1 ? "is 1 device" : "are " + std::to_string(devices.size()) + " devices") +
                               " (ze_reduce --list shows them)");
  return devices[index];
}

device default_device() {
  if (const char* chosen = std::getenv("ZE_REDUCE_DEVICE"); chosen && *chosen) {
    char* end = nullptr;
    const unsigned long long index = std::strtoull(chosen, &end, 10);
    if (*end != '\0')
      throw InvalidArgumentError(std::string("ZE_REDUCE_DEVICE='") + chosen +
                                 "' is not a device index (ze_reduce --list shows them)");
    try {
      return get_device(static_cast<std::size_t>(index));
    } catch (const InvalidArgumentError& error) {
      throw InvalidArgumentError(std::string("ZE_REDUCE_DEVICE=") + chosen + ": " + error.what());
    }
  }
  for (const device& candidate : get_devices())
    if (candidate.executes_kernels()) return candidate;
  throw UnsupportedError(
      "no device runs kernels on this machine (Level Zero: " +
      (level_zero::devices().empty() ? std::string(level_zero::unavailable_reason()) : "devices found, none executes") +
      "); install an OpenCL driver such as pocl-opencl-icd, or name a device with ZE_REDUCE_DEVICE");
}

}  // namespace zr
