#include "api/opencl_backend.hpp"

#include <atomic>
#include <mutex>

#include "device_fate.hpp"
#include "opencl/context.hpp"
#include "opencl/executor.hpp"
#include "opencl/memory.hpp"
#include "opencl/pointer_run.hpp"
#include "strategy.hpp"
#include "tuning.hpp"

namespace zr::api {

namespace {

opencl::AllocationKind allocation_kind(memory_kind kind) {
  switch (kind) {
    case memory_kind::host: return opencl::AllocationKind::host;
    case memory_kind::shared: return opencl::AllocationKind::shared;
    default: return opencl::AllocationKind::device;
  }
}

memory_kind public_kind(opencl::AllocationKind kind) {
  switch (kind) {
    case opencl::AllocationKind::host: return memory_kind::host;
    case opencl::AllocationKind::shared: return memory_kind::shared;
    default: return memory_kind::device;
  }
}

class OpenClBackend final : public BackendDevice {
 public:
  explicit OpenClBackend(opencl::Device device) : device_(std::move(device)) {}

  zr::backend backend() const override { return zr::backend::opencl; }
  const std::string& name() const override { return device_.name; }
  const std::string& driver_version() const override { return device_.driver_version; }
  std::string description() const override { return device_.description(); }
  const core::Capabilities& capabilities() const override { return state().context.capabilities(); }
  NativeHandles native_handles() const override { return {device_.platform, nullptr, device_.id}; }

  void* allocate(memory_kind kind, std::uint64_t bytes) override {
    State& s = state();
    return s.context.keep_if_lost([&] { return s.allocations.allocate(allocation_kind(kind), bytes); });
  }
  void release(void* pointer) override { state().allocations.release(pointer); }

  std::optional<Allocation> find(const void* pointer) const override {
    const auto resolved = state().allocations.resolve(pointer);
    if (!resolved) return std::nullopt;
    return Allocation{public_kind(resolved->kind), resolved->base, resolved->bytes};
  }
  bool kernels_access(memory_kind kind) const override { return kind != memory_kind::unknown; }
  bool reads_host_input_in_place() const override { return opencl::reads_host_memory_in_place(device_); }
  void throw_if_unusable() const override { state().context.throw_if_lost(); }

  void copy(void* destination, const void* source, std::uint64_t bytes) override {
    State& s = state();
    s.context.keep_if_lost([&] { opencl::copy_pointers(s.context, s.allocations, destination, source, bytes); });
  }

  core::Plan plan(const core::ReductionRequest& request) override {
    const auto& caps = capabilities();
    return core::make_plan(caps, request, core::choose_strategy(caps, request), core::tuning_for(caps));
  }

  core::RunProfile run(const core::Plan& plan, const void* input, std::span<const core::ResultTarget> results,
                       core::Timestamps timestamps, const void* segment_offsets) override {
    State& s = state();
    // Runs of one plan shape share scratch buffers: one run at a time per device.
    std::lock_guard lock(s.run_mutex);
    return s.context.keep_if_lost([&] {
      return opencl::run_on_pointers(s.executor, s.allocations, plan, input, results, timestamps, segment_offsets);
    });
  }

 private:
  // The context is made on first use: listing devices must not build contexts for all of them.
  struct State {
    explicit State(const opencl::Device& device) : context(device), executor(context), allocations(context) {}
    opencl::Context context;
    opencl::Executor executor;
    opencl::Allocations allocations;
    std::mutex run_mutex;
  };
  // A device found lost while its context is made (clCreateContext, a queue or a program build answering -9999)
  // stays lost: every later call throws that error instead of trying the driver again.
  State& state() const {
    // Every call of a reduction asks for the state several times: once made, it is one atomic load (a lost
    // device is still reported by the context's own checks).
    if (State* made = made_.load(std::memory_order_acquire)) return *made;
    creation_fate_.keep_if_lost(device_.name, [this] {
      std::call_once(once_, [this] {
        state_ = std::make_unique<State>(device_);
        made_.store(state_.get(), std::memory_order_release);
      });
    });
    return *state_;
  }

  opencl::Device device_;
  mutable core::DeviceFate creation_fate_;
  mutable std::once_flag once_;
  mutable std::unique_ptr<State> state_;
  mutable std::atomic<State*> made_{nullptr};
};

}  // namespace

std::unique_ptr<BackendDevice> make_opencl_backend(opencl::Device device) {
  return std::make_unique<OpenClBackend>(std::move(device));
}

}  // namespace zr::api
