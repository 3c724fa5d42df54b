// Contexts and unified shared memory. Every allocation is OpenCL fine-grained SVM (the CPU device and the host
// share it), but device allocations are kept inaccessible to the host (PROT_NONE) whenever no submission runs in
// their context: on a discrete Intel GPU the host cannot read device memory, and a runtime that does so must fail
// here too, not pass by luck. ZRT_PROTECT_DEVICE_MEMORY=0 turns that off (for sanitizer runs that scan memory).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "ddi_support.hpp"
#include "faults.hpp"
#include "log.hpp"
#include "objects.hpp"

namespace zrt {

namespace {

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

bool protection_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("ZRT_PROTECT_DEVICE_MEMORY");
    return !(value && std::string(value) == "0");
  }();
  return enabled;
}

ze_result_t allocate(Context* context, Device* device, ze_memory_type_t type, std::size_t bytes, std::size_t alignment,
                     void** pointer) {
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (bytes == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  if (alignment > page_size()) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  auto* s = state();
  if (bytes > s->backing.max_allocation) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (device && device->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
  if (type == ZE_MEMORY_TYPE_DEVICE && fault_fires(FaultKind::alloc_device, device->index, {}, bytes)) {
    logger().warn("injected: zeMemAllocDevice of {} bytes fails", bytes);
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  // Whole pages from a page-aligned base, so that protecting them touches nothing else.
  const std::size_t page = page_size();
  const std::size_t pages_bytes = (bytes + page - 1) / page * page;
  void* block = clSVMAlloc(s->backing.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, pages_bytes + page, 0);
  if (!block) return type == ZE_MEMORY_TYPE_HOST ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  Allocation a;
  a.svm_block = block;
  a.base = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(block) + page - 1) / page * page);
  a.bytes = bytes;
  a.protected_bytes = pages_bytes;
  a.type = type;
  a.device = device;
  std::lock_guard lock(context->mutex);
  a.id = context->next_id++;
  if (type == ZE_MEMORY_TYPE_DEVICE && context->running == 0) context->set_protection(a, false);
  context->allocations.emplace(a.base, a);
  *pointer = a.base;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_create(ze_driver_handle_t driver, const ze_context_desc_t* desc, ze_context_handle_t* out) {
  if (!object_of<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = handle_of<ze_context_handle_t>(make_handle_object<Context>());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_destroy(ze_context_handle_t handle) {
  auto* context = object_of<Context>(handle);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<Context> owned(context);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_get_status(ze_context_handle_t handle) {
  auto* context = object_of<Context>(handle);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  for (const auto& d : state()->driver.devices) {
    if (d->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
    for (const auto& tile : d->tiles)
      if (tile->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_alloc_device(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* desc,
                                        std::size_t bytes, std::size_t alignment, ze_device_handle_t device, void** out) {
  auto* c = object_of<Context>(context);
  auto* d = object_of<Device>(device);
  if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(c, d, ZE_MEMORY_TYPE_DEVICE, bytes, alignment, out);
}

ze_result_t ZE_APICALL mem_alloc_host(ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc, std::size_t bytes,
                                      std::size_t alignment, void** out) {
  auto* c = object_of<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(c, nullptr, ZE_MEMORY_TYPE_HOST, bytes, alignment, out);
}

ze_result_t ZE_APICALL mem_alloc_shared(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* device_desc,
                                        const ze_host_mem_alloc_desc_t* host_desc, std::size_t bytes, std::size_t alignment,
                                        ze_device_handle_t device, void** out) {
  auto* c = object_of<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!device_desc || !host_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device* d = device ? object_of<Device>(device) : nullptr;
  if (device && !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate(c, d, ZE_MEMORY_TYPE_SHARED, bytes, alignment, out);
}

ze_result_t ZE_APICALL mem_free(ze_context_handle_t context, void* pointer) {
  auto* c = object_of<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard lock(c->mutex);
  auto found = c->allocations.find(static_cast<char*>(pointer));
  if (found == c->allocations.end()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  c->set_protection(found->second, true);
  clSVMFree(state()->backing.context, found->second.svm_block);
  c->allocations.erase(found);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_get_alloc_properties(ze_context_handle_t context, const void* pointer,
                                                ze_memory_allocation_properties_t* properties, ze_device_handle_t* device) {
  auto* c = object_of<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer || !properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard lock(c->mutex);
  const Allocation* a = c->find(pointer);
  properties->type = a ? a->type : ZE_MEMORY_TYPE_UNKNOWN;
  properties->id = a ? a->id : 0;
  properties->pageSize = a ? page_size() : 0;
  if (device) *device = a && a->device ? handle_of<ze_device_handle_t>(a->device) : nullptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_get_address_range(ze_context_handle_t context, const void* pointer, void** base,
                                             std::size_t* size) {
  auto* c = object_of<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard lock(c->mutex);
  const Allocation* a = c->find(pointer);
  if (!a) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (base) *base = a->base;
  if (size) *size = a->bytes;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

Context::~Context() {
  std::lock_guard lock(mutex);
  if (!allocations.empty()) logger().warn("zeContextDestroy: {} allocation(s) were not freed", allocations.size());
  for (auto& [base, a] : allocations) {
    set_protection(a, true);
    clSVMFree(state()->backing.context, a.svm_block);
  }
}

const Allocation* Context::find(const void* pointer) {
  auto it = allocations.lower_bound(static_cast<const char*>(pointer));
  if (it == allocations.end()) return nullptr;
  const char* p = static_cast<const char*>(pointer);
  return p < it->second.base + it->second.bytes ? &it->second : nullptr;
}

void Context::set_protection(const Allocation& a, bool accessible) const {
  if (a.type != ZE_MEMORY_TYPE_DEVICE || !protection_enabled()) return;
  if (mprotect(a.base, a.protected_bytes, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) != 0)
    logger().error("mprotect of a device allocation failed: {}", std::strerror(errno));
}

void Context::begin_work() {
  std::lock_guard lock(mutex);
  if (running++ == 0)
    for (const auto& [base, a] : allocations) set_protection(a, true);
}

void Context::end_work() {
  std::lock_guard lock(mutex);
  if (--running == 0)
    for (const auto& [base, a] : allocations) set_protection(a, false);
}

void install(ze_context_dditable_t& t) {
  t.pfnCreate = context_create;
  t.pfnDestroy = context_destroy;
  t.pfnGetStatus = context_get_status;
}

void install(ze_mem_dditable_t& t) {
  t.pfnAllocDevice = mem_alloc_device;
  t.pfnAllocHost = mem_alloc_host;
  t.pfnAllocShared = mem_alloc_shared;
  t.pfnFree = mem_free;
  t.pfnGetAllocProperties = mem_get_alloc_properties;
  t.pfnGetAddressRange = mem_get_address_range;
}

}  // namespace zrt
