#include "level_zero/result.hpp"

#include <mutex>

#include "device_fate.hpp"
#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

std::string_view result_name(ze_result_t result) {
  switch (result) {
#define ZR_NAME(code) \
  case code: return #code;
    ZR_NAME(ZE_RESULT_SUCCESS)
    ZR_NAME(ZE_RESULT_NOT_READY)
    ZR_NAME(ZE_RESULT_ERROR_DEVICE_LOST)
    ZR_NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    ZR_NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    ZR_NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    ZR_NAME(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    ZR_NAME(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
    ZR_NAME(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
    ZR_NAME(ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX)
    ZR_NAME(ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE)
    ZR_NAME(ZE_RESULT_EXP_ERROR_REMOTE_DEVICE)
    ZR_NAME(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
    ZR_NAME(ZE_RESULT_ERROR_NOT_AVAILABLE)
    ZR_NAME(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
    ZR_NAME(ZE_RESULT_WARNING_DROPPED_DATA)
    ZR_NAME(ZE_RESULT_ERROR_UNINITIALIZED)
    ZR_NAME(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    ZR_NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    ZR_NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_SIZE)
    ZR_NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    ZR_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    ZR_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    ZR_NAME(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    ZR_NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    ZR_NAME(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    ZR_NAME(ZE_RESULT_WARNING_ACTION_REQUIRED)
    ZR_NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef ZR_NAME
    default: break;
  }
  return "ZE_RESULT_UNKNOWN_CODE";
}

bool is_validation_result(ze_result_t result) {
  return (static_cast<std::uint32_t>(result) & 0xffff0000u) == 0x78000000u;
}

namespace {
constexpr std::size_t kMaxRecorded = 256;

struct FailureRecord {
  std::mutex mutex;
  std::vector<FailedCall> calls;
  std::size_t count = 0;
};

FailureRecord& record() {
  static FailureRecord instance;
  return instance;
}

void remember(std::string_view call, ze_result_t result, std::string_view device) {
  auto& r = record();
  std::lock_guard lock(r.mutex);
  ++r.count;
  if (r.calls.size() < kMaxRecorded) r.calls.push_back({std::string(call), result, std::string(device)});
}
}  // namespace

void throw_error(std::string_view call, ze_result_t result, std::string_view device, std::string detail) {
  remember(call, result, device);
  if (is_validation_result(result)) {
    logger().debug("{} returned the validation code {} on '{}'", call, result_name(result), device);
  }
  // Any call may be the first to learn that the device is gone (a module build, an allocation): it is the same
  // error as at a fence.
  if (result == ZE_RESULT_ERROR_DEVICE_LOST)
    throw DeviceLostError("level_zero", std::string(call), static_cast<long long>(result), std::string(result_name(result)),
                          std::string(device), detail + (detail.empty() ? "" : ". ") + core::kLostDeviceAdvice);
  throw BackendError("level_zero", std::string(call), static_cast<long long>(result), std::string(result_name(result)),
                     std::string(device), std::move(detail));
}

void check_in_destructor(ze_result_t result, std::string_view call) noexcept {
  if (result == ZE_RESULT_SUCCESS) return;
  try {
    remember(call, result, {});
    logger().error("{} failed with {} ({:#x}) while releasing a Level Zero object", call, result_name(result),
                   static_cast<std::uint32_t>(result));
  } catch (...) {
    // Logging must not throw out of a destructor; the failure is still counted when remember() succeeded.
  }
}

std::vector<FailedCall> failed_calls() {
  auto& r = record();
  std::lock_guard lock(r.mutex);
  return r.calls;
}

std::size_t failed_call_count() {
  auto& r = record();
  std::lock_guard lock(r.mutex);
  return r.count;
}

void clear_failed_calls() {
  auto& r = record();
  std::lock_guard lock(r.mutex);
  r.calls.clear();
  r.count = 0;
}

}  // namespace zr::level_zero
