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

}  // namespace zr
