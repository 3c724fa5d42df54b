#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace zr::cli {

Progress::Progress(bool wanted)
    : enabled_(wanted && isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

void Progress::update(const std::string& what) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1) || (shown_ && now - last_ < std::chrono::milliseconds(100))) return;
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[Kze_reduce: %s", what.c_str());
  std::fflush(stderr);
}

}  // namespace zr::cli
