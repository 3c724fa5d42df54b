#pragma once
// An asynchronous command queue on the device's compute engine with a fence to wait for what it ran: the
// executor and the copier each own one.
#include "level_zero/device.hpp"
#include "level_zero/handles.hpp"

namespace zr::level_zero {

struct FencedQueue {
  CommandQueue queue;
  Fence fence;
};

FencedQueue create_fenced_compute_queue(const Device& device);

}  // namespace zr::level_zero
