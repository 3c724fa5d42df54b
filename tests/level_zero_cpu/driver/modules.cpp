// Modules, build logs and kernels. A SPIR-V module is read with SPIRV-Tools (kernel signatures, capabilities),
// checked against the profile (a tgllp refuses fp64 code as Intel's compiler does), and built for the OpenCL
// device: as IL on Intel's runtime, as SPIR 1.2 bitcode translated by llvm-spirv-15 on PoCL.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>

#include "ddi_support.hpp"
#include "faults.hpp"
#include "log.hpp"
#include "objects.hpp"
#include "program_cache.hpp"
#include "spirv_reader.hpp"

namespace zrt {

namespace {

// What the profile's device (an Intel GPU) would refuse to build: the message names the missing feature.
std::string profile_refusal(const SpirvModule& m, const Profile& p) {
  auto uses = [&](std::uint32_t c) { return m.capabilities.count(c) != 0; };
  if (uses(capability::Float64) && !p.fp64) return "error: Double type is not supported on this platform (" + p.name + ")";
  if (uses(capability::Float16) && !p.fp16) return "error: half type is not supported on this platform (" + p.name + ")";
  if (uses(capability::Int64Atomics) && !p.int64_atomics) return "error: 64-bit atomics are not supported (" + p.name + ")";
  struct Gate {
    std::uint32_t cap;
    bool ok;
    const char* what;
  };
  const Gate gates[] = {
      {capability::AtomicFloat32AddEXT, p.f32_atomics.global_add, "fp32 atomic add"},
      {capability::AtomicFloat32MinMaxEXT, p.f32_atomics.global_min_max, "fp32 atomic min/max"},
      {capability::AtomicFloat16AddEXT, p.f16_atomics.global_add, "fp16 atomic add"},
      {capability::AtomicFloat16MinMaxEXT, p.f16_atomics.global_min_max, "fp16 atomic min/max"},
      {capability::AtomicFloat64AddEXT, p.f64_atomics.global_add, "fp64 atomic add"},
      {capability::AtomicFloat64MinMaxEXT, p.f64_atomics.global_min_max, "fp64 atomic min/max"},
  };
  for (const auto& g : gates)
    if (uses(g.cap) && !g.ok) return std::string("error: ") + g.what + " is not supported on this platform (" + p.name + ")";
  return {};
}

// llvm-spirv-15 -r: SPIR-V to SPIR 1.2 bitcode PoCL 3.1 builds. Returns the bitcode, or empty with `log` set.
std::vector<unsigned char> to_spir12(std::span<const std::uint32_t> words, std::string& log) {
  namespace fs = std::filesystem;
  char dir_template[] = "/tmp/zrt-module-XXXXXX";
  if (!mkdtemp(dir_template)) {
    log = "mkdtemp failed";
    return {};
  }
  const fs::path dir = dir_template;
  const fs::path in = dir / "m.spv", out = dir / "m.bc", err = dir / "err.txt";
  std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(words.data()), words.size_bytes());
  const char* tool = std::getenv("ZRT_LLVM_SPIRV");
  const std::string command = std::string(tool ? tool : "llvm-spirv-15") + " -r --spirv-target-env=CL1.2 " + in.string() +
                              " -o " + out.string() + " 2> " + err.string();
  const int status = std::system(command.c_str());
  std::vector<unsigned char> bitcode;
  if (status != 0) {
    std::ifstream e(err);
    log = "llvm-spirv -r failed (" + command + "): " + std::string(std::istreambuf_iterator<char>(e), {});
  } else {
    std::ifstream b(out, std::ios::binary);
    bitcode.assign(std::istreambuf_iterator<char>(b), {});
  }
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return bitcode;
}

std::string program_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string text(size, '\0');
  if (size > 0) clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, text.data(), nullptr);
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
  return text;
}

// What zeModuleGetNativeBinary hands out: the profile and backing device it was built for (a real driver refuses
// another target's binary), the module's SPIR-V (kernel signatures are read from it again) and the OpenCL
// program binary. Little-endian u64 sizes before each block.
constexpr char kNativeMagic[8] = {'Z', 'R', 'T', 'N', 'A', 'T', 'V', '1'};

std::string native_target_of(const Device& d) {
  const auto& backing = state()->backing;
  return d.profile.name + "|" + backing.platform_name + "|" + backing.device_name + "|" + backing.driver_version;
}

void put_block(std::vector<unsigned char>& out, const void* data, std::size_t size) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(static_cast<std::uint64_t>(size) >> (8 * i)));
  const auto* bytes = static_cast<const unsigned char*>(data);
  out.insert(out.end(), bytes, bytes + size);
}

// The blocks of a native binary, or nullopt when it is not one of ours or is cut short.
std::optional<std::vector<std::span<const unsigned char>>> native_blocks(std::span<const unsigned char> bytes) {
  if (bytes.size() < sizeof kNativeMagic || std::memcmp(bytes.data(), kNativeMagic, sizeof kNativeMagic) != 0)
    return std::nullopt;
  std::vector<std::span<const unsigned char>> blocks;
  std::size_t at = sizeof kNativeMagic;
  for (int b = 0; b < 3; ++b) {
    if (bytes.size() - at < 8) return std::nullopt;
    std::uint64_t size = 0;
    for (int i = 0; i < 8; ++i) size |= std::uint64_t{bytes[at + i]} << (8 * i);
    at += 8;
    if (size > bytes.size() - at) return std::nullopt;
    blocks.push_back(bytes.subspan(at, size));
    at += size;
  }
  if (at != bytes.size()) return std::nullopt;
  return blocks;
}

ze_result_t ZE_APICALL module_create(ze_context_handle_t context, ze_device_handle_t device, const ze_module_desc_t* desc,
                                     ze_module_handle_t* out, ze_module_build_log_handle_t* log_out) {
  auto* c = object_of<Context>(context);
  auto* d = object_of<Device>(device);
  if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out || !desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (log_out) *log_out = nullptr;
  auto fail = [&](ze_result_t result, std::string text) {
    logger().debug("zeModuleCreate fails with {}: {}", static_cast<int>(result), text);
    if (log_out) *log_out = handle_of<ze_module_build_log_handle_t>(make_handle_object<BuildLog>(std::move(text)));
    return result;
  };
  if (d->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV && desc->format != ZE_MODULE_FORMAT_NATIVE)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;

  // A native binary: ours, for this profile and backing device, else refused as a real driver refuses another
  // target's binary (Intel GPU binaries included: the test driver runs none).
  std::span<const unsigned char> native_program;
  std::span<const std::uint32_t> words;
  std::vector<std::uint32_t> aligned_words;
  if (desc->format == ZE_MODULE_FORMAT_NATIVE) {
    const auto blocks = native_blocks({static_cast<const unsigned char*>(desc->pInputModule), desc->inputSize});
    if (!blocks)
      return fail(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
                  "error: not a native binary of the ze-reduce test driver (it runs no Intel GPU binaries)");
    const auto& target = (*blocks)[0];
    const std::string expected = native_target_of(*d);
    if (std::string(target.begin(), target.end()) != expected)
      return fail(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, "error: the native binary was built for " +
                                                             std::string(target.begin(), target.end()) + ", not " + expected);
    const auto& spirv = (*blocks)[1];
    if (spirv.size() % 4 != 0) return fail(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, "error: a torn native binary");
    aligned_words.resize(spirv.size() / 4);
    std::memcpy(aligned_words.data(), spirv.data(), spirv.size());
    words = aligned_words;
    native_program = (*blocks)[2];
  } else {
    if (desc->inputSize % 4 != 0 || desc->inputSize < 20)
      return fail(ZE_RESULT_ERROR_INVALID_SIZE, "error: " + std::to_string(desc->inputSize) + " bytes are not a SPIR-V module");
    words = {reinterpret_cast<const std::uint32_t*>(desc->pInputModule), desc->inputSize / 4};
  }
  SpirvModule parsed = read_spirv(words);
  if (!parsed.problem.empty()) return fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, "error: " + parsed.problem);
  if (const std::string refusal = profile_refusal(parsed, d->profile); !refusal.empty())
    return fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, refusal);
  // A lost device refuses a module whatever its format, with no build log (Level Zero: any call may be the first
  // to learn of the loss).
  if (fault_fires(FaultKind::module_lost, d->index, parsed.kernel_order)) {
    d->lost = true;
    return ZE_RESULT_ERROR_DEVICE_LOST;
  }
  // A build failure is the compiler's: a native binary is not compiled again, so only SPIR-V builds fail.
  if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV && fault_fires(FaultKind::module_build, d->index, parsed.kernel_order)) {
    std::string names;
    for (const auto& k : parsed.kernel_order) names += (names.empty() ? "" : ", ") + k;
    return fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                "error: injected build failure (ZRT_FAULT=module_build) of the module with kernels " + names);
  }

  const auto& backing = state()->backing;
  cl_int error = CL_SUCCESS;
  cl_program program = nullptr;
  std::string build_options = desc->pBuildFlags && desc->format == ZE_MODULE_FORMAT_IL_SPIRV ? desc->pBuildFlags : "";
  std::string cache_key;
  if (!native_program.empty()) {
    const unsigned char* binary = native_program.data();
    const std::size_t size = native_program.size();
    program = clCreateProgramWithBinary(backing.context, 1, &backing.device, &size, &binary, nullptr, &error);
  } else if (backing.takes_il) {
    cache_key = program_cache_key(words, build_options, backing);
    const auto cached = load_program_binary(cache_key);
    if (!cached.empty()) {
      const unsigned char* binary = cached.data();
      const std::size_t size = cached.size();
      program = clCreateProgramWithBinary(backing.context, 1, &backing.device, &size, &binary, nullptr, &error);
      if (error == CL_SUCCESS) cache_key.clear();  // nothing to store after the build
      else program = nullptr;
    }
    if (!program) program = clCreateProgramWithIL(backing.context, desc->pInputModule, desc->inputSize, &error);
  } else {
    std::string log;
    const auto bitcode = to_spir12(words, log);
    if (bitcode.empty()) return fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, log);
    const unsigned char* binary = bitcode.data();
    const std::size_t size = bitcode.size();
    program = clCreateProgramWithBinary(backing.context, 1, &backing.device, &size, &binary, nullptr, &error);
    build_options += " -x spir -spir-std=1.2";
  }
  if (error != CL_SUCCESS) {
    return fail(native_program.empty() ? ZE_RESULT_ERROR_MODULE_BUILD_FAILURE : ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
                "error: the OpenCL device refused the module (" + std::to_string(error) + ")");
  }
  error = clBuildProgram(program, 1, &backing.device, build_options.c_str(), nullptr, nullptr);
  const std::string log = program_log(program, backing.device);
  if (error != CL_SUCCESS) {
    clReleaseProgram(program);
    return fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, "error: clBuildProgram failed (" + std::to_string(error) + "): " + log);
  }
  if (!cache_key.empty()) store_program_binary(cache_key, program);
  auto* m = make_handle_object<Module>(c, d);
  m->program = program;
  m->spirv.assign(words.begin(), words.end());
  m->kernels = std::move(parsed.kernels);
  m->kernel_order = std::move(parsed.kernel_order);
  if (log_out) *log_out = handle_of<ze_module_build_log_handle_t>(make_handle_object<BuildLog>(log));
  *out = handle_of<ze_module_handle_t>(m);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_native_binary(ze_module_handle_t handle, std::size_t* size, std::uint8_t* binary) {
  auto* m = object_of<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::size_t program_size = 0;
  if (clGetProgramInfo(m->program, CL_PROGRAM_BINARY_SIZES, sizeof program_size, &program_size, nullptr) != CL_SUCCESS ||
      program_size == 0)
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  std::vector<unsigned char> program_binary(program_size);
  unsigned char* pointer = program_binary.data();
  if (clGetProgramInfo(m->program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr) != CL_SUCCESS)
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  std::vector<unsigned char> whole(kNativeMagic, kNativeMagic + sizeof kNativeMagic);
  const std::string target = native_target_of(*m->device);
  put_block(whole, target.data(), target.size());
  put_block(whole, m->spirv.data(), m->spirv.size() * 4);
  put_block(whole, program_binary.data(), program_binary.size());
  if (!binary) {
    *size = whole.size();
    return ZE_RESULT_SUCCESS;
  }
  if (*size < whole.size()) return ZE_RESULT_ERROR_INVALID_SIZE;
  std::memcpy(binary, whole.data(), whole.size());
  *size = whole.size();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_destroy(ze_module_handle_t handle) {
  auto* m = object_of<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<Module> owned(m);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_kernel_names(ze_module_handle_t handle, std::uint32_t* count, const char** names) {
  auto* m = object_of<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto total = static_cast<std::uint32_t>(m->kernel_order.size());
  const std::uint32_t filled = entries_to_fill(count, names != nullptr, total);
  for (std::uint32_t i = 0; i < filled; ++i) names[i] = m->kernel_order[i].c_str();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_destroy(ze_module_build_log_handle_t handle) {
  auto* log = object_of<BuildLog>(handle);
  if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<BuildLog> owned(log);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_get_string(ze_module_build_log_handle_t handle, std::size_t* size, char* text) {
  auto* log = object_of<BuildLog>(handle);
  if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*size == 0 || !text) {
    *size = log->text.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  const std::size_t n = std::min(*size - 1, log->text.size());
  std::memcpy(text, log->text.data(), n);
  text[n] = '\0';
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_create(ze_module_handle_t module, const ze_kernel_desc_t* desc, ze_kernel_handle_t* out) {
  auto* m = object_of<Module>(module);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out || !desc->pKernelName) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto found = m->kernels.find(desc->pKernelName);
  if (found == m->kernels.end()) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(m->program, desc->pKernelName, &error);
  if (error != CL_SUCCESS) {
    logger().error("clCreateKernel({}) failed with {}", desc->pKernelName, error);
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  }
  auto* k = make_handle_object<Kernel>(m, desc->pKernelName);
  k->kernel = kernel;
  k->signature = &found->second;
  k->args.resize(found->second.args.size());
  for (int i = 0; i < 3; ++i) k->group_size[i] = found->second.required_group_size[i];
  *out = handle_of<ze_kernel_handle_t>(k);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_destroy(ze_kernel_handle_t handle) {
  auto* k = object_of<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<Kernel> owned(k);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_group_size(ze_kernel_handle_t handle, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  auto* k = object_of<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& profile = k->module->device->profile;
  if (x == 0 || y == 0 || z == 0 || std::uint64_t{x} * y * z > profile.max_group_size)
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  const auto* required = k->signature->required_group_size;
  if (required[0] != 0 && (x != required[0] || y != required[1] || z != required[2]))
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  k->group_size[0] = x;
  k->group_size[1] = y;
  k->group_size[2] = z;
  return ZE_RESULT_SUCCESS;
}

std::uint32_t largest_dividing_power_of_two(std::uint32_t global, std::uint32_t limit) {
  std::uint32_t size = 1;
  while (size * 2 <= limit && global % (size * 2) == 0) size *= 2;
  return size;
}

ze_result_t ZE_APICALL kernel_suggest_group_size(ze_kernel_handle_t handle, std::uint32_t gx, std::uint32_t gy,
                                                 std::uint32_t gz, std::uint32_t* x, std::uint32_t* y, std::uint32_t* z) {
  auto* k = object_of<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!x || !y || !z) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::size_t kernel_limit = 0;
  clGetKernelWorkGroupInfo(k->kernel, state()->backing.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernel_limit),
                           &kernel_limit, nullptr);
  const auto limit = static_cast<std::uint32_t>(
      std::min<std::size_t>(k->module->device->profile.max_group_size, kernel_limit ? kernel_limit : 1));
  *x = largest_dividing_power_of_two(gx, limit);
  *y = largest_dividing_power_of_two(gy, limit / *x);
  *z = largest_dividing_power_of_two(gz, limit / (*x * *y));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_argument_value(ze_kernel_handle_t handle, std::uint32_t index, std::size_t size,
                                                 const void* value) {
  auto* k = object_of<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (index >= k->args.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  switch (k->signature->args[index]) {
    case ArgKind::global_pointer:
      if (size != sizeof(void*)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      // As Intel's driver: a null pointer is a null argument value; a value that holds null names no allocation.
      if (value && *static_cast<void* const*>(value) == nullptr) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      k->args[index] = value ? *static_cast<void* const*>(value) : static_cast<void*>(nullptr);
      return ZE_RESULT_SUCCESS;
    case ArgKind::local_pointer:
      if (value != nullptr || size == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      k->args[index] = size;
      return ZE_RESULT_SUCCESS;
    case ArgKind::sampler_or_image:
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    case ArgKind::value: {
      if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      // The OpenCL runtime knows the parameter's size: let it check this one now, as Level Zero does.
      std::lock_guard lock(k->enqueue_mutex);
      if (clSetKernelArg(k->kernel, index, size, value) != CL_SUCCESS) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      const auto* bytes = static_cast<const unsigned char*>(value);
      k->args[index] = std::vector<unsigned char>(bytes, bytes + size);
      return ZE_RESULT_SUCCESS;
    }
  }
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t ZE_APICALL kernel_get_properties(ze_kernel_handle_t handle, ze_kernel_properties_t* p) {
  auto* k = object_of<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto& backing = state()->backing;
  const auto& profile = k->module->device->profile;
  const auto& sig = *k->signature;
  p->numKernelArgs = static_cast<std::uint32_t>(sig.args.size());
  p->requiredGroupSizeX = sig.required_group_size[0];
  p->requiredGroupSizeY = sig.required_group_size[1];
  p->requiredGroupSizeZ = sig.required_group_size[2];
  p->requiredNumSubGroups = 0;
  p->requiredSubgroupSize = sig.required_subgroup_size;
  // The sub-group size the CPU compiler chose (Intel's runtime), within the profile's sizes.
  std::size_t chosen = 0;
  if (!backing.subgroup_sizes.empty()) {
    const std::size_t local = profile.max_group_size;
    clGetKernelSubGroupInfo(k->kernel, backing.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), &local,
                            sizeof(chosen), &chosen, nullptr);
  }
  p->maxSubgroupSize = chosen ? static_cast<std::uint32_t>(chosen)
                              : (profile.subgroup_sizes.empty() ? 1 : profile.subgroup_sizes.back());
  p->maxNumSubgroups = profile.max_group_size / std::max<std::uint32_t>(p->maxSubgroupSize, 1);
  cl_ulong local_bytes = 0, private_bytes = 0;
  clGetKernelWorkGroupInfo(k->kernel, backing.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local_bytes), &local_bytes, nullptr);
  clGetKernelWorkGroupInfo(k->kernel, backing.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(private_bytes), &private_bytes, nullptr);
  p->localMemSize = static_cast<std::uint32_t>(local_bytes);
  p->privateMemSize = static_cast<std::uint32_t>(private_bytes);
  p->spillMemSize = 0;
  std::memset(&p->uuid, 0, sizeof(p->uuid));
  for (auto* next = static_cast<ze_base_properties_t*>(p->pNext); next; next = static_cast<ze_base_properties_t*>(next->pNext)) {
    if (next->stype != ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES) continue;
    std::size_t multiple = 1;
    clGetKernelWorkGroupInfo(k->kernel, backing.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple),
                             &multiple, nullptr);
    reinterpret_cast<ze_kernel_preferred_group_size_properties_t*>(next)->preferredMultiple =
        static_cast<std::uint32_t>(multiple);
  }
  return ZE_RESULT_SUCCESS;
}

}  // namespace

Module::~Module() {
  if (program) clReleaseProgram(program);
}

Kernel::~Kernel() {
  if (kernel) clReleaseKernel(kernel);
}

void install(ze_module_dditable_t& t) {
  t.pfnCreate = module_create;
  t.pfnDestroy = module_destroy;
  t.pfnGetKernelNames = module_get_kernel_names;
  t.pfnGetNativeBinary = module_get_native_binary;
}

void install(ze_module_build_log_dditable_t& t) {
  t.pfnDestroy = build_log_destroy;
  t.pfnGetString = build_log_get_string;
}

void install(ze_kernel_dditable_t& t) {
  t.pfnCreate = kernel_create;
  t.pfnDestroy = kernel_destroy;
  t.pfnSetGroupSize = kernel_set_group_size;
  t.pfnSuggestGroupSize = kernel_suggest_group_size;
  t.pfnSetArgumentValue = kernel_set_argument_value;
  t.pfnGetProperties = kernel_get_properties;
}

}  // namespace zrt
