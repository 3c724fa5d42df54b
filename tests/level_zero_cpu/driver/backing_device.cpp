#include "backing_device.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

// cl_ext_float_atomics and cl_intel_required_subgroup_size values that Debian 12's OpenCL headers predate. The
// driver does not include the runtime's headers on purpose: it must not share the code it tests.
namespace {
constexpr cl_device_info kSingleFpAtomics = 0x4231, kDoubleFpAtomics = 0x4232, kHalfFpAtomics = 0x4233;
constexpr cl_bitfield kGlobalFpAtomicAdd = 1 << 1, kGlobalFpAtomicMinMax = 1 << 2;
constexpr cl_device_info kSubGroupSizesIntel = 0x4108;
}  // namespace

namespace zrt {

namespace {

std::string platform_text(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  clGetPlatformInfo(platform, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::string device_text(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  clGetDeviceInfo(device, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what, T fallback = T{}) {
  T value{};
  return clGetDeviceInfo(device, what, sizeof(T), &value, nullptr) == CL_SUCCESS ? value : fallback;
}

bool has_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || text[at - 1] == ' ';
    const bool ends = at + word.size() == text.size() || text[at + word.size()] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

FloatAtomics atomics_of(cl_bitfield caps) {
  FloatAtomics a;
  a.global_add = (caps & kGlobalFpAtomicAdd) != 0;
  a.global_min_max = (caps & kGlobalFpAtomicMinMax) != 0;
  return a;
}

}  // namespace

bool BackingDevice::open(std::string& problem) {
  const char* wanted_env = std::getenv("ZRT_OPENCL");
  const std::string wanted = wanted_env ? wanted_env : "";
  if (!wanted.empty() && wanted != "intel" && wanted != "pocl") {
    problem = "ZRT_OPENCL=" + wanted + " is neither 'intel' nor 'pocl'";
    return false;
  }
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
    problem = "no OpenCL platform (install pocl-opencl-icd, or Intel's runtime with scripts/install-intel-opencl-cpu.sh)";
    return false;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  cl_platform_id intel_platform = nullptr, pocl_platform = nullptr;
  for (auto p : platforms) {
    const std::string name = platform_text(p, CL_PLATFORM_NAME);
    cl_uint cpus = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 0, nullptr, &cpus) != CL_SUCCESS || cpus == 0) continue;
    if (name.find("Intel(R) OpenCL") != std::string::npos && !intel_platform) intel_platform = p;
    if (name.find("Portable Computing Language") != std::string::npos && !pocl_platform) pocl_platform = p;
  }
  if (wanted == "intel" || (wanted.empty() && intel_platform)) {
    platform = intel_platform;
    intel = true;
  } else {
    platform = pocl_platform;
  }
  if (!platform) {
    problem = wanted == "intel" ? "ZRT_OPENCL=intel but Intel's OpenCL CPU runtime is not among the OpenCL platforms"
                                : "neither Intel's OpenCL CPU runtime nor PoCL offers a CPU device";
    return false;
  }
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr);
  cl_int error = CL_SUCCESS;
  context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  if (error != CL_SUCCESS) {
    problem = "clCreateContext failed with " + std::to_string(error);
    return false;
  }
  platform_name = platform_text(platform, CL_PLATFORM_NAME);
  device_name = device_text(device, CL_DEVICE_NAME);
  driver_version = device_text(device, CL_DRIVER_VERSION);
  const std::string extensions = device_text(device, CL_DEVICE_EXTENSIONS);
  il_version = device_text(device, CL_DEVICE_IL_VERSION);
  takes_il = !il_version.empty() && il_version.find("SPIR-V") != std::string::npos;
  const auto svm = device_value<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES);
  if ((svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) {
    problem = "OpenCL device '" + device_name + "' has no fine-grained SVM buffers, which the test driver's USM needs";
    return false;
  }
  if (intel) {
    std::size_t size = 0;
    if (clGetDeviceInfo(device, kSubGroupSizesIntel, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
      std::vector<std::size_t> sizes(size / sizeof(std::size_t));
      clGetDeviceInfo(device, kSubGroupSizesIntel, size, sizes.data(), nullptr);
      for (auto s : sizes) subgroup_sizes.push_back(static_cast<std::uint32_t>(s));
    }
  }
  work_group_collectives = device_value<cl_bool>(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE;
  // PoCL 3.1 reports collectives it cannot run from SPIR 1.2 bitcode: only Intel's runtime gets them.
  work_group_collectives = work_group_collectives && intel;
  fp16 = has_word(extensions, "cl_khr_fp16");
  fp64 = has_word(extensions, "cl_khr_fp64");
  int64_atomics = has_word(extensions, "cl_khr_int64_base_atomics");
  if (has_word(extensions, "cl_ext_float_atomics")) {
    f16_atomics = atomics_of(device_value<cl_bitfield>(device, kHalfFpAtomics));
    f32_atomics = atomics_of(device_value<cl_bitfield>(device, kSingleFpAtomics));
    f64_atomics = atomics_of(device_value<cl_bitfield>(device, kDoubleFpAtomics));
  }
  local_memory = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  global_memory = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  max_allocation = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  // ZRT_MAX_ALLOCATION=<bytes> presents a smaller largest allocation (as GPUs with 4 GiB limits have), so that
  // the runtime's handling of inputs larger than one allocation runs on small data.
  if (const char* limit = std::getenv("ZRT_MAX_ALLOCATION"); limit && *limit)
    max_allocation = std::min<cl_ulong>(max_allocation, std::strtoull(limit, nullptr, 10));
  max_group_size = device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  return true;
}

void BackingDevice::close() {
  if (context) clReleaseContext(context);
  context = nullptr;
}

Profile BackingDevice::restrict(const Profile& wanted) const {
  Profile p = wanted;
  auto lose = [&](bool& flag, const char* what) {
    if (flag) p.restricted.push_back(what);
    flag = false;
  };
  std::vector<std::uint32_t> kept;
  for (auto size : p.subgroup_sizes) {
    if (std::find(subgroup_sizes.begin(), subgroup_sizes.end(), size) != subgroup_sizes.end()) kept.push_back(size);
    else p.restricted.push_back("sub-group size " + std::to_string(size));
  }
  p.subgroup_sizes = kept;
  // fp16 stays: the kernels only load and store halves (Float16Buffer), which every OpenCL device can; a module
  // that computes in half on a device without cl_khr_fp16 fails to build with the OpenCL compiler's log.
  if (!fp64) lose(p.fp64, "fp64");
  if (!int64_atomics) lose(p.int64_atomics, "64-bit atomics");
  auto keep_atomics = [&](FloatAtomics& a, const FloatAtomics& have, const char* type) {
    if (!have.global_add && a.global_add) lose(a.global_add, (std::string(type) + " atomic add").c_str());
    if (!have.global_min_max && a.global_min_max) lose(a.global_min_max, (std::string(type) + " atomic min/max").c_str());
  };
  keep_atomics(p.f16_atomics, f16_atomics, "fp16");
  keep_atomics(p.f32_atomics, f32_atomics, "fp32");
  keep_atomics(p.f64_atomics, f64_atomics, "fp64");
  if (local_memory < p.shared_local_memory) {
    p.restricted.push_back("shared local memory " + std::to_string(p.shared_local_memory) + " -> " +
                           std::to_string(local_memory) + " bytes");
    p.shared_local_memory = static_cast<std::uint32_t>(local_memory);
  }
  if (max_group_size < p.max_group_size) {
    p.restricted.push_back("group size " + std::to_string(p.max_group_size) + " -> " + std::to_string(max_group_size));
    p.max_group_size = static_cast<std::uint32_t>(max_group_size);
  }
  return p;
}

}  // namespace zrt
