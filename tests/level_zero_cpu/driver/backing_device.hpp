#pragma once
// The OpenCL CPU device that executes everything the test driver is given: Intel's OpenCL CPU runtime where it
// is installed (it takes SPIR-V as IL and has sub-groups, work-group collectives and float atomics), else PoCL
// (SPIR-V is translated to SPIR 1.2 bitcode with llvm-spirv-15 -r at module creation). ZRT_OPENCL=intel|pocl
// picks one; without it Intel's is preferred.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "profiles.hpp"

namespace zrt {

struct BackingDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  std::string platform_name;
  std::string device_name;
  std::string driver_version;
  bool intel = false;      // Intel's CPU runtime (else PoCL)
  bool takes_il = false;   // clCreateProgramWithIL works
  std::vector<std::uint32_t> subgroup_sizes;
  bool work_group_collectives = false;
  bool fp16 = false, fp64 = false, int64_atomics = false;
  FloatAtomics f16_atomics, f32_atomics, f64_atomics;
  std::uint64_t local_memory = 0, global_memory = 0, max_allocation = 0;
  std::size_t max_group_size = 0;
  std::string il_version;

  // Finds the device; on failure returns false with the reason in `problem`.
  bool open(std::string& problem);
  void close();
  // The profile with what this device cannot execute removed, each removal named in profile.restricted.
  Profile restrict(const Profile& wanted) const;
};

}  // namespace zrt
