#pragma once
// User-defined operators (docs/user_operators.md): OpenCL C that the user's build compiled to SPIR-V with
// zereduce_add_operator(), written against include/zereduce/user_operator_cl.h. Here the operator's SPIR-V is
// read and checked (its interface, sizes and the device features it needs), and linked into the embedded
// reduction templates (spirv_kernels/src/zr_user.h) with SPIRV-Tools' linker; the linked module is validated
// and then stands beside the embedded modules, so that plans, caches and executors treat it as one of them.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "data_types.hpp"
#include "features.hpp"
#include "kernel_catalog.hpp"

namespace zr::core {

// What zereduce_add_operator() generates (zr::user_operator_source in the public API).
struct UserOperatorSource {
  std::string_view name;
  std::span<const std::uint32_t> spirv;
  std::string_view opencl_c_source;
};

inline constexpr std::uint32_t kUserInterfaceVersion = 1;
inline constexpr std::uint32_t kMaxUserAccumulatorBytes = 64;  // zr_user.h's private store

struct UserOperator {
  std::string name;
  std::vector<std::uint32_t> spirv;
  std::string opencl_c_source;
  std::uint32_t element_bytes = 0;  // 1, 2, 4 or 8
  std::uint32_t accumulator_bytes = 0;
  std::uint32_t accumulator_alignment = 0;
  bool has_identity = false;
  FeatureSet required;  // what its SPIR-V needs of a device (fp16, fp64, ...)
  std::uint64_t serial = 0;  // distinguishes operators that share a name

  // The element as the templates read it: u8, u16, u32 or u64 bits.
  DataType element_bits() const;
  // Bytes of one accumulator slot in the templates' local and global memory: the accumulator's size, a
  // multiple of its alignment.
  std::uint64_t slot_bytes() const { return accumulator_bytes; }
};

// The operator, read and checked (once per distinct SPIR-V: later calls with the same words return the same
// object). Throws zr::InvalidArgumentError naming the operator and what is wrong: not SPIR-V, a missing
// function of the interface (not made with user_operator_cl.h), another interface version, an element size
// other than 1, 2, 4 or 8 bytes, an accumulator larger than 64 bytes.
std::shared_ptr<const UserOperator> load_user_operator(const UserOperatorSource& source);

// The template module with the operator linked in, made on first use and kept for the life of the process.
// Its SPIR-V is the link of the two modules, validated; its source is the operator's followed by the
// template's (for devices that build OpenCL C); it has no SPIR 1.2 bitcode and no native binaries; it
// requires what the template requires (but being a template) and what the operator requires. Throws
// zr::InvalidArgumentError with SPIRV-Tools' messages when the link or the validation fails.
const EmbeddedModule& linked_module(const EmbeddedModule& template_module, const UserOperator& op);

// The type class a user-operator template is built for: the operator's element bits (u8 to u64), or u8 for the
// templates that read only accumulators (ufinal, usegjoin: one build serves every element size).
DataType user_template_bits(std::string_view variant, const UserOperator& op);

// The embedded template of a user-operator variant (ulast, utree, ucpu, useggroup, usegitem: the one for the
// operator's element size; ufinal, usegjoin), not yet linked, or nullptr when none is embedded.
const EmbeddedModule* user_template(std::string_view variant, const UserOperator& op);

}  // namespace zr::core
