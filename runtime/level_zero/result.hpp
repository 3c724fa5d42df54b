#pragma once
// Every Level Zero call's result is checked, through the macros below and nothing else (a test greps the
// sources of runtime/level_zero for ze* calls outside them):
//
//   ZR_ZE_CHECK(device, zeFoo, args...)   throws zr::BackendError("level_zero", "zeFoo", code, "ZE_RESULT_...",
//                                         device) unless the call returns ZE_RESULT_SUCCESS
//   ZR_ZE_READY(device, zeFoo, args...)   true on ZE_RESULT_SUCCESS, false on ZE_RESULT_NOT_READY, throws otherwise
//                                         (event and fence queries)
//   ZR_ZE_RESULT(zeFoo, args...)          the ze_result_t, for the few calls whose failure is handled in place
//                                         (a native binary the driver refuses, a module build whose log goes
//                                         into the error); the caller passes it on to check() or branches on it
//   ZR_ZE_DESTROY(zeFoo, args...)         for destructors, which must not throw: a failure is logged and counted
//
// The loader's validation layer (ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1) reports what
// it finds by returning an error code from the offending call (ZE_RESULT_ERROR_INVALID_NULL_POINTER, ...):
// it prints nothing. So every validation finding ends here, as an exception or as a counted destructor
// failure; failed_calls() lists them for tests.
#include <level_zero/ze_api.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace zr::level_zero {

// "ZE_RESULT_ERROR_INVALID_ARGUMENT" for 0x78000004; "ZE_RESULT_UNKNOWN_CODE" for codes no header names.
std::string_view result_name(ze_result_t result);
// Whether the code is one of the [Validation] codes (0x78000000 range) the validation layer answers with.
bool is_validation_result(ze_result_t result);

[[noreturn]] void throw_error(std::string_view call, ze_result_t result, std::string_view device,
                              std::string detail = {});

inline void check(ze_result_t result, std::string_view call, std::string_view device, std::string detail = {}) {
  if (result != ZE_RESULT_SUCCESS) throw_error(call, result, device, std::move(detail));
}

inline bool check_ready(ze_result_t result, std::string_view call, std::string_view device) {
  if (result == ZE_RESULT_SUCCESS) return true;
  if (result == ZE_RESULT_NOT_READY) return false;
  throw_error(call, result, device);
}

void check_in_destructor(ze_result_t result, std::string_view call) noexcept;

// Every failing result seen by the helpers above, in order (at most the first 256), and a way to clear the
// record (tests).
struct FailedCall {
  std::string call;
  ze_result_t result;
  std::string device;
};
std::vector<FailedCall> failed_calls();
std::size_t failed_call_count();
void clear_failed_calls();

}  // namespace zr::level_zero

#define ZR_ZE_CHECK(device, fn, ...) ::zr::level_zero::check(fn(__VA_ARGS__), #fn, (device))
#define ZR_ZE_READY(device, fn, ...) ::zr::level_zero::check_ready(fn(__VA_ARGS__), #fn, (device))
#define ZR_ZE_RESULT(fn, ...) fn(__VA_ARGS__)
#define ZR_ZE_DESTROY(fn, ...) ::zr::level_zero::check_in_destructor(fn(__VA_ARGS__), #fn)
