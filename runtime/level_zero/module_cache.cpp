#include "level_zero/module_cache.hpp"

#include <chrono>
#include <cstdio>
#include <vector>

#include "level_zero/device.hpp"
#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

namespace {

std::string read_build_log(ze_module_build_log_handle_t log) {
  if (!log) return {};
  std::size_t size = 0;
  if (ZR_ZE_RESULT(zeModuleBuildLogGetString, log, &size, nullptr) != ZE_RESULT_SUCCESS)
    return "(the build log could not be read)";
  std::string text(size, '\0');
  if (size > 0 && ZR_ZE_RESULT(zeModuleBuildLogGetString, log, &size, text.data()) != ZE_RESULT_SUCCESS)
    return "(the build log could not be read)";
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
  return text;
}

// SPIR-V's version word is 0x00MMmm00; Level Zero's ZE_MAKE_VERSION(MM, mm) is MM << 16 | mm.
std::uint32_t spirv_version_of(const core::EmbeddedModule& module) {
  if (module.spirv.size() < 2) return 0;
  const std::uint32_t word = module.spirv[1];
  const std::uint32_t major = (word >> 16) & 0xff;
  const std::uint32_t minor = (word >> 8) & 0xff;
  return ZE_MAKE_VERSION(major, minor);  // the macro does not parenthesise its arguments
}

std::string version_text(std::uint32_t version) {
  return std::to_string(ZE_MAJOR_VERSION(version)) + "." + std::to_string(ZE_MINOR_VERSION(version));
}

}  // namespace

ModuleCache::ModuleCache(const Device& device) : device_(device), binary_cache_(core::BinaryCache::from_environment()) {}

core::BinaryCacheKey ModuleCache::binary_cache_key(const core::EmbeddedModule& source) const {
  const auto& d = device_.description();
  char ids[64];
  std::snprintf(ids, sizeof ids, "vendor=0x%04x;device=0x%04x;driver=0x%08x;api=0x%08x", d.vendor_id, d.device_id,
                d.driver_version, static_cast<unsigned>(d.driver_api_version));
  return {.backend = "level_zero",
          // Not the driver's UUID: Intel's holds the high half of the nanosecond clock when the driver started, so
          // a process started 4.3 s later found no entry (level_zero_nohw's race test); its build is driver_version.
          .builder = "name=" + d.name + ";" + ids + ";input=spirv",
          .build_options = "",
          .module_name = std::string(source.name),
          .compiler_input = core::as_bytes_of(source.spirv)};
}

bool ModuleCache::create_native(const core::EmbeddedModule& source, std::span<const std::uint8_t> binary,
                                BuiltModule& built) const {
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_NATIVE;
  desc.inputSize = binary.size();
  desc.pInputModule = binary.data();
  ze_module_handle_t handle = nullptr;
  ze_module_build_log_handle_t raw_log = nullptr;
  const ze_result_t result = ZR_ZE_RESULT(zeModuleCreate, device_.context(), device_.handle(), &desc, &handle, &raw_log);
  ModuleBuildLog log(raw_log);
  if (result != ZE_RESULT_SUCCESS) {
    logger().debug("device '{}' refused a native binary of module {} ({}); building it from SPIR-V", device_.name(),
                   source.name, result_name(result));
    return false;
  }
  built.handle = Module(handle);
  built.format = ZE_MODULE_FORMAT_NATIVE;
  built.build_log = read_build_log(log.get());
  return true;
}

void ModuleCache::store_native_binary(const core::BinaryCacheKey& key, const BuiltModule& built) const {
  if (!binary_cache_.enabled()) return;
  std::size_t size = 0;
  ze_result_t result = ZR_ZE_RESULT(zeModuleGetNativeBinary, built.handle.get(), &size, nullptr);
  std::vector<std::uint8_t> binary(result == ZE_RESULT_SUCCESS ? size : 0);
  if (!binary.empty()) result = ZR_ZE_RESULT(zeModuleGetNativeBinary, built.handle.get(), &size, binary.data());
  if (result != ZE_RESULT_SUCCESS || binary.empty()) {
    logger().debug("device '{}' gave no native binary of module {} ({}): not cached", device_.name(), key.module_name,
                   result_name(result));
    return;
  }
  binary.resize(size);
  binary_cache_.store(key, binary);
}

ModuleCache::~ModuleCache() {
  kernels_.clear();  // kernels before the modules they come from
  modules_.clear();
}

const BuiltModule& ModuleCache::module(const core::EmbeddedModule& module) {
  std::lock_guard lock(mutex_);
  return build_locked(module);
}

const BuiltModule& ModuleCache::build_locked(const core::EmbeddedModule& source) {
  if (auto found = modules_.find(source.name); found != modules_.end()) return *found->second;

  const auto& caps = device_.capabilities();
  const std::string& device_name = device_.name();
  if (!caps.can_load(source)) {
    throw UnsupportedError("module " + std::string(source.name) + " needs " +
                           core::to_string(source.required.missing_from(caps.features())) + ", which device '" +
                           device_name + "' lacks");
  }
  const std::uint32_t needed = spirv_version_of(source);
  if (needed == 0) throw Error("embedded module " + std::string(source.name) + " holds no SPIR-V");
  // A newer SPIR-V than the device promises is still handed to the driver (Intel's compiler of driver 22.43 reads
  // SPIR-V 1.4 while it reports 1.2), but named in the error should the build fail.
  std::string version_note;
  if (needed > device_.description().spirv_version) {
    version_note = " (the module is SPIR-V " + version_text(needed) + "; the device reports SPIR-V up to " +
                   version_text(device_.description().spirv_version) + ")";
    logger().debug("module {} is SPIR-V {} but device '{}' reports SPIR-V up to {}; building it anyway", source.name,
                   version_text(needed), device_name, version_text(device_.description().spirv_version));
  }

  auto built = std::make_unique<BuiltModule>();
  built->source = &source;
  const auto started = std::chrono::steady_clock::now();

  // A native binary for the device's target first (embedded with ZR_EMBED_NATIVE_BINARIES): no compiler at
  // run time. The driver checks that it fits the device; anything it refuses is built from SPIR-V instead.
  if (const auto target = native_target(device_.description())) {
    for (const auto& native : source.native_binaries) {
      if (native.target != *target || native.bytes.empty()) continue;
      if (create_native(source, native.bytes, *built)) built->native_target = std::string(native.target);
      break;
    }
  }
  // Then this device's binary from an earlier process (core/binary_cache.hpp).
  const core::BinaryCacheKey cache_key = binary_cache_key(source);
  if (!built->handle && binary_cache_.enabled()) {
    if (const auto cached = binary_cache_.load(cache_key)) {
      if (create_native(source, *cached, *built)) {
        built->native_target = "cached";
        built->from_binary_cache = true;
      } else {
        binary_cache_.discard(cache_key);
      }
    }
  }

  if (!built->handle) {
    ze_module_desc_t desc{};
    desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = source.spirv.size_bytes();
    desc.pInputModule = reinterpret_cast<const std::uint8_t*>(source.spirv.data());
    desc.pBuildFlags = "";
    ze_module_handle_t handle = nullptr;
    ze_module_build_log_handle_t raw_log = nullptr;
    const ze_result_t result =
        ZR_ZE_RESULT(zeModuleCreate, device_.context(), device_.handle(), &desc, &handle, &raw_log);
    ModuleBuildLog log(raw_log);
    built->build_log = read_build_log(log.get());
    if (result != ZE_RESULT_SUCCESS) {
      // Intel's compiler repeats its message per kernel: the error keeps the start, the debug log all of it.
      constexpr std::size_t kKept = 2000;
      std::string shown = built->build_log.substr(0, kKept);
      if (built->build_log.size() > kKept)
        shown += "\n... (" + std::to_string(built->build_log.size() - kKept) + " more bytes; ZE_REDUCE_LOG=debug shows them)";
      logger().debug("build log of module {} on '{}':\n{}", source.name, device_name, built->build_log);
      check(result, "zeModuleCreate", device_name,
            "building module " + std::string(source.name) + " from SPIR-V" + version_note +
                (shown.empty() ? std::string(" (empty build log)") : ": build log:\n" + shown));
    }
    built->handle = Module(handle);
    built->format = ZE_MODULE_FORMAT_IL_SPIRV;
    store_native_binary(cache_key, *built);
  }
  built->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ZR_ZE_CHECK(device_name, zeModuleGetKernelNames, built->handle.get(), &built->kernel_count, nullptr);
  logger().debug("built module {} for '{}' from {} in {:.3f} s ({} kernels)", source.name, device_name,
                 built->from_binary_cache                  ? "the binary cache"
                 : built->format == ZE_MODULE_FORMAT_NATIVE ? built->native_target + " native binary"
                                                            : "SPIR-V",
                 built->build_seconds, built->kernel_count);
  if (!built->build_log.empty()) logger().debug("build log of {}: {}", source.name, built->build_log);
  const auto& stored = *built;
  modules_.emplace(std::string(source.name), std::move(built));
  return stored;
}

KernelEntry& ModuleCache::kernel(const core::EmbeddedModule& source, std::string_view entry_point) {
  std::lock_guard lock(mutex_);
  // By module and entry point: modules linked from one template (user operators) share its entry points.
  const std::string key = std::string(source.name) + "/" + std::string(entry_point);
  if (auto found = kernels_.find(key); found != kernels_.end()) return *found->second;
  const BuiltModule& built = build_locked(source);
  const std::string& device_name = device_.name();
  const std::string name(entry_point);

  ze_kernel_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  desc.pKernelName = name.c_str();
  ze_kernel_handle_t handle = nullptr;
  check(ZR_ZE_RESULT(zeKernelCreate, built.handle.get(), &desc, &handle), "zeKernelCreate", device_name,
        "kernel " + name + " of module " + std::string(source.name));
  auto entry = std::make_unique<KernelEntry>();
  entry->handle = Kernel(handle);
  entry->info.entry_point = name;

  ze_kernel_preferred_group_size_properties_t preferred{};
  preferred.stype = ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES;
  ze_kernel_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  if (device_.description().driver_api_version >= ZE_API_VERSION_1_2) properties.pNext = &preferred;
  ZR_ZE_CHECK(device_name, zeKernelGetProperties, handle, &properties);
  auto& info = entry->info;
  info.num_args = properties.numKernelArgs;
  info.spill_mem_size = properties.spillMemSize;
  info.private_mem_size = properties.privateMemSize;
  info.local_mem_size = properties.localMemSize;
  info.max_subgroup_size = properties.maxSubgroupSize;
  info.required_subgroup_size = properties.requiredSubgroupSize;
  info.max_num_subgroups = properties.maxNumSubgroups;
  info.required_group_size = properties.requiredGroupSizeX;
  info.preferred_group_size_multiple = preferred.preferredMultiple;
  std::uint32_t x = 0, y = 0, z = 0;
  ZR_ZE_CHECK(device_name, zeKernelSuggestGroupSize, handle, kSuggestionGlobalSize, 1, 1, &x, &y, &z);
  info.suggested_group_size = x;
  if (info.spill_mem_size != 0) {
    logger().warn("kernel {} spills {} bytes per thread on '{}'", name, info.spill_mem_size, device_name);
  }
  auto& stored = *entry;
  kernels_.emplace(key, std::move(entry));
  return stored;
}

std::uint32_t ModuleCache::suggest_group_size(const KernelEntry& kernel, std::uint64_t global_size) const {
  if (global_size > UINT32_MAX) global_size = UINT32_MAX;
  std::uint32_t x = 0, y = 0, z = 0;
  ZR_ZE_CHECK(device_.name(), zeKernelSuggestGroupSize, kernel.handle.get(), static_cast<std::uint32_t>(global_size), 1,
              1, &x, &y, &z);
  return x;
}

std::size_t ModuleCache::built_module_count() const {
  std::lock_guard lock(mutex_);
  return modules_.size();
}

std::size_t ModuleCache::created_kernel_count() const {
  std::lock_guard lock(mutex_);
  return kernels_.size();
}

double ModuleCache::total_build_seconds() const {
  std::lock_guard lock(mutex_);
  double total = 0;
  for (const auto& [name, module] : modules_) total += module->build_seconds;
  return total;
}

}  // namespace zr::level_zero
