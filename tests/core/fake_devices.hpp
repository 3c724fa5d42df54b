#pragma once
// Capability sets shaped like real devices, for testing strategy choice and plans without any device.
#include "capabilities.hpp"

namespace zr::test {

inline core::Capabilities pocl_like_cpu() {
  core::Capabilities c;
  c.device_name = "fake cpu";
  c.backend = "opencl";
  c.type = core::DeviceType::cpu;
  c.compute_units = 2;
  c.max_work_group_size = 4096;
  c.local_memory_bytes = 4u << 20;
  c.int64_atomics = true;
  c.fp16 = true;
  c.fp64 = true;
  c.fp32_denormals = true;
  c.accepts_spir12 = true;
  c.accepts_opencl_c = true;
  c.opencl_c_version = 12;
  return c;
}

// Intel's OpenCL CPU runtime (intel-opencl-rt 2026.2 on a 2-core EPYC), as it reports itself: SPIR-V,
// sub-groups, work-group collectives, f32 atomics, and scalar code preferred (it vectorises across work-items).
inline core::Capabilities intel_opencl_like_cpu() {
  core::Capabilities c = pocl_like_cpu();
  c.device_name = "fake intel opencl cpu";
  c.max_work_group_size = 8192;
  c.local_memory_bytes = 256u << 10;
  c.subgroup_sizes = {4, 8, 16, 32, 64};
  c.work_group_collectives = true;
  c.f32_atomics.global_add = true;
  c.f32_atomics.global_min_max = true;
  c.vectorizes_across_work_items = true;
  c.accepts_spirv = true;
  c.opencl_c_version = 30;
  return c;
}

// Intel Xe-LP (Tiger Lake) as its Level Zero driver reports it: no fp64, no float atomics.
inline core::Capabilities tgllp_like_gpu() {
  core::Capabilities c;
  c.device_name = "fake tgllp";
  c.backend = "level_zero";
  c.type = core::DeviceType::gpu;
  c.compute_units = 96;
  c.max_work_group_size = 512;
  c.local_memory_bytes = 64u << 10;
  c.subgroup_sizes = {8, 16, 32};
  c.work_group_collectives = true;
  c.int64_atomics = true;
  c.fp16 = true;
  c.fp32_denormals = true;
  c.accepts_spirv = true;
  return c;
}

inline core::Capabilities dg2_like_gpu() {
  core::Capabilities c = tgllp_like_gpu();
  c.device_name = "fake dg2";
  c.compute_units = 512;
  c.f32_atomics.global_add = true;
  return c;
}

inline core::Capabilities pvc_like_gpu() {
  core::Capabilities c = tgllp_like_gpu();
  c.device_name = "fake pvc";
  c.compute_units = 1024;
  c.max_work_group_size = 1024;
  c.local_memory_bytes = 128u << 10;
  c.subgroup_sizes = {16, 32};
  c.fp64 = true;
  c.fp32_denormals = true;
  c.f16_atomics = c.f32_atomics = c.f64_atomics = {true, true, false, false};
  return c;
}

// NVIDIA through its OpenCL driver: no sub-groups, no float atomics, source only.
inline core::Capabilities nvidia_like_gpu() {
  core::Capabilities c;
  c.device_name = "fake nvidia";
  c.backend = "opencl";
  c.type = core::DeviceType::gpu;
  c.compute_units = 132;
  c.max_work_group_size = 1024;
  c.local_memory_bytes = 48u << 10;
  c.int64_atomics = true;
  c.fp16 = true;
  c.fp64 = true;
  c.fp32_denormals = true;
  c.accepts_opencl_c = true;
  c.opencl_c_version = 12;
  return c;
}

}  // namespace zr::test
