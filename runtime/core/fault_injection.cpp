#include "fault_injection.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>

#include "log.hpp"

namespace zr::core {

namespace {
std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}
}  // namespace

std::optional<InjectedFault> parse_fault_injection(std::string_view text) {
  if (text.empty()) return std::nullopt;
  InjectedFault fault;
  if (const auto at = text.find('@'); at != std::string_view::npos) {
    fault.device_text = lowercase(text.substr(at + 1));
    text = text.substr(0, at);
  }
  if (text == "lost_context") {  // no strategy: it strikes before any work
    fault.kind = FaultKind::lost_context;
    return fault;
  }
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    const std::string_view kind = text.substr(0, colon);
    if (kind == "wrong_result") fault.kind = FaultKind::wrong_result;
    else if (kind == "device_lost") fault.kind = FaultKind::device_lost;
    else if (kind == "hang") fault.kind = FaultKind::hang;
    else if (kind == "lost_call") fault.kind = FaultKind::lost_call;
    else {
      logger().warn(
          "ZE_REDUCE_FAULT_INJECTION: unknown kind '{}' (wrong_result, device_lost, hang, lost_call, lost_context): ignored",
          kind);
      return std::nullopt;
    }
    text = text.substr(colon + 1);
  }
  for (Strategy s : kAllStrategies) {
    if (name(s) == text) {
      fault.strategy = s;
      return fault;
    }
  }
  logger().warn("ZE_REDUCE_FAULT_INJECTION: unknown strategy '{}': ignored", text);
  return std::nullopt;
}

const std::optional<InjectedFault>& injected_fault() {
  static const std::optional<InjectedFault> fault = [] {
    const char* text = std::getenv("ZE_REDUCE_FAULT_INJECTION");
    return text ? parse_fault_injection(text) : std::nullopt;
  }();
  return fault;
}

bool injected(FaultKind kind, Strategy strategy, std::string_view device) {
  const auto& fault = injected_fault();
  if (!fault || fault->kind != kind || fault->strategy != strategy) return false;
  return fault->device_text.empty() || lowercase(device).find(fault->device_text) != std::string::npos;
}

bool injected_lost_context(std::string_view device) {
  const auto& fault = injected_fault();
  if (!fault || fault->kind != FaultKind::lost_context) return false;
  if (!fault->device_text.empty() && lowercase(device).find(fault->device_text) == std::string::npos) return false;
  static std::atomic<bool> struck{false};
  return !struck.exchange(true);
}

}  // namespace zr::core
