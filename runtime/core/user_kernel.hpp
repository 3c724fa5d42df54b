#pragma once
// Applications' kernels with reducers (docs/kernels.md): OpenCL C written with include/zereduce/reducer_cl.h and
// compiled to SPIR-V by zereduce_add_kernel() at the application's build time. Here a kernel's SPIR-V is read
// and checked (the interface its ZR_KERNEL macro exports: version, parameter count, each reducer's op and type)
// and linked with the embedded epilogue (spirv_kernels/src/kepilogue.cl) that combines its reducers across
// work-groups. The linked module stands beside the embedded ones, as a linked user-defined operator does.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "capabilities.hpp"
#include "data_types.hpp"
#include "features.hpp"
#include "kernel_catalog.hpp"

namespace zr::core {

// What zereduce_add_kernel() generates (zr::kernel_source in the public API), and the kernel chosen in it.
struct UserKernelSource {
  std::string_view module_name;
  std::span<const std::uint32_t> spirv;
  std::string_view opencl_c_source;
  std::string_view entry_point;
};

inline constexpr std::uint32_t kKernelInterfaceVersion = 1;  // ZR_KERNEL_INTERFACE_VERSION
inline constexpr std::uint32_t kSpanReducerCode = 256;        // ZR_SPAN_CODE
inline constexpr std::uint32_t kUserReducerCode = 512;        // ZR_USER_CODE
inline constexpr std::uint32_t kMaxUserReducerBytes = 64;

// A reducer: a built-in (op, type), a span of one, or one of the application's own (Op::user, its type u8, its
// accumulator `bytes` long); `bytes` is the size of one value (an element for the others).
struct KernelReducer {
  Op op = Op::plus;
  DataType type = DataType::f32;
  bool span = false;
  std::uint32_t bytes = 0;
  bool operator==(const KernelReducer&) const = default;
};
// The reducer a code of reducer_cl.h stands for (op x 16 + type, + 256 for spans, 512 for one of the application's
// own) with values of `bytes`; nullopt for no such code, or a size that is not the type's.
std::optional<KernelReducer> reducer_of_code(std::uint32_t code, std::uint32_t bytes);
std::string describe(const KernelReducer& reducer);  // "plus of f32", "span plus of u32", "a reducer of its own (24 bytes)"

struct UserKernel {
  std::string module_name;
  std::string entry_point;
  std::vector<std::uint32_t> spirv;
  std::string opencl_c_source;
  std::uint32_t parameters = 0;  // the application's own parameters, before ze-reduce's
  std::vector<KernelReducer> reducers;
  FeatureSet required;  // what its SPIR-V needs of a device
  std::uint64_t serial = 0;

  std::string label() const { return "kernel '" + entry_point + "' (module " + module_name + ")"; }
};

// The kernel, read and checked (once per distinct SPIR-V and entry point). Throws zr::InvalidArgumentError naming
// the kernel and what is wrong: not SPIR-V, no such kernel, not written with ZR_KERNEL, another interface version,
// a reducer code this ze-reduce does not know.
std::shared_ptr<const UserKernel> load_user_kernel(const UserKernelSource& source);

// The epilogue a kernel is linked with on a device, in its module's class (fp64 where the module needs fp64):
// kepiwg where the device has work-group collectives (its groups combine integer sums, minima and maxima with
// them), else kepilogue (a local-memory tree for every reducer).
const EmbeddedModule& kernel_epilogue(const UserKernel& kernel, const Capabilities& caps);

// The kernel's module linked with its epilogue for the device, made on first use and kept for the life of the
// process: one per module and epilogue, so that the kernels of one module share one device build. Its source, for
// devices that build OpenCL C, is the module's followed by the epilogue's definitions.
const EmbeddedModule& linked_kernel_module(const UserKernel& kernel, const Capabilities& caps);

}  // namespace zr::core
