#pragma once
// Each embedded module is built once per device, on first use: from the native binary for the device's
// target when one is embedded (ZR_EMBED_NATIVE_BINARIES) and the driver takes it, else from the device's binary
// kept by an earlier process (core/binary_cache.hpp), else from SPIR-V (and its native binary is then kept).
// Kernels are created once per entry point, and what the driver says about them (zeKernelGetProperties,
// zeKernelSuggestGroupSize) is kept for the plan and tuning to use.
#include <level_zero/ze_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "binary_cache.hpp"
#include "kernel_catalog.hpp"
#include "level_zero/handles.hpp"

namespace zr::level_zero {

class Device;

struct KernelInfo {
  std::string entry_point;
  // zeKernelGetProperties
  std::uint32_t num_args = 0;
  std::uint32_t spill_mem_size = 0;    // bytes of register spill per thread: 0 is what we want
  std::uint32_t private_mem_size = 0;
  std::uint32_t local_mem_size = 0;    // static shared local memory
  std::uint32_t max_subgroup_size = 0;
  std::uint32_t required_subgroup_size = 0;
  std::uint32_t max_num_subgroups = 0;
  std::uint32_t required_group_size = 0;  // x; 0 when the kernel does not require one
  std::uint32_t preferred_group_size_multiple = 0;  // ze_kernel_preferred_group_size_properties_t (API 1.2+)
  // zeKernelSuggestGroupSize for a large 1-D range (kSuggestionGlobalSize work-items)
  std::uint32_t suggested_group_size = 0;
};
inline constexpr std::uint32_t kSuggestionGlobalSize = 1u << 24;

struct KernelEntry {
  Kernel handle;
  KernelInfo info;
};

struct BuiltModule {
  const core::EmbeddedModule* source = nullptr;
  Module handle;
  ze_module_format_t format = ZE_MODULE_FORMAT_IL_SPIRV;
  std::string native_target;  // the target of the native binary used, when format is native ("cached")
  bool from_binary_cache = false;  // loaded from the persistent cache (core/binary_cache.hpp)
  std::string build_log;      // as the driver left it (often empty)
  double build_seconds = 0;
  std::uint32_t kernel_count = 0;  // zeModuleGetKernelNames
};

class ModuleCache {
 public:
  explicit ModuleCache(const Device& device);
  ModuleCache(const ModuleCache&) = delete;
  ModuleCache& operator=(const ModuleCache&) = delete;
  ~ModuleCache();

  // The module built for this device (built now if it was not). Throws UnsupportedError when the device lacks
  // a feature the module requires (before the driver sees it), and BackendError with the build log (and any
  // SPIR-V version mismatch) when the driver's compiler fails.
  const BuiltModule& module(const core::EmbeddedModule& module);
  // The kernel (created now if it was not), its module built on the way.
  KernelEntry& kernel(const core::EmbeddedModule& module, std::string_view entry_point);

  // zeKernelSuggestGroupSize for a 1-D range of `global_size` work-items.
  std::uint32_t suggest_group_size(const KernelEntry& kernel, std::uint64_t global_size) const;

  std::size_t built_module_count() const;
  std::size_t created_kernel_count() const;
  double total_build_seconds() const;

 private:
  const BuiltModule& build_locked(const core::EmbeddedModule& module);
  core::BinaryCacheKey binary_cache_key(const core::EmbeddedModule& module) const;
  // zeModuleCreate from a native binary; false (logged) when the driver refuses it.
  bool create_native(const core::EmbeddedModule& module, std::span<const std::uint8_t> binary, BuiltModule& built) const;
  void store_native_binary(const core::BinaryCacheKey& key, const BuiltModule& built) const;

  const Device& device_;
  core::BinaryCache binary_cache_;
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<BuiltModule>, std::less<>> modules_;
  std::map<std::string, std::unique_ptr<KernelEntry>, std::less<>> kernels_;  // by "module/entry"; before modules at destruction
};

}  // namespace zr::level_zero
