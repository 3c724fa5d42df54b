#pragma once
// The library's logger: silent unless ZE_REDUCE_LOG=trace|debug|info|warn|error|critical|off says otherwise
// (read once, at first use). Writes to stderr. Shared by the core and every backend.
#include <spdlog/logger.h>

namespace zr {

spdlog::logger& logger();

}  // namespace zr
