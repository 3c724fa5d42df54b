#pragma once
// Devices: every device ze-reduce can run on, Level Zero GPUs first, then OpenCL GPUs, then OpenCL CPUs
// (and any other OpenCL device last). A device is a cheap handle; copies refer to the same device.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "zereduce/export.hpp"
#include "zereduce/properties.hpp"
#include "zereduce/types.hpp"

namespace zr {

struct user_operator_source;

enum class backend : std::uint8_t { level_zero, opencl };
enum class device_kind : std::uint8_t { gpu, cpu, accelerator, other };
ZR_API std::string_view to_string(backend b);
ZR_API std::string_view to_string(device_kind k);

// What the device reports, as far as reductions care.
struct device_capabilities {
  std::uint32_t compute_units = 0;
  std::uint64_t max_work_group_size = 0;
  std::uint64_t local_memory_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::uint64_t global_memory_bytes = 0;
  std::vector<std::uint32_t> sub_group_sizes;  // empty: no sub-groups
  bool work_group_collectives = false;
  bool int64_atomics = false;
  bool fp16 = false;
  bool fp64 = false;
  bool f32_atomic_add = false;
  bool f32_atomic_min_max = false;
};

// What the execution probe (a four-element reduction through the device's own memory and plan, run once per
// device and cached) found.
struct kernel_execution {
  enum class status : std::uint8_t {
    yes,      // the result arrived: kernels run
    no,       // the work completed without the result (Intel's driver without hardware) or a call failed
    unknown,  // the probe did not finish within its deadline (ZE_REDUCE_PROBE_TIMEOUT_S, default 10 s)
  };
  status state = status::unknown;
  std::string detail;  // for no and unknown: why, in words ("probe did not finish in 10 s", the error...)
};
ZR_API std::string_view to_string(kernel_execution::status s);

namespace detail {
class device_impl;
}

class ZR_API device {
 public:
  const std::string& name() const;
  zr::backend get_backend() const;
  device_kind kind() const;
  const std::string& driver_version() const;
  // One line: name, backend, platform or driver, version.
  std::string description() const;
  const device_capabilities& capabilities() const;

  // Whether the device can reduce this pair at all (empty) or why not ("has no fp64", ...).
  std::optional<std::string> why_unsupported(element_type type, op_kind op) const;
  // The strategies the device allows for the pair, fastest first (empty when why_unsupported says why), with
  // the deterministic or reproducible property (reproducible floating-point sums: tree or cpu_chunks).
  std::vector<strategy> strategies(element_type type, op_kind op, bool deterministic = false,
                                   bool reproducible = false) const;
  // The same for a user-defined operator (user_operator.hpp; deterministic whatever the strategy): empty, and
  // why_unsupported says why, when the device lacks a feature the operator needs. Throws InvalidArgumentError
  // for a source that is no operator.
  std::optional<std::string> why_unsupported(const user_operator_source& op) const;
  std::vector<strategy> strategies(const user_operator_source& op) const;
  // Host input of at most this many bytes is reduced on the calling thread, without a kernel (CPU devices:
  // their fixed cost per submission is most of a small reduction's time; docs/api.md, "Small inputs"): the nine
  // SYCL ops, reproducible sums and argmin/argmax, one scalar reduction per call, no strategy asked for. 0 on GPUs.
  std::uint64_t host_path_max_bytes() const;
  // The same for segmented and row reductions of host spans (reduce_segments, reduce_rows, reduce_axes over the
  // last axes), with host offsets and results: the nine ops, reproducible sums and argmin/argmax. 0 on GPUs.
  // Array (column) reductions take host_path_max_bytes().
  std::uint64_t host_path_max_segment_bytes() const;
  // Whether kernels really run, from the execution probe: false on Intel's driver without hardware, which
  // accepts and "completes" work without executing it, and on a device that did not finish the probe in time.
  bool executes_kernels() const;
  // The probe's full answer: yes, no or unknown, with the reason.
  const kernel_execution& execution() const;

  // Level Zero sub-devices (a PVC's tiles, where the driver shows them: its COMPOSITE device hierarchy), in
  // get_devices() order, each a device of its own for queues and device groups; empty for other devices.
  std::vector<device> sub_devices() const;
  // The device this one is a sub-device of.
  std::optional<device> parent() const;

  friend bool operator==(const device& a, const device& b) { return a.impl_ == b.impl_; }

  explicit device(std::shared_ptr<detail::device_impl> impl);
  const std::shared_ptr<detail::device_impl>& impl() const { return impl_; }

 private:
  std::shared_ptr<detail::device_impl> impl_;
};

// Every device, in the order above; enumerated once per process. Never throws for a missing driver: a
// backend without a usable driver simply contributes no devices.
ZR_API const std::vector<device>& get_devices();

// The device ze-reduce uses when none is named: ZE_REDUCE_DEVICE (an index into get_devices()) when set,
// else the first device, in get_devices() order, whose kernels really execute (execution probe: yes; a device
// whose probe did not finish is never the default). zr::UnsupportedError when there is none.
ZR_API device default_device();

// get_devices()[index], or zr::InvalidArgumentError naming the index and how many devices there are.
ZR_API device get_device(std::size_t index);

}  // namespace zr
