#pragma once
// What the generated proc-address tables (ddi_tables.cpp) need: a logging stub for every call the test driver
// does not implement, and install() overloads that put the implemented calls into their tables.
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <algorithm>
#include <cstddef>

namespace zrt {

// A string usable as a template argument, so each stub knows the name of the call it stands for.
template <std::size_t N>
struct CallName {
  char text[N];
  constexpr CallName(const char (&name)[N]) { std::copy_n(name, N, text); }
};

// Logs "<call> is not implemented by the ze-reduce test driver" at error level (always shown).
void report_unsupported(const char* call);

template <CallName Call, typename Fn>
struct Unsupported;

template <CallName Call, typename... Args>
struct Unsupported<Call, ze_result_t(ZE_APICALL*)(Args...)> {
  static ze_result_t ZE_APICALL run(Args...) {
    report_unsupported(Call.text);
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
};

template <CallName Call, typename Fn>
constexpr Fn unsupported() {
  return &Unsupported<Call, Fn>::run;
}

// Any 1.x version of the API: the tables' first slots are fixed across minor versions.
bool version_supported(ze_api_version_t version);

// Tables with implemented calls; every other table keeps its stubs.
template <typename Table>
void install(Table&) {}
void install(ze_global_dditable_t& table);
void install(ze_driver_dditable_t& table);
void install(ze_device_dditable_t& table);
void install(ze_context_dditable_t& table);
void install(ze_mem_dditable_t& table);
void install(ze_module_dditable_t& table);
void install(ze_module_build_log_dditable_t& table);
void install(ze_kernel_dditable_t& table);
void install(ze_command_queue_dditable_t& table);
void install(ze_command_list_dditable_t& table);
void install(ze_fence_dditable_t& table);
void install(ze_event_pool_dditable_t& table);
void install(ze_event_dditable_t& table);

}  // namespace zrt
