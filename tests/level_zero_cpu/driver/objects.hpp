#pragma once
// The test driver's objects behind each Level Zero handle. A handle is the address of one of these; every
// object starts with a tag so a handle of the wrong kind (or a destroyed one) is refused rather than used.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <level_zero/ze_api.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "backing_device.hpp"
#include "profiles.hpp"

namespace zrt {

enum class Tag : std::uint32_t {
  dead = 0,
  driver = 0x5a525444,
  device,
  context,
  module,
  build_log,
  kernel,
  command_list,
  command_queue,
  fence,
  event_pool,
  event,
};

struct Object {
  explicit Object(Tag t) : tag(t) {}
  ~Object() { tag = Tag::dead; }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  Tag tag;
};

// The object a handle points at, or nullptr when the handle is null or not of that kind.
template <typename T, typename Handle>
T* object_of(Handle handle) {
  auto* object = reinterpret_cast<T*>(handle);
  if (object == nullptr || object->tag != T::kTag) return nullptr;
  return object;
}

template <typename Handle, typename T>
Handle handle_of(T* object) {
  return reinterpret_cast<Handle>(object);
}

// Level Zero's two-call idiom for lists: with *count == 0 or no array the caller asks how many there are (set
// *count, fill nothing); else it gets min(*count, total) entries. Returns how many entries to fill.
inline std::uint32_t entries_to_fill(std::uint32_t* count, bool array_given, std::uint32_t total) {
  if (*count == 0 || !array_given) {
    *count = total;
    return 0;
  }
  *count = *count < total ? *count : total;
  return *count;
}

// A new object owned by the handle it becomes, until the matching ze*Destroy takes it back into a unique_ptr.
template <typename T, typename... Args>
T* make_handle_object(Args&&... args) {
  return std::make_unique<T>(std::forward<Args>(args)...).release();
}

// A device, or one of its tiles (ZRT_TILES): a tile is a device of its own (memory, queues, modules, faults by
// its root's index) with a parent, as a PVC's tiles are sub-devices in the COMPOSITE device hierarchy.
struct Device : Object {
  static constexpr Tag kTag = Tag::device;
  Device(std::uint32_t i, const Profile& p, const Device* root = nullptr, std::uint32_t tile_index = 0)
      : Object(kTag), index(i), profile(p), parent(root), tile(tile_index) {}
  std::uint32_t index;
  const Profile& profile;
  const Device* parent;  // null for a root device
  std::uint32_t tile;    // which tile of its parent
  std::vector<std::unique_ptr<Device>> tiles;
  std::atomic<bool> lost{false};
  std::atomic<std::uint64_t> submissions{0};  // counted for fault injection
};

struct Driver : Object {
  static constexpr Tag kTag = Tag::driver;
  Driver() : Object(kTag) {}
  std::vector<std::unique_ptr<Device>> devices;
};

// One USM allocation as Level Zero sees it. `base` is page aligned inside the OpenCL SVM block so that device
// allocations can be made inaccessible to the host while no work runs (see Context::protect_device_memory).
struct Allocation {
  void* svm_block = nullptr;
  char* base = nullptr;
  std::size_t bytes = 0;
  std::size_t protected_bytes = 0;  // whole pages from base
  ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
  Device* device = nullptr;  // null for host allocations
  std::uint64_t id = 0;
};

struct Context : Object {
  static constexpr Tag kTag = Tag::context;
  Context() : Object(kTag) {}
  ~Context();
  std::mutex mutex;
  std::map<const char*, Allocation, std::greater<>> allocations;  // by base, descending: lower_bound finds the owner
  std::uint64_t next_id = 1;
  int running = 0;  // submissions in flight: device memory is accessible while > 0
  const Allocation* find(const void* pointer);
  // Device memory is PROT_NONE while nothing runs, so a host read of it faults at once (as it would be garbage
  // or a fault on a discrete GPU) instead of silently working on a CPU.
  void begin_work();
  void end_work();
  void set_protection(const Allocation& allocation, bool accessible) const;
};

struct BuildLog : Object {
  static constexpr Tag kTag = Tag::build_log;
  explicit BuildLog(std::string t) : Object(kTag), text(std::move(t)) {}
  std::string text;
};

enum class ArgKind { value, global_pointer, local_pointer, sampler_or_image };

struct KernelSignature {
  std::vector<ArgKind> args;
  std::vector<std::uint32_t> value_sizes;  // bytes of each by-value argument (0 for pointers)
  std::uint32_t required_subgroup_size = 0;
  std::uint32_t required_group_size[3] = {0, 0, 0};
};

struct Module : Object {
  static constexpr Tag kTag = Tag::module;
  Module(Context* c, Device* d) : Object(kTag), context(c), device(d) {}
  ~Module();
  Context* context;
  Device* device;
  cl_program program = nullptr;
  std::vector<std::uint32_t> spirv;                // what it was built from (kept in its native binary)
  std::map<std::string, KernelSignature> kernels;  // by entry point name
  std::vector<std::string> kernel_order;           // as the module lists them
};

using ArgValue = std::variant<std::monostate, std::vector<unsigned char>, void*, std::size_t /*local bytes*/>;

struct Kernel : Object {
  static constexpr Tag kTag = Tag::kernel;
  Kernel(Module* m, std::string n) : Object(kTag), module(m), name(std::move(n)) {}
  ~Kernel();
  Module* module;
  std::string name;
  cl_kernel kernel = nullptr;
  const KernelSignature* signature = nullptr;
  std::uint32_t group_size[3] = {0, 0, 0};  // 0 until zeKernelSetGroupSize
  std::vector<ArgValue> args;
  std::mutex enqueue_mutex;  // arguments are set on the cl_kernel and enqueued as one step
};

struct Event;

struct LaunchCommand {
  Kernel* kernel;
  std::vector<ArgValue> args;  // captured at append time, as Level Zero specifies
  std::uint32_t group_size[3];
  ze_group_count_t groups;
};
struct CopyCommand {
  void* destination;
  const void* source;
  std::size_t bytes;
};
struct FillCommand {
  void* destination;
  std::vector<unsigned char> pattern;
  std::size_t bytes;
};
struct BarrierCommand {};

struct Command {
  std::variant<LaunchCommand, CopyCommand, FillCommand, BarrierCommand> what;
  Event* signal = nullptr;
  std::vector<Event*> waits;
};

struct CommandQueue;

struct CommandList : Object {
  static constexpr Tag kTag = Tag::command_list;
  CommandList(Context* c, Device* d) : Object(kTag), context(c), device(d) {}
  ~CommandList();
  Context* context;
  Device* device;
  std::vector<Command> commands;
  bool closed = false;
  // Immediate lists (zeCommandListCreateImmediate) run on a queue of their own. The commands appended since the
  // last barrier are held back and handed to that queue, as one segment run like a regular list's (in reverse
  // order), when a barrier is appended or when the host waits on an event or a queue: a missing barrier then
  // gives a wrong result here as in a regular list.
  std::vector<std::unique_ptr<CommandList>> segments;  // handed over, kept until the list goes
  std::unique_ptr<CommandQueue> immediate_queue;       // declared last: destroyed (drained) first
  bool immediate() const { return immediate_queue != nullptr; }
};

// Hands every immediate list's held commands to its queue (before the host waits for anything).
void flush_immediate_lists();

struct Fence;

struct Submission {
  std::vector<CommandList*> lists;
  Fence* fence = nullptr;
  bool lose_device = false;   // injected: the device is lost while running this
  bool never_signal = false;  // injected: the fence of this submission never signals
};

struct CommandQueue : Object {
  static constexpr Tag kTag = Tag::command_queue;
  CommandQueue(Context* c, Device* d);
  ~CommandQueue();
  void submit(Submission submission);
  bool wait_idle(std::uint64_t timeout_ns);

  Context* context;
  Device* device;
  cl_command_queue queue = nullptr;

 private:
  void work();
  void execute(Submission& submission);
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Submission> pending_;
  std::uint64_t submitted_ = 0, completed_ = 0;
  bool stopping_ = false;
  bool hung_ = false;  // injected: an immediate list's commands never finished, nor does anything after them
  std::thread worker_;
};

enum class Signal { none, done, device_lost };

struct Fence : Object {
  static constexpr Tag kTag = Tag::fence;
  explicit Fence(CommandQueue* q) : Object(kTag), queue(q) {}
  CommandQueue* queue;
  std::mutex mutex;
  std::condition_variable changed;
  Signal state = Signal::none;
  void set(Signal s);
};

struct EventPool;

struct Event : Object {
  static constexpr Tag kTag = Tag::event;
  Event(EventPool* p, std::uint32_t i) : Object(kTag), pool(p), index(i) {}
  EventPool* pool;
  std::uint32_t index;
  std::mutex mutex;
  std::condition_variable changed;
  bool signalled = false;
  bool lost = false;  // the device was lost before the command that signals it ran: never signals
  bool has_timestamp = false;
  std::uint64_t start_ns = 0, end_ns = 0;
  void signal();
  void signal_with_timestamps(std::uint64_t start, std::uint64_t end);
  bool wait(std::uint64_t timeout_ns);  // true once signalled or lost (then `lost` says which)
  void lose();
};

struct EventPool : Object {
  static constexpr Tag kTag = Tag::event_pool;
  EventPool(std::uint32_t n, ze_event_pool_flags_t f) : Object(kTag), count(n), flags(f) {}
  std::uint32_t count;
  ze_event_pool_flags_t flags;
  std::mutex mutex;
  std::vector<bool> used;
};

// The process-wide state made by zeInit.
struct DriverState {
  BackingDevice backing;
  Driver driver;
};
DriverState* state();  // null before a successful zeInit

bool deadline_passed(std::uint64_t timeout_ns, std::chrono::steady_clock::time_point start);

}  // namespace zrt
