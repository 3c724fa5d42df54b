#include "level_zero/device_info.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

#include "level_zero/result.hpp"

namespace zr::level_zero {

std::string DeviceDescription::path() const {
  std::string text = std::to_string(driver_index);
  text += '.';
  text += std::to_string(device_index);
  if (subdevice_index) {
    text += '.';
    text += std::to_string(*subdevice_index);
  }
  return text;
}

std::string DeviceDescription::display_name() const {
  if (!subdevice_index) return name;
  return name + " (sub-device " + std::to_string(*subdevice_index) + ")";
}

namespace {

bool has_extension(const std::vector<std::string>& extensions, std::string_view name) {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

std::vector<std::string> driver_extensions(ze_driver_handle_t driver) {
  std::uint32_t count = 0;
  ZR_ZE_CHECK("", zeDriverGetExtensionProperties, driver, &count, nullptr);
  std::vector<ze_driver_extension_properties_t> properties(count);
  if (count > 0) ZR_ZE_CHECK("", zeDriverGetExtensionProperties, driver, &count, properties.data());
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < count; ++i) {
    names.emplace_back(properties[i].name, strnlen(properties[i].name, ZE_MAX_EXTENSION_NAME));
  }
  return names;
}

}  // namespace

DeviceDescription query_device(ze_driver_handle_t driver, ze_device_handle_t device, std::uint32_t driver_index,
                               std::uint32_t device_index, std::optional<std::uint32_t> subdevice_index) {
  DeviceDescription d;
  d.driver_index = driver_index;
  d.device_index = device_index;
  d.subdevice_index = subdevice_index;
  const std::string where = "level_zero device " + d.path();

  ze_driver_properties_t driver_properties{};
  driver_properties.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  ZR_ZE_CHECK(where, zeDriverGetProperties, driver, &driver_properties);
  d.driver_version = driver_properties.driverVersion;
  for (std::uint8_t byte : driver_properties.uuid.id) {
    static constexpr char kHex[] = "0123456789abcdef";
    d.driver_uuid += kHex[byte >> 4];
    d.driver_uuid += kHex[byte & 15];
  }
  ZR_ZE_CHECK(where, zeDriverGetApiVersion, driver, &d.driver_api_version);
  d.driver_extensions = driver_extensions(driver);

  // timerResolution is in ns per tick with the 1.0 structure type and in ticks per second with the 1.2 one;
  // the latter is exact (12 MHz reads 83 ns in the former), so ask for it where the driver knows it.
  ze_device_properties_t properties{};
  const bool v12 = d.driver_api_version >= ZE_API_VERSION_1_2;
  properties.stype = v12 ? ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 : ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ZR_ZE_CHECK(where, zeDeviceGetProperties, device, &properties);
  d.name.assign(properties.name, strnlen(properties.name, ZE_MAX_DEVICE_NAME));
  const std::string device_name = d.name.empty() ? where : d.name;
  d.type = properties.type;
  d.vendor_id = properties.vendorId;
  d.device_id = properties.deviceId;
  d.flags = properties.flags;
  d.subdevice_id = properties.subdeviceId;
  d.core_clock_mhz = properties.coreClockRate;
  d.max_mem_alloc_size = properties.maxMemAllocSize;
  d.num_threads_per_eu = properties.numThreadsPerEU;
  d.physical_eu_simd_width = properties.physicalEUSimdWidth;
  d.num_eus_per_subslice = properties.numEUsPerSubslice;
  d.num_subslices_per_slice = properties.numSubslicesPerSlice;
  d.num_slices = properties.numSlices;
  d.timer_resolution = properties.timerResolution;
  d.timer_unit = v12 ? TimerUnit::ticks_per_second : TimerUnit::nanoseconds_per_tick;
  d.timestamp_valid_bits = properties.timestampValidBits;
  d.kernel_timestamp_valid_bits = properties.kernelTimestampValidBits;

  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  ZR_ZE_CHECK(device_name, zeDeviceGetComputeProperties, device, &compute);
  d.max_total_group_size = compute.maxTotalGroupSize;
  d.max_group_size_x = compute.maxGroupSizeX;
  d.max_group_count_x = compute.maxGroupCountX;
  d.max_shared_local_memory = compute.maxSharedLocalMemory;
  const std::uint32_t subgroup_count = std::min<std::uint32_t>(compute.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT);
  d.subgroup_sizes.assign(compute.subGroupSizes, compute.subGroupSizes + subgroup_count);
  if (compute.numSubGroupSizes > ZE_SUBGROUPSIZE_COUNT) d.subgroup_sizes.push_back(0);  // flagged as nonsense later

  ze_float_atomic_ext_properties_t float_atomics{};
  float_atomics.stype = ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES;
  ze_device_module_properties_t module{};
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  d.float_atomics_reported = has_extension(d.driver_extensions, ZE_FLOAT_ATOMICS_EXT_NAME);
  if (d.float_atomics_reported) module.pNext = &float_atomics;
  ZR_ZE_CHECK(device_name, zeDeviceGetModuleProperties, device, &module);
  d.spirv_version = module.spirvVersionSupported;
  d.module_flags = module.flags;
  d.fp16_flags = module.fp16flags;
  d.fp32_flags = module.fp32flags;
  d.fp64_flags = module.fp64flags;
  d.max_argument_size = module.maxArgumentsSize;
  if (d.float_atomics_reported) {
    d.fp16_atomic_flags = float_atomics.fp16Flags;
    d.fp32_atomic_flags = float_atomics.fp32Flags;
    d.fp64_atomic_flags = float_atomics.fp64Flags;
  }

  std::uint32_t memory_count = 0;
  ZR_ZE_CHECK(device_name, zeDeviceGetMemoryProperties, device, &memory_count, nullptr);
  std::vector<ze_device_memory_properties_t> memories(memory_count);
  for (auto& m : memories) m.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  if (memory_count > 0) ZR_ZE_CHECK(device_name, zeDeviceGetMemoryProperties, device, &memory_count, memories.data());
  for (std::uint32_t i = 0; i < memory_count; ++i) {
    d.memories.push_back({std::string(memories[i].name, strnlen(memories[i].name, ZE_MAX_DEVICE_NAME)),
                          memories[i].totalSize, memories[i].maxClockRate, memories[i].maxBusWidth});
  }

  std::uint32_t group_count = 0;
  ZR_ZE_CHECK(device_name, zeDeviceGetCommandQueueGroupProperties, device, &group_count, nullptr);
  std::vector<ze_command_queue_group_properties_t> groups(group_count);
  for (auto& g : groups) g.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  if (group_count > 0) ZR_ZE_CHECK(device_name, zeDeviceGetCommandQueueGroupProperties, device, &group_count, groups.data());
  for (std::uint32_t i = 0; i < group_count; ++i) {
    if ((groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) && groups[i].numQueues > 0) {
      d.compute_queue_ordinal = i;
      d.max_fill_pattern_size = groups[i].maxMemoryFillPatternSize;
      break;
    }
  }
  return d;
}

DevicePropertyError::DevicePropertyError(std::string device, std::string property, std::string value, std::string why)
    : UnsupportedError("level_zero: device '" + device + "' reports " + property + " = " + value + ": " + why),
      device_(std::move(device)),
      property_(std::move(property)) {}

core::Capabilities to_capabilities(const DeviceDescription& d) {
  const std::string device = d.display_name();
  auto nonsense = [&](const char* property, auto value, const char* why) {
    std::ostringstream text;
    text << value;
    throw DevicePropertyError(device, property, text.str(), why);
  };
  if (d.max_total_group_size == 0)
    nonsense("ze_device_compute_properties_t::maxTotalGroupSize", 0,
             "no kernel can be launched (Intel's driver without hardware reports this without HardwareInfoOverride)");
  if (d.max_group_size_x == 0)
    nonsense("ze_device_compute_properties_t::maxGroupSizeX", 0, "no kernel can be launched");
  if (d.max_group_count_x == 0)
    nonsense("ze_device_compute_properties_t::maxGroupCountX", 0, "no kernel can be launched");
  if (d.max_shared_local_memory == 0)
    nonsense("ze_device_compute_properties_t::maxSharedLocalMemory", 0,
             "every reduction kernel needs shared local memory");
  for (std::uint32_t size : d.subgroup_sizes) {
    if (size == 0 || !std::has_single_bit(size) || size > d.max_total_group_size)
      nonsense("ze_device_compute_properties_t::subGroupSizes[]", size,
               "a sub-group size must be a power of two no larger than the maximum group size (and at most "
               "ZE_SUBGROUPSIZE_COUNT sizes)");
  }
  if (d.eu_count() == 0)
    nonsense("ze_device_properties_t::numSlices x numSubslicesPerSlice x numEUsPerSubslice", 0,
             "a device without execution units cannot run kernels");
  if (d.max_mem_alloc_size == 0)
    nonsense("ze_device_properties_t::maxMemAllocSize", 0, "no buffer could be allocated");
  if (d.spirv_version == 0)
    nonsense("ze_device_module_properties_t::spirvVersionSupported", 0, "the device would accept no SPIR-V module");
  if (!d.compute_queue_ordinal)
    nonsense("ze_command_queue_group_properties_t::flags", "no group with ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE",
             "kernels cannot be submitted");

  core::Capabilities caps;
  caps.device_name = device;
  caps.backend = "level_zero";
  switch (d.type) {
    case ZE_DEVICE_TYPE_GPU: caps.type = core::DeviceType::gpu; break;
    case ZE_DEVICE_TYPE_CPU: caps.type = core::DeviceType::cpu; break;
    case ZE_DEVICE_TYPE_FPGA:
    case ZE_DEVICE_TYPE_MCA:
    case ZE_DEVICE_TYPE_VPU: caps.type = core::DeviceType::accelerator; break;
    default: caps.type = core::DeviceType::other; break;
  }
  // Like Intel's OpenCL driver (CL_DEVICE_MAX_COMPUTE_UNITS), count execution units.
  caps.compute_units = d.eu_count();
  caps.max_work_group_size = std::min(d.max_total_group_size, d.max_group_size_x);
  caps.local_memory_bytes = d.max_shared_local_memory;
  caps.max_allocation_bytes = d.max_mem_alloc_size;
  for (const auto& m : d.memories) caps.global_memory_bytes += m.total_bytes;
  caps.subgroup_sizes = d.subgroup_sizes;
  std::sort(caps.subgroup_sizes.begin(), caps.subgroup_sizes.end());
  // Intel's GPU compiler (IGC) implements the OpenCL 2.0/3.0 work-group collective functions in SPIR-V.
  caps.work_group_collectives = d.vendor_id == 0x8086 && d.type == ZE_DEVICE_TYPE_GPU;
  caps.int64_atomics = (d.module_flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) != 0;
  caps.fp16 = (d.module_flags & ZE_DEVICE_MODULE_FLAG_FP16) != 0;
  caps.fp64 = (d.module_flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
  caps.fp32_denormals = (d.fp32_flags & ZE_DEVICE_FP_FLAG_DENORM) != 0;
  auto atomics = [](ze_device_fp_atomic_ext_flags_t flags) {
    core::FloatAtomicSupport s;
    s.global_add = (flags & ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD) != 0;
    s.global_min_max = (flags & ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX) != 0;
    s.local_add = (flags & ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD) != 0;
    s.local_min_max = (flags & ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX) != 0;
    return s;
  };
  caps.f16_atomics = caps.fp16 ? atomics(d.fp16_atomic_flags) : core::FloatAtomicSupport{};
  caps.f32_atomics = atomics(d.fp32_atomic_flags);
  caps.f64_atomics = caps.fp64 ? atomics(d.fp64_atomic_flags) : core::FloatAtomicSupport{};
  caps.accepts_spirv = true;  // Level Zero takes SPIR-V (or native binaries), nothing else
  caps.accepts_spir12 = false;
  caps.accepts_opencl_c = false;
  return caps;
}

std::optional<std::string_view> native_target(const DeviceDescription& d) {
  if (d.vendor_id != 0x8086) return std::nullopt;
  const std::uint32_t id = d.device_id;
  // PCI device ids as Intel's compute runtime lists them (shared/source/dll/devices/devices_base.inl).
  static constexpr std::uint32_t kTgllp[] = {0xFF20, 0x9A49, 0x9A40, 0x9A59, 0x9A60, 0x9A68, 0x9A70, 0x9A78};
  static constexpr std::uint32_t kDg2G10[] = {0x4F80, 0x4F81, 0x4F82, 0x4F83, 0x4F84, 0x5690, 0x5691,
                                              0x5692, 0x56A0, 0x56A1, 0x56A2, 0x56C0, 0x56C2};
  static constexpr std::uint32_t kPvc[] = {0x0BD0, 0x0BD4, 0x0BD5, 0x0BD6, 0x0BD7,
                                           0x0BD8, 0x0BD9, 0x0BDA, 0x0BDB, 0x0BE5};
  auto in = [id](const auto& ids) { return std::find(std::begin(ids), std::end(ids), id) != std::end(ids); };
  if (in(kTgllp)) return "tgllp";
  if (in(kDg2G10)) return "dg2-g10";
  if (in(kPvc)) return "pvc";
  // Gen9: Skylake, Kaby Lake, Coffee Lake, Comet Lake, Amber Lake, Gemini Lake, Broxton/Apollo Lake.
  const std::uint32_t high = id & 0xFF00;
  if (high == 0x1900 || high == 0x5900 || high == 0x3E00 || high == 0x9B00 || (id & 0xFFF0) == 0x87C0 ||
      id == 0x3184 || id == 0x3185 || id == 0x5A84 || id == 0x5A85 || id == 0x0A84 || id == 0x1A84 || id == 0x1A85)
    return "gen9";
  return std::nullopt;
}

double ticks_to_ns(std::uint64_t ticks, const DeviceDescription& d) {
  if (d.timer_resolution == 0) return 0.0;
  if (d.timer_unit == TimerUnit::ticks_per_second)
    return static_cast<double>(ticks) * 1e9 / static_cast<double>(d.timer_resolution);
  return static_cast<double>(ticks) * static_cast<double>(d.timer_resolution);
}

std::uint64_t kernel_duration_ticks(std::uint64_t start, std::uint64_t end, std::uint32_t valid_bits) {
  const std::uint64_t mask = valid_bits == 0 || valid_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits) - 1;
  start &= mask;
  end &= mask;
  return end >= start ? end - start : (mask - start) + end + 1;
}

}  // namespace zr::level_zero
