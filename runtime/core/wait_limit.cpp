#include "wait_limit.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "log.hpp"

namespace zr::core {

namespace {
thread_local std::optional<std::chrono::nanoseconds> scoped_limit;

std::chrono::nanoseconds seconds_from_environment(const char* variable, double default_seconds) {
  double seconds = default_seconds;
  if (const char* text = std::getenv(variable); text && *text) {
    char* end = nullptr;
    const double parsed = std::strtod(text, &end);
    if (end && *end == '\0' && parsed > 0 && parsed < 1e6) {
      seconds = parsed;
    } else {
      logger().warn("{}='{}' is not a positive number of seconds: using {} s", variable, text, default_seconds);
    }
  }
  return std::chrono::nanoseconds(static_cast<std::int64_t>(seconds * 1e9));
}
}  // namespace

std::chrono::nanoseconds configured_wait_limit() {
  static const std::chrono::nanoseconds limit = seconds_from_environment("ZE_REDUCE_TIMEOUT_S", 300);
  return limit;
}

std::chrono::nanoseconds probe_wait_limit() {
  static const std::chrono::nanoseconds limit = seconds_from_environment("ZE_REDUCE_PROBE_TIMEOUT_S", 10);
  return std::min(limit, configured_wait_limit());
}

std::chrono::nanoseconds wait_limit() {
  return scoped_limit ? std::min(*scoped_limit, configured_wait_limit()) : configured_wait_limit();
}

ScopedWaitLimit::ScopedWaitLimit(std::chrono::nanoseconds limit) : previous_(scoped_limit) {
  scoped_limit = previous_ ? std::min(*previous_, limit) : limit;
}

ScopedWaitLimit::~ScopedWaitLimit() { scoped_limit = previous_; }

std::string seconds_text(std::chrono::nanoseconds duration) {
  std::ostringstream text;
  text << std::chrono::duration<double>(duration).count() << " s";
  return text.str();
}

}  // namespace zr::core
