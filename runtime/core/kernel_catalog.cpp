#include "kernel_catalog.hpp"

#include <functional>
#include <tuple>
#include <unordered_map>

namespace zr::core {

namespace {

// Every embedded kernel by (variant, op, type, per-type): a strategy check asks for several kernels on every
// reduction that no cached plan answers (the host path's), and a scan of every module's kernels by name cost
// about 1,700 instructions a call (issue 42).
struct KernelKey {
  std::string_view variant;
  Op op;
  DataType type;
  bool per_type;
  bool operator==(const KernelKey&) const = default;
};

struct KernelKeyHash {
  std::size_t operator()(const KernelKey& key) const noexcept {
    const std::size_t small = (static_cast<std::size_t>(key.op) << 16) ^ (static_cast<std::size_t>(key.type) << 1) ^
                              static_cast<std::size_t>(key.per_type);
    return std::hash<std::string_view>{}(key.variant) ^ (small * 0x9e3779b97f4a7c15ull);
  }
};

const std::unordered_map<KernelKey, KernelLocation, KernelKeyHash>& kernel_index() {
  static const auto index = [] {
    std::unordered_map<KernelKey, KernelLocation, KernelKeyHash> built;
    for (const auto& module : embedded_modules()) {
      for (const auto& kernel : module.kernels) {
        // Per-type kernels carry Op::plus; they are keyed apart so that neither shadows the other. The first
        // module that holds a key wins, as the scan this replaces found it.
        const KernelKey key{module.variant, kernel.per_type ? Op::plus : kernel.op, kernel.type, kernel.per_type};
        built.try_emplace(key, KernelLocation{&module, &kernel});
      }
    }
    return built;
  }();
  return index;
}

std::optional<KernelLocation> lookup(const KernelKey& key) {
  const auto& index = kernel_index();
  const auto found = index.find(key);
  if (found == index.end()) return std::nullopt;
  return found->second;
}

}  // namespace

std::optional<KernelLocation> find_kernel(std::string_view variant, Op op, DataType type) {
  return lookup({variant, op, type, false});
}

std::optional<KernelLocation> find_kernel(std::string_view variant, DataType type) {
  return lookup({variant, Op::plus, type, true});
}

const EmbeddedModule* find_module(std::string_view variant, std::string_view type_class) {
  for (const auto& module : embedded_modules())
    if (module.variant == variant && module.type_class == type_class) return &module;
  return nullptr;
}

}  // namespace zr::core
