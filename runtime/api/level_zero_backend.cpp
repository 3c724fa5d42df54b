#include "api/level_zero_backend.hpp"

#include <map>
#include <mutex>

#include "level_zero/copier.hpp"
#include "level_zero/executor.hpp"
#include "level_zero/planning.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

namespace {

memory_kind kind_of(ze_memory_type_t type) {
  switch (type) {
    case ZE_MEMORY_TYPE_HOST: return memory_kind::host;
    case ZE_MEMORY_TYPE_DEVICE: return memory_kind::device;
    case ZE_MEMORY_TYPE_SHARED: return memory_kind::shared;
    default: return memory_kind::unknown;
  }
}

class LevelZeroBackend final : public BackendDevice {
 public:
  explicit LevelZeroBackend(std::shared_ptr<level_zero::Device> device) : device_(std::move(device)) {
    driver_version_ = std::to_string(device_->description().driver_version);
  }

  zr::backend backend() const override { return zr::backend::level_zero; }
  const std::string& name() const override { return device_->name(); }
  const std::string& driver_version() const override { return driver_version_; }
  std::string description() const override {
    return device_->name() + " (Level Zero, driver " + driver_version_ + ")";
  }
  std::optional<std::string> hierarchy_path() const override { return device_->description().path(); }
  const core::Capabilities& capabilities() const override { return device_->capabilities(); }
  void throw_if_unusable() const override { device_->throw_if_unusable(); }
  NativeHandles native_handles() const override { return {device_->driver(), device_->context(), device_->handle()}; }

  void* allocate(memory_kind kind, std::uint64_t bytes) override {
    level_zero::Memory memory = device_->keep_if_lost([&] {
      return kind == memory_kind::device ? device_->allocate_device(bytes)
             : kind == memory_kind::host ? device_->allocate_host(bytes)
                                         : device_->allocate_shared(bytes);
    });
    void* pointer = memory.get();
    std::lock_guard lock(mutex_);
    allocations_.emplace(pointer, std::move(memory));
    return pointer;
  }

  void release(void* pointer) override {
    std::lock_guard lock(mutex_);
    if (allocations_.erase(pointer) == 0)
      throw InvalidArgumentError("free: pointer is not the start of an allocation made through ze-reduce on device '" +
                                 name() + "'");
  }

  std::optional<Allocation> find(const void* pointer) const override {
    const auto range = device_->allocation_of(pointer);
    if (!range) return std::nullopt;
    return Allocation{kind_of(range->type), static_cast<const std::byte*>(range->base), range->bytes};
  }

  bool kernels_access(memory_kind kind) const override { return kind != memory_kind::unknown; }

  void copy(void* destination, const void* source, std::uint64_t bytes) override {
    device_->keep_if_lost([&] { copier().copy(destination, source, bytes); });
  }

  // A lost or hung device refuses work with the error that made it so before anything is built for it
  // (keep_if_lost: as every entry point here does).
  core::Plan plan(const core::ReductionRequest& request) override {
    return device_->keep_if_lost([&] { return level_zero::plan_for(*device_, request); });
  }

  // Level Zero timestamps cost little (a kernel-timestamp event per pass in the same command list): always on.
  core::RunProfile run(const core::Plan& plan, const void* input, std::span<const core::ResultTarget> results,
                       core::Timestamps, const void* segment_offsets) override {
    return device_->keep_if_lost([&] { return executor().run(plan, input, results, segment_offsets); });
  }

 private:
  level_zero::Executor& executor() {
    std::lock_guard lock(mutex_);
    if (!executor_) executor_ = std::make_unique<level_zero::Executor>(device_);
    return *executor_;
  }
  level_zero::Copier& copier() {
    std::lock_guard lock(mutex_);
    if (!copier_) copier_ = std::make_unique<level_zero::Copier>(device_);
    return *copier_;
  }

  std::shared_ptr<level_zero::Device> device_;
  std::string driver_version_;
  mutable std::mutex mutex_;
  std::map<const void*, level_zero::Memory> allocations_;
  std::unique_ptr<level_zero::Executor> executor_;
  std::unique_ptr<level_zero::Copier> copier_;
};

}  // namespace

std::unique_ptr<BackendDevice> make_level_zero_backend(std::shared_ptr<level_zero::Device> device) {
  return std::make_unique<LevelZeroBackend>(std::move(device));
}

}  // namespace zr::api
