#include "level_zero/executor.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <variant>

#include "log.hpp"
#include "level_zero/fenced_queue.hpp"
#include "level_zero/pass_recording.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

// The buffers a run reads and writes: a recorded list holds them.
struct RunBuffers {
  const void* input = nullptr;
  const void* segment_offsets = nullptr;
  std::vector<core::ResultTarget> results;
};

struct Executor::Prepared {
  std::string key;
  std::vector<Memory> scratch;
  EventPool pool;
  // Kernel-timestamp events: one per pass, then two per result (its initial value in, the result back out), then
  // the one a run on the immediate list ends with.
  std::vector<Event> events;
  // The staging copies the list holds now: their label and the index of their event.
  std::vector<std::pair<std::string, std::size_t>> copies;
  CommandList list;
  // What the list holds now (a result in host memory is recorded through its staging, whatever its address).
  bool recorded = false;
  RunBuffers recorded_buffers;
  // The buffers of the last run on the immediate list: run with them again, the shape gets its list recorded.
  std::optional<RunBuffers> immediate_buffers;
  // Per result kept in host memory: the device buffer the kernels write, and the USM host slot the list
  // copies it to (and the initial value from); empty for results in USM memory.
  struct Staging {
    Memory device;
    Memory host;
    std::uint64_t bytes = 0;
  };
  std::vector<Staging> staging;
};

namespace {

// An unusable device throws its DevicePropertyError here, before any queue is made for it.
const Device& usable(const Device& device) {
  (void)device.capabilities();
  return device;
}

// A result in host memory goes through the shape's staging, whatever its address.
bool same_buffers(const RunBuffers& a, const RunBuffers& b) {
  return a.input == b.input && a.segment_offsets == b.segment_offsets &&
         std::equal(a.results.begin(), a.results.end(), b.results.begin(), b.results.end(), [](const auto& x, const auto& y) {
           return x.host_memory == y.host_memory && (x.host_memory || x.pointer == y.pointer);
         });
}

// Everything that makes two plans the same shape: scratch sizes and fills, and each pass's module and kernel,
// ND-range and by-value arguments. Two plans with equal keys record identical command lists (for the same buffers).
// The module's name counts: the modules linked from one template (user operators) share its entry points.
std::string shape_key(const core::Plan& plan) {
  std::ostringstream key;
  auto bytes = [&](const core::Scalar& s) {
    key << static_cast<int>(s.type) << ':';
    for (std::size_t i = 0; i < s.size(); ++i) key << std::hex << static_cast<int>(s.bytes[i]) << std::dec << ',';
  };
  for (const auto& buffer : plan.scratch) {
    key << "S" << buffer.bytes;
    if (buffer.initial_fill) {
      key << "f";
      bytes(*buffer.initial_fill);
    }
    key << ';';
  }
  for (const auto& pass : plan.passes) {
    key << "P" << (pass.module ? pass.module->name : std::string_view{}) << '/' << pass.entry_point << '@'
        << pass.global_size << '/' << pass.local_size << '(';
    for (const auto& arg : pass.args) {
      std::visit(
          [&](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, core::BufferArg>) {
              key << "b" << static_cast<int>(a.which) << '.' << a.index;
              // The application's pointers are recorded into the list as they are.
              if (a.which == core::BufferArg::Which::kernel_pointer && a.index < plan.kernel_pointers.size())
                key << '=' << plan.kernel_pointers[a.index];
            } else if constexpr (std::is_same_v<A, core::LocalMemoryArg>) {
              key << "l" << a.bytes;
            } else {
              key << "v";
              bytes(a);
            }
          },
          arg);
      key << ' ';
    }
    key << ");";
  }
  return key.str();
}

}  // namespace

Executor::Executor(std::shared_ptr<const Device> device, std::size_t max_cached_shapes)
    : device_(std::move(device)),
      max_cached_shapes_(max_cached_shapes ? max_cached_shapes : 1),
      queue_(usable(*device_)),
      immediate_(ImmediateList::create(*device_)) {}

Executor::~Executor() {
  // Nothing is in flight between calls (every run waits for its fence); the cache goes before the queue.
  cache_.clear();
}

std::size_t Executor::cached_shapes() const {
  std::lock_guard lock(mutex_);
  return cache_.size();
}

void Executor::clear_cache() {
  std::lock_guard lock(mutex_);
  cache_.clear();
}

void Executor::check_plan(const core::Plan& plan) const {
  const auto& d = device_->description();
  for (const auto& pass : plan.passes) {
    const std::string where = "plan pass '" + pass.label + "' (" + pass.entry_point + ")";
    if (!pass.module) throw Error(where + " names no module");
    if (pass.local_size == 0 || pass.global_size % pass.local_size != 0)
      throw Error(where + ": global size " + std::to_string(pass.global_size) + " is not a positive multiple of " +
                  std::to_string(pass.local_size));
    if (pass.local_size > d.max_total_group_size)
      throw UnsupportedError(where + ": work-group size " + std::to_string(pass.local_size) + " exceeds device '" +
                             device_->name() + "' maximum of " + std::to_string(d.max_total_group_size));
    if (pass.group_count() > d.max_group_count_x)
      throw UnsupportedError(where + ": " + std::to_string(pass.group_count()) + " work-groups exceed device '" +
                             device_->name() + "' maximum of " + std::to_string(d.max_group_count_x));
    for (const auto& arg : pass.args) {
      if (const auto* buffer = std::get_if<core::BufferArg>(&arg)) {
        if (buffer->which == core::BufferArg::Which::scratch && buffer->index >= plan.scratch.size())
          throw Error(where + " uses scratch buffer " + std::to_string(buffer->index) + " of " +
                      std::to_string(plan.scratch.size()));
      }
    }
  }
  for (const auto& buffer : plan.scratch) {
    if (buffer.bytes == 0) throw Error("plan scratch buffer '" + buffer.purpose + "' has no bytes");
    if (buffer.initial_fill) {
      const std::size_t pattern = buffer.initial_fill->size();
      if (buffer.bytes % pattern != 0)
        throw Error("plan scratch buffer '" + buffer.purpose + "' (" + std::to_string(buffer.bytes) +
                    " bytes) is not a whole number of its " + std::to_string(pattern) + "-byte fill pattern");
      if (pattern > d.max_fill_pattern_size)
        throw UnsupportedError("device '" + device_->name() + "' fills memory with patterns of at most " +
                               std::to_string(d.max_fill_pattern_size) + " bytes, not " + std::to_string(pattern));
    }
  }
}

void Executor::check_buffer(const void* pointer, const char* what) const {
  if (!pointer) throw InvalidArgumentError(std::string(what) + " is a null pointer");
  if (device_->memory_type(pointer) == ZE_MEMORY_TYPE_UNKNOWN)
    throw InvalidArgumentError(std::string(what) +
                               " is not Level Zero USM memory (zeMemAllocDevice/Host/Shared) of the context of device '" +
                               device_->name() + "'");
}

void Executor::drop_front_after_failure() {
  if (queue_.hung()) abandoned_.splice(abandoned_.begin(), cache_, cache_.begin());
  else cache_.pop_front();
}

Executor::Prepared& Executor::prepare(const core::Plan& plan) {
  const std::string key = shape_key(plan);
  for (auto it = cache_.begin(); it != cache_.end(); ++it) {
    if ((*it)->key == key) {
      cache_.splice(cache_.begin(), cache_, it);  // most recently used first
      return *cache_.front();
    }
  }
  const auto& name = device_->name();
  const auto ordinal = *device_->description().compute_queue_ordinal;
  auto prepared = std::make_unique<Prepared>();
  prepared->key = key;

  for (const auto& buffer : plan.scratch) {
    prepared->scratch.push_back(device_->allocate_device(buffer.bytes));
    ++stats_.scratch_allocations;
  }

  // ScratchBuffer::initial_fill, once: the kernels that use such buffers leave them as they found them.
  bool any_fill = false;
  for (const auto& buffer : plan.scratch) any_fill = any_fill || buffer.initial_fill.has_value();
  if (any_fill) {
    ze_command_list_desc_t desc{};
    desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
    desc.commandQueueGroupOrdinal = ordinal;
    ze_command_list_handle_t raw = nullptr;
    ZR_ZE_CHECK(name, zeCommandListCreate, device_->context(), device_->handle(), &desc, &raw);
    CommandList fills(raw);
    for (std::size_t i = 0; i < plan.scratch.size(); ++i) {
      const auto& fill = plan.scratch[i].initial_fill;
      if (!fill) continue;
      ZR_ZE_CHECK(name, zeCommandListAppendMemoryFill, fills.get(), prepared->scratch[i].get(), fill->data(),
                  fill->size(), plan.scratch[i].bytes, nullptr, 0, nullptr);
      ++stats_.scratch_fills;
    }
    ZR_ZE_CHECK(name, zeCommandListClose, fills.get());
    try {
      queue_.run(fills.get(), "the initial fill of scratch buffers");
    } catch (...) {
      if (queue_.hung()) {  // the fill may still run: its list and the buffers it writes stay alive
        abandoned_.push_front(std::move(prepared));
        abandoned_fills_.push_back(std::move(fills));
      }
      throw;
    }
  }

  {
    ze_event_pool_desc_t pool_desc{};
    pool_desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
    pool_desc.flags = ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    pool_desc.count = static_cast<std::uint32_t>(plan.passes.size() + 2 * std::max<std::size_t>(plan.results.size(), 1) + 1);
    ze_device_handle_t device = device_->handle();
    ze_event_pool_handle_t pool = nullptr;
    ZR_ZE_CHECK(name, zeEventPoolCreate, device_->context(), &pool_desc, 1, &device, &pool);
    prepared->pool = EventPool(pool);
    for (std::uint32_t i = 0; i < pool_desc.count; ++i) {
      ze_event_desc_t event_desc{};
      event_desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
      event_desc.index = i;
      event_desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;  // the host reads the timestamps
      event_desc.wait = 0;
      ze_event_handle_t event = nullptr;
      ZR_ZE_CHECK(name, zeEventCreate, prepared->pool.get(), &event_desc, &event);
      prepared->events.emplace_back(event);
    }
  }

  ze_command_list_desc_t list_desc{};
  list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  list_desc.commandQueueGroupOrdinal = ordinal;
  ze_command_list_handle_t list = nullptr;
  ZR_ZE_CHECK(name, zeCommandListCreate, device_->context(), device_->handle(), &list_desc, &list);
  prepared->list = CommandList(list);

  ++stats_.shapes_prepared;
  cache_.push_front(std::move(prepared));
  while (cache_.size() > max_cached_shapes_) cache_.pop_back();
  return *cache_.front();
}

void Executor::append_run(Prepared& prepared, ze_command_list_handle_t list, const core::Plan& plan,
                          const RunBuffers& buffers) {
  const auto& name = device_->name();
  const auto& results = buffers.results;
  std::vector<void*> result_pointers;
  for (std::size_t i = 0; i < results.size(); ++i)
    result_pointers.push_back(results[i].host_memory ? prepared.staging.at(i).device.get() : results[i].pointer);
  prepared.copies.clear();
  // The staging copies of result i signal events passes + 2i (in) and passes + 2i + 1 (back), when the pool has them.
  auto copy_event = [&](std::size_t result, bool back, const char* label) -> ze_event_handle_t {
    const std::size_t index = plan.passes.size() + 2 * result + (back ? 1 : 0);
    if (index + 1 >= prepared.events.size()) return nullptr;  // the last event ends immediate runs
    prepared.copies.emplace_back(label, index);
    return prepared.events[index].get();
  };

  bool barrier_needed = false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i].host_memory || !core::reads_initial_value(plan, i)) continue;
    ZR_ZE_CHECK(name, zeCommandListAppendMemoryCopy, list, prepared.staging[i].device.get(),
                prepared.staging[i].host.get(), core::result_bytes(plan, i),
                copy_event(i, false, "copy initial value to the device"), 0, nullptr);
    barrier_needed = true;
  }

  std::vector<void*> scratch_pointers;
  for (const auto& buffer : prepared.scratch) scratch_pointers.push_back(buffer.get());
  std::vector<ze_event_handle_t> pass_events;
  for (std::size_t p = 0; p < plan.passes.size(); ++p) pass_events.push_back(prepared.events[p].get());
  append_passes(*device_, list, plan,
                PassBuffers{buffers.input, result_pointers, scratch_pointers, buffers.segment_offsets, plan.kernel_pointers},
                pass_events, barrier_needed);
  barrier_needed = barrier_needed || !plan.passes.empty();

  bool copied_back = false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i].host_memory) continue;
    if (barrier_needed && !copied_back) ZR_ZE_CHECK(name, zeCommandListAppendBarrier, list, nullptr, 0, nullptr);
    copied_back = true;
    ZR_ZE_CHECK(name, zeCommandListAppendMemoryCopy, list, prepared.staging[i].host.get(),
                prepared.staging[i].device.get(), core::result_bytes(plan, i), copy_event(i, true, "copy result back"),
                0, nullptr);
  }
}

bool Executor::prepare_staging(Prepared& prepared, const core::Plan& plan, const RunBuffers& buffers) {
  bool allocated = false;
  prepared.staging.resize(buffers.results.size());
  for (std::size_t i = 0; i < buffers.results.size(); ++i) {
    auto& staging = prepared.staging[i];
    const std::uint64_t bytes = core::result_bytes(plan, i);
    if (!buffers.results[i].host_memory || staging.bytes >= bytes) continue;
    staging.device = device_->allocate_device(bytes);
    staging.host = device_->allocate_host(bytes);
    staging.bytes = bytes;
    allocated = true;
  }
  return allocated;
}

void Executor::record(Prepared& prepared, const core::Plan& plan, const RunBuffers& buffers) {
  const auto list = prepared.list.get();
  prepared.recorded = false;
  ZR_ZE_CHECK(device_->name(), zeCommandListReset, list);
  append_run(prepared, list, plan, buffers);
  ZR_ZE_CHECK(device_->name(), zeCommandListClose, list);
  prepared.recorded = true;
  prepared.recorded_buffers = buffers;
  ++stats_.recordings;
}

namespace {
std::string run_name(const core::Plan& plan) {
  std::string what = "the run of ";
  for (std::size_t p = 0; p < plan.passes.size(); ++p) what += (p ? ", " : "") + plan.passes[p].entry_point;
  return what + " (strategy " + std::string(core::name(plan.strategy)) + ")";
}

core::RunProfile with_host_stages(core::RunProfile profile, std::uint64_t started_ns, std::uint64_t submitted_ns,
                                  std::uint64_t completed_ns) {
  profile.host_enqueue_ns = submitted_ns - started_ns;
  profile.host_wait_ns = completed_ns - submitted_ns;
  return profile;
}
}  // namespace

core::RunProfile Executor::submit_and_wait(Prepared& prepared, const core::Plan& plan, std::uint64_t started_ns) {
  for (const auto& event : prepared.events) ZR_ZE_CHECK(device_->name(), zeEventHostReset, event.get());
  const std::uint64_t submitted_ns = queue_.run(prepared.list.get(), run_name(plan), plan.strategy);
  const std::uint64_t completed_ns = core::host_clock_ns();
  ++stats_.submissions;
  return with_host_stages(read_profile(prepared, plan), started_ns, submitted_ns, completed_ns);
}

core::RunProfile Executor::run_immediately(Prepared& prepared, const core::Plan& plan, const RunBuffers& buffers,
                                           std::uint64_t started_ns) {
  for (const auto& event : prepared.events) ZR_ZE_CHECK(device_->name(), zeEventHostReset, event.get());
  prepared.immediate_buffers.reset();
  append_run(prepared, immediate_->get(), plan, buffers);
  const std::uint64_t appended_ns = immediate_->finish(prepared.events.back().get(), run_name(plan), plan.strategy);
  const std::uint64_t completed_ns = core::host_clock_ns();
  prepared.immediate_buffers = buffers;
  ++stats_.immediate_runs;
  return with_host_stages(read_profile(prepared, plan), started_ns, appended_ns, completed_ns);
}

core::RunProfile Executor::read_profile(Prepared& prepared, const core::Plan& plan) const {
  const auto& name = device_->name();
  core::RunProfile profile;
  const auto& d = device_->description();
  // The run has ended (its fence or its last event), so on a device that ran it every timestamp event has too.
  // Intel's driver without hardware never writes them: the profile then says its timestamps are not valid.
  auto timed = [&](std::size_t index, std::string label, std::string kernel) {
    core::PassTiming timing;
    timing.label = std::move(label);
    timing.kernel = std::move(kernel);
    const ze_event_handle_t event = prepared.events[index].get();
    if (ZR_ZE_READY(name, zeEventQueryStatus, event)) {
      ze_kernel_timestamp_result_t stamp{};
      ZR_ZE_CHECK(name, zeEventQueryKernelTimestamp, event, &stamp);
      const std::uint32_t bits = d.kernel_timestamp_valid_bits;
      const std::uint64_t mask = bits == 0 || bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      const std::uint64_t ticks = kernel_duration_ticks(stamp.global.kernelStart, stamp.global.kernelEnd, bits);
      timing.start_ns = static_cast<std::uint64_t>(ticks_to_ns(stamp.global.kernelStart & mask, d));
      timing.end_ns = timing.start_ns + static_cast<std::uint64_t>(ticks_to_ns(ticks, d));
      if (d.timer_resolution == 0) profile.timestamps_valid = false;
    } else {
      profile.timestamps_valid = false;
    }
    return timing;
  };
  for (std::size_t p = 0; p < plan.passes.size(); ++p)
    profile.passes.push_back(timed(p, plan.passes[p].label, plan.passes[p].entry_point));
  for (const auto& [label, index] : prepared.copies) profile.copies.push_back(timed(index, label, ""));
  if (!profile.timestamps_valid) {
    static std::once_flag said;
    std::call_once(said, [&] {
      logger().debug("device '{}' completed a reduction without writing its kernel timestamps (no hardware?): "
                     "timings are not valid",
                     name);
    });
  }
  return profile;
}

core::RunProfile Executor::run(const core::Plan& plan, const void* input, void* device_result) {
  void* const results[] = {device_result};
  return run(plan, input, results);
}

core::RunProfile Executor::run(const core::Plan& plan, const void* input, std::span<void* const> results) {
  std::vector<core::ResultTarget> targets;
  for (void* result : results) targets.push_back({result, false});
  return run(plan, input, std::span<const core::ResultTarget>(targets));
}

core::RunProfile Executor::run(const core::Plan& plan, const void* input, std::span<const core::ResultTarget> results,
                               const void* segment_offsets) {
  std::lock_guard lock(mutex_);
  const std::uint64_t started_ns = core::host_clock_ns();
  check_plan(plan);
  if (plan.request.n > 0) check_buffer(input, "the input");
  if (plan.segments && plan.segments->offset_bytes != 0) check_buffer(segment_offsets, "the segment offsets");
  for (const void* pointer : plan.kernel_pointers)
    if (pointer) check_buffer(pointer, "a kernel's pointer argument");
  const std::size_t expected_results = std::max<std::size_t>(plan.results.size(), 1);
  if (results.size() != expected_results)
    throw InvalidArgumentError("the plan writes " + std::to_string(expected_results) + " result(s) but " +
                               std::to_string(results.size()) + " were given");
  for (const auto& result : results) {
    if (!result.pointer) throw InvalidArgumentError("a result is a null pointer");
    if (!result.host_memory) check_buffer(result.pointer, "a result");
  }
  Prepared& prepared = prepare(plan);
  const RunBuffers buffers{input, segment_offsets, {results.begin(), results.end()}};
  try {
    // Host memory results go through staging slots: new ones invalidate what the recorded list holds.
    const bool staging_moved = prepare_staging(prepared, plan, buffers);
    for (std::size_t i = 0; i < results.size(); ++i)
      if (results[i].host_memory && core::reads_initial_value(plan, i))
        std::memcpy(prepared.staging[i].host.get(), results[i].pointer, core::result_bytes(plan, i));
    // The recorded list when it holds these buffers; else the immediate list, unless its last run had these
    // buffers too (a run repeated as it is: worth a recorded list to submit again).
    const bool recorded_fits =
        !staging_moved && prepared.recorded && same_buffers(prepared.recorded_buffers, buffers);
    const bool immediate = !recorded_fits && immediate_ &&
                           !(prepared.immediate_buffers && same_buffers(*prepared.immediate_buffers, buffers));
    core::RunProfile profile;
    if (immediate) {
      profile = run_immediately(prepared, plan, buffers, started_ns);
    } else {
      if (!recorded_fits) record(prepared, plan, buffers);
      profile = submit_and_wait(prepared, plan, started_ns);
    }
    for (std::size_t i = 0; i < results.size(); ++i)
      if (results[i].host_memory)
        std::memcpy(results[i].pointer, prepared.staging[i].host.get(), core::result_bytes(plan, i));
    return profile;
  } catch (...) {
    drop_front_after_failure();
    throw;
  }
}

HostResult Executor::run_to_host(const core::Plan& plan, const void* input, const core::Scalar& initial) {
  if (initial.type != plan.request.type)
    throw InvalidArgumentError("the initial value is a " + std::string(core::name(initial.type)) +
                               " but the plan reduces " + std::string(core::name(plan.request.type)));
  HostResult out;
  out.value = initial;
  const core::ResultTarget target[] = {{out.value.bytes.data(), true}};
  out.profile = run(plan, input, target);
  return out;
}

}  // namespace zr::level_zero
