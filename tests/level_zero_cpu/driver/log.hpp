#pragma once
// The test driver's log: spdlog, warnings and errors by default, ZRT_LOG=debug|info|warn|error|off for more or less.
#include <spdlog/spdlog.h>

namespace zrt {
spdlog::logger& logger();
}
