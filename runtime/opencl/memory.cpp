#include "opencl/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "zereduce/errors.hpp"

namespace zr::opencl {

namespace {

std::uint64_t page_size() { return static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)); }
std::uint64_t round_up(std::uint64_t bytes, std::uint64_t multiple) {
  return (bytes + multiple - 1) / multiple * multiple;
}

// An inaccessible range of this process's address space: unique addresses for a device allocation.
class AddressReservation {
 public:
  explicit AddressReservation(std::uint64_t bytes) : bytes_(round_up(bytes, page_size())) {
    void* start = mmap(nullptr, bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (start == MAP_FAILED)
      throw UnsupportedError("opencl: cannot reserve " + std::to_string(bytes_) +
                             " bytes of address space for a device allocation");
    start_ = static_cast<std::byte*>(start);
  }
  AddressReservation(const AddressReservation&) = delete;
  AddressReservation& operator=(const AddressReservation&) = delete;
  ~AddressReservation() { munmap(start_, bytes_); }
  std::byte* start() const { return start_; }

 private:
  std::uint64_t bytes_;
  std::byte* start_ = nullptr;
};

struct FreeHost {
  void operator()(std::byte* p) const { std::free(p); }
};

}  // namespace

struct Allocations::Entry {
  AllocationKind kind;
  std::uint64_t bytes;
  std::unique_ptr<AddressReservation> reservation;  // device
  Buffer buffer;                                    // device
  std::unique_ptr<std::byte, FreeHost> host;        // host, shared

  const std::byte* base() const { return reservation ? reservation->start() : host.get(); }
};

Allocations::Allocations(Context& context) : context_(context) {}
Allocations::~Allocations() = default;

void* Allocations::allocate(AllocationKind kind, std::uint64_t bytes) {
  const std::string& device = context_.device().name;
  if (bytes == 0) throw InvalidArgumentError("malloc: a size of 0 bytes was asked for on device '" + device + "'");
  const auto& caps = context_.capabilities();
  auto entry = std::make_unique<Entry>();
  entry->kind = kind;
  entry->bytes = bytes;
  if (kind == AllocationKind::device) {
    if (caps.max_allocation_bytes && bytes > caps.max_allocation_bytes)
      throw UnsupportedError("malloc_device: " + std::to_string(bytes) + " bytes is more than device '" + device +
                             "' allocates at once (" + std::to_string(caps.max_allocation_bytes) +
                             " bytes): allocate several smaller arrays");
    entry->buffer = context_.create_buffer(bytes);
    entry->reservation = std::make_unique<AddressReservation>(bytes);
  } else {
    void* memory = std::aligned_alloc(page_size(), round_up(bytes, page_size()));
    if (!memory)
      throw UnsupportedError("malloc_host: the host has no " + std::to_string(bytes) + " bytes to give");
    entry->host.reset(static_cast<std::byte*>(memory));
  }
  std::byte* base = const_cast<std::byte*>(entry->base());
  std::lock_guard lock(mutex_);
  entries_.emplace(base, std::move(entry));
  return base;
}

void Allocations::release(void* pointer) {
  std::lock_guard lock(mutex_);
  if (entries_.erase(static_cast<const std::byte*>(pointer)) == 0)
    throw InvalidArgumentError("free: pointer is not the start of an allocation made through ze-reduce on device '" +
                               context_.device().name + "'");
}

std::optional<ResolvedPointer> Allocations::resolve(const void* pointer) const {
  const auto* address = static_cast<const std::byte*>(pointer);
  std::lock_guard lock(mutex_);
  auto it = entries_.upper_bound(address);
  if (it == entries_.begin()) return std::nullopt;
  --it;
  const Entry& entry = *it->second;
  const std::uint64_t offset = static_cast<std::uint64_t>(address - entry.base());
  // One past the end still belongs to the allocation (an empty range at its end).
  if (offset > entry.bytes) return std::nullopt;
  return ResolvedPointer{entry.kind, entry.base(), entry.bytes, entry.buffer.get(), offset};
}

}  // namespace zr::opencl
