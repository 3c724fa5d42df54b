#include "device_fate.hpp"

#include "log.hpp"

namespace zr::core {

void DeviceFate::fail(std::exception_ptr error) const {
  {
    std::lock_guard lock(mutex_);
    if (!first_fault_) first_fault_ = error;
    error = first_fault_;
    failed_.store(true, std::memory_order_release);
  }
  std::rethrow_exception(error);
}

void DeviceFate::fail_with_current(std::string_view device) const {
  logger().error("device '{}' is lost: ze-reduce refuses its later work", device);
  fail(std::current_exception());
}

void DeviceFate::throw_if_failed() const {
  if (!failed_.load(std::memory_order_acquire)) return;
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    error = first_fault_;
  }
  if (error) std::rethrow_exception(error);
}

bool DeviceFate::failed() const { return failed_.load(std::memory_order_acquire); }

}  // namespace zr::core
