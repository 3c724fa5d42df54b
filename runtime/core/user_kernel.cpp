#include "user_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

#include "log.hpp"
#include "spirv_inspect.hpp"
#include "spirv_link.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {

// kepilogue.cl's source begins with the reducer header, which the kernel's source holds already.
constexpr std::string_view kEpilogueDefinitionsMarker = "typedef int zr_epilogue_definitions_follow;";

std::uint32_t exported_constant(const UserKernel& kernel, const SpirvSummary& summary, const std::string& function) {
  const auto exported = summary.exported_functions.find(function);
  if (exported == summary.exported_functions.end())
    throw InvalidArgumentError(kernel.label() + ": its SPIR-V exports no function " + function +
                               " (a kernel with reducers is written with ZR_KERNEL of <zereduce/reducer_cl.h> and "
                               "compiled by zereduce_add_kernel())");
  const auto value = summary.returned_constants.find(exported->second);
  if (value == summary.returned_constants.end())
    throw InvalidArgumentError(kernel.label() + ": " + function + " does not return a constant");
  return value->second;
}

std::shared_ptr<UserKernel> read_kernel(const UserKernelSource& source) {
  auto kernel = std::make_shared<UserKernel>();
  kernel->module_name = std::string(source.module_name);
  kernel->entry_point = std::string(source.entry_point);
  if (source.spirv.empty()) throw InvalidArgumentError(kernel->label() + ": its SPIR-V is empty");
  SpirvSummary summary;
  try {
    summary = inspect_spirv(source.spirv);
  } catch (const std::exception& e) {
    throw InvalidArgumentError(kernel->label() + ": its SPIR-V cannot be read: " + e.what());
  }
  if (std::find(summary.entry_points.begin(), summary.entry_points.end(), kernel->entry_point) ==
      summary.entry_points.end()) {
    std::string names;
    for (const auto& e : summary.entry_points) names += (names.empty() ? "" : ", ") + e;
    throw InvalidArgumentError(kernel->label() + ": the module has no such kernel (its kernels: " +
                               (names.empty() ? "none" : names) + ")");
  }
  kernel->spirv.assign(source.spirv.begin(), source.spirv.end());
  kernel->opencl_c_source = std::string(source.opencl_c_source);
  const std::string prefix = "zr_kernel_" + kernel->entry_point + "_";
  const std::uint32_t version = exported_constant(*kernel, summary, prefix + "interface");
  if (version != kKernelInterfaceVersion)
    throw InvalidArgumentError(kernel->label() + " was written for interface version " + std::to_string(version) +
                               " of reducer_cl.h; this ze-reduce links version " +
                               std::to_string(kKernelInterfaceVersion) + ": rebuild it with this ze-reduce's header");
  kernel->parameters = exported_constant(*kernel, summary, prefix + "parameters");
  const std::uint32_t count = exported_constant(*kernel, summary, prefix + "reducers");
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t code = exported_constant(*kernel, summary, prefix + "reducer_" + std::to_string(i));
    const std::uint32_t bytes = exported_constant(*kernel, summary, prefix + "reducer_" + std::to_string(i) + "_bytes");
    const auto reducer = reducer_of_code(code, bytes);
    if (!reducer)
      throw InvalidArgumentError(kernel->label() + ": reducer " + std::to_string(i) + " has code " +
                                 std::to_string(code) + " and " + std::to_string(bytes) +
                                 "-byte values, which this ze-reduce does not know (a reducer of your own has at most " +
                                 std::to_string(kMaxUserReducerBytes) + " bytes)");
    kernel->reducers.push_back(*reducer);
  }
  kernel->required = spirv_visible(summary.features);
  static std::atomic<std::uint64_t> serials{0};
  kernel->serial = ++serials;
  logger().debug("{}: {} parameters, {} reducers, needs {}", kernel->label(), kernel->parameters, count,
                 to_string(kernel->required));
  return kernel;
}

struct Registry {
  std::mutex mutex;
  std::map<std::tuple<const std::uint32_t*, std::size_t, std::string>, std::shared_ptr<const UserKernel>> kernels;
  // By the module's words (address and count) and the epilogue.
  std::map<std::tuple<const std::uint32_t*, std::size_t, const EmbeddedModule*>, std::unique_ptr<LinkedModule>> modules;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

std::optional<KernelReducer> reducer_of_code(std::uint32_t code, std::uint32_t bytes) {
  if (code == kUserReducerCode) {
    if (bytes == 0 || bytes > kMaxUserReducerBytes) return std::nullopt;
    return KernelReducer{Op::user, DataType::u8, false, bytes};
  }
  KernelReducer reducer;
  reducer.bytes = bytes;
  reducer.span = code >= kSpanReducerCode;
  if (reducer.span) code -= kSpanReducerCode;
  const std::uint32_t op = code / 16, type = code % 16;
  if (op > static_cast<std::uint32_t>(Op::logical_or) || type > static_cast<std::uint32_t>(DataType::boolean))
    return std::nullopt;
  reducer.op = static_cast<Op>(op);
  reducer.type = static_cast<DataType>(type);
  if (!is_supported(reducer.op, reducer.type) || bytes != size_of(reducer.type)) return std::nullopt;
  return reducer;
}

std::string describe(const KernelReducer& reducer) {
  if (reducer.op == Op::user) return "a reducer of its own (" + std::to_string(reducer.bytes) + "-byte values)";
  return std::string(reducer.span ? "span " : "") + std::string(name(reducer.op)) + " of " +
         std::string(name(reducer.type));
}

std::shared_ptr<const UserKernel> load_user_kernel(const UserKernelSource& source) {
  Registry& r = registry();
  const std::tuple key{source.spirv.data(), source.spirv.size(), std::string(source.entry_point)};
  {
    std::lock_guard lock(r.mutex);
    const auto found = r.kernels.find(key);
    if (found != r.kernels.end() && found->second->module_name == source.module_name &&
        std::equal(source.spirv.begin(), source.spirv.end(), found->second->spirv.begin()))
      return found->second;
  }
  std::shared_ptr<const UserKernel> kernel = read_kernel(source);
  std::lock_guard lock(r.mutex);
  r.kernels[key] = kernel;
  return kernel;
}

const EmbeddedModule& kernel_epilogue(const UserKernel& kernel, const Capabilities& caps) {
  const char* variant = caps.work_group_collectives ? "kepiwg" : "kepilogue";
  const EmbeddedModule* module = find_module(variant, kernel.required.has(Feature::fp64) ? "fp64" : "base");
  if (!module) throw UnsupportedError("ze-reduce was built without the kernel epilogue " + std::string(variant));
  return *module;
}

const EmbeddedModule& linked_kernel_module(const UserKernel& kernel, const Capabilities& caps) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const EmbeddedModule& epilogue = kernel_epilogue(kernel, caps);
  // Kernels of one module share its linked form: found by the words the application gave (the kernel's key).
  std::shared_ptr<const UserKernel> owner;
  std::tuple<const std::uint32_t*, std::size_t, const EmbeddedModule*> key{nullptr, 0, &epilogue};
  for (const auto& [kernel_key, cached] : r.kernels)
    if (cached.get() == &kernel) {
      owner = cached;
      key = {std::get<0>(kernel_key), std::get<1>(kernel_key), &epilogue};
    }
  if (!owner) throw InvalidArgumentError(kernel.label() + " was not loaded with load_user_kernel");
  const auto found = r.modules.find(key);
  if (found != r.modules.end()) return found->second->module;
  const std::string_view epilogue_source = epilogue.opencl_c_source;
  const auto marker = epilogue_source.find(kEpilogueDefinitionsMarker);
  if (marker == std::string_view::npos)
    throw Error("ze-reduce's " + std::string(epilogue.name) + " source has no definitions marker");
  std::string source = kernel.opencl_c_source + "\n" +
                       std::string(epilogue_source.substr(marker + kEpilogueDefinitionsMarker.size()));
  auto linked = link_with_embedded(epilogue, kernel.spirv, "module " + kernel.module_name + " of kernels",
                                   kernel.module_name + "+" + std::string(epilogue.name) + "#" + std::to_string(kernel.serial),
                                   std::move(source), kernel.required, owner);
  return r.modules.emplace(key, std::move(linked)).first->second->module;
}

}  // namespace zr::core
