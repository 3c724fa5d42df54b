#include "api/segmented_job.hpp"

#include <cstring>
#include <optional>

#include "api/memory_checks.hpp"
#include "api/plan_cache.hpp"
#include "api/requests.hpp"
#include "api/run_profiles.hpp"
#include "api/scoped_allocation.hpp"
#include "api/user_operators.hpp"
#include "host_path.hpp"
#include "host_path_segments.hpp"
#include "plans/segment_check.hpp"
#include "plans/segmented.hpp"
#include "strategy.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

namespace {

// The bound whose bits start at `bits` (offset_bytes of them), index k of its array: `what` is "segment offset",
// "segment begin" or "segment end", for the messages.
std::uint64_t bound_at(const std::byte* bits, std::uint32_t offset_bytes, bool signed_offsets, std::uint64_t k,
                       std::uint64_t n, const char* what) {
  std::int64_t value = 0;
  if (offset_bytes == 4) {
    std::uint32_t word = 0;
    std::memcpy(&word, bits, 4);
    value = signed_offsets ? static_cast<std::int64_t>(static_cast<std::int32_t>(word)) : static_cast<std::int64_t>(word);
  } else {
    std::uint64_t word = 0;
    std::memcpy(&word, bits, 8);
    if (!signed_offsets) {
      if (word > n)
        throw InvalidArgumentError(std::string(what) + " " + std::to_string(k) + " is " + std::to_string(word) +
                                   ", past the end of the input (n = " + std::to_string(n) + ")");
      return word;
    }
    value = static_cast<std::int64_t>(word);
  }
  if (value < 0)
    throw InvalidArgumentError(std::string(what) + " " + std::to_string(k) + " is negative (" + std::to_string(value) + ")");
  if (static_cast<std::uint64_t>(value) > n)
    throw InvalidArgumentError(std::string(what) + " " + std::to_string(k) + " is " + std::to_string(value) +
                               ", past the end of the input (n = " + std::to_string(n) + ")");
  return static_cast<std::uint64_t>(value);
}

// Device offsets of at most this many bytes are read back and checked on the host; more, by the device (segcheck).
// H200, f32 sums of 2^28 elements: the check took 11-18 us of device time for up to 65,537 offsets, and a call with
// 50 million offsets 0.9 ms of wall time where reading them back took 418 ms (bench/results/segcheck_h200_2026-11-30).
constexpr std::uint64_t kHostCheckedOffsetBytes = 16 * 1024;

}  // namespace

SegmentedJob::SegmentedJob(BackendDevice& device, const void* input, std::uint64_t n, bool host_input,
                           const detail::segment_source& segments, const detail::reduction_spec& spec,
                           core::Timestamps timestamps)
    : device_(device),
      input_(input),
      n_(n),
      host_input_(host_input),
      offsets_(segments.offsets),
      begin_end_(segments.begin_end),
      ends_(segments.ends),
      spec_(spec),
      timestamps_(timestamps) {
  const auto type = static_cast<core::DataType>(spec.type);
  const std::size_t element = core::size_of(type);
  const std::string type_name(core::name(type));
  const auto op = static_cast<core::Op>(spec.op);
  // An arg-reduction's result per segment is an arg_result<T>: the value, then a 64-bit index; a transform's its
  // own type, a mean and variance's a moments<A>.
  std::size_t result_size = element;
  std::size_t alignment = element;
  std::string results_name = type_name;
  if (core::is_arg_op(op)) {
    result_size = core::kArgResultBytes;
    alignment = alignof(std::uint64_t);
    results_name = "arg_result<" + type_name + ">";
  } else if (core::is_transform_op(op)) {
    const core::DataType result_type = core::transform_result_type(op, type);
    result_size = alignment = core::size_of(result_type);
    results_name = core::name(result_type);
  } else if (core::is_user_op(op)) {
    if (!spec.user) throw InvalidArgumentError("a user-defined segmented reduction names no operator");
    const auto user = load_user_operator(*spec.user);
    result_size = user->accumulator_bytes;
    alignment = user->accumulator_alignment;
    results_name = "user operator '" + user->name + "' accumulator";
  } else if (core::is_moments_op(op)) {
    result_size = core::moments_bytes(op);
    alignment = alignof(std::uint64_t);
    results_name = "moments<" + std::string(core::name(core::moments_accumulator(op))) + ">";
  }
  if (n_ > UINT64_MAX / element)
    throw InvalidArgumentError("n = " + std::to_string(n_) + " elements of " + type_name +
                               " is more bytes than a 64-bit size can hold");
  check_request();
  const std::uint64_t max_allocation = device_.capabilities().max_allocation_bytes;
  if (max_allocation && n_ * element > max_allocation)
    throw UnsupportedError("a segmented reduction of " + std::to_string(n_ * element) + " bytes is more than device '" +
                           device_.name() + "' allocates at once (" + std::to_string(max_allocation) +
                           " bytes), and segmented reductions do not run in chunks yet: reduce the segments in parts");
  if (n_ > 0) {
    if (!input_) throw InvalidArgumentError("the input is nullptr but n = " + std::to_string(n_));
    if (reinterpret_cast<std::uintptr_t>(input_) % element != 0)
      throw InvalidArgumentError("the input at " + address(input_) + " is not aligned to its " + std::to_string(element) +
                                 "-byte " + type_name + " elements: start it at a multiple of the element size");
    if (!host_input_)
      is_host_range(
          device_, input_, n_ * element,
          [&] { return "the input range of n = " + std::to_string(n_) + " " + type_name + " elements"; }, false);
  }

  layout_.segments = segments.segments;
  if (segments.segments > UINT64_MAX / result_size - 1)
    throw InvalidArgumentError(std::to_string(segments.segments) + " segments are more results than a 64-bit size can hold");
  if (segments.segments > 0) {
    if (!spec_.var)
      throw InvalidArgumentError("the results are nullptr but there are " + std::to_string(segments.segments) + " segments");
    if (reinterpret_cast<std::uintptr_t>(spec_.var) % alignment != 0)
      throw InvalidArgumentError("the results at " + address(spec_.var) + " are not aligned to their " +
                                 std::to_string(alignment) + "-byte " + results_name + " values");
    host_results_ = is_host_range(device_, spec_.var, segments.segments * result_size,
                                  "the results (" + std::to_string(segments.segments) + " " + results_name + " values)", true);
  }
  if (segments.offsets || segments.offset_bytes) {
    layout_.offset_bytes = segments.offset_bytes;
    signed_offsets_ = segments.signed_offsets;
    if (begin_end_) layout_.end_step = layout_.segments;
    check_offsets_memory();
    host_path_ = takes_host_path();
    // Offsets in host memory are read now, so that bad ones fail the call; device offsets are read in queue order,
    // once the work before this reduction (which may write them) is done.
    if (host_offsets_ && (!begin_end_ || host_ends_))
      plan(static_cast<const std::byte*>(offsets_), static_cast<const std::byte*>(ends_));
  } else {
    if (segments.segments > 0 && (segments.length > n_ / segments.segments || segments.length * segments.segments != n_))
      throw InvalidArgumentError(std::to_string(segments.segments) + " rows of " + std::to_string(segments.length) +
                                 " values are not the n = " + std::to_string(n_) + " values given");
    if (segments.segments == 0 && n_ != 0)
      throw InvalidArgumentError("no rows, but n = " + std::to_string(n_) + " values were given");
    if (segments.segments > 0 && segments.length == 0) refuse_empty_segment(0);
    layout_.length = segments.length;
    layout_.longest = segments.segments > 0 ? segments.length : 0;
    host_path_ = takes_host_path();
    plan(nullptr, nullptr);
  }
}

void SegmentedJob::check_request() const {
  if (spec_.partial)
    throw UnsupportedError("segmented reductions offer plus, multiplies, minimum, maximum, the bitwise and logical "
                           "ops, argmin, argmax, the transforms and user-defined operators; a reproducible partial "
                           "sum per segment is not offered yet");
  if (spec_.properties.requested_strategy())
    throw UnsupportedError("segmented reductions choose their plan from the segment sizes; strategy '" +
                           std::string(to_string(*spec_.properties.requested_strategy())) + "' cannot be asked for");
  // Validates the (op, type) on this device, and for reproducible floating sums what binned sums need (subnormal
  // f32 arithmetic, at most binned_max_elements): the message names the device and what it lacks.
  core::choose_strategy(device_.capabilities(), request_of(spec_, n_, true));
}

bool SegmentedJob::empty_segments_refused() const {
  const auto op = static_cast<core::Op>(spec_.op);
  if (core::is_user_op(op)) {
    // Without initialize_to_identity an empty segment leaves its result's value as it is.
    const auto user = load_user_operator(*spec_.user);
    return !user->has_identity && spec_.properties.initialize_to_identity();
  }
  return core::is_arg_op(op);  // the others give their identity
}

void SegmentedJob::refuse_empty_segment(std::uint64_t s) const {
  if (!empty_segments_refused()) return;
  const auto op = static_cast<core::Op>(spec_.op);
  if (core::is_user_op(op))
    throw InvalidArgumentError("segment " + std::to_string(s) + " is empty, and user operator '" +
                               load_user_operator(*spec_.user)->name +
                               "' has no identity, so with initialize_to_identity the segment has no result: give "
                               "every segment at least one element, or fold into initial values");
  throw InvalidArgumentError("segment " + std::to_string(s) + " is empty, and an empty segment has no " +
                             std::string(core::name(op)) + " (as the argmin/argmax of an empty input): give every "
                             "segment at least one element");
}

void SegmentedJob::check_offsets_memory() {
  const std::uint64_t count = offset_count();
  const std::string integers = std::to_string(count) + " " + std::to_string(layout_.offset_bytes * 8) + "-bit integers";
  auto check = [&](const void* pointer, const std::string& what) {
    if (!pointer) throw InvalidArgumentError(what + " are nullptr (" + std::to_string(count) + " are needed)");
    if (reinterpret_cast<std::uintptr_t>(pointer) % layout_.offset_bytes != 0)
      throw InvalidArgumentError(what + " at " + address(pointer) + " are not aligned to their " +
                                 std::to_string(layout_.offset_bytes) + "-byte integers");
    return is_host_range(device_, pointer, count * layout_.offset_bytes, what + " (" + integers + ")", true);
  };
  if (!begin_end_) {
    host_offsets_ = check(offsets_, "the segment offsets");
    return;
  }
  if (count == 0) {
    host_offsets_ = host_ends_ = true;  // nothing to read
    return;
  }
  host_offsets_ = check(offsets_, "the segments' begin offsets");
  host_ends_ = check(ends_, "the segments' end offsets");
}

std::uint64_t SegmentedJob::offsets_step(std::uint64_t previous, std::uint64_t next, std::uint64_t k) const {
  if (next < previous)
    throw InvalidArgumentError("segment offsets must not decrease, but offset " + std::to_string(k - 1) + " is " +
                               std::to_string(previous) + " and offset " + std::to_string(k) + " is " + std::to_string(next));
  if (next == previous) refuse_empty_segment(k - 1);
  return next - previous;
}

std::uint64_t SegmentedJob::begin_end_length(const std::byte* begin_bits, const std::byte* end_bits, std::uint64_t s) const {
  const std::uint64_t begin = bound_at(begin_bits, layout_.offset_bytes, signed_offsets_, s, n_, "segment begin");
  const std::uint64_t end = bound_at(end_bits, layout_.offset_bytes, signed_offsets_, s, n_, "segment end");
  if (end < begin)
    throw InvalidArgumentError("segment " + std::to_string(s) + " ends at " + std::to_string(end) + ", before it begins at " +
                               std::to_string(begin) + " (an empty segment has its end equal to its begin)");
  if (end == begin) refuse_empty_segment(s);
  return end - begin;
}

void SegmentedJob::plan(const std::byte* host_offsets, const std::byte* host_ends) {
  std::optional<core::SegmentLayout> rows;  // offsets of equal segments from 0 to n, planned as rows
  const std::uint32_t width = layout_.offset_bytes;
  if (host_offsets && !begin_end_) {
    const std::uint64_t first = bound_at(host_offsets, width, signed_offsets_, 0, n_, "segment offset");
    std::uint64_t previous = first;
    std::uint64_t shortest = UINT64_MAX;
    layout_.longest = 0;
    for (std::uint64_t k = 1; k <= layout_.segments; ++k) {
      const std::uint64_t next = bound_at(host_offsets + k * width, width, signed_offsets_, k, n_, "segment offset");
      const std::uint64_t length = offsets_step(previous, next, k);
      layout_.longest = std::max(layout_.longest, length);
      shortest = std::min(shortest, length);
      previous = next;
    }
    rows = core::equal_offsets_as_rows(layout_, n_, first, previous, shortest);
  }
  if (begin_end_) {
    layout_.longest = 0;
    layout_.covered = 0;
    for (std::uint64_t s = 0; s < layout_.segments; ++s) {
      const std::uint64_t length = begin_end_length(host_offsets + s * width, host_ends + s * width, s);
      layout_.longest = std::max(layout_.longest, length);
      layout_.covered += std::min(length, UINT64_MAX - layout_.covered);
    }
    // The kernels read a segment's end `segments` offsets after its begin.
    const std::uint64_t bytes = layout_.segments * width;
    bounds_.resize(2 * bytes);
    if (bytes > 0) {
      std::memcpy(bounds_.data(), host_offsets, bytes);
      std::memcpy(bounds_.data() + bytes, host_ends, bytes);
    }
  }
  make_plan(rows);
}

void SegmentedJob::make_plan(const std::optional<core::SegmentLayout>& rows) {
  if (host_path_) return;
  const auto& caps = device_.capabilities();
  core::Plan plan = core::make_segmented_plan(caps, request_of(spec_, n_, true), rows.value_or(layout_), core::tuning_for(caps));
  if (rows)
    plan.reason = "offsets of " + std::to_string(rows->segments) + " equal segments from 0 to n, planned as rows: " +
                  plan.reason;
  planned_ = planned_run(std::move(plan));
}

void SegmentedJob::check_on_device(profile& out) {
  const std::uint32_t width = layout_.offset_bytes;
  const void* bounds = offsets_;
  if (begin_end_) {
    // The kernels read a segment's end `segments` offsets after its begin: the two arrays, one after the other.
    const std::uint64_t bytes = layout_.segments * width;
    device_bounds_ = ScopedAllocation(device_, memory_kind::device, 2 * bytes);
    auto* joined = static_cast<std::byte*>(device_bounds_.get());
    timed_copy(device_, out, "copy segment begins to the device", joined, offsets_, bytes);
    timed_copy(device_, out, "copy segment ends to the device", joined + bytes, ends_, bytes);
    bounds = joined;
  }
  const auto& caps = device_.capabilities();
  core::SegmentCheckRequest request;
  request.segments = layout_.segments;
  request.offset_bytes = width;
  request.end_step = layout_.end_step;
  request.n = n_;
  request.signed_offsets = signed_offsets_;
  request.refuse_empty = empty_segments_refused();
  const core::Plan check = core::make_segment_check_plan(caps, core::tuning_for(caps), request);
  std::vector<std::uint64_t> words(check.results.front().elements * core::kSegmentCheckWordsPerGroup);
  const core::ResultTarget target{words.data(), true};
  add_run(out, device_.run(check, bounds, std::span(&target, 1), timestamps_));
  const core::SegmentCheckSummary summary = core::fold_segment_check(words);

  if (summary.first_bad) {
    // The bounds of the first bad segment, read back: the host's own checks then say what is wrong with them, in
    // the words a host scan would have used.
    const std::uint64_t s = *summary.first_bad;
    std::byte pair[16] = {};
    device_.copy(pair, static_cast<const std::byte*>(bounds) + s * width, width);
    device_.copy(pair + width, static_cast<const std::byte*>(bounds) + (s + layout_.end_step) * width, width);
    if (begin_end_) {
      begin_end_length(pair, pair + width, s);
    } else {
      const std::uint64_t previous = bound_at(pair, width, signed_offsets_, s, n_, "segment offset");
      offsets_step(previous, bound_at(pair + width, width, signed_offsets_, s + 1, n_, "segment offset"), s + 1);
    }
    throw std::logic_error("the device's check of the segment offsets found segment " + std::to_string(s) +
                           " bad, but its bounds read back pass the host's checks");
  }
  layout_.longest = summary.longest;
  if (begin_end_) layout_.covered = summary.covered;
  // Equal segments that add up to n run from 0 to n: planned as rows.
  std::optional<core::SegmentLayout> rows;
  if (!begin_end_ && summary.shortest == summary.longest && summary.longest > 0 &&
      layout_.segments <= n_ / summary.longest && summary.longest * layout_.segments == n_)
    rows = core::equal_offsets_as_rows(layout_, n_, 0, n_, summary.shortest);
  make_plan(rows);
}

bool SegmentedJob::takes_host_path() const {
  if (!host_input_ || !device_.reads_host_input_in_place() || (layout_.segments > 0 && !host_results_)) return false;
  // Offsets in device memory are read in queue order, after the work before this reduction: not here.
  if (layout_.offset_bytes && !(host_offsets_ && (!begin_end_ || host_ends_))) return false;
  const std::size_t element = core::size_of(static_cast<core::DataType>(spec_.type));
  return n_ * element <= core::host_path_segment_max_bytes(device_.capabilities()) &&
         core::host_path_serves(request_of(spec_, n_, true));
}

void SegmentedJob::execute_on_host(profile& out) const {
  device_.throw_if_unusable();
  const auto request = request_of(spec_, n_, true);
  core::HostSegments segments;
  segments.count = layout_.segments;
  segments.length = layout_.length;
  if (layout_.offset_bytes) {
    // Begins and ends as checked when the job was made (bounds_); offsets where the caller keeps them, as the
    // kernels read them.
    segments.begins = begin_end_ ? bounds_.data() : static_cast<const std::byte*>(offsets_);
    segments.ends = begin_end_ ? bounds_.data() + layout_.segments * layout_.offset_bytes : nullptr;
    segments.offset_bytes = layout_.offset_bytes;
  }
  core::host_path_reduce_segments(request, static_cast<const std::byte*>(input_), segments,
                                  static_cast<std::byte*>(spec_.var));
  plan_summary summary;
  summary.host_path = true;
  summary.strategy = zr::strategy::tree;  // what segmented plans report on the device
  const std::size_t element = core::size_of(request.type);
  summary.reason = host_path_reason(n_ * element, core::host_path_segment_max_bytes(device_.capabilities()),
                                    "core/host_path_segments.hpp");
  summary.description = "on the calling thread, " + std::to_string(layout_.segments) + " segments one after another" +
                        (core::is_binned_sum(request) ? " (binned sums: the host model of the kernels' bins)" : "");
  summary.combine_depth = core::host_path_segment_combine_depth(layout_.longest);
  out.plans.push_back(std::move(summary));
}

void SegmentedJob::execute(profile& out) {
  if (host_path_) return execute_on_host(out);
  device_.throw_if_unusable();
  // Device offsets, checked now that the work before this reduction (which may write them) is done: a few read
  // back and checked here (one copy, as the check's summaries are, without its launch), more by the device.
  if (!planned_) {
    const std::uint64_t bytes = offset_count() * layout_.offset_bytes;
    if (bytes * (begin_end_ ? 2 : 1) > kHostCheckedOffsetBytes) {
      check_on_device(out);
    } else {
      // (Begin and end arrays may lie one in host memory, the other in device memory.)
      auto read = [&](const void* array, bool host) {
        std::vector<std::byte> copy(bytes);
        if (host) std::memcpy(copy.data(), array, bytes);
        else device_.copy(copy.data(), array, bytes);
        return copy;
      };
      const std::vector<std::byte> offsets = read(offsets_, host_offsets_);
      const std::vector<std::byte> ends = begin_end_ ? read(ends_, host_ends_) : std::vector<std::byte>{};
      plan(offsets.data(), begin_end_ ? ends.data() : nullptr);
    }
  }
  out.plans.push_back(planned_->summary);
  if (layout_.segments == 0) return;
  const std::size_t element = core::size_of(static_cast<core::DataType>(spec_.type));
  const bool in_place = device_.reads_host_input_in_place();

  const void* input = input_;
  ScopedAllocation input_copy;
  if ((host_input_ && !in_place) || n_ == 0) {
    input_copy = ScopedAllocation(device_, memory_kind::device, n_ * element);
    if (n_ > 0) timed_copy(device_, out, "copy input to the device", input_copy.get(), input_, n_ * element);
    input = input_copy.get();
  }
  const void* offsets = device_bounds_.get() ? device_bounds_.get()
                        : begin_end_           ? static_cast<const void*>(bounds_.data())
                                               : offsets_;
  ScopedAllocation offsets_copy;
  const bool reads_offsets = planned_->plan.segments && planned_->plan.segments->offset_bytes != 0;
  if (reads_offsets && !device_bounds_.get() && (begin_end_ || host_offsets_) && !in_place) {
    const std::uint64_t bytes = begin_end_ ? bounds_.size() : (layout_.segments + 1) * layout_.offset_bytes;
    offsets_copy = ScopedAllocation(device_, memory_kind::device, bytes);
    timed_copy(device_, out, begin_end_ ? "copy segment begins and ends to the device" : "copy segment offsets to the device",
               offsets_copy.get(), offsets, bytes);
    offsets = offsets_copy.get();
  }
  const core::ResultTarget target{spec_.var, host_results_};
  add_run(out, device_.run(planned_->plan, input, std::span(&target, 1), timestamps_, offsets));
}

}  // namespace zr::api
