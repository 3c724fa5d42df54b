#include "wait_limit.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "log.hpp"

namespace zr::core {

namespace {
thread_local std::optional<std::chrono::nanoseconds> scoped_limit;
}  // namespace

std::chrono::nanoseconds configured_wait_limit() {
  static const std::chrono::nanoseconds limit = [] {
    constexpr double kDefaultSeconds = 300;
    double seconds = kDefaultSeconds;
    if (const char* text = std::getenv("ZE_REDUCE_TIMEOUT_S"); text && *text) {
      char* end = nullptr;
      const double parsed = std::strtod(text, &end);
      if (end && *end == '\0' && parsed > 0 && parsed < 1e6) {
        seconds = parsed;
      } else {
        logger().warn("ZE_REDUCE_TIMEOUT_S='{}' is not a positive number of seconds: using {} s", text,
                      kDefaultSeconds);
      }
    }
    return std::chrono::nanoseconds(static_cast<std::int64_t>(seconds * 1e9));
  }();
  return limit;
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
