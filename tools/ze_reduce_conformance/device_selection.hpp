#pragma once
// The devices the suite certifies: every device ze-reduce lists, or those named with --device.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "application_path.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::conformance {

class DeviceUnderTest {
 public:
  DeviceUnderTest(std::size_t index, device dev);

  std::size_t index() const { return index_; }  // in zr::get_devices()
  const device& get() const { return device_; }
  // "Dev1_opencl_cpu": the start of every test suite name of this device.
  const std::string& tag() const { return tag_; }
  // The one-kernel probe of the library (a reduction whose known result must come back): false on Intel's
  // driver without hardware, where the suite then runs validity checks only.
  bool executes_kernels() const { return executes_kernels_; }
  // One queue per device for the whole run (building kernels is the slow part), made on first use.
  queue& get_queue();
  // --interop: the device as an application's own objects see it, made on first use.
  ApplicationPath& application();

  // A device that was lost or hung during a case (zr::DeviceLostError, zr::TimeoutError): the library
  // refuses all later work on it, so its remaining cases are reported as not run.
  struct Loss {
    std::string test;     // "Suite.Name" of the case that found it
    std::string message;  // "device lost at case ...: <the library's error>"
  };
  void mark_lost(Loss loss) {
    if (!lost_) lost_ = std::move(loss);
  }
  const std::optional<Loss>& lost() const { return lost_; }

 private:
  std::size_t index_;
  device device_;
  std::string tag_;
  bool executes_kernels_;
  std::optional<queue> queue_;
  std::shared_ptr<ApplicationPath> application_;
  std::optional<Loss> lost_;
};

// Every device when `requested` is empty; else each entry is an index into zr::get_devices() or a text that
// must appear (case-insensitively) in a device's description or backend name. zr::InvalidArgumentError,
// listing the devices, when an entry matches none.
std::vector<DeviceUnderTest> select_devices(const std::vector<std::string>& requested);

// One line per device of zr::get_devices(): index, backend, kind, description.
std::string list_devices();

}  // namespace zr::conformance
