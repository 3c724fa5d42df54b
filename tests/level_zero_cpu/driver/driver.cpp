// zeInit and the driver and device queries: a driver with ZRT_DEVICES (default 1) devices, each presenting the
// ZRT_PROFILE capability set (default pvc) restricted to what the OpenCL CPU device behind it can execute, and
// each with ZRT_TILES (default 0: none, as in the FLAT device hierarchy) tiles as sub-devices.
#include <spdlog/sinks/stdout_color_sinks.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "ddi_support.hpp"
#include "faults.hpp"
#include "log.hpp"
#include "objects.hpp"

namespace zrt {

spdlog::logger& logger() {
  static std::shared_ptr<spdlog::logger> instance = [] {
    auto made = spdlog::stderr_color_mt("ze_test_driver");
    made->set_pattern("[ze-reduce TEST driver] [%l] %v");
    const char* level = std::getenv("ZRT_LOG");
    made->set_level(level ? spdlog::level::from_str(level) : spdlog::level::warn);
    return made;
  }();
  return *instance;
}

void report_unsupported(const char* call) {
  logger().error("{} is not implemented by the ze-reduce test driver: ZE_RESULT_ERROR_UNSUPPORTED_FEATURE", call);
}

bool version_supported(ze_api_version_t version) { return ZE_MAJOR_VERSION(version) == 1; }

namespace {

struct Startup {
  std::unique_ptr<DriverState> state;
  Profile profile;
  ze_result_t result = ZE_RESULT_ERROR_UNINITIALIZED;
};

Startup& startup() {
  static Startup instance;
  return instance;
}

ze_result_t start() {
  auto& s = startup();
  const char* name = std::getenv("ZRT_PROFILE");
  const Profile* wanted = find_profile(name ? name : "pvc");
  if (!wanted) {
    logger().error("ZRT_PROFILE={} is not a profile ({})", name, known_profiles());
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  std::string problem;
  if (!configure_fault(problem)) {
    logger().error("{}", problem);
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  auto made = std::make_unique<DriverState>();
  if (!made->backing.open(problem)) {
    logger().error("no OpenCL CPU device to run on: {}", problem);
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  s.profile = made->backing.restrict(*wanted);
  for (const auto& r : s.profile.restricted)
    logger().info("profile {}: {} is not offered (the OpenCL device '{}' lacks it)", wanted->name, r,
                  made->backing.device_name);
  const char* count_text = std::getenv("ZRT_DEVICES");
  const int count = count_text ? std::atoi(count_text) : 1;
  if (count < 1 || count > 8) {
    logger().error("ZRT_DEVICES={} is not between 1 and 8", count_text);
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  const char* tiles_text = std::getenv("ZRT_TILES");
  const int tiles = tiles_text ? std::atoi(tiles_text) : 0;
  if (tiles < 0 || tiles == 1 || tiles > 4) {
    logger().error("ZRT_TILES={} is not 0 or between 2 and 4", tiles_text);
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  for (int i = 0; i < count; ++i) {
    auto device = std::make_unique<Device>(static_cast<std::uint32_t>(i), s.profile);
    for (int t = 0; t < tiles; ++t)
      device->tiles.push_back(std::make_unique<Device>(device->index, s.profile, device.get(), static_cast<std::uint32_t>(t)));
    made->driver.devices.push_back(std::move(device));
  }
  logger().info("{} device(s) with the {} profile and {} tiles each on '{}' ({})", count, s.profile.name, tiles,
                made->backing.device_name, made->backing.platform_name);
  s.state = std::move(made);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL init(ze_init_flags_t flags) {
  if (flags == ZE_INIT_FLAG_VPU_ONLY) return ZE_RESULT_ERROR_UNINITIALIZED;
  static std::once_flag once;
  std::call_once(once, [] { startup().result = start(); });
  return startup().result;
}

ze_result_t ZE_APICALL driver_get(std::uint32_t* count, ze_driver_handle_t* drivers) {
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto* s = state();
  if (!s) return ZE_RESULT_ERROR_UNINITIALIZED;
  if (entries_to_fill(count, drivers != nullptr, 1) == 1) drivers[0] = handle_of<ze_driver_handle_t>(&s->driver);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_api_version(ze_driver_handle_t driver, ze_api_version_t* version) {
  if (!object_of<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = ZE_API_VERSION_CURRENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_properties(ze_driver_handle_t driver, ze_driver_properties_t* properties) {
  if (!object_of<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Like Intel's driver, whose UUID holds the high half of the nanosecond clock at zeInit, a UUID of this process
  // alone: a cache keyed on it would never hit in a later process, and cli.binary_cache_level_zero would see that.
  static const std::uint64_t process_mark =
      static_cast<std::uint64_t>(getpid()) ^
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::memset(&properties->uuid, 0, sizeof(properties->uuid));
  std::memcpy(properties->uuid.id, "zr-test-", 8);
  std::memcpy(properties->uuid.id + 8, &process_mark, sizeof(process_mark));
  properties->driverVersion = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_extension_properties(ze_driver_handle_t driver, std::uint32_t* count,
                                                       ze_driver_extension_properties_t* extensions) {
  if (!object_of<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (entries_to_fill(count, extensions != nullptr, 1) == 0) return ZE_RESULT_SUCCESS;
  std::memset(extensions[0].name, 0, sizeof(extensions[0].name));
  std::strncpy(extensions[0].name, ZE_FLOAT_ATOMICS_EXT_NAME, ZE_MAX_EXTENSION_NAME - 1);
  extensions[0].version = ZE_FLOAT_ATOMICS_EXT_VERSION_CURRENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get(ze_driver_handle_t driver, std::uint32_t* count, ze_device_handle_t* devices) {
  auto* d = object_of<Driver>(driver);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto total = static_cast<std::uint32_t>(d->devices.size());
  const std::uint32_t filled = entries_to_fill(count, devices != nullptr, total);
  for (std::uint32_t i = 0; i < filled; ++i) devices[i] = handle_of<ze_device_handle_t>(d->devices[i].get());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_sub_devices(ze_device_handle_t device, std::uint32_t* count, ze_device_handle_t* subs) {
  auto* d = object_of<Device>(device);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::uint32_t filled = entries_to_fill(count, subs != nullptr, static_cast<std::uint32_t>(d->tiles.size()));
  for (std::uint32_t i = 0; i < filled; ++i) subs[i] = handle_of<ze_device_handle_t>(d->tiles[i].get());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_properties(ze_device_handle_t device, ze_device_properties_t* p) {
  auto* d = object_of<Device>(device);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto& backing = state()->backing;
  const Profile& profile = d->profile;
  p->type = ZE_DEVICE_TYPE_GPU;
  // Intel's vendor id tells the runtime that work-group collectives are there (IGC has them); PoCL cannot run them.
  p->vendorId = backing.work_group_collectives ? 0x8086 : 0x10002;
  p->deviceId = profile.device_id;
  p->flags = d->parent ? ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE : 0;
  p->subdeviceId = d->tile;
  p->coreClockRate = profile.core_clock_mhz;
  p->maxMemAllocSize = backing.max_allocation;
  p->maxHardwareContexts = 64;
  p->maxCommandQueuePriority = 0;
  p->numThreadsPerEU = profile.threads_per_eu;
  p->physicalEUSimdWidth = profile.simd_width;
  p->numEUsPerSubslice = profile.eus_per_subslice;
  p->numSubslicesPerSlice = profile.subslices_per_slice;
  // A root device spans its tiles' slices; a tile has the profile's.
  p->numSlices = profile.slices * std::max<std::uint32_t>(1, static_cast<std::uint32_t>(d->tiles.size()));
  // Timestamps are OpenCL profiling times in nanoseconds: 1 ns per tick, 10^9 ticks per second.
  p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000ull : 1ull;
  p->timestampValidBits = 64;
  p->kernelTimestampValidBits = 64;
  std::memset(&p->uuid, 0, sizeof(p->uuid));
  p->uuid.id[0] = static_cast<std::uint8_t>(d->index);
  std::memcpy(p->uuid.id + 1, "zr-test", 7);
  p->uuid.id[8] = static_cast<std::uint8_t>(d->parent ? d->tile + 1 : 0);
  const std::string name = profile.device_name + " (ze-reduce TEST driver on " + backing.device_name + ", device " +
                           std::to_string(d->index) + (d->parent ? ", tile " + std::to_string(d->tile) : "") + ")";
  std::memset(p->name, 0, sizeof(p->name));
  std::strncpy(p->name, name.c_str(), ZE_MAX_DEVICE_NAME - 1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_compute_properties(ze_device_handle_t device, ze_device_compute_properties_t* p) {
  auto* d = object_of<Device>(device);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Profile& profile = d->profile;
  p->maxTotalGroupSize = profile.max_group_size;
  p->maxGroupSizeX = profile.max_group_size;
  p->maxGroupSizeY = profile.max_group_size;
  p->maxGroupSizeZ = 64;
  p->maxGroupCountX = 0xFFFFFFFFu;
  p->maxGroupCountY = 0xFFFFFFFFu;
  p->maxGroupCountZ = 0xFFFFFFFFu;
  p->maxSharedLocalMemory = profile.shared_local_memory;
  p->numSubGroupSizes = static_cast<std::uint32_t>(std::min<std::size_t>(profile.subgroup_sizes.size(), ZE_SUBGROUPSIZE_COUNT));
  for (std::uint32_t i = 0; i < p->numSubGroupSizes; ++i) p->subGroupSizes[i] = profile.subgroup_sizes[i];
  return ZE_RESULT_SUCCESS;
}

ze_device_fp_atomic_ext_flags_t atomic_flags(const FloatAtomics& a) {
  ze_device_fp_atomic_ext_flags_t flags = 0;
  if (a.global_add) flags |= ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD;
  if (a.global_min_max) flags |= ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX;
  return flags;
}

ze_result_t ZE_APICALL device_get_module_properties(ze_device_handle_t device, ze_device_module_properties_t* p) {
  auto* d = object_of<Device>(device);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Profile& profile = d->profile;
  p->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
  p->flags = 0;
  if (profile.fp16) p->flags |= ZE_DEVICE_MODULE_FLAG_FP16;
  if (profile.fp64) p->flags |= ZE_DEVICE_MODULE_FLAG_FP64;
  if (profile.int64_atomics) p->flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  const ze_device_fp_flags_t fp = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN | ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST |
                                  ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO | ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
  p->fp16flags = profile.fp16 ? fp : 0;
  p->fp32flags = fp;
  p->fp64flags = profile.fp64 ? fp : 0;
  p->maxArgumentsSize = 2048;
  p->printfBufferSize = 4 * 1024 * 1024;
  std::memset(&p->nativeKernelSupported, 0, sizeof(p->nativeKernelSupported));
  for (auto* next = static_cast<ze_base_properties_t*>(p->pNext); next; next = static_cast<ze_base_properties_t*>(next->pNext)) {
    if (next->stype != ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES) continue;
    auto* atomics = reinterpret_cast<ze_float_atomic_ext_properties_t*>(next);
    atomics->fp16Flags = atomic_flags(profile.f16_atomics);
    atomics->fp32Flags = atomic_flags(profile.f32_atomics);
    atomics->fp64Flags = atomic_flags(profile.f64_atomics);
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_memory_properties(ze_device_handle_t device, std::uint32_t* count,
                                                    ze_device_memory_properties_t* p) {
  if (!object_of<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (entries_to_fill(count, p != nullptr, 1) == 0) return ZE_RESULT_SUCCESS;
  p[0].flags = 0;
  p[0].maxClockRate = 0;
  p[0].maxBusWidth = 64;
  p[0].totalSize = state()->backing.global_memory;
  std::memset(p[0].name, 0, sizeof(p[0].name));
  std::strncpy(p[0].name, "host memory (test driver)", ZE_MAX_DEVICE_NAME - 1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_command_queue_group_properties(ze_device_handle_t device, std::uint32_t* count,
                                                                 ze_command_queue_group_properties_t* p) {
  if (!object_of<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (entries_to_fill(count, p != nullptr, 1) == 0) return ZE_RESULT_SUCCESS;
  p[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  p[0].maxMemoryFillPatternSize = 128;
  p[0].numQueues = 4;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

DriverState* state() { return startup().state.get(); }

void install(ze_global_dditable_t& t) { t.pfnInit = init; }

void install(ze_driver_dditable_t& t) {
  t.pfnGet = driver_get;
  t.pfnGetApiVersion = driver_get_api_version;
  t.pfnGetProperties = driver_get_properties;
  t.pfnGetExtensionProperties = driver_get_extension_properties;
}

void install(ze_device_dditable_t& t) {
  t.pfnGet = device_get;
  t.pfnGetSubDevices = device_get_sub_devices;
  t.pfnGetProperties = device_get_properties;
  t.pfnGetComputeProperties = device_get_compute_properties;
  t.pfnGetModuleProperties = device_get_module_properties;
  t.pfnGetMemoryProperties = device_get_memory_properties;
  t.pfnGetCommandQueueGroupProperties = device_get_command_queue_group_properties;
}

bool deadline_passed(std::uint64_t timeout_ns, std::chrono::steady_clock::time_point start) {
  if (timeout_ns == UINT64_MAX) return false;
  return std::chrono::steady_clock::now() - start >= std::chrono::nanoseconds(timeout_ns);
}

}  // namespace zrt
