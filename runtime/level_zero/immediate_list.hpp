#pragma once
// An immediate command list on the device's compute engine: what is appended to it starts at once, with no list
// to close and no queue submission. The executor runs a plan on it when its recorded list does not fit the call
// (a new shape, or new buffers): appending a run costs what recording it would, and closing and submitting a
// regular list is saved. A run repeated with the same buffers goes back to a recorded list, submitted again.
// Made where the driver offers immediate lists (zeCommandListCreateImmediate succeeds) unless
// ZE_REDUCE_LEVEL_ZERO_IMMEDIATE=0, which keeps every run on recorded lists (to compare the two).
#include <optional>
#include <string_view>

#include "level_zero/device.hpp"
#include "level_zero/handles.hpp"
#include "strategy.hpp"

namespace zr::level_zero {

class ImmediateList {
 public:
  // Empty where the driver refuses immediate lists or the environment turns them off.
  static std::optional<ImmediateList> create(const Device& device);

  ze_command_list_handle_t get() const { return list_.get(); }

  // Appends a barrier that signals `done` once everything appended before it is finished, and waits for it
  // (bounded_wait.hpp: a lost device, a hang, a failing call; `what` and `strategy` as FencedQueue::run takes them).
  // Returns when the barrier was appended (core::host_clock_ns): the wait began then.
  std::uint64_t finish(ze_event_handle_t done, std::string_view what, std::optional<core::Strategy> strategy) const;

 private:
  ImmediateList(const Device& device, CommandList list) : device_(&device), list_(std::move(list)) {}

  const Device* device_;
  CommandList list_;
};

}  // namespace zr::level_zero
