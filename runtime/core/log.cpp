#include "log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace zr {

namespace {
spdlog::level::level_enum level_from_env() {
  const char* text = std::getenv("ZE_REDUCE_LOG");
  if (!text || !*text) return spdlog::level::off;
  const std::string_view value = text;
  if (value == "warn" || value == "warning") return spdlog::level::warn;
  if (value == "error" || value == "err") return spdlog::level::err;
  const auto level = spdlog::level::from_str(std::string(value));  // trace, debug, info, critical, off
  // from_str answers "off" for names it does not know; say so once rather than stay silently off.
  if (level == spdlog::level::off && value != "off") {
    std::fprintf(stderr, "ze_reduce: ignoring ZE_REDUCE_LOG=%s (expected trace, debug, info, warn, error or off)\n",
                 text);
  }
  return level;
}
}  // namespace

spdlog::logger& logger() {
  static const std::shared_ptr<spdlog::logger> instance = [] {
    auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    auto made = std::make_shared<spdlog::logger>("ze_reduce", std::move(sink));
    made->set_pattern("[ze_reduce %l] %v");
    made->set_level(level_from_env());
    return made;
  }();
  return *instance;
}

}  // namespace zr
