#include "faults.hpp"

#include <atomic>
#include <cstdlib>
#include <sstream>

#include "log.hpp"

namespace zrt {

namespace {

struct FaultConfig {
  FaultKind kind = FaultKind::none;
  std::uint32_t device = 0;
  std::uint64_t after = 0;
  std::string kernel;
  std::uint64_t min_bytes = 0;
  std::atomic<std::uint64_t> seen{0};
};

FaultConfig& config() {
  static FaultConfig instance;
  return instance;
}

}  // namespace

bool configure_fault(std::string& problem) {
  const char* text = std::getenv("ZRT_FAULT");
  if (!text || !*text) return true;
  std::stringstream parts(text);
  std::string part;
  auto& c = config();
  bool first = true;
  while (std::getline(parts, part, ',')) {
    if (first) {
      first = false;
      if (part == "alloc_device") c.kind = FaultKind::alloc_device;
      else if (part == "module_build") c.kind = FaultKind::module_build;
      else if (part == "module_lost") c.kind = FaultKind::module_lost;
      else if (part == "device_lost") c.kind = FaultKind::device_lost;
      else if (part == "fence_hang") c.kind = FaultKind::fence_hang;
      else {
        problem = "ZRT_FAULT: unknown kind '" + part + "' (alloc_device, module_build, module_lost, device_lost, fence_hang)";
        return false;
      }
      continue;
    }
    const auto eq = part.find('=');
    const std::string key = part.substr(0, eq), value = eq == std::string::npos ? "" : part.substr(eq + 1);
    try {
      if (key == "device") c.device = static_cast<std::uint32_t>(std::stoul(value));
      else if (key == "after") c.after = std::stoull(value);
      else if (key == "kernel") c.kernel = value;
      else if (key == "min_bytes") c.min_bytes = std::stoull(value);
      else throw std::invalid_argument(key);
    } catch (const std::exception&) {
      problem = "ZRT_FAULT: cannot read '" + part + "' (device=<index>, after=<n>, kernel=<text>, min_bytes=<n>)";
      return false;
    }
  }
  logger().info("fault injection: {}", text);
  return true;
}

bool fault_fires(FaultKind kind, std::uint32_t device, const std::vector<std::string>& kernels, std::uint64_t bytes) {
  auto& c = config();
  if (c.kind != kind || c.device != device || bytes < c.min_bytes) return false;
  if (!c.kernel.empty()) {
    bool involved = false;
    for (const auto& k : kernels) involved = involved || k.find(c.kernel) != std::string::npos;
    if (!involved) return false;
  }
  return c.seen.fetch_add(1) == c.after;
}

}  // namespace zrt
