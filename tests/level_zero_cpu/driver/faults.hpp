#pragma once
// Fault injection for the runtime's error paths, chosen per process with
//   ZRT_FAULT=<kind>[,device=<index>][,after=<n>][,kernel=<text>][,min_bytes=<n>]
// kinds: alloc_device (zeMemAllocDevice fails with ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY),
//        module_build (zeModuleCreate fails with ZE_RESULT_ERROR_MODULE_BUILD_FAILURE and a build log),
//        module_lost  (zeModuleCreate fails with ZE_RESULT_ERROR_DEVICE_LOST: the first call to learn of a loss
//                      need not be a fence's),
//        device_lost  (the submission runs nothing; its fence reports ZE_RESULT_ERROR_DEVICE_LOST, and so does
//                      everything after it on that device; a host wait on an event it would have signalled too),
//        fence_hang   (the submission runs but its fence never signals).
// An immediate list's commands, handed to its queue at a barrier or a host wait, are a submission without a fence:
// device_lost as above, fence_hang runs none of them nor anything after them on that list, so that their events
// never signal.
// The first `after` matching occasions pass; the next one fails. `kernel` limits submissions and module builds
// to those that involve a kernel whose name contains the text (so a runtime's start-up probe can pass), and
// `min_bytes` allocations to those of at least that size.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zrt {

enum class FaultKind { none, alloc_device, module_build, module_lost, device_lost, fence_hang };

// Reads ZRT_FAULT (once, at zeInit). Returns false with `problem` set for a malformed value.
bool configure_fault(std::string& problem);
// Whether this occasion (of the given kind, on the device, involving those kernels) is the one that fails.
bool fault_fires(FaultKind kind, std::uint32_t device, const std::vector<std::string>& kernels,
                 std::uint64_t bytes = 0);

}  // namespace zrt
