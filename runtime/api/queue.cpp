// zr::queue: memory, copies and reductions, submitted to the queue's worker.
#include <memory>

#include "api/device_impl.hpp"
#include "api/queue_impl.hpp"
#include "api/axes_job.hpp"
#include "api/kernel_job.hpp"
#include "api/reduction_job.hpp"
#include "api/segmented_job.hpp"
#include "data_types.hpp"
#include "profile.hpp"
#include "zereduce/errors.hpp"
#include "zereduce/queue.hpp"

namespace zr {

namespace {
api::BackendDevice& backend_of(const detail::queue_impl& impl) { return impl.get_device().impl()->backend(); }
}  // namespace

queue::queue() : queue(default_device()) {}

queue::queue(const property_list& props) : queue(default_device(), props) {}

queue::queue(const device& dev, const property_list& props)
    : impl_(std::make_shared<detail::queue_impl>(dev, props.enable_profiling())) {
  // Surfaces a device with nonsense properties now rather than at the first reduction.
  dev.impl()->backend().capabilities();
}

const device& queue::get_device() const { return impl_->get_device(); }

bool queue::is_profiling() const { return impl_->profiling(); }

namespace {
// As SYCL's USM malloc: nothing to allocate gives nullptr, which free() and zero-length work accept.
void* allocate(const detail::queue_impl& impl, memory_kind kind, std::uint64_t bytes) {
  return bytes == 0 ? nullptr : backend_of(impl).allocate(kind, bytes);
}
}  // namespace

void* queue::malloc_device_bytes(std::uint64_t bytes) { return allocate(*impl_, memory_kind::device, bytes); }
void* queue::malloc_host_bytes(std::uint64_t bytes) { return allocate(*impl_, memory_kind::host, bytes); }
void* queue::malloc_shared_bytes(std::uint64_t bytes) { return allocate(*impl_, memory_kind::shared, bytes); }

void queue::free(void* pointer) const {
  if (!pointer) return;
  impl_->wait();
  backend_of(*impl_).release(pointer);
}

memory_kind queue::pointer_kind(const void* pointer) const {
  if (!pointer) return memory_kind::unknown;
  const auto allocation = backend_of(*impl_).find(pointer);
  return allocation ? allocation->kind : memory_kind::unknown;
}

event queue::memcpy(void* destination, const void* source, std::uint64_t bytes) {
  if (bytes > 0 && (!destination || !source))
    throw InvalidArgumentError(std::string("memcpy: the ") + (destination ? "source" : "destination") +
                               " is nullptr (" + std::to_string(bytes) + " bytes)");
  api::BackendDevice& backend = backend_of(*impl_);
  auto check_range = [&](const void* pointer, const char* what) {
    const auto allocation = backend.find(pointer);
    if (!allocation) return;
    const auto offset = static_cast<std::uint64_t>(static_cast<const std::byte*>(pointer) - allocation->base);
    if (bytes > allocation->bytes - offset)
      throw InvalidArgumentError(std::string("memcpy: the ") + what + " range of " + std::to_string(bytes) +
                                 " bytes at offset " + std::to_string(offset) + " runs past the end of its allocation of " +
                                 std::to_string(allocation->bytes) + " bytes");
  };
  if (bytes > 0) {
    check_range(source, "source");
    check_range(destination, "destination");
  }
  return event(impl_->submit([&backend, destination, source, bytes](profile& out) {
    const std::uint64_t start = core::host_clock_ns();
    backend.copy(destination, source, bytes);
    out.passes.push_back({pass_profile::kind::copy, "memcpy", "", start, core::host_clock_ns()});
    out.copy_ns = out.passes.back().duration_ns();
  }, bytes <= detail::queue_impl::kInlineBytes));
}

event queue::submit(const void* input, element_type type, std::uint64_t n, bool host_input,
                    std::span<const detail::reduction_spec> specs) {
  const std::uint64_t called_ns = core::host_clock_ns();
  auto job = std::make_shared<api::ReductionJob>(backend_of(*impl_), input, type, n, host_input, specs,
                                                 impl_->profiling() ? core::Timestamps::on : core::Timestamps::off);
  const bool small = job->on_calling_thread() ||
                     n <= detail::queue_impl::kInlineReductionBytes / core::size_of(static_cast<core::DataType>(type));
  return event(impl_->submit([job](profile& out) { job->execute(out); }, small, called_ns));
}

event queue::submit_kernel(const kernel& k, const detail::kernel_call& call) {
  const std::uint64_t called_ns = core::host_clock_ns();
  auto job = std::make_shared<api::KernelJob>(backend_of(*impl_), k, call,
                                              impl_->profiling() ? core::Timestamps::on : core::Timestamps::off);
  // The body is the application's: only a short range is taken to be small work.
  const bool small = job->indices() <= 64 * 1024;
  return event(impl_->submit([job](profile& out) { job->execute(out); }, small, called_ns));
}

event queue::submit_segments(const void* input, std::uint64_t n, bool host_input,
                             const detail::segment_source& segments, const detail::reduction_spec& spec) {
  const std::uint64_t called_ns = core::host_clock_ns();
  auto job = std::make_shared<api::SegmentedJob>(backend_of(*impl_), input, n, host_input, segments, spec,
                                                 impl_->profiling() ? core::Timestamps::on : core::Timestamps::off);
  const bool small = job->on_calling_thread() ||
                     n <= detail::queue_impl::kInlineReductionBytes / core::size_of(static_cast<core::DataType>(spec.type));
  return event(impl_->submit([job](profile& out) { job->execute(out); }, small, called_ns));
}

event queue::submit_axes(const void* input, bool host_input, std::span<const std::uint64_t> shape,
                          std::span<const std::int64_t> axes, const detail::reduction_spec& spec,
                          std::uint64_t given_elements, std::uint64_t given_results) {
  const std::uint64_t called_ns = core::host_clock_ns();
  auto job = std::make_shared<api::AxesJob>(backend_of(*impl_), input, host_input, shape, axes, spec,
                                            impl_->profiling() ? core::Timestamps::on : core::Timestamps::off);
  if (given_elements != UINT64_MAX && given_elements != job->elements())
    throw InvalidArgumentError("the input span holds " + std::to_string(given_elements) + " values but an array of shape " +
                               job->shape_text() + " has " + std::to_string(job->elements()));
  if (given_results != UINT64_MAX && given_results != job->results())
    throw InvalidArgumentError("the results span holds " + std::to_string(given_results) + " values but reducing those " +
                               "axes of shape " + job->shape_text() + " gives " + std::to_string(job->results()));
  const bool small = job->elements() <= detail::queue_impl::kInlineReductionBytes / core::size_of(static_cast<core::DataType>(spec.type));
  return event(impl_->submit([job](profile& out) { job->execute(out); }, small, called_ns));
}

std::uint64_t queue::checked_product(std::uint64_t rows, std::uint64_t columns) {
  if (columns != 0 && rows > UINT64_MAX / columns)
    throw InvalidArgumentError(std::to_string(rows) + " rows of " + std::to_string(columns) +
                               " values are more values than a 64-bit size can hold");
  return rows * columns;
}

void queue::throw_no_offsets() {
  throw InvalidArgumentError("segment offsets: give segments + 1 of them (an empty span has not even the first)");
}

void queue::throw_ragged_rows(std::uint64_t n, std::uint64_t columns) {
  throw InvalidArgumentError("rows of " + std::to_string(columns) + " values cannot hold the n = " + std::to_string(n) +
                             " values given: n must be a multiple of the row length");
}

void queue::check_segment_results(std::uint64_t results, std::uint64_t segments) {
  if (results != segments)
    throw InvalidArgumentError("the results span holds " + std::to_string(results) + " values but there are " +
                               std::to_string(segments) + " segments: give one result per segment");
}

void queue::check_segment_bounds(std::uint64_t begins, std::uint64_t ends) {
  if (begins != ends)
    throw InvalidArgumentError("the segments' begin offsets are " + std::to_string(begins) + " but their end offsets " +
                               std::to_string(ends) + ": give one begin and one end per segment");
}

void queue::wait() { impl_->wait(); }

void queue::throw_size_overflow(std::uint64_t count, std::size_t element_size) {
  throw InvalidArgumentError("an allocation of " + std::to_string(count) + " elements of " +
                             std::to_string(element_size) + " bytes is more bytes than a 64-bit size can hold");
}

}  // namespace zr
