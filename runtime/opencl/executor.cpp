#include "opencl/executor.hpp"

#include <algorithm>
#include <span>

#include <type_traits>
#include <variant>

#include "opencl/error.hpp"
#include "fault_injection.hpp"
#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

Executor::Executor(Context& context) : context_(context) {}

std::size_t Executor::cached_scratch_sets() const {
  std::lock_guard lock(scratch_mutex_);
  return scratch_.size();
}

const std::vector<Buffer>& Executor::scratch_for(const core::Plan& plan) {
  // Sets are keyed by what the buffers must contain (their initial fills), not by their sizes: a set grows
  // to the largest plan that used it, so reductions of many different sizes share one set.
  auto fill_of = [](const core::ScratchBuffer& buffer) {
    return buffer.initial_fill ? std::span(buffer.initial_fill->data(), buffer.initial_fill->size())
                               : std::span<const std::byte>();
  };
  // The few sets there are are compared in place: building a key costs a small reduction an allocation per buffer.
  auto same_fills = [&](const ScratchKey& key) {
    if (key.size() != plan.scratch.size()) return false;
    for (std::size_t index = 0; index < key.size(); ++index)
      if (!std::ranges::equal(key[index], fill_of(plan.scratch[index]))) return false;
    return true;
  };
  std::lock_guard lock(scratch_mutex_);
  auto found = std::ranges::find_if(scratch_, [&](const auto& set) { return same_fills(set.first); });
  if (found == scratch_.end()) {
    ScratchKey key;
    for (const auto& buffer : plan.scratch) {
      const auto fill = fill_of(buffer);
      key.emplace_back(fill.begin(), fill.end());
    }
    found = scratch_.emplace(std::move(key), std::vector<Buffer>()).first;
  }
  std::vector<Buffer>& buffers = found->second;
  buffers.resize(plan.scratch.size());
  for (std::size_t index = 0; index < plan.scratch.size(); ++index) {
    const core::ScratchBuffer& wanted = plan.scratch[index];
    if (buffers[index].bytes() >= wanted.bytes) continue;
    // Released while earlier runs may still use it: OpenCL keeps it until their commands complete.
    buffers[index] = context_.create_buffer(wanted.bytes);
    if (wanted.initial_fill) {
      context_.fill(buffers[index], std::span(wanted.initial_fill->data(), wanted.initial_fill->size()));
      // The fill went to the profiling queue; an untimed run's kernels go to the other one.
      context_.finish();
    }
    logger().trace("opencl: scratch buffer {} ('{}') of {} bytes", index, wanted.purpose, wanted.bytes);
  }
  return buffers;
}

cl_mem Executor::result_staging(std::size_t index, std::uint64_t bytes) {
  std::lock_guard lock(scratch_mutex_);
  if (result_staging_.size() <= index) result_staging_.resize(index + 1);
  Buffer& buffer = result_staging_[index];
  // At least 64 bytes, so that a scalar result of any type (and small arrays) reuses one buffer.
  if (buffer.bytes() < bytes) buffer = context_.create_buffer(std::max<std::uint64_t>(bytes, 64));
  return buffer.get();
}

std::byte* Executor::result_landing(std::size_t index, std::uint64_t bytes) {
  std::lock_guard lock(scratch_mutex_);
  if (result_landing_.size() <= index) result_landing_.resize(index + 1);
  PinnedHostBuffer& landing = result_landing_[index];
  if (landing.bytes() < bytes) landing = PinnedHostBuffer(context_, std::max<std::uint64_t>(bytes, 64));
  return landing.data();
}

bool read_event_times(cl_event event, core::PassTiming& timing) {
  cl_ulong start = 0, end = 0;
  const cl_int start_code = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr);
  const cl_int end_code = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr);
  if (start_code != CL_SUCCESS || end_code != CL_SUCCESS || end < start) {
    logger().debug("opencl: no valid timestamps for '{}' {} ({}, {})", timing.label, timing.kernel,
                   error_name(start_code), error_name(end_code));
    return false;
  }
  timing.start_ns = start;
  timing.end_ns = end;
  return true;
}

Submission Executor::enqueue(const core::Plan& plan, cl_mem input, cl_mem result) {
  const cl_mem results[] = {result};
  return enqueue(plan, input, results);
}

namespace {
std::vector<GlobalMemory> buffers(std::span<const cl_mem> mems) {
  std::vector<GlobalMemory> memory;
  for (cl_mem mem : mems) memory.push_back({mem, nullptr});
  return memory;
}
}  // namespace

Submission Executor::enqueue(const core::Plan& plan, cl_mem input, std::span<const cl_mem> results,
                             Timestamps timestamps, cl_mem segment_offsets) {
  return enqueue(plan, GlobalMemory{input, nullptr}, results, timestamps, GlobalMemory{segment_offsets, nullptr});
}

Submission Executor::enqueue(const core::Plan& plan, GlobalMemory input, std::span<const cl_mem> results,
                             Timestamps timestamps, GlobalMemory segment_offsets,
                             std::span<const GlobalMemory> kernel_pointers, Completion completion) {
  const AppendTarget own{timestamps == Timestamps::on ? context_.queue() : context_.untimed_queue(), {}, false};
  return enqueue_on(plan, input, buffers(results), timestamps, own, segment_offsets, kernel_pointers, completion);
}

Submission Executor::append(const core::Plan& plan, cl_mem input, std::span<const cl_mem> results,
                            const AppendTarget& target) {
  return enqueue_on(plan, {input, nullptr}, buffers(results), Timestamps::off, target);
}

Submission Executor::append(const core::Plan& plan, GlobalMemory input, std::span<const GlobalMemory> results,
                            const AppendTarget& target, std::span<const GlobalMemory> kernel_pointers) {
  return enqueue_on(plan, input, results, Timestamps::off, target, {}, kernel_pointers);
}

Submission Executor::enqueue_on(const core::Plan& plan, GlobalMemory input, std::span<const GlobalMemory> results,
                                Timestamps timestamps, const AppendTarget& target, GlobalMemory segment_offsets,
                                std::span<const GlobalMemory> kernel_pointers, Completion completion) {
  const std::string& device = context_.device().name;
  const std::size_t expected_results = std::max<std::size_t>(plan.results.size(), 1);
  if (results.size() != expected_results)
    throw InvalidArgumentError("opencl: the plan writes " + std::to_string(expected_results) + " result(s) but " +
                               std::to_string(results.size()) + " buffer(s) were given");
  for (const GlobalMemory& result : results)
    if (result.null()) throw InvalidArgumentError("opencl: a result buffer is null");
  if (input.null() && plan.request.n != 0) throw InvalidArgumentError("opencl: the input buffer is null");
  if (segment_offsets.null() && plan.segments && plan.segments->offset_bytes != 0)
    throw InvalidArgumentError("opencl: the plan reads segment offsets but no buffer holds them");

  context_.throw_if_lost();
  // One plan's passes go out together: another thread's passes must not land between them (they would share
  // the scratch buffers), nor change a cached kernel's arguments between clSetKernelArg and the enqueue.
  std::lock_guard lock(context_.launch_mutex());
  const std::vector<Buffer>& scratch = scratch_for(plan);
  Submission submission;
  submission.queue = target.queue;
  submission.strategy = plan.strategy;
  submission.passes.reserve(plan.passes.size());
  context_.set_in_flight(plan);
  // An argument that already holds the value is not set again (kernel_arguments.hpp).
  using Kind = KernelArguments::Kind;
  KernelArguments& held = context_.kernel_arguments();
  auto set_argument = [&](cl_kernel kernel, cl_uint index, Kind kind, const void* bytes, std::size_t size,
                          const auto& set) {
    if (held.holds(kernel, index, kind, bytes, size)) {
      ++argument_counts_.kept;
      return;
    }
    held.forget(kernel, index);
    set();
    held.remember(kernel, index, kind, bytes, size);
    ++argument_counts_.set;
  };
  for (const core::KernelPass& pass : plan.passes) {
    if (!pass.module) {
      throw InvalidArgumentError("opencl: plan pass '" + pass.label + "' (" + pass.entry_point + ") has no module");
    }
    cl_kernel kernel = context_.programs().kernel(*pass.module, pass.entry_point);
    for (std::size_t index = 0; index < pass.args.size(); ++index) {
      const auto arg_index = static_cast<cl_uint>(index);
      auto where = [&] { return pass.entry_point + " argument " + std::to_string(index); };
      std::visit(
          [&](const auto& arg) {
            using Arg = std::decay_t<decltype(arg)>;
            if constexpr (std::is_same_v<Arg, core::BufferArg>) {
              GlobalMemory memory;
              switch (arg.which) {
                case core::BufferArg::Which::input: memory = input; break;
                case core::BufferArg::Which::segment_offsets: memory = segment_offsets; break;
                case core::BufferArg::Which::result:
                  if (arg.index >= results.size())
                    throw InvalidArgumentError("opencl: " + where() + " names result " + std::to_string(arg.index) +
                                               " of " + std::to_string(results.size()));
                  memory = results[arg.index];
                  break;
                case core::BufferArg::Which::none: break;  // a null pointer
                case core::BufferArg::Which::kernel_pointer:
                  if (arg.index >= kernel_pointers.size())
                    throw InvalidArgumentError("opencl: " + where() + " names kernel pointer " +
                                               std::to_string(arg.index) + " of " +
                                               std::to_string(kernel_pointers.size()));
                  memory = kernel_pointers[arg.index];
                  break;
                case core::BufferArg::Which::scratch:
                  if (arg.index >= scratch.size()) {
                    throw InvalidArgumentError("opencl: " + where() + " names scratch buffer " +
                                               std::to_string(arg.index) + " of a plan that has " +
                                               std::to_string(scratch.size()));
                  }
                  memory.buffer = scratch[arg.index].get();
                  break;
              }
              if (memory.pointer && memory.kind == GlobalMemory::Pointer::usm) {
                const IntelUsm* usm = context_.intel_usm();
                if (!usm) throw UnsupportedError("opencl: device '" + device + "' has no cl_intel_unified_shared_memory");
                set_argument(kernel, arg_index, Kind::usm_pointer, &memory.pointer, sizeof(void*),
                             [&] { usm->set_kernel_arg(kernel, arg_index, memory.pointer, device); });
              } else if (memory.pointer) {
                set_argument(kernel, arg_index, Kind::svm_pointer, &memory.pointer, sizeof(void*), [&] {
                  check(clSetKernelArgSVMPointer(kernel, arg_index, memory.pointer), "clSetKernelArgSVMPointer", device,
                        where);
                });
              } else {
                // A cl_mem is set every time: a released buffer's handle can come back as another buffer's, and a
                // driver may have taken the old buffer's device address when the argument was set.
                cl_mem mem = memory.buffer;
                held.forget(kernel, arg_index);
                check(clSetKernelArg(kernel, arg_index, sizeof(cl_mem), &mem), "clSetKernelArg", device, where);
                ++argument_counts_.set;
              }
            } else if constexpr (std::is_same_v<Arg, core::LocalMemoryArg>) {
              set_argument(kernel, arg_index, Kind::local_bytes, nullptr, arg.bytes, [&] {
                check(clSetKernelArg(kernel, arg_index, arg.bytes, nullptr), "clSetKernelArg", device,
                      [&] { return where() + " (" + std::to_string(arg.bytes) + " bytes of local memory)"; });
              });
            } else {
              static_assert(std::is_same_v<Arg, core::Scalar>);
              set_argument(kernel, arg_index, Kind::value, arg.data(), arg.size(), [&] {
                check(clSetKernelArg(kernel, arg_index, arg.size(), arg.data()), "clSetKernelArg", device, where);
              });
            }
          },
          pass.args[index]);
    }
    const std::size_t global_size = pass.global_size;
    const std::size_t local_size = pass.local_size;
    cl_event event = nullptr;
    const bool signals_completion = &pass == &plan.passes.back() && completion == Completion::last_pass_event;
    // The first pass waits for the target's events; on an out-of-order queue every later one for its predecessor.
    std::span<const cl_event> after = target.wait_list;
    cl_event previous = nullptr;
    if (&pass != &plan.passes.front()) {
      previous = submission.passes.back().event ? submission.passes.back().event.get() : submission.done.get();
      after = target.out_of_order ? std::span<const cl_event>(&previous, 1) : std::span<const cl_event>();
    }
    check(clEnqueueNDRangeKernel(submission.queue, kernel, 1, nullptr, &global_size, &local_size,
                                 static_cast<cl_uint>(after.size()), after.empty() ? nullptr : after.data(),
                                 timestamps == Timestamps::on || signals_completion || target.out_of_order ? &event : nullptr),
          "clEnqueueNDRangeKernel", device, [&] {
            return pass.entry_point + " (" + pass.label + ") global " + std::to_string(global_size) + " local " +
                   std::to_string(local_size);
          });
    if (timestamps == Timestamps::off) {
      submission.done = EventHandle(event);
      event = nullptr;
    }
    submission.passes.push_back({EventHandle(event), pass.label, pass.entry_point});
  }
  check(clFlush(submission.queue), "clFlush", device);
  return submission;
}

namespace {

// The kernels of a submission, for an error that cannot name one of them.
std::string kernels_of(const Submission& submission) {
  std::string names;
  for (const auto& pass : submission.passes) {
    if (!names.empty()) names += ", ";
    names += pass.kernel;
  }
  return names;
}

}  // namespace

void Executor::inject_faults(const Submission& submission) const {
  const std::string& device = context_.device().name;
  const bool lose = core::injected(core::FaultKind::device_lost, submission.strategy, device);
  const bool hang = core::injected(core::FaultKind::hang, submission.strategy, device);
  const bool lost_call = core::injected(core::FaultKind::lost_call, submission.strategy, device);
  // The simulated fault comes after the real work: nothing enqueued (a result read into host memory
  // included) may still be running when the error unwinds the caller's buffers.
  if ((lose || hang || lost_call) && submission.queue) context_.finish(submission.queue);
  if (lost_call)
    check(-9999, "clFlush", device,
          "after the run of " + kernels_of(submission) + " (simulated: ZE_REDUCE_FAULT_INJECTION)");
  if (lose)
    context_.fail_completion("clFinish", CL_INVALID_COMMAND_QUEUE,
                             "the run of " + kernels_of(submission) + " (simulated: ZE_REDUCE_FAULT_INJECTION)");
  if (hang) {
    cl_int code = CL_SUCCESS;
    const EventHandle never(clCreateUserEvent(context_.handle(), &code));
    check(code, "clCreateUserEvent", device);
    try {
      context_.wait(never.get(),
                    "the run of " + kernels_of(submission) + " (simulated hang: ZE_REDUCE_FAULT_INJECTION)");
    } catch (const Error&) {
      clSetUserEventStatus(never.get(), CL_COMPLETE);
      throw;
    }
  }
}

core::RunProfile Executor::wait_untimed(const Submission& submission) const {
  if (!submission.completed && submission.done)
    context_.wait(submission.done.get(), [&] { return "the run of " + kernels_of(submission); });
  core::RunProfile profile;
  profile.timestamps_valid = false;
  profile.passes.reserve(submission.passes.size());
  for (const auto& pass : submission.passes)
    profile.passes.push_back({std::string(pass.label), std::string(pass.kernel), 0, 0});
  return profile;
}

core::RunProfile Executor::wait(const Submission& submission) const {
  core::RunProfile profile;
  if (submission.passes.empty()) return profile;
  inject_faults(submission);
  if (!submission.passes.front().event) return wait_untimed(submission);
  for (const auto& pass : submission.passes)
    context_.wait(pass.event.get(),
                  [&] { return "the run of " + std::string(pass.kernel) + " (" + std::string(pass.label) + ")"; });

  profile.timestamps_valid = context_.executes_kernels().value_or(true);
  for (const auto& pass : submission.passes) {
    core::PassTiming timing{std::string(pass.label), std::string(pass.kernel), 0, 0};
    if (!read_event_times(pass.event.get(), timing)) profile.timestamps_valid = false;
    profile.passes.push_back(std::move(timing));
  }
  return profile;
}

core::RunProfile Executor::run(const core::Plan& plan, cl_mem input, cl_mem result) {
  return wait(enqueue(plan, input, result));
}

core::RunProfile Executor::run(const core::Plan& plan, cl_mem input, std::span<const cl_mem> results) {
  return wait(enqueue(plan, input, results));
}

core::Scalar Executor::run(const core::Plan& plan, std::span<const std::byte> input, const core::Scalar& initial,
                           core::RunProfile* profile) {
  const core::DataType type = plan.request.type;
  const std::size_t element_size = core::size_of(type);
  if (input.size() != plan.request.n * element_size) {
    throw InvalidArgumentError("opencl: the input holds " + std::to_string(input.size()) +
                               " bytes but the plan is for " + std::to_string(plan.request.n) + " elements of " +
                               std::string(core::name(type)));
  }
  if (initial.type != type) {
    throw InvalidArgumentError("opencl: the initial value is a " + std::string(core::name(initial.type)) +
                               " but the plan reduces " + std::string(core::name(type)));
  }
  Buffer input_buffer;
  if (!input.empty()) {
    input_buffer = context_.create_buffer(input.size(), CL_MEM_READ_ONLY);
    context_.write(input_buffer.get(), input);
  }
  Buffer result_buffer = context_.create_buffer(element_size);
  if (plan.request.include_initial) context_.write(result_buffer.get(), std::span(initial.data(), element_size));
  core::RunProfile timings = run(plan, input_buffer.get(), result_buffer.get());
  core::Scalar value{type, {}};
  context_.read(result_buffer.get(), std::span(value.bytes.data(), element_size));
  if (profile) *profile = std::move(timings);
  return value;
}

}  // namespace zr::opencl
