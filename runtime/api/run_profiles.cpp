#include "api/run_profiles.hpp"

#include <charconv>

namespace zr::api {

void add_run(profile& out, core::RunProfile run) {
  // Moved, not copied: a small reduction's profile is built on every call.
  for (auto& pass : run.passes) {
    out.kernel_ns += pass.duration_ns();
    out.passes.push_back({pass_profile::kind::kernel, std::move(pass.label), std::move(pass.kernel), pass.start_ns, pass.end_ns});
  }
  for (auto& copy : run.copies) {
    out.copy_ns += copy.duration_ns();
    out.passes.push_back({pass_profile::kind::copy, std::move(copy.label), "", copy.start_ns, copy.end_ns});
  }
  out.timestamps_valid = out.timestamps_valid && run.timestamps_valid;
  out.host_enqueue_ns += run.host_enqueue_ns;
  out.host_wait_ns += run.host_wait_ns;
}

std::string host_path_reason(std::uint64_t bytes, std::uint64_t limit, std::string_view where) {
  char numbers[2][24];
  const std::string_view bytes_text(numbers[0], std::to_chars(numbers[0], numbers[0] + 24, bytes).ptr - numbers[0]);
  const std::string_view limit_text(numbers[1], std::to_chars(numbers[1], numbers[1] + 24, limit).ptr - numbers[1]);
  constexpr std::string_view kHead = "host path: ", kMiddle = " bytes on a CPU device, at most ",
                             kTail = " take the calling thread (";
  std::string reason;
  reason.reserve(kHead.size() + bytes_text.size() + kMiddle.size() + limit_text.size() + kTail.size() + where.size() + 1);
  reason.append(kHead).append(bytes_text).append(kMiddle).append(limit_text).append(kTail).append(where).append(")");
  return reason;
}

void timed_copy(BackendDevice& device, profile& out, std::string label, void* destination, const void* source,
                std::uint64_t bytes) {
  const std::uint64_t start = core::host_clock_ns();
  device.copy(destination, source, bytes);
  const std::uint64_t end = core::host_clock_ns();
  out.passes.push_back({pass_profile::kind::copy, std::move(label), "", start, end});
  out.copy_ns += end - start;
}

}  // namespace zr::api
