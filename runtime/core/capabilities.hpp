#pragma once
// What a device offers, as far as reductions care. Backends fill it from their own queries; everything that
// decides how to reduce reads only this.
#include <cstdint>
#include <string>
#include <vector>

#include "data_types.hpp"
#include "features.hpp"
#include "kernel_catalog.hpp"

namespace zr::core {

enum class DeviceType { cpu, gpu, accelerator, other };
std::string_view name(DeviceType type);

struct FloatAtomicSupport {
  bool global_add = false;
  bool global_min_max = false;
  bool local_add = false;
  bool local_min_max = false;
};

struct Capabilities {
  std::string device_name;
  std::string backend;  // "level_zero" or "opencl"
  DeviceType type = DeviceType::other;
  std::uint32_t compute_units = 1;
  std::uint64_t max_work_group_size = 1;
  std::uint64_t local_memory_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::uint64_t global_memory_bytes = 0;
  std::vector<std::uint32_t> subgroup_sizes;  // empty: no sub-groups
  bool work_group_collectives = false;
  // The device's compiler vectorises across work-items and prefers scalar code in each (OpenCL: preferred
  // float vector width 1, as Intel's CPU runtime reports). Wide explicit-vector kernels then run slower.
  bool vectorizes_across_work_items = false;
  bool int64_atomics = false;
  // fp16: the device can load and store half data. Our f16 kernels compute in float and only convert
  // (vload_half/vstore_half, core OpenCL C), so OpenCL devices have it without cl_khr_fp16.
  bool fp16 = false;
  bool fp64 = false;
  // f32 arithmetic keeps subnormals (OpenCL and Level Zero make it optional): reproducible f32 sums need it.
  bool fp32_denormals = false;
  FloatAtomicSupport f16_atomics, f32_atomics, f64_atomics;
  // How the device can ingest our kernels.
  bool accepts_spirv = false;
  bool accepts_spir12 = false;
  bool accepts_opencl_c = false;
  int opencl_c_version = 0;  // major * 10 + minor of the OpenCL C the runtime compiler takes (source path)

  FeatureSet features() const;
  const FloatAtomicSupport& float_atomics(DataType type) const;  // f16, f32 or f64
  // Whether the device has every feature the module requires and a way to ingest it.
  bool can_load(const EmbeddedModule& module) const;
};

}  // namespace zr::core
