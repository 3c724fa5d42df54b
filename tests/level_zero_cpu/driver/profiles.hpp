#pragma once
// The Intel GPU capability sets the test driver can present (ZRT_PROFILE=tgllp|dg2|pvc), as Intel's own driver
// reports them without hardware (tests/level_zero_nohw checks those values against that driver). What a CPU
// OpenCL device cannot execute is taken out when the driver starts (BackingDevice::restrict).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zrt {

struct FloatAtomics {
  bool global_add = false;
  bool global_min_max = false;
};

struct Profile {
  std::string name;          // tgllp, dg2, pvc
  std::string device_name;   // as Intel's driver names the product
  std::uint32_t device_id;   // a PCI id of that product
  std::uint32_t slices, subslices_per_slice, eus_per_subslice, threads_per_eu, simd_width;
  std::uint32_t core_clock_mhz;
  std::uint32_t max_group_size;
  std::uint32_t shared_local_memory;
  std::vector<std::uint32_t> subgroup_sizes;
  bool fp16 = true;
  bool fp64 = false;
  bool int64_atomics = true;
  FloatAtomics f16_atomics, f32_atomics, f64_atomics;
  // Filled by the driver: what the profile lost to the CPU device behind it (said in the device name's note).
  std::vector<std::string> restricted;
};

// nullptr for an unknown name.
const Profile* find_profile(std::string_view name);
std::string known_profiles();  // "tgllp, dg2, pvc"

}  // namespace zrt
