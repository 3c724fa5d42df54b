#pragma once
// Blocking memory copies on one Level Zero device: between USM allocations of its context and ordinary host
// memory, in any direction. One command list per copy, on the device's compute queue group (every device has
// one; a copy engine is not guaranteed), completed through a fence.
#include <cstdint>
#include <memory>
#include <mutex>

#include <vector>

#include "level_zero/device.hpp"
#include "level_zero/fenced_queue.hpp"
#include "level_zero/handles.hpp"

namespace zr::level_zero {

class Copier {
 public:
  explicit Copier(std::shared_ptr<const Device> device);
  Copier(const Copier&) = delete;
  Copier& operator=(const Copier&) = delete;

  void copy(void* destination, const void* source, std::uint64_t bytes);

 private:
  std::shared_ptr<const Device> device_;
  FencedQueue queue_;
  std::vector<CommandList> abandoned_;  // lists a hung device may still run
  std::mutex mutex_;
};

}  // namespace zr::level_zero
