#pragma once
// --interop: the suite's reductions through an application's own objects (include/zereduce/opencl.hpp and
// level_zero.hpp). For each device the tool makes what an application would: its own context on the device
// (never the library's), a queue, its own memory; each case's input is copied into that memory, the reduction
// appended on the application's queue (OpenCL) or command list (Level Zero), and the result read back from the
// application's memory once the application's wait says it is there.
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "conformance_case.hpp"
#include "device_reduction.hpp"
#include "scalar.hpp"
#include "zereduce/device.hpp"

namespace zr::conformance {

class ApplicationPath {
 public:
  virtual ~ApplicationPath() = default;
  // The path for a device's backend (throws zr::UnsupportedError for a device without one).
  static std::unique_ptr<ApplicationPath> make(const device& dev);
  // Why a case does not go through an application's objects (the interop calls append scalar reductions of
  // device memory with the known operations), or empty.
  static std::string why_not(const ConformanceCase& c);

  // The case's reduction of `input` (its host bytes) with `initial` in the result first, forced to c.strategy.
  virtual DeviceRun reduce(const ConformanceCase& c, std::span<const std::byte> input, const core::Scalar& initial) = 0;
};

}  // namespace zr::conformance
