#include "capabilities.hpp"

#include <stdexcept>

namespace zr::core {

std::string_view name(DeviceType type) {
  switch (type) {
    case DeviceType::cpu: return "cpu";
    case DeviceType::gpu: return "gpu";
    case DeviceType::accelerator: return "accelerator";
    case DeviceType::other: return "other";
  }
  return "other";
}

FeatureSet Capabilities::features() const {
  FeatureSet set;
  if (fp16) set |= Feature::fp16;
  if (fp64) set |= Feature::fp64;
  if (int64_atomics) set |= Feature::int64_atomics;
  if (!subgroup_sizes.empty()) set |= Feature::subgroups;
  if (work_group_collectives) set |= Feature::work_group_collectives;
  if (f32_atomics.global_add) set |= Feature::float_atomic_add;
  if (f32_atomics.global_min_max) set |= Feature::float_atomic_min_max;
  if (type == DeviceType::cpu) set |= Feature::cpu_device;
  return set;
}

const FloatAtomicSupport& Capabilities::float_atomics(DataType type) const {
  switch (type) {
    case DataType::f16: return f16_atomics;
    case DataType::f32: return f32_atomics;
    case DataType::f64: return f64_atomics;
    default: throw std::invalid_argument("float atomics asked for a non-floating type");
  }
}

bool Capabilities::can_load(const EmbeddedModule& module) const {
  if (!features().contains(module.required)) return false;
  if ((accepts_spirv && !module.spirv.empty()) || (accepts_spir12 && !module.spir12_bitcode.empty())) return true;
  // Source needs the OpenCL C version the module is written for: 2.0 and 3.0 modules use their builtins.
  const int needed = module.cl_std == "CL3.0" ? 30 : module.cl_std == "CL2.0" ? 20 : 12;
  return accepts_opencl_c && opencl_c_version >= needed;
}

}  // namespace zr::core
