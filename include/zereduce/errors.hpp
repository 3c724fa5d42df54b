#pragma once
// The one exception hierarchy of ze-reduce. Every error says what went wrong in words a user can act on.
#include <stdexcept>
#include <string>

#include "zereduce/export.hpp"

namespace zr {

class ZR_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The request is wrong whatever the device: a null pointer, a size that overflows, an op not defined for the
// type, a value that does not fit.
class ZR_API InvalidArgumentError : public Error {
 public:
  using Error::Error;
};

// The device (or ze-reduce) cannot do this: a missing capability (fp64, fp16, sub-groups...), a strategy the
// device does not allow, an input larger than the device can address. The message names the device.
class ZR_API UnsupportedError : public Error {
 public:
  using Error::Error;
};

// A driver call failed. Carries the backend, the call, the result code and its name, and the device.
class ZR_API BackendError : public Error {
 public:
  BackendError(std::string backend, std::string call, long long code, std::string code_name, std::string device,
               std::string detail = {})
      : Error(format(backend, call, code, code_name, device, detail)),
        backend_(std::move(backend)),
        call_(std::move(call)),
        code_(code),
        code_name_(std::move(code_name)),
        device_(std::move(device)) {}

  const std::string& backend() const { return backend_; }
  const std::string& call() const { return call_; }
  long long code() const { return code_; }
  const std::string& code_name() const { return code_name_; }
  const std::string& device() const { return device_; }

 protected:
  struct Message {
    std::string text;
  };
  // For subclasses whose message does not read as "call failed with code".
  BackendError(Message message, std::string backend, std::string call, long long code, std::string code_name,
               std::string device)
      : Error(std::move(message.text)),
        backend_(std::move(backend)),
        call_(std::move(call)),
        code_(code),
        code_name_(std::move(code_name)),
        device_(std::move(device)) {}

 private:
  static std::string format(const std::string& backend, const std::string& call, long long code,
                            const std::string& code_name, const std::string& device, const std::string& detail) {
    std::string text = backend + ": " + call + " failed with " + code_name + " (" + std::to_string(code) + ")";
    if (!device.empty()) text += " on device '" + device + "'";
    if (!detail.empty()) text += ": " + detail;
    return text;
  }
  std::string backend_, call_;
  long long code_;
  std::string code_name_, device_;
};

// The device stopped working: a kernel faulted the GPU, the driver reset it, or its context died (OpenCL
// CL_INVALID_COMMAND_QUEUE, CL_OUT_OF_RESOURCES or an unknown error when work completes; Level Zero
// ZE_RESULT_ERROR_DEVICE_LOST). The message names the device, the kernels in flight and their strategy.
// What follows: the driver's context is gone for this process, so ze-reduce refuses every later call on that
// device with this same error (other devices keep working). Restart the process to use the device again.
class ZR_API DeviceLostError : public BackendError {
 public:
  using BackendError::BackendError;
};

// A wait on the device passed its deadline (ZE_REDUCE_TIMEOUT_S seconds, default 300): the GPU or its driver
// hangs. The message names the device, what was waited for and the seconds. Work still queued there may
// never finish, so, as after a lost device, every later call on that device throws this same error.
class ZR_API TimeoutError : public BackendError {
 public:
  // `call` is the wait that ran out (e.g. "zeFenceHostSynchronize"), `what` what it waited for.
  TimeoutError(std::string backend, std::string call, std::string device, const std::string& what, double seconds)
      : BackendError(Message{backend + ": device '" + device + "' did not finish " + what + " within " +
                             format_seconds(seconds) +
                             " (ZE_REDUCE_TIMEOUT_S): the device or its driver hangs; ze-reduce takes no more work "
                             "on this device in this process (other devices keep working)"},
                     backend, std::move(call), 0, "timeout", device),
        seconds_(seconds) {}

  double seconds() const { return seconds_; }

 private:
  static std::string format_seconds(double seconds) {
    std::string text = std::to_string(seconds);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    return text + " s";
  }
  double seconds_;
};

}  // namespace zr
