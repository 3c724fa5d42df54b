#pragma once
// What the driver needs to know about a SPIR-V module, read with SPIRV-Tools' binary parser: each kernel's
// parameters (a pointer to global, constant or local memory, or a value: Level Zero passes all of them as bytes
// and OpenCL needs to be told which is which), its required sizes, and the module's capabilities.
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "objects.hpp"

namespace zrt {

struct SpirvModule {
  std::map<std::string, KernelSignature> kernels;
  std::vector<std::string> kernel_order;  // entry points as the module lists them
  std::set<std::uint32_t> capabilities;
  std::string problem;  // why the module could not be read (empty when it could)
};

SpirvModule read_spirv(std::span<const std::uint32_t> words);

// SPIR-V capability numbers the profiles gate (SPIR-V specification, "Capability").
namespace capability {
constexpr std::uint32_t Float16 = 9, Float64 = 10, Int64Atomics = 12, AtomicFloat32MinMaxEXT = 5612,
                        AtomicFloat64MinMaxEXT = 5613, AtomicFloat16MinMaxEXT = 5616, AtomicFloat32AddEXT = 6033,
                        AtomicFloat64AddEXT = 6034, AtomicFloat16AddEXT = 6095;
}

}  // namespace zrt
