#pragma once
// The input of the current case, on the host (for the reference) and in a device allocation (for the
// library). Consecutive cases of a test suite share their input (same type, size, kind and seed; the ops
// and strategies vary fastest), so it is generated and uploaded once. Holds one input at a time: the
// largest ones take gigabytes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance_case.hpp"
#include "device_selection.hpp"

namespace zr::conformance {

struct Dataset {
  std::string contents;  // what makes the host values (type, kind, size, seed): equal for equal values
  std::vector<std::byte> host;
  usm_ptr<std::byte> on_device;  // empty for host-span cases and for n = 0
  const void* device_input() const { return on_device.get(); }
};

class DatasetCache {
 public:
  // The input of case c; uploads it to dut's device unless c.from_host_span. Throws what the library throws
  // (an allocation the device refuses is zr::UnsupportedError or zr::BackendError).
  const Dataset& get(DeviceUnderTest& dut, const ConformanceCase& c);

 private:
  struct Key {
    std::size_t device_slot;
    element_type type;
    op_kind family;
    InputKind input;
    std::uint64_t n;
    std::uint64_t seed;
    bool on_device;
    bool operator==(const Key&) const = default;
  };
  std::optional<Key> key_;
  Dataset current_;
};

}  // namespace zr::conformance
