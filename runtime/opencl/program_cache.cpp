#include "opencl/program_cache.hpp"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "opencl/error.hpp"
#include "opencl/vendor_build_options.hpp"
#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

namespace {
constexpr const char* kIngestionVariable = "ZE_REDUCE_OPENCL_INGESTION";

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS) {
    return "(the build log could not be read)";
  }
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS) {
    return "(the build log could not be read)";
  }
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log.empty() ? "(empty build log)" : log;
}

// The device binary of a built program (PTX on NVIDIA, an ELF on Intel's CPU runtime); empty when the
// platform gives none.
std::vector<std::uint8_t> program_binary(cl_program program) {
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || size == 0)
    return {};
  std::vector<std::uint8_t> bytes(size);
  unsigned char* data = bytes.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr) != CL_SUCCESS) return {};
  return bytes;
}

// ZE_REDUCE_OPENCL_DUMP_DIR=<dir>: each built program's device binary (PTX on NVIDIA) lands in
// <dir>/<module>.bin, to see what the device's compiler made of a kernel (registers, private memory).
// A diagnostic: failures are logged, never thrown.
void dump_binary(cl_program program, const std::string& module_name) {
  const char* dir = std::getenv("ZE_REDUCE_OPENCL_DUMP_DIR");
  if (!dir || !*dir) return;
  const auto bytes = program_binary(program);
  if (bytes.empty()) {
    logger().warn("opencl: the binary of module {} could not be read for ZE_REDUCE_OPENCL_DUMP_DIR", module_name);
    return;
  }
  std::string file = module_name;  // linked modules are named "<template>+<operator>#<n>": keep names plain
  for (char& c : file)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  const std::string path = std::string(dir) + "/" + file + ".bin";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  logger().info("opencl: wrote the binary of module {} to {}", module_name, path);
}
// ZE_REDUCE_OPENCL_BUILD_OPTIONS=<options>: appended to every module's clBuildProgram options (and so to its binary
// cache key), to measure what a vendor's compiler option does (e.g. NVIDIA's -cl-nv-maxrregcount=N) without a
// rebuild. A diagnostic, as the dump above.
std::string with_extra_build_options(std::string options) {
  const char* extra = std::getenv("ZE_REDUCE_OPENCL_BUILD_OPTIONS");
  if (!extra || !*extra) return options;
  return options.empty() ? std::string(extra) : options + " " + extra;
}

// NVIDIA's own OpenCL platform (named so in every report of ours), or a compiler that says it takes NVIDIA's options.
bool takes_nvidia_options(const Device& device) {
  return device.platform_name == "NVIDIA CUDA" || query_device_info(device).has_extension("cl_nv_compiler_options");
}

// PoCL keeps a persistent kernel cache of its own and starts faster from it than from the binaries it exports
// (a first reduction in a new process: 0.07 s against 0.12 s on the 2-core machine): it is not cached twice
// unless ZE_REDUCE_CACHE=on asks for it, or its own cache is off (POCL_KERNEL_CACHE=0).
core::BinaryCache binary_cache_for(const Device& device) {
  auto settings = core::BinaryCacheSettings::from_environment();
  const char* pocl_cache = std::getenv("POCL_KERNEL_CACHE");
  const bool pocl_caches = device.platform_name.find("Portable Computing Language") != std::string::npos &&
                           !(pocl_cache && std::string_view(pocl_cache) == "0");
  if (pocl_caches && !settings.explicitly_on) settings.folder.clear();
  return core::BinaryCache(std::move(settings));
}
}  // namespace

std::string_view name(Ingestion ingestion) {
  switch (ingestion) {
    case Ingestion::spirv: return "spirv";
    case Ingestion::spir12: return "spir";
    case Ingestion::source: return "source";
  }
  return "source";
}

std::optional<Ingestion> parse_ingestion(std::string_view text) {
  for (Ingestion ingestion : {Ingestion::spirv, Ingestion::spir12, Ingestion::source}) {
    if (name(ingestion) == text) return ingestion;
  }
  return std::nullopt;
}

std::optional<Ingestion> ingestion_from_env() {
  const char* text = std::getenv(kIngestionVariable);
  if (!text || !*text) return std::nullopt;
  if (auto ingestion = parse_ingestion(text)) return ingestion;
  throw InvalidArgumentError(std::string(kIngestionVariable) + "=" + text + " is not one of spirv, spir, source");
}

Ingestion choose_ingestion(const core::Capabilities& caps, std::optional<Ingestion> forced) {
  if (forced) {
    const bool accepted = *forced == Ingestion::spirv    ? caps.accepts_spirv
                          : *forced == Ingestion::spir12 ? caps.accepts_spir12
                                                         : caps.accepts_opencl_c;
    if (!accepted) {
      static constexpr const char* kWhat[] = {"SPIR-V IL", "SPIR 1.2 bitcode", "OpenCL C source"};
      throw UnsupportedError("opencl: device '" + caps.device_name + "' does not accept " +
                             kWhat[static_cast<int>(*forced)] + " (asked for with ingestion '" +
                             std::string(name(*forced)) + "')");
    }
    return *forced;
  }
  if (caps.accepts_spirv) return Ingestion::spirv;
  if (caps.accepts_spir12) return Ingestion::spir12;
  if (caps.accepts_opencl_c) return Ingestion::source;
  throw UnsupportedError("opencl: device '" + caps.device_name +
                         "' accepts neither SPIR-V IL, SPIR 1.2 nor OpenCL C source (no compiler available)");
}

ProgramCache::ProgramCache(cl_context context, const Device& device, const core::Capabilities& caps,
                           std::optional<Ingestion> forced)
    : context_(context),
      device_(device),
      caps_(caps),
      nvidia_options_(takes_nvidia_options(device)),
      ingestion_(choose_ingestion(caps, forced)),
      binary_cache_(binary_cache_for(device)) {
  logger().debug("opencl: device '{}' loads kernels as {}", device_.name, name(ingestion_));
}

std::size_t ProgramCache::built_count() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::size_t ProgramCache::loaded_from_binary_cache_count() const {
  std::lock_guard lock(mutex_);
  return loaded_from_binary_cache_;
}

ProgramHandle ProgramCache::build(const core::EmbeddedModule& module) const {
  const auto started = std::chrono::steady_clock::now();
  const std::string module_name(module.name);
  cl_device_id device = device_.id;
  cl_int code = CL_SUCCESS;
  ProgramHandle program;
  auto missing = [&](const char* form) {
    return UnsupportedError("opencl: module " + module_name + " has no embedded " + form + " to load on device '" +
                            device_.name + "'");
  };
  // A module linked at run time (a user-defined operator, core/user_operator.hpp) has SPIR-V and source but no
  // SPIR 1.2 bitcode: devices that load SPIR (PoCL) build its source.
  const Ingestion ingestion = ingestion_ == Ingestion::spir12 && module.spir12_bitcode.empty() && caps_.accepts_opencl_c
                                  ? Ingestion::source
                                  : ingestion_;
  std::string build_options = ingestion == Ingestion::spir12   ? "-x spir -spir-std=1.2"
                              : ingestion == Ingestion::source ? "-cl-std=" + std::string(module.cl_std)
                                                               : "";
  if (const std::string vendor = vendor_build_options(caps_, nvidia_options_, module_name); !vendor.empty())
    build_options += (build_options.empty() ? "" : " ") + vendor;
  build_options = with_extra_build_options(std::move(build_options));
  const core::BinaryCacheKey cache_key = binary_cache_key(module, ingestion, build_options);
  if (auto cached = load_cached(cache_key)) return std::move(*cached);
  switch (ingestion) {
    case Ingestion::spirv: {
      if (module.spirv.empty()) throw missing("SPIR-V");
      program = ProgramHandle(clCreateProgramWithIL(context_, module.spirv.data(), module.spirv.size_bytes(), &code));
      check(code, "clCreateProgramWithIL", device_.name, "module " + module_name);
      break;
    }
    case Ingestion::spir12: {
      if (module.spir12_bitcode.empty()) throw missing("SPIR 1.2 bitcode");
      const std::size_t length = module.spir12_bitcode.size();
      const unsigned char* bytes = module.spir12_bitcode.data();
      cl_int binary_status = CL_SUCCESS;
      program = ProgramHandle(clCreateProgramWithBinary(context_, 1, &device, &length, &bytes, &binary_status, &code));
      check(code, "clCreateProgramWithBinary", device_.name, "module " + module_name);
      check(binary_status, "clCreateProgramWithBinary", device_.name, "module " + module_name + " (binary status)");
      break;
    }
    case Ingestion::source: {
      if (module.opencl_c_source.empty()) throw missing("OpenCL C source");
      const char* text = module.opencl_c_source.data();
      const std::size_t length = module.opencl_c_source.size();
      program = ProgramHandle(clCreateProgramWithSource(context_, 1, &text, &length, &code));
      check(code, "clCreateProgramWithSource", device_.name, "module " + module_name);
      break;
    }
  }
  code = clBuildProgram(program.get(), 1, &device, build_options.c_str(), nullptr, nullptr);
  if (code != CL_SUCCESS) {
    throw_error("clBuildProgram", code, device_.name,
                "module " + module_name + " loaded as " + std::string(name(ingestion)) + " with options '" + build_options +
                    "'; build log:\n" + build_log(program.get(), device));
  }
  logger().debug("opencl: built module {} as {} for '{}' in {:.1f} ms", module_name, name(ingestion), device_.name,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
  dump_binary(program.get(), module_name);
  if (binary_cache_.enabled()) binary_cache_.store(cache_key, program_binary(program.get()));
  return program;
}

core::BinaryCacheKey ProgramCache::binary_cache_key(const core::EmbeddedModule& module, Ingestion ingestion,
                                                    const std::string& build_options) const {
  const std::span<const std::uint8_t> input = ingestion == Ingestion::spirv    ? core::as_bytes_of(module.spirv)
                                              : ingestion == Ingestion::spir12 ? module.spir12_bitcode
                                                                               : core::as_bytes_of(module.opencl_c_source);
  return {.backend = "opencl",
          .builder = "platform=" + device_.platform_name + ";platform_version=" + device_.platform_version +
                     ";device=" + device_.name + ";device_version=" + device_.version + ";driver=" +
                     device_.driver_version + ";input=" + std::string(name(ingestion)),
          .build_options = build_options,
          .module_name = std::string(module.name),
          .compiler_input = input};
}

std::optional<ProgramHandle> ProgramCache::load_cached(const core::BinaryCacheKey& key) const {
  if (!binary_cache_.enabled()) return std::nullopt;
  const auto binary = binary_cache_.load(key);
  if (!binary) return std::nullopt;
  const auto started = std::chrono::steady_clock::now();
  cl_device_id device = device_.id;
  const std::size_t length = binary->size();
  const unsigned char* bytes = binary->data();
  cl_int binary_status = CL_SUCCESS;
  cl_int code = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithBinary(context_, 1, &device, &length, &bytes, &binary_status, &code));
  if (code == CL_SUCCESS && binary_status == CL_SUCCESS)
    code = clBuildProgram(program.get(), 1, &device, key.build_options.c_str(), nullptr, nullptr);
  if (code != CL_SUCCESS || binary_status != CL_SUCCESS) {
    logger().debug("opencl: device '{}' refused the cached binary of module {} ({}): rebuilding it", device_.name,
                   key.module_name, code != CL_SUCCESS ? code : binary_status);
    binary_cache_.discard(key);
    return std::nullopt;
  }
  ++loaded_from_binary_cache_;
  dump_binary(program.get(), key.module_name);
  logger().debug("opencl: loaded module {} for '{}' from the binary cache in {:.1f} ms", key.module_name, device_.name,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
  return program;
}

ProgramCache::Entry& ProgramCache::entry(const core::EmbeddedModule& module) {
  auto found = entries_.find(&module);
  if (found != entries_.end()) return found->second;
  Entry made{build(module), {}};
  return entries_.emplace(&module, std::move(made)).first->second;
}

cl_program ProgramCache::program(const core::EmbeddedModule& module) {
  std::lock_guard lock(mutex_);
  return entry(module).program.get();
}

cl_kernel ProgramCache::kernel(const core::EmbeddedModule& module, std::string_view entry_point) {
  std::lock_guard lock(mutex_);
  Entry& e = entry(module);
  auto found = e.kernels.find(entry_point);
  if (found != e.kernels.end()) return found->second.get();
  const std::string entry_name(entry_point);
  cl_int code = CL_SUCCESS;
  KernelHandle kernel(clCreateKernel(e.program.get(), entry_name.c_str(), &code));
  check(code, "clCreateKernel", device_.name, "kernel " + entry_name + " of module " + std::string(module.name));
  return e.kernels.emplace(entry_name, std::move(kernel)).first->second.get();
}

}  // namespace zr::opencl
