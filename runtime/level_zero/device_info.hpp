#pragma once
// What a Level Zero device reports, kept whole (DeviceDescription), and its translation into the core's
// Capabilities. The translation is a pure function so that nonsense reports can be tested without a driver.
#include <level_zero/ze_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capabilities.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

struct MemoryDescription {
  std::string name;  // "DDR", "HBM", ...
  std::uint64_t total_bytes = 0;
  std::uint32_t max_clock_mhz = 0;
  std::uint32_t max_bus_width = 0;
};

enum class TimerUnit {
  nanoseconds_per_tick,  // ze_device_properties_t::timerResolution from ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES
  ticks_per_second,      // ... from ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 (drivers of API 1.2 and later)
};

struct DeviceDescription {
  // Where it is: "<driver>.<device>" for a root device, "<driver>.<device>.<sub-device>" for a sub-device.
  std::uint32_t driver_index = 0;
  std::uint32_t device_index = 0;
  std::optional<std::uint32_t> subdevice_index;
  std::string path() const;

  // ze_driver_properties_t / zeDriverGetApiVersion
  std::uint32_t driver_version = 0;
  std::string driver_uuid;  // hex; Intel's holds the driver's version and the time it started (per process)
  ze_api_version_t driver_api_version = ZE_API_VERSION_1_0;
  std::vector<std::string> driver_extensions;

  // ze_device_properties_t
  std::string name;
  ze_device_type_t type = ZE_DEVICE_TYPE_GPU;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  ze_device_property_flags_t flags = 0;
  std::uint32_t subdevice_id = 0;  // valid with ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE
  std::uint32_t core_clock_mhz = 0;
  std::uint64_t max_mem_alloc_size = 0;
  std::uint32_t num_threads_per_eu = 0;
  std::uint32_t physical_eu_simd_width = 0;
  std::uint32_t num_eus_per_subslice = 0;
  std::uint32_t num_subslices_per_slice = 0;
  std::uint32_t num_slices = 0;
  std::uint64_t timer_resolution = 0;
  TimerUnit timer_unit = TimerUnit::nanoseconds_per_tick;
  std::uint32_t timestamp_valid_bits = 0;
  std::uint32_t kernel_timestamp_valid_bits = 0;

  // ze_device_compute_properties_t
  std::uint32_t max_total_group_size = 0;
  std::uint32_t max_group_size_x = 0;
  std::uint32_t max_group_count_x = 0;
  std::uint32_t max_shared_local_memory = 0;
  std::vector<std::uint32_t> subgroup_sizes;

  // ze_device_module_properties_t (+ ze_float_atomic_ext_properties_t)
  std::uint32_t spirv_version = 0;  // ZE_MAKE_VERSION(major, minor)
  ze_device_module_flags_t module_flags = 0;
  ze_device_fp_flags_t fp16_flags = 0, fp32_flags = 0, fp64_flags = 0;
  std::uint32_t max_argument_size = 0;
  bool float_atomics_reported = false;  // the driver has ZE_extension_float_atomics
  ze_device_fp_atomic_ext_flags_t fp16_atomic_flags = 0, fp32_atomic_flags = 0, fp64_atomic_flags = 0;

  // zeDeviceGetMemoryProperties
  std::vector<MemoryDescription> memories;

  // zeDeviceGetCommandQueueGroupProperties: the first group that takes compute commands
  std::optional<std::uint32_t> compute_queue_ordinal;
  std::uint64_t max_fill_pattern_size = 0;

  std::uint32_t eu_count() const { return num_slices * num_subslices_per_slice * num_eus_per_subslice; }
  std::uint32_t hardware_threads() const { return eu_count() * num_threads_per_eu; }
  bool is_subdevice() const { return (flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) != 0; }
  bool is_integrated() const { return (flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED) != 0; }
  // "Intel(R) Graphics [0x0bd5]", with " (sub-device 1)" for sub-devices.
  std::string display_name() const;
};

// Queries everything above (every call checked).
DeviceDescription query_device(ze_driver_handle_t driver, ze_device_handle_t device, std::uint32_t driver_index,
                               std::uint32_t device_index, std::optional<std::uint32_t> subdevice_index);

// A device property that no usable device reports (a maximum group size of 0, no compute queue...).
class DevicePropertyError : public UnsupportedError {
 public:
  DevicePropertyError(std::string device, std::string property, std::string value, std::string why);
  const std::string& property() const { return property_; }
  const std::string& device() const { return device_; }

 private:
  std::string device_, property_;
};

// The core's view of the device. Throws DevicePropertyError naming the property when the device reports
// something no kernel could run with.
core::Capabilities to_capabilities(const DeviceDescription& description);

// The ocloc target name (gen9, tgllp, dg2-g10, pvc) whose native binaries this device runs, from its PCI
// device id; nullopt when unknown (the module is then built from SPIR-V).
std::optional<std::string_view> native_target(const DeviceDescription& description);

// Device timer ticks to nanoseconds, with the unit the description's timerResolution is in.
double ticks_to_ns(std::uint64_t ticks, const DeviceDescription& description);
// The duration of a kernel in timer ticks from its kernel-timestamp start and end: the values are masked to
// kernelTimestampValidBits and an end that wrapped around is unwrapped.
std::uint64_t kernel_duration_ticks(std::uint64_t start, std::uint64_t end, std::uint32_t valid_bits);

}  // namespace zr::level_zero
