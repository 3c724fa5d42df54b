#include "opencl/device.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "opencl/error.hpp"
#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

namespace {

std::string trim_string(std::string text) {
  while (!text.empty() && (text.back() == '\0' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string platform_string(cl_platform_id platform, cl_platform_info param, const char* what) {
  std::size_t size = 0;
  check(clGetPlatformInfo(platform, param, 0, nullptr, &size), std::string("clGetPlatformInfo(") + what + ")", "");
  std::string text(size, '\0');
  check(clGetPlatformInfo(platform, param, size, text.data(), nullptr), std::string("clGetPlatformInfo(") + what + ")",
        "");
  return trim_string(std::move(text));
}

// A required query: any failure throws.
std::string device_string(cl_device_id device, cl_device_info param, const char* what, std::string_view device_name) {
  std::size_t size = 0;
  const std::string call = std::string("clGetDeviceInfo(") + what + ")";
  check(clGetDeviceInfo(device, param, 0, nullptr, &size), call, device_name);
  std::string text(size, '\0');
  check(clGetDeviceInfo(device, param, size, text.data(), nullptr), call, device_name);
  return trim_string(std::move(text));
}

template <typename T>
T device_value(cl_device_id device, cl_device_info param, const char* what, std::string_view device_name) {
  T value{};
  check(clGetDeviceInfo(device, param, sizeof(T), &value, nullptr), std::string("clGetDeviceInfo(") + what + ")",
        device_name);
  return value;
}

// An optional query (an extension's, or one older versions lack): a device that does not know the parameter
// answers CL_INVALID_VALUE, which means "absent"; anything else is still an error.
template <typename T>
std::optional<T> optional_device_value(cl_device_id device, cl_device_info param, const char* what,
                                       std::string_view device_name) {
  T value{};
  const cl_int code = clGetDeviceInfo(device, param, sizeof(T), &value, nullptr);
  if (code == CL_INVALID_VALUE || code == CL_INVALID_OPERATION) return std::nullopt;
  check(code, std::string("clGetDeviceInfo(") + what + ")", device_name);
  return value;
}

std::optional<std::string> optional_device_string(cl_device_id device, cl_device_info param, const char* what,
                                                  std::string_view device_name) {
  std::size_t size = 0;
  const cl_int code = clGetDeviceInfo(device, param, 0, nullptr, &size);
  if (code == CL_INVALID_VALUE) return std::nullopt;
  check(code, std::string("clGetDeviceInfo(") + what + ")", device_name);
  std::string text(size, '\0');
  check(clGetDeviceInfo(device, param, size, text.data(), nullptr), std::string("clGetDeviceInfo(") + what + ")",
        device_name);
  return trim_string(std::move(text));
}

core::DeviceType device_type(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return core::DeviceType::gpu;
  if (type & CL_DEVICE_TYPE_CPU) return core::DeviceType::cpu;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return core::DeviceType::accelerator;
  return core::DeviceType::other;
}

[[noreturn]] void nonsense(const DeviceInfo& info, const char* property, const std::string& value) {
  throw UnsupportedError("opencl: device '" + info.name + "' reports " + property + " = " + value +
                         ", which no working device does; it cannot be used");
}

}  // namespace

std::string Device::description() const {
  return name + " (" + platform_name + ", " + version + ", driver " + driver_version + ")";
}

std::vector<Device> list_devices() {
  cl_uint platform_count = 0;
  cl_int code = clGetPlatformIDs(0, nullptr, &platform_count);
  if (code == CL_PLATFORM_NOT_FOUND_KHR || (code == CL_SUCCESS && platform_count == 0)) {
    logger().debug("opencl: no OpenCL platform is installed");
    return {};
  }
  check(code, "clGetPlatformIDs", "");
  std::vector<cl_platform_id> platforms(platform_count);
  check(clGetPlatformIDs(platform_count, platforms.data(), nullptr), "clGetPlatformIDs", "");

  std::vector<Device> devices;
  for (cl_platform_id platform : platforms) {
    const std::string platform_name = platform_string(platform, CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
    cl_uint device_count = 0;
    code = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count);
    if (code == CL_DEVICE_NOT_FOUND || (code == CL_SUCCESS && device_count == 0)) {
      logger().debug("opencl: platform '{}' has no devices", platform_name);
      continue;
    }
    check(code, "clGetDeviceIDs", "", "platform '" + platform_name + "'");
    std::vector<cl_device_id> ids(device_count);
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, device_count, ids.data(), nullptr), "clGetDeviceIDs", "",
          "platform '" + platform_name + "'");
    for (cl_device_id id : ids) {
      devices.push_back(describe_device(id));
      logger().debug("opencl: found {} device {}", core::name(devices.back().type), devices.back().description());
    }
  }
  return devices;
}

Device describe_device(cl_device_id id) {
  Device device;
  device.id = id;
  device.platform = device_value<cl_platform_id>(id, CL_DEVICE_PLATFORM, "CL_DEVICE_PLATFORM", "");
  device.platform_name = platform_string(device.platform, CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
  device.platform_vendor = platform_string(device.platform, CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR");
  device.platform_version = platform_string(device.platform, CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION");
  device.name = device_string(id, CL_DEVICE_NAME, "CL_DEVICE_NAME", "");
  device.vendor = device_string(id, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR", device.name);
  device.version = device_string(id, CL_DEVICE_VERSION, "CL_DEVICE_VERSION", device.name);
  device.driver_version = device_string(id, CL_DRIVER_VERSION, "CL_DRIVER_VERSION", device.name);
  device.type = device_type(device_value<cl_device_type>(id, CL_DEVICE_TYPE, "CL_DEVICE_TYPE", device.name));
  return device;
}

bool DeviceInfo::has_extension(std::string_view extension) const {
  std::istringstream words(extensions);
  std::string word;
  while (words >> word) {
    if (word == extension) return true;
  }
  return false;
}

int DeviceInfo::opencl_version() const { return parse_opencl_version(version); }

int parse_opencl_version(std::string_view version) {
  constexpr std::string_view prefix = "OpenCL ";
  if (version.rfind(prefix, 0) != 0) return 0;
  const char* begin = version.data() + prefix.size();
  const char* end = version.data() + version.size();
  int major = 0, minor = 0;
  auto [dot, error] = std::from_chars(begin, end, major);
  if (error != std::errc() || dot == end || *dot != '.') return 0;
  auto [rest, minor_error] = std::from_chars(dot + 1, end, minor);
  if (minor_error != std::errc()) return 0;
  return major * 10 + minor;
}

DeviceInfo query_device_info(const Device& device) {
  const cl_device_id id = device.id;
  DeviceInfo info;
  info.name = device.name;
  const std::string& n = info.name;
  info.type = device_value<cl_device_type>(id, CL_DEVICE_TYPE, "CL_DEVICE_TYPE", n);
  info.version = device.version;
  info.opencl_c_version = device_string(id, CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION", n);
  info.extensions = device_string(id, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", n);
  info.il_version = optional_device_string(id, CL_DEVICE_IL_VERSION, "CL_DEVICE_IL_VERSION", n).value_or("");
  info.compute_units = device_value<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS", n);
  info.max_work_group_size =
      device_value<std::size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE", n);
  info.local_memory_bytes = device_value<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE", n);
  info.max_allocation_bytes =
      device_value<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE", n);
  info.global_memory_bytes = device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE", n);
  info.compiler_available =
      device_value<cl_bool>(id, CL_DEVICE_COMPILER_AVAILABLE, "CL_DEVICE_COMPILER_AVAILABLE", n) == CL_TRUE;
  info.linker_available =
      device_value<cl_bool>(id, CL_DEVICE_LINKER_AVAILABLE, "CL_DEVICE_LINKER_AVAILABLE", n) == CL_TRUE;
  info.single_fp_config =
      device_value<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG, "CL_DEVICE_SINGLE_FP_CONFIG", n);
  info.double_fp_config =
      device_value<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG, "CL_DEVICE_DOUBLE_FP_CONFIG", n);
  info.preferred_float_vector_width = device_value<cl_uint>(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                                                            "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT", n);

  if (info.has_extension("cl_intel_required_subgroup_size")) {
    std::size_t bytes = 0;
    const cl_int code = clGetDeviceInfo(id, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &bytes);
    if (code == CL_SUCCESS && bytes > 0) {
      info.intel_subgroup_sizes.resize(bytes / sizeof(std::size_t));
      check(clGetDeviceInfo(id, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, info.intel_subgroup_sizes.data(), nullptr),
            "clGetDeviceInfo(CL_DEVICE_SUB_GROUP_SIZES_INTEL)", n);
    } else if (code != CL_INVALID_VALUE) {
      check(code, "clGetDeviceInfo(CL_DEVICE_SUB_GROUP_SIZES_INTEL)", n);
    }
  }
  if (info.opencl_version() >= 21) {
    info.max_num_sub_groups =
        optional_device_value<cl_uint>(id, CL_DEVICE_MAX_NUM_SUB_GROUPS, "CL_DEVICE_MAX_NUM_SUB_GROUPS", n).value_or(0);
  }
  if (info.has_extension("cl_nv_device_attribute_query")) {
    info.simd_width = optional_device_value<cl_uint>(id, CL_DEVICE_WARP_SIZE_NV, "CL_DEVICE_WARP_SIZE_NV", n);
  } else if (info.has_extension("cl_amd_device_attribute_query")) {
    info.simd_width =
        optional_device_value<cl_uint>(id, CL_DEVICE_WAVEFRONT_WIDTH_AMD, "CL_DEVICE_WAVEFRONT_WIDTH_AMD", n);
  }
  if (info.opencl_version() >= 30) {
    if (auto value = optional_device_value<cl_bool>(id, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                                                    "CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT", n)) {
      info.work_group_collectives = *value == CL_TRUE;
    }
  }
  if (info.has_extension("cl_ext_float_atomics")) {
    auto fp = [&](cl_device_info param, const char* what) {
      return optional_device_value<cl_ulong>(id, param, what, n).value_or(0);
    };
    info.half_fp_atomics = fp(CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT, "CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT");
    info.single_fp_atomics =
        fp(CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT, "CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT");
    info.double_fp_atomics =
        fp(CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT, "CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT");
  }
  return info;
}

core::Capabilities make_capabilities(const DeviceInfo& info) {
  if (info.compute_units == 0) nonsense(info, "CL_DEVICE_MAX_COMPUTE_UNITS", "0");
  if (info.max_work_group_size == 0) nonsense(info, "CL_DEVICE_MAX_WORK_GROUP_SIZE", "0");
  if (info.global_memory_bytes == 0) nonsense(info, "CL_DEVICE_GLOBAL_MEM_SIZE", "0");
  if (info.max_allocation_bytes == 0) nonsense(info, "CL_DEVICE_MAX_MEM_ALLOC_SIZE", "0");

  core::Capabilities caps;
  caps.device_name = info.name;
  caps.backend = "opencl";
  caps.type = device_type(info.type);
  caps.compute_units = info.compute_units;
  caps.max_work_group_size = info.max_work_group_size;
  caps.local_memory_bytes = info.local_memory_bytes;
  caps.max_allocation_bytes = info.max_allocation_bytes;
  caps.global_memory_bytes = info.global_memory_bytes;
  // A compiler that packs work-items into SIMD lanes itself asks for scalar code (Intel's CPU runtime: 1;
  // PoCL: the SIMD width).
  caps.vectorizes_across_work_items = info.preferred_float_vector_width == 1;

  const int version = info.opencl_version();
  const bool has_subgroups =
      info.has_extension("cl_khr_subgroups") || info.has_extension("cl_intel_subgroups") || info.max_num_sub_groups > 0;
  if (!info.intel_subgroup_sizes.empty()) {
    for (std::size_t size : info.intel_subgroup_sizes) caps.subgroup_sizes.push_back(static_cast<std::uint32_t>(size));
    std::sort(caps.subgroup_sizes.begin(), caps.subgroup_sizes.end());
  } else if (has_subgroups && info.simd_width && *info.simd_width > 0) {
    caps.subgroup_sizes.push_back(*info.simd_width);
  } else if (has_subgroups) {
    logger().debug(
        "opencl: device '{}' has sub-groups of a size it does not report; treating it as without "
        "sub-groups",
        info.name);
  }

  if (version >= 30) {
    caps.work_group_collectives = info.work_group_collectives.value_or(false);
  } else {
    caps.work_group_collectives = version >= 20;  // a core feature of OpenCL 2.x
  }
  caps.int64_atomics =
      info.has_extension("cl_khr_int64_base_atomics") && info.has_extension("cl_khr_int64_extended_atomics");
  // Our f16 kernels only load and store half (vload_half/vstore_half are core OpenCL C) and compute in
  // float, so every OpenCL device can run them; cl_khr_fp16 (half arithmetic) is not needed.
  caps.fp16 = true;
  caps.fp64 = info.has_extension("cl_khr_fp64") || info.double_fp_config != 0;
  caps.fp32_denormals = (info.single_fp_config & CL_FP_DENORM) != 0;

  auto float_atomics = [](cl_ulong bits) {
    core::FloatAtomicSupport support;
    support.global_add = (bits & CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT) != 0;
    support.global_min_max = (bits & CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT) != 0;
    support.local_add = (bits & CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT) != 0;
    support.local_min_max = (bits & CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT) != 0;
    return support;
  };
  if (info.has_extension("cl_khr_fp16")) caps.f16_atomics = float_atomics(info.half_fp_atomics);
  caps.f32_atomics = float_atomics(info.single_fp_atomics);
  if (caps.fp64) caps.f64_atomics = float_atomics(info.double_fp_atomics);

  // SPIR-V and SPIR both go through clBuildProgram's link step; the compiler is only needed for source.
  const bool can_link = info.linker_available || info.compiler_available;
  caps.accepts_spirv = can_link && info.il_version.find("SPIR-V") != std::string::npos;
  caps.accepts_spir12 = can_link && info.has_extension("cl_khr_spir");
  caps.accepts_opencl_c = info.compiler_available;
  // CL_DEVICE_OPENCL_C_VERSION reads "OpenCL C <major>.<minor> ...".
  std::string c_version = info.opencl_c_version;
  if (c_version.rfind("OpenCL C ", 0) == 0) c_version.erase(7, 2);
  caps.opencl_c_version = parse_opencl_version(c_version);
  if (!caps.accepts_spirv) {
    // Float atomic min/max reach a device only through SPIR-V: through SPIR 1.2 PoCL 5's kernel library has
    // no atomic_min/atomic_max on float (seen on the H100 machine), and source compilers differ.
    for (auto* atomics : {&caps.f16_atomics, &caps.f32_atomics, &caps.f64_atomics}) {
      atomics->global_min_max = false;
      atomics->local_min_max = false;
    }
  }
  return caps;
}

core::Capabilities query_capabilities(const Device& device) { return make_capabilities(query_device_info(device)); }

}  // namespace zr::opencl
