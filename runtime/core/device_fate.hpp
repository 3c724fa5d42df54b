#pragma once
// Whether a device is still usable, shared by every backend: the first fault (a lost device, a missed
// deadline) is kept, and every later call on that device rethrows that same error instead of reaching a
// driver that can no longer run anything. Thread-safe.
#include <atomic>
#include <exception>
#include <mutex>
#include <string_view>
#include <utility>

#include "zereduce/errors.hpp"

namespace zr::core {

// What a user can do about a lost device: the end of every zr::DeviceLostError's message, on every backend.
inline constexpr char kLostDeviceAdvice[] =
    "The driver cannot run anything more on it: ze-reduce refuses further work on this device in this process "
    "(other devices keep working). Restart the process to use the device again; if it happens again, run "
    "ze_reduce_conformance on this device and report its JSON report";

class DeviceFate {
 public:
  // Keeps `error` unless an earlier fault is kept already, then throws the kept one.
  [[noreturn]] void fail(std::exception_ptr error) const;
  void throw_if_failed() const;
  bool failed() const;

  // Runs `work` unless the device has failed already (then throws that error). A zr::DeviceLostError from
  // `work` becomes the device's fate, whichever driver call first learnt of the loss (a module build or a flush
  // as much as a wait), so that every later call reports that one error instead of each failing in its own way.
  template <typename Work>
  decltype(auto) keep_if_lost(std::string_view device, Work&& work) const {
    throw_if_failed();
    try {
      return std::forward<Work>(work)();
    } catch (const DeviceLostError&) {
      fail_with_current(device);
    }
  }

 private:
  // fail() with the exception being handled, logged as the device's end.
  [[noreturn]] void fail_with_current(std::string_view device) const;

  mutable std::mutex mutex_;
  mutable std::exception_ptr first_fault_;
  // Set once first_fault_ is: every call on a device checks its fate, and a healthy device's check takes no lock.
  mutable std::atomic<bool> failed_{false};
};

}  // namespace zr::core
