#pragma once
// A temporary allocation of a backend device, released when it goes out of scope.
#include <cstdint>
#include <utility>

#include "api/backend_device.hpp"

namespace zr::api {

class ScopedAllocation {
 public:
  ScopedAllocation() = default;
  ScopedAllocation(BackendDevice& device, memory_kind kind, std::uint64_t bytes)
      : device_(&device), pointer_(device.allocate(kind, bytes ? bytes : 1)) {}
  ScopedAllocation(const ScopedAllocation&) = delete;
  ScopedAllocation& operator=(const ScopedAllocation&) = delete;
  ScopedAllocation(ScopedAllocation&& other) noexcept
      : device_(other.device_), pointer_(std::exchange(other.pointer_, nullptr)) {}
  ScopedAllocation& operator=(ScopedAllocation&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      pointer_ = std::exchange(other.pointer_, nullptr);
    }
    return *this;
  }
  ~ScopedAllocation() { reset(); }

  void* get() const { return pointer_; }

 private:
  void reset() noexcept {
    if (pointer_) {
      try {
        device_->release(std::exchange(pointer_, nullptr));
      } catch (...) {
        // Releasing our own allocation cannot name a wrong pointer; a driver failure here has nowhere to go.
      }
    }
  }
  BackendDevice* device_ = nullptr;
  void* pointer_ = nullptr;
};

}  // namespace zr::api
