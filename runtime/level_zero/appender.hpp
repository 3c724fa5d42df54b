#pragma once
// Appends the core's plans to an application's command lists (regular or immediate) on one device of an
// adopted context: nothing here waits on the host. What is appended, in order:
//   a barrier that waits for the application's events (and, being a barrier, for everything appended before);
//   the fills of scratch buffers that need known contents (plans' counters), then a barrier;
//   the passes, a barrier between each two;
//   a barrier that signals the application's event, so that the application's later commands run after the
//   reduction whether or not they wait for that event.
// Scratch is the application's (scratch_bytes() says how much) or the appender's own, which every reduction
// it appends shares: such reductions must not run at the same time (see include/zereduce/level_zero.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "level_zero/device.hpp"
#include "level_zero/handles.hpp"
#include "plan.hpp"

namespace zr::level_zero {

struct AppendTarget {
  ze_command_list_handle_t list = nullptr;
  ze_event_handle_t signal = nullptr;
  std::span<const ze_event_handle_t> waits;
};

class Appender {
 public:
  explicit Appender(std::shared_ptr<const Device> device);
  Appender(const Appender&) = delete;
  Appender& operator=(const Appender&) = delete;

  const Device& device() const { return *device_; }

  // The bytes of scratch memory `plan` needs from an application, with room to align each buffer wherever the
  // given memory starts.
  static std::uint64_t scratch_bytes(const core::Plan& plan);

  // Appends `plan` reading plan.request.n elements at `input` into `result`, both USM memory of the device's
  // context. `scratch`: the application's USM memory of at least scratch_bytes(plan), or empty for the
  // appender's own.
  void append(const core::Plan& plan, const void* input, void* result, const AppendTarget& target,
              std::span<std::byte> scratch = {});
  // An application's kernel with reducers (plans/kernel_reducers.hpp): `variables` are the plan's results, USM
  // memory of the context; its kernel pointers are the plan's own. Each fill comes first: a variable filled with a
  // pattern (a span's identity). The appender's own scratch.
  struct Fill {
    void* memory = nullptr;
    std::span<const std::byte> pattern;
    std::uint64_t bytes = 0;
  };
  void append_kernel(const core::Plan& plan, std::span<void* const> variables, std::span<const Fill> fills,
                     const AppendTarget& target);
  // No elements: the result keeps its value, or becomes `identity` when the request does not include it.
  void append_empty(const core::ReductionRequest& request, void* result, const AppendTarget& target);

  // Throws zr::InvalidArgumentError unless [pointer, pointer + bytes) lies in one USM allocation of the
  // device's context; `what` names it ("the input").
  void check_usm(const void* pointer, std::uint64_t bytes, const char* what) const;

 private:
  void append_plan(const core::Plan& plan, const void* input, std::span<void* const> results, std::span<const Fill> fills,
                   const AppendTarget& target, std::span<std::byte> scratch);
  std::vector<void*> carve_scratch(const core::Plan& plan, std::span<std::byte> given);

  std::shared_ptr<const Device> device_;
  std::mutex mutex_;
  // The appender's own scratch: the newest is used; older ones stay alive as long as the appender, since
  // command lists recorded with them may still run.
  std::vector<Memory> own_scratch_;
};

}  // namespace zr::level_zero
