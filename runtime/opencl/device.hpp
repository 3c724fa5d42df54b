#pragma once
// Discovery of OpenCL devices on every platform, and what each can do (zr::core::Capabilities).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capabilities.hpp"
#include "opencl/cl.hpp"

namespace zr::opencl {

struct Device {
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;  // a root device: nothing to release
  std::string platform_name;
  std::string platform_vendor;
  std::string platform_version;  // "OpenCL 3.0 PoCL 3.1+debian ..."
  std::string name;
  std::string vendor;
  std::string version;  // CL_DEVICE_VERSION
  std::string driver_version;
  core::DeviceType type = core::DeviceType::other;

  // "<name> (<platform name>, <device version>, driver <driver version>)"
  std::string description() const;
};

// Every device of every platform, in platform then device order. A platform without devices is skipped
// (CL_DEVICE_NOT_FOUND is not an error); no platform at all (CL_PLATFORM_NOT_FOUND_KHR) gives an empty list.
std::vector<Device> list_devices();

// One device as list_devices describes it, from its id alone (an application's device: opencl_interop).
Device describe_device(cl_device_id id);

// The raw answers of the device queries that capabilities are made from. Optional queries a device does not
// answer are left at their defaults.
struct DeviceInfo {
  std::string name;
  cl_device_type type = 0;
  std::string version;           // CL_DEVICE_VERSION, "OpenCL <major>.<minor> ..."
  std::string opencl_c_version;  // CL_DEVICE_OPENCL_C_VERSION
  std::string extensions;        // space-separated
  std::string il_version;        // CL_DEVICE_IL_VERSION ("SPIR-V_1.2"), empty when not answered
  cl_uint compute_units = 0;
  std::size_t max_work_group_size = 0;
  cl_ulong local_memory_bytes = 0;
  cl_ulong max_allocation_bytes = 0;
  cl_ulong global_memory_bytes = 0;
  bool compiler_available = false;
  bool linker_available = false;
  std::vector<std::size_t> intel_subgroup_sizes;  // CL_DEVICE_SUB_GROUP_SIZES_INTEL
  cl_uint max_num_sub_groups = 0;                 // CL_DEVICE_MAX_NUM_SUB_GROUPS (OpenCL 2.1+)
  std::optional<cl_uint> simd_width;              // CL_DEVICE_WARP_SIZE_NV or CL_DEVICE_WAVEFRONT_WIDTH_AMD
  std::optional<bool> work_group_collectives;     // CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT (3.0)
  cl_device_fp_config single_fp_config = 0;
  cl_device_fp_config double_fp_config = 0;
  cl_uint preferred_float_vector_width = 0;  // CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
  cl_ulong half_fp_atomics = 0;  // cl_ext_float_atomics capability bits
  cl_ulong single_fp_atomics = 0;
  cl_ulong double_fp_atomics = 0;

  bool has_extension(std::string_view extension) const;
  // The version in "OpenCL <major>.<minor> ...", as major * 10 + minor; 0 when it cannot be read.
  int opencl_version() const;
};

DeviceInfo query_device_info(const Device& device);

// Pure translation of the raw answers (unit-testable without a device). Throws zr::UnsupportedError naming
// the property when the device reports something no working device does (a zero maximum work-group size,
// zero compute units, no global memory).
//
// Sub-groups: the sizes come from CL_DEVICE_SUB_GROUP_SIZES_INTEL. A device that has sub-groups
// (cl_khr_subgroups, or OpenCL 3.0 CL_DEVICE_MAX_NUM_SUB_GROUPS > 0) but no such list reports its SIMD width
// (NVIDIA warp size, AMD wavefront width) as the one size; without that either, the size is unknowable
// before a kernel is built, and sub-groups are reported absent (Capabilities has no "unknown size" state).
core::Capabilities make_capabilities(const DeviceInfo& info);

core::Capabilities query_capabilities(const Device& device);

// "OpenCL 3.0 PoCL ..." -> 30; 0 when the text does not start with "OpenCL <major>.<minor>".
int parse_opencl_version(std::string_view version);

}  // namespace zr::opencl
