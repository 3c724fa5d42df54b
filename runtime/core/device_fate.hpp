#pragma once
// Whether a device is still usable, shared by every backend: the first fault (a lost device, a missed
// deadline) is kept, and every later call on that device rethrows that same error instead of reaching a
// driver that can no longer run anything. Thread-safe.
#include <exception>
#include <mutex>

namespace zr::core {

class DeviceFate {
 public:
  // Keeps `error` unless an earlier fault is kept already, then throws the kept one.
  [[noreturn]] void fail(std::exception_ptr error) const;
  void throw_if_failed() const;
  bool failed() const;

 private:
  mutable std::mutex mutex_;
  mutable std::exception_ptr first_fault_;
};

}  // namespace zr::core
