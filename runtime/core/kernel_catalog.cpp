#include "kernel_catalog.hpp"

namespace zr::core {

std::optional<KernelLocation> find_kernel(std::string_view variant, Op op, DataType type) {
  for (const auto& module : embedded_modules()) {
    if (module.variant != variant) continue;
    for (const auto& kernel : module.kernels) {
      if (!kernel.per_type && kernel.op == op && kernel.type == type) return KernelLocation{&module, &kernel};
    }
  }
  return std::nullopt;
}

std::optional<KernelLocation> find_kernel(std::string_view variant, DataType type) {
  for (const auto& module : embedded_modules()) {
    if (module.variant != variant) continue;
    for (const auto& kernel : module.kernels) {
      if (kernel.per_type && kernel.type == type) return KernelLocation{&module, &kernel};
    }
  }
  return std::nullopt;
}

const EmbeddedModule* find_module(std::string_view variant, std::string_view type_class) {
  for (const auto& module : embedded_modules())
    if (module.variant == variant && module.type_class == type_class) return &module;
  return nullptr;
}

}  // namespace zr::core
