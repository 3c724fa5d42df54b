#pragma once
// Builds each embedded kernel module at most once per (context, device) and hands out its kernels.
// A module is loaded as SPIR-V IL when the device takes it, else as SPIR 1.2 bitcode (PoCL), else from the
// embedded OpenCL C source (NVIDIA); ZE_REDUCE_OPENCL_INGESTION=spirv|spir|source forces one. The device's
// binary of each built program is kept in the persistent binary cache (core/binary_cache.hpp) and loaded from
// there by later processes.
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "binary_cache.hpp"
#include "capabilities.hpp"
#include "kernel_catalog.hpp"
#include "opencl/device.hpp"
#include "opencl/handles.hpp"

namespace zr::opencl {

enum class Ingestion { spirv, spir12, source };

std::string_view name(Ingestion ingestion);  // "spirv", "spir", "source"
std::optional<Ingestion> parse_ingestion(std::string_view text);
// ZE_REDUCE_OPENCL_INGESTION, or nullopt when unset; throws zr::InvalidArgumentError on any other value.
std::optional<Ingestion> ingestion_from_env();

// The way to load modules on a device: the forced one (throws zr::UnsupportedError naming the device when the
// device does not accept it), else SPIR-V, SPIR 1.2, OpenCL C source in that order of preference.
Ingestion choose_ingestion(const core::Capabilities& caps, std::optional<Ingestion> forced);

class ProgramCache {
 public:
  ProgramCache(cl_context context, const Device& device, const core::Capabilities& caps,
               std::optional<Ingestion> forced);
  ProgramCache(const ProgramCache&) = delete;
  ProgramCache& operator=(const ProgramCache&) = delete;

  // The built program of a module (built on first use; a build failure throws zr::BackendError whose message
  // holds the build log, and is not cached). Thread-safe.
  cl_program program(const core::EmbeddedModule& module);
  // A kernel of that module, created once per entry point. Thread-safe; setting its arguments is not (see
  // Context::launch_mutex).
  cl_kernel kernel(const core::EmbeddedModule& module, std::string_view entry_point);

  Ingestion ingestion() const { return ingestion_; }
  std::size_t built_count() const;
  // Of those, the programs made from a binary an earlier process kept (core/binary_cache.hpp).
  std::size_t loaded_from_binary_cache_count() const;

 private:
  struct Entry {
    ProgramHandle program;
    std::map<std::string, KernelHandle, std::less<>> kernels;
  };
  Entry& entry(const core::EmbeddedModule& module);  // with mutex_ held
  ProgramHandle build(const core::EmbeddedModule& module) const;  // with mutex_ held
  core::BinaryCacheKey binary_cache_key(const core::EmbeddedModule& module, Ingestion ingestion,
                                        const std::string& build_options) const;
  std::optional<ProgramHandle> load_cached(const core::BinaryCacheKey& key) const;  // with mutex_ held

  cl_context context_;
  const Device& device_;
  const core::Capabilities& caps_;
  const bool nvidia_options_;  // the compiler takes NVIDIA's build options (vendor_build_options.hpp)
  Ingestion ingestion_;
  core::BinaryCache binary_cache_;
  mutable std::mutex mutex_;
  mutable std::size_t loaded_from_binary_cache_ = 0;
  std::map<const core::EmbeddedModule*, Entry> entries_;
};

}  // namespace zr::opencl
