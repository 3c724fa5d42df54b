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

}  // namespace zr::core
