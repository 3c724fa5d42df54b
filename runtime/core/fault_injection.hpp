#pragma once
// Test-only fault injection, off unless ZE_REDUCE_FAULT_INJECTION is set. It lets the test suites prove that
// ze-reduce notices and contains faults that no healthy device produces on demand:
//
//   ZE_REDUCE_FAULT_INJECTION=[<kind>:]<strategy>[@<device text>]
//     wrong_result (the default kind)  every result of that strategy gets its lowest bit flipped
//     device_lost                      the backend reports the device lost when that strategy's work completes
//                                      (as OpenCL CL_INVALID_COMMAND_QUEUE / Level Zero ZE_RESULT_ERROR_DEVICE_LOST)
//     hang                             that strategy's work never completes: the wait runs into its deadline
//     lost_call                        OpenCL: once that strategy's work completes, the next call (a flush)
//                                      returns -9999, as NVIDIA's OpenCL does from every call after a kernel
//                                      faults (Level Zero: the test driver's ZRT_FAULT=module_lost does this)
//   ZE_REDUCE_FAULT_INJECTION=lost_context[@<device text>]
//                                      OpenCL: the library's first context for that device is refused with -9999
//                                      (the device gone before its first use); a later attempt would succeed, so a
//                                      test sees whether the library tries again instead of keeping the loss
//   @<device text> limits it to devices whose name contains the text (case-insensitive).
//
// Read once per process, here and nowhere else; backends ask injected() where the real fault would appear.
#include <optional>
#include <string>
#include <string_view>

#include "strategy.hpp"

namespace zr::core {

enum class FaultKind { wrong_result, device_lost, hang, lost_call, lost_context };

struct InjectedFault {
  FaultKind kind = FaultKind::wrong_result;
  Strategy strategy = Strategy::tree;
  std::string device_text;  // empty: every device
};

// Parses the variable's text; nullopt for an empty or unrecognised text (which is logged as a warning).
std::optional<InjectedFault> parse_fault_injection(std::string_view text);

// The process's injected fault, if any.
const std::optional<InjectedFault>& injected_fault();

// Whether work of `strategy` on the device named `device` should fail as `kind`.
bool injected(FaultKind kind, Strategy strategy, std::string_view device);

// Whether the process's one lost_context fault falls on this attempt to make a context for `device`: true once,
// for the first matching device's first attempt.
bool injected_lost_context(std::string_view device);

}  // namespace zr::core
