#pragma once
// A one-line progress report on standard error for runs longer than about a second: silent when standard error
// is not a terminal, or when asked to be (-q, --json).
#include <chrono>
#include <string>

namespace zr::cli {

class Progress {
 public:
  explicit Progress(bool wanted);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();  // clears the line

  // Shows `what` once a second has passed since construction (then on every call, at most 10 times a second).
  void update(const std::string& what);

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace zr::cli
