#pragma once
// Owners of Level Zero handles: move-only, each destroys its handle exactly once with the matching ze*Destroy
// call (result checked, see result.hpp). Objects created from a context must be destroyed before it: owners
// of such objects hold the context through a std::shared_ptr<Context>.
#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>
#include <utility>

#include "level_zero/result.hpp"

namespace zr::level_zero {

template <typename T, typename Destroyer>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T handle) : handle_(handle) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Handle() { reset(); }

  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  void reset() noexcept {
    if (handle_) Destroyer{}(std::exchange(handle_, nullptr));
  }

 private:
  T handle_ = nullptr;
};

namespace detail {
struct DestroyContext {
  void operator()(ze_context_handle_t h) const noexcept { ZR_ZE_DESTROY(zeContextDestroy, h); }
};
struct DestroyModule {
  void operator()(ze_module_handle_t h) const noexcept { ZR_ZE_DESTROY(zeModuleDestroy, h); }
};
struct DestroyModuleBuildLog {
  void operator()(ze_module_build_log_handle_t h) const noexcept { ZR_ZE_DESTROY(zeModuleBuildLogDestroy, h); }
};
struct DestroyKernel {
  void operator()(ze_kernel_handle_t h) const noexcept { ZR_ZE_DESTROY(zeKernelDestroy, h); }
};
struct DestroyCommandList {
  void operator()(ze_command_list_handle_t h) const noexcept { ZR_ZE_DESTROY(zeCommandListDestroy, h); }
};
struct DestroyCommandQueue {
  void operator()(ze_command_queue_handle_t h) const noexcept { ZR_ZE_DESTROY(zeCommandQueueDestroy, h); }
};
struct DestroyFence {
  void operator()(ze_fence_handle_t h) const noexcept { ZR_ZE_DESTROY(zeFenceDestroy, h); }
};
struct DestroyEventPool {
  void operator()(ze_event_pool_handle_t h) const noexcept { ZR_ZE_DESTROY(zeEventPoolDestroy, h); }
};
struct DestroyEvent {
  void operator()(ze_event_handle_t h) const noexcept { ZR_ZE_DESTROY(zeEventDestroy, h); }
};
}  // namespace detail

// A context ze-reduce created (destroyed with this), or one an application lent (adopted: never destroyed here;
// the application keeps it alive while anything of ze-reduce's uses it).
class Context {
 public:
  enum class Ownership { owned, adopted };
  explicit Context(ze_context_handle_t handle, Ownership ownership = Ownership::owned)
      : owned_(ownership == Ownership::owned ? handle : nullptr), handle_(handle) {}
  ze_context_handle_t get() const { return handle_; }
  bool adopted() const { return !owned_; }

 private:
  Handle<ze_context_handle_t, detail::DestroyContext> owned_;
  ze_context_handle_t handle_;
};

using Module = Handle<ze_module_handle_t, detail::DestroyModule>;
using ModuleBuildLog = Handle<ze_module_build_log_handle_t, detail::DestroyModuleBuildLog>;
using Kernel = Handle<ze_kernel_handle_t, detail::DestroyKernel>;
using CommandList = Handle<ze_command_list_handle_t, detail::DestroyCommandList>;
using CommandQueue = Handle<ze_command_queue_handle_t, detail::DestroyCommandQueue>;
using Fence = Handle<ze_fence_handle_t, detail::DestroyFence>;
using EventPool = Handle<ze_event_pool_handle_t, detail::DestroyEventPool>;
using Event = Handle<ze_event_handle_t, detail::DestroyEvent>;

// A unified-shared-memory allocation (zeMemAllocDevice / zeMemAllocHost / zeMemAllocShared), freed with zeMemFree
// in the context that made it; keeps that context alive.
class Memory {
 public:
  enum class Kind { device, host, shared };

  Memory() = default;
  Memory(std::shared_ptr<const Context> context, void* pointer, std::uint64_t bytes, Kind kind)
      : context_(std::move(context)), pointer_(pointer), bytes_(bytes), kind_(kind) {}
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  Memory(Memory&& other) noexcept
      : context_(std::move(other.context_)), pointer_(std::exchange(other.pointer_, nullptr)),
        bytes_(std::exchange(other.bytes_, 0)), kind_(other.kind_) {}
  Memory& operator=(Memory&& other) noexcept {
    if (this != &other) {
      reset();
      context_ = std::move(other.context_);
      pointer_ = std::exchange(other.pointer_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
      kind_ = other.kind_;
    }
    return *this;
  }
  ~Memory() { reset(); }

  void* get() const { return pointer_; }
  std::uint64_t bytes() const { return bytes_; }
  Kind kind() const { return kind_; }
  explicit operator bool() const { return pointer_ != nullptr; }
  void reset() noexcept {
    if (pointer_) ZR_ZE_DESTROY(zeMemFree, context_->get(), std::exchange(pointer_, nullptr));
    context_.reset();
    bytes_ = 0;
  }

 private:
  std::shared_ptr<const Context> context_;
  void* pointer_ = nullptr;
  std::uint64_t bytes_ = 0;
  Kind kind_ = Kind::device;
};

}  // namespace zr::level_zero
