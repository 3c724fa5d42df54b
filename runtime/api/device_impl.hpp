#pragma once
// The shared state behind a zr::device handle: the backend adapter, and what is cached about the device.
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "api/backend_device.hpp"
#include "zereduce/device.hpp"

namespace zr::detail {

class device_impl {
 public:
  device_impl(std::unique_ptr<api::BackendDevice> backend, device_kind kind);

  api::BackendDevice& backend() const { return *backend_; }
  device_kind kind() const { return kind_; }
  // The public view of the core's capabilities (computed on first use; throws for a device with nonsense
  // properties).
  const device_capabilities& capabilities() const;
  const kernel_execution& execution() const;

 private:
  std::unique_ptr<api::BackendDevice> backend_;
  device_kind kind_;
  mutable std::once_flag capabilities_once_;
  mutable device_capabilities capabilities_;
  mutable std::once_flag probe_once_;
  mutable kernel_execution execution_;
};

}  // namespace zr::detail
