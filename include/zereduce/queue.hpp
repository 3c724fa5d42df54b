#pragma once
// A queue runs reductions and copies on one device, in submission order, asynchronously: every call returns
// an event at once. A queue may be used from several threads; work from all of them runs in the order the
// calls were made. Small work (a reduction of up to 1 MiB of input, a copy of up to 256 KiB) submitted while the
// queue is idle runs on the calling thread, so its event is complete on return: handing it to the queue's
// worker would cost more than the work.
//
// Profiling is off unless the queue is made with property::queue::enable_profiling (as in SYCL): only then
// do event profiles carry device timestamps, which cost launch time on some drivers.
// Memory: malloc_device/host/shared give unified-shared-memory style allocations of the queue's device
// (on OpenCL devices without USM, device allocations are addresses only ze-reduce can resolve: never
// dereference them on the host). Reductions read device, host or shared allocations of this queue's device
// in place. Host spans are accepted too: CPU devices read them where they lie; for other devices the data is
// copied to the device first, and that copy is listed in the event's profile.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>

#include "zereduce/device.hpp"
#include "zereduce/event.hpp"
#include "zereduce/export.hpp"
#include "zereduce/kernel.hpp"
#include "zereduce/reduction.hpp"
#include "zereduce/arg_result.hpp"
#include "zereduce/reproducible_partial.hpp"
#include "zereduce/transform.hpp"
#include "zereduce/user_operator.hpp"

namespace zr {

enum class memory_kind : std::uint8_t { unknown, host, device, shared };
ZR_API std::string_view to_string(memory_kind k);

namespace detail {
class queue_impl;

template <typename T>
reduction_spec partial_spec(reproducible_partial<T>* partial, const property_list& props) {
  reduction_spec spec;
  spec.type = element_type_of<T>();
  spec.op = op_kind::plus;
  spec.var = partial;
  spec.partial = true;
  spec.identity = bytes_of(known_identity_v<plus<T>, T>);
  spec.properties = props.with(property::reduction::reproducible{}).with(property::reduction::initialize_to_identity{});
  return spec;
}

template <typename T>
reduction_spec arg_spec(arg_result<T>* result, op_kind op, const property_list& props) {
  static_assert(is_arithmetic_v<std::remove_cv_t<T>>, "argmin/argmax take integer or floating-point values");
  reduction_spec spec;
  spec.type = element_type_of<T>();
  spec.op = op;
  spec.var = result;
  spec.identity = bytes_of(op == op_kind::argmin ? known_identity_v<minimum<T>, T> : known_identity_v<maximum<T>, T>);
  spec.properties = props.with(property::reduction::initialize_to_identity{});
  return spec;
}

template <typename T, typename Transform>
reduction_spec transform_spec(Transform transform, transform_result_t<Transform, T>* result, const property_list& props) {
  check_transform<Transform, T>();
  reduction_spec spec;
  spec.type = element_type_of<T>();
  spec.op = transform_of<Transform, std::remove_cv_t<T>>::kind;
  spec.var = result;
  if constexpr (transform_of<Transform, std::remove_cv_t<T>>::kind == op_kind::count_equal) spec.operand = bytes_of(transform.value);
  spec.properties = props.with(property::reduction::initialize_to_identity{});
  return spec;
}

// zr::argmin<>() and zr::argmax<>() as operations of the segmented reductions.
template <typename Operation>
inline constexpr bool is_arg_operation_v = false;
template <typename T>
inline constexpr bool is_arg_operation_v<argmin<T>> = true;
template <typename T>
inline constexpr bool is_arg_operation_v<argmax<T>> = true;
template <typename Operation>
inline constexpr bool is_argmax_v = false;
template <typename T>
inline constexpr bool is_argmax_v<argmax<T>> = true;

// The element type the runtime reads a user operator's input as: its bits.
template <std::size_t Bytes>
constexpr element_type bits_of_size() {
  if constexpr (Bytes == 1) return element_type::u8;
  else if constexpr (Bytes == 2) return element_type::u16;
  else if constexpr (Bytes == 4) return element_type::u32;
  else return element_type::u64;
}

template <typename T, typename A>
reduction_spec user_spec(const user_operator<T, A>& op, A* result, const property_list& props) {
  reduction_spec spec;
  spec.type = bits_of_size<sizeof(T)>();
  spec.op = op_kind::user;
  spec.var = result;
  spec.user = &op.source();
  spec.properties = props;
  return spec;
}

template <typename Operation>
inline constexpr bool is_user_operator_v = false;
template <typename T, typename A>
inline constexpr bool is_user_operator_v<user_operator<T, A>> = true;

// A segmented reduction's spec: results of the input's type for the ops, arg_result<T> for argmin/argmax,
// transform_result_t<Transform, T> for the transforms (zereduce/transform.hpp), the accumulator A for a
// user_operator<T, A>.
template <typename T, typename Result, typename Operation>
reduction_spec segment_spec(Result* results, Operation op, const property_list& props) {
  if constexpr (is_user_operator_v<Operation>) {
    static_assert(std::is_same_v<T, typename Operation::element_type>,
                  "a user operator per segment reads elements of its own element type");
    static_assert(std::is_same_v<Result, typename Operation::accumulator_type>,
                  "a user operator per segment writes one of its accumulators per segment");
    return user_spec(op, results, props);
  } else if constexpr (is_transform_v<Operation>) {
    check_transform<Operation, T>();
    static_assert(std::is_same_v<Result, transform_result_t<Operation, T>>,
                  "a transform per segment writes transform_result_t<Transform, T> results (zereduce/transform.hpp: "
                  "std::uint64_t for counts, zr::moments<A> for mean_variance<A>)");
    return transform_spec<T>(op, results, props);
  } else if constexpr (is_arg_operation_v<Operation>) {
    static_assert(std::is_same_v<Result, arg_result<T>>, "argmin/argmax per segment write arg_result<T> results");
    return arg_spec(results, is_argmax_v<Operation> ? op_kind::argmax : op_kind::argmin, props);
  } else {
    static_assert(std::is_same_v<Result, T>, "the results of a segmented reduction hold the input's type "
                                             "(arg_result<T> for zr::argmin<>() and zr::argmax<>())");
    return reduction(results, op, props).spec();
  }
}

// Where a segmented reduction's segments come from: `segments` + 1 offsets of offset_bytes (4 or 8) bytes,
// signed ones never negative (checked with the rest); or, with begin_end, `segments` begin offsets and as many
// end offsets; or, when offsets is null (offset_bytes 0), `segments` of `length` elements.
struct segment_source {
  const void* offsets = nullptr;
  std::uint32_t offset_bytes = 0;
  bool signed_offsets = false;
  std::uint64_t segments = 0;
  std::uint64_t length = 0;
  const void* ends = nullptr;
  bool begin_end = false;  // begins in offsets, ends in ends
};

template <typename Offset>
segment_source offsets_of(const Offset* offsets, std::uint64_t segments) {
  static_assert(std::is_integral_v<Offset> && !std::is_same_v<Offset, bool> && (sizeof(Offset) == 4 || sizeof(Offset) == 8),
                "segment offsets are 32- or 64-bit integers");
  return {offsets, sizeof(Offset), std::is_signed_v<Offset>, segments, 0};
}

template <typename Offset>
segment_source bounds_of(const Offset* begins, const Offset* ends, std::uint64_t segments) {
  segment_source source = offsets_of(begins, segments);
  source.ends = ends;
  source.begin_end = true;
  return source;
}

}  // namespace detail

class ZR_API queue {
 public:
  queue();  // on default_device()
  explicit queue(const device& dev, const property_list& props = {});
  explicit queue(const property_list& props);  // on default_device()

  const device& get_device() const;
  // Whether the queue was made with property::queue::enable_profiling: only then do the profiles of its
  // events carry device timestamps (otherwise they list the passes and copies, with timestamps_valid false).
  bool is_profiling() const;

  // ---- memory ----------------------------------------------------------------------------------------
  // A size of zero gives nullptr (as SYCL's malloc_device): reductions and copies of zero elements accept it.
  void* malloc_device_bytes(std::uint64_t bytes);
  void* malloc_host_bytes(std::uint64_t bytes);
  void* malloc_shared_bytes(std::uint64_t bytes);
  template <typename T>
  T* malloc_device(std::uint64_t count) { return static_cast<T*>(malloc_device_bytes(checked_bytes<T>(count))); }
  template <typename T>
  T* malloc_host(std::uint64_t count) { return static_cast<T*>(malloc_host_bytes(checked_bytes<T>(count))); }
  template <typename T>
  T* malloc_shared(std::uint64_t count) { return static_cast<T*>(malloc_shared_bytes(checked_bytes<T>(count))); }
  // Frees an allocation of this queue's device (nullptr is ignored). Waits for the queue's work first.
  void free(void* pointer) const;
  // What kind of allocation `pointer` lies in, as this queue's device sees it (unknown: not ours).
  memory_kind pointer_kind(const void* pointer) const;

  // Copies between any two of: ordinary host memory, and this device's allocations.
  event memcpy(void* destination, const void* source, std::uint64_t bytes);
  template <typename T>
  event copy(const T* source, T* destination, std::uint64_t count) {
    return memcpy(destination, source, checked_bytes<T>(count));
  }

  // ---- reductions ------------------------------------------------------------------------------------
  // Reduces input[0, n) into every reduction given, reading the input once when they are scalar reductions
  // (several array reductions run one after another). `input` must be an allocation of this device.
  template <typename T, typename... R>
  event reduce(const T* input, std::uint64_t n, reduction_descriptor<R>... reductions) {
    static_assert(sizeof...(R) > 0, "give at least one zr::reduction(...)");
    static_assert((std::is_same_v<std::remove_cv_t<T>, R> && ...),
                  "every reduction's type must be the input's element type");
    const std::array<detail::reduction_spec, sizeof...(R)> specs{reductions.spec()...};
    return submit(input, detail::element_type_of<T>(), n, false, specs);
  }
  // The same over host data (read in place on CPU devices, else copied to the device as part of the work;
  // the span must stay valid and unchanged until the event completes).
  template <typename T, typename... R>
  event reduce(std::span<const T> host_input, reduction_descriptor<R>... reductions) {
    static_assert(sizeof...(R) > 0, "give at least one zr::reduction(...)");
    static_assert((std::is_same_v<T, R> && ...), "every reduction's type must be the input's element type");
    const std::array<detail::reduction_spec, sizeof...(R)> specs{reductions.spec()...};
    return submit(host_input.data(), detail::element_type_of<T>(), host_input.size(), true, specs);
  }

  // The reproducible sum of input[0, n) left unrounded in *partial (reproducible_partial.hpp; *partial's old
  // contents are replaced, not added to): merge partials of other parts of the data, from any devices or
  // processes, and round once with value() for the same bits as one reproducible sum of all of it. `partial`
  // may be ordinary host memory or an allocation of this device. props may ask for a strategy.
  template <typename T>
  event reduce_partial(const T* input, std::uint64_t n, reproducible_partial<T>* partial,
                       const property_list& props = {}) {
    const std::array<detail::reduction_spec, 1> specs{detail::partial_spec(partial, props)};
    return submit(input, detail::element_type_of<T>(), n, false, specs);
  }
  template <typename T>
  event reduce_partial(std::span<const T> host_input, reproducible_partial<T>* partial, const property_list& props = {}) {
    const std::array<detail::reduction_spec, 1> specs{detail::partial_spec(partial, props)};
    return submit(host_input.data(), detail::element_type_of<T>(), host_input.size(), true, specs);
  }

  // Blocking convenience: the reduction of input[0, n) with op, starting from op's identity.
  template <typename T, typename BinaryOperation>
  T reduce_value(const T* input, std::uint64_t n, BinaryOperation op, const property_list& props = {}) {
    T result{};
    reduce(input, n, reduction(&result, op, props.with(property::reduction::initialize_to_identity{}))).wait();
    return result;
  }
  template <typename T, typename BinaryOperation>
  T reduce_value(std::span<const T> host_input, BinaryOperation op, const property_list& props = {}) {
    T result{};
    reduce(host_input, reduction(&result, op, props.with(property::reduction::initialize_to_identity{}))).wait();
    return result;
  }

  // Arg-reductions: the smallest (argmin) or largest (argmax) of input[0, n) and the index of its first
  // occurrence, into *result (arg_result.hpp: ties, NaN, n = 0). *result may be host memory or this library's
  // memory; the input as for reduce. The result does not depend on the strategy or the order of combining.
  template <typename T>
  event argmin(const T* input, std::uint64_t n, arg_result<T>* result, const property_list& props = {}) {
    return submit_arg(input, n, false, result, op_kind::argmin, props);
  }
  template <typename T>
  event argmax(const T* input, std::uint64_t n, arg_result<T>* result, const property_list& props = {}) {
    return submit_arg(input, n, false, result, op_kind::argmax, props);
  }
  template <typename T>
  event argmin(std::span<const T> host_input, arg_result<T>* result, const property_list& props = {}) {
    return submit_arg(host_input.data(), host_input.size(), true, result, op_kind::argmin, props);
  }
  template <typename T>
  event argmax(std::span<const T> host_input, arg_result<T>* result, const property_list& props = {}) {
    return submit_arg(host_input.data(), host_input.size(), true, result, op_kind::argmax, props);
  }
  // The same, waited for.
  template <typename T>
  arg_result<T> argmin_value(const T* input, std::uint64_t n, const property_list& props = {}) {
    arg_result<T> result;
    argmin(input, n, &result, props).wait();
    return result;
  }
  template <typename T>
  arg_result<T> argmax_value(const T* input, std::uint64_t n, const property_list& props = {}) {
    arg_result<T> result;
    argmax(input, n, &result, props).wait();
    return result;
  }
  template <typename T>
  arg_result<T> argmin_value(std::span<const T> host_input, const property_list& props = {}) {
    arg_result<T> result;
    argmin(host_input, &result, props).wait();
    return result;
  }
  template <typename T>
  arg_result<T> argmax_value(std::span<const T> host_input, const property_list& props = {}) {
    arg_result<T> result;
    argmax(host_input, &result, props).wait();
    return result;
  }

  // Transform-reductions (transform.hpp): the sum of transform(x) over input[0, n) into *result, e.g.
  // transform_reduce(x, n, zr::norm_l2{}, &norm) or transform_reduce(x, n, zr::sum_as<std::int64_t>{}, &sum).
  // *result may be host memory or this library's memory; the input as for reduce.
  template <typename T, typename Transform>
  event transform_reduce(const T* input, std::uint64_t n, Transform transform, transform_result_t<Transform, T>* result,
                         const property_list& props = {}) {
    const std::array<detail::reduction_spec, 1> specs{detail::transform_spec<T>(transform, result, props)};
    return submit(input, detail::element_type_of<T>(), n, false, specs);
  }
  template <typename T, typename Transform>
  event transform_reduce(std::span<const T> host_input, Transform transform, transform_result_t<Transform, T>* result,
                         const property_list& props = {}) {
    const std::array<detail::reduction_spec, 1> specs{detail::transform_spec<T>(transform, result, props)};
    return submit(host_input.data(), detail::element_type_of<T>(), host_input.size(), true, specs);
  }
  // The same, waited for.
  template <typename T, typename Transform>
  transform_result_t<Transform, T> transform_reduce_value(const T* input, std::uint64_t n, Transform transform,
                                                          const property_list& props = {}) {
    transform_result_t<Transform, T> result{};
    transform_reduce(input, n, transform, &result, props).wait();
    return result;
  }
  template <typename T, typename Transform>
  transform_result_t<Transform, T> transform_reduce_value(std::span<const T> host_input, Transform transform,
                                                          const property_list& props = {}) {
    transform_result_t<Transform, T> result{};
    transform_reduce(host_input, transform, &result, props).wait();
    return result;
  }

  // User-defined operators (user_operator.hpp): *result = combine(*result, reduction of input[0, n)), or the
  // reduction alone with initialize_to_identity. *result may be host memory or this library's memory; the
  // input as for reduce.
  template <typename T, typename A>
  event reduce(const T* input, std::uint64_t n, const user_operator<T, A>& op, A* result, const property_list& props = {}) {
    const std::array<detail::reduction_spec, 1> specs{detail::user_spec(op, result, props)};
    return submit(input, specs.front().type, n, false, specs);
  }
  template <typename T, typename A>
  event reduce(std::span<const T> host_input, const user_operator<T, A>& op, A* result, const property_list& props = {}) {
    const std::array<detail::reduction_spec, 1> specs{detail::user_spec(op, result, props)};
    return submit(host_input.data(), specs.front().type, host_input.size(), true, specs);
  }
  // The same from the operator's identity, waited for.
  template <typename T, typename A>
  A reduce_value(const T* input, std::uint64_t n, const user_operator<T, A>& op, const property_list& props = {}) {
    A result{};
    reduce(input, n, op, &result, props.with(property::reduction::initialize_to_identity{})).wait();
    return result;
  }
  template <typename T, typename A>
  A reduce_value(std::span<const T> host_input, const user_operator<T, A>& op, const property_list& props = {}) {
    A result{};
    reduce(host_input, op, &result, props.with(property::reduction::initialize_to_identity{})).wait();
    return result;
  }

  // Segmented reductions (docs/api.md "Segmented reductions"): results[s] = the op-reduction of segment s,
  // input[offsets[s], offsets[s + 1]), for s in [0, segments), folded after results[s]'s value unless
  // property::reduction::initialize_to_identity (as a scalar reduction folds its variable's). `offsets` holds
  // segments + 1 non-decreasing 32- or 64-bit integers, the last at most n; an empty segment gives the
  // identity. Input, offsets and results may each be this device's memory or ordinary host memory (copied
  // as needed); the offsets are checked before any work. Each segment is folded in a fixed order: results
  // are deterministic. With zr::argmin<>() or zr::argmax<>() the results are arg_result<T>: each segment's
  // first extreme (arg_result.hpp's rules) and its index counted from the segment's begin; an empty segment has
  // none and is refused. With a transform of zereduce/transform.hpp (zr::norm_l2{}, zr::count_nonzero{},
  // zr::sum_as<double>{}, zr::mean_variance<float>{}, ...) the results are transform_result_t<Transform, T>, each
  // segment's as transform_reduce gives it for the segment alone (written, never read; an empty segment gives 0, or
  // a count of 0). With a user_operator<T, A> (user_operator.hpp) the results are A: combine(results[s], the
  // segment's reduction), or the reduction alone with initialize_to_identity; the transform sees each element with
  // its index in the input; an empty segment leaves results[s] as it was, or gives the identity with
  // initialize_to_identity (refused for an operator without one). Every form below (begin and end arrays, rows)
  // takes them too.
  template <typename T, typename Offset, typename Result, typename BinaryOperation>
  event reduce_segments(const T* input, std::uint64_t n, const Offset* offsets, std::uint64_t segments, Result* results,
                        BinaryOperation op, const property_list& props = {}) {
    return submit_segments(input, n, false, detail::offsets_of(offsets, segments), detail::segment_spec<T>(results, op, props));
  }
  template <typename T, typename Offset, typename Result, typename BinaryOperation>
  event reduce_segments(std::span<const T> host_input, std::span<const Offset> offsets, std::span<Result> results,
                        BinaryOperation op, const property_list& props = {}) {
    if (offsets.empty()) throw_no_offsets();
    check_segment_results(results.size(), offsets.size() - 1);
    return submit_segments(host_input.data(), host_input.size(), true, detail::offsets_of(offsets.data(), offsets.size() - 1),
                           detail::segment_spec<T>(results.data(), op, props));
  }
  // Segments given by where each begins and ends (as CUB's segmented reductions take them): results[s] = the
  // op-reduction of input[begins[s], ends[s]), folded after results[s]'s value unless initialize_to_identity.
  // The segments may overlap, leave elements out, come in any order or be empty (end == begin: the identity);
  // an end below its begin, or past n, is refused. Both arrays hold `segments` 32- or 64-bit integers of one
  // type, in device or host memory, and are checked before any work.
  template <typename T, typename Offset, typename Result, typename BinaryOperation>
  event reduce_segments(const T* input, std::uint64_t n, const Offset* begins, const Offset* ends,
                        std::uint64_t segments, Result* results, BinaryOperation op, const property_list& props = {}) {
    return submit_segments(input, n, false, detail::bounds_of(begins, ends, segments), detail::segment_spec<T>(results, op, props));
  }
  template <typename T, typename Offset, typename Result, typename BinaryOperation>
  event reduce_segments(std::span<const T> host_input, std::span<const Offset> begins, std::span<const Offset> ends,
                        std::span<Result> results, BinaryOperation op, const property_list& props = {}) {
    check_segment_bounds(begins.size(), ends.size());
    check_segment_results(results.size(), begins.size());
    return submit_segments(host_input.data(), host_input.size(), true,
                           detail::bounds_of(begins.data(), ends.data(), begins.size()),
                           detail::segment_spec<T>(results.data(), op, props));
  }
  // Equal segments: `rows` rows of `columns` values, results[r] the reduction of row r (NumPy's axis=-1).
  template <typename T, typename Result, typename BinaryOperation>
  event reduce_rows(const T* input, std::uint64_t rows, std::uint64_t columns, Result* results, BinaryOperation op,
                    const property_list& props = {}) {
    return submit_segments(input, checked_product(rows, columns), false, {nullptr, 0, false, rows, columns},
                           detail::segment_spec<T>(results, op, props));
  }
  template <typename T, typename Result, typename BinaryOperation>
  event reduce_rows(std::span<const T> host_input, std::uint64_t columns, std::span<Result> results, BinaryOperation op,
                    const property_list& props = {}) {
    const std::uint64_t rows = columns == 0 ? results.size() : host_input.size() / columns;
    if (columns == 0 ? !host_input.empty() : host_input.size() % columns != 0) throw_ragged_rows(host_input.size(), columns);
    check_segment_results(results.size(), rows);
    return submit_segments(host_input.data(), host_input.size(), true, {nullptr, 0, false, rows, columns},
                           detail::segment_spec<T>(results.data(), op, props));
  }

  // Reductions over axes of a C-contiguous N-D array of `shape` (NumPy's x.sum(axis=axes), every form of op above):
  // results hold the array's shape without the reduced axes, in C order, each folded after its value unless
  // initialize_to_identity. Axes may be negative (from the last); none reduces nothing (each element its own
  // result). The reduced axes last: one segmented reduction of rows, for every op. Otherwise the nine plain ops,
  // a pass per group of reduced axes from the last (rows, or array reductions of the columns of each block of the
  // axes before it), through temporaries of the op's type: deterministic, and a floating result's bound is the
  // sum of the passes'. Refused with a message that says so: argmin/argmax, transforms, user operators and
  // reproducible sums over axes that are not the last, and a requested strategy.
  template <typename T, typename Result, typename Operation>
  event reduce_axes(const T* input, std::span<const std::uint64_t> shape, std::span<const std::int64_t> axes,
                    Result* results, Operation op, const property_list& props = {}) {
    return submit_axes(input, false, shape, axes, detail::segment_spec<T>(results, op, props), UINT64_MAX, UINT64_MAX);
  }
  template <typename T, typename Result, typename Operation>
  event reduce_axes(std::span<const T> host_input, std::span<const std::uint64_t> shape,
                    std::span<const std::int64_t> axes, std::span<Result> results, Operation op,
                    const property_list& props = {}) {
    return submit_axes(host_input.data(), true, shape, axes, detail::segment_spec<T>(results.data(), op, props),
                       host_input.size(), results.size());
  }

  // ---- kernels with reducers (zereduce/kernel.hpp, docs/kernels.md) ------------------------------------------
  // Runs `k` over the range with the kernel's own arguments, then its reductions (zr::reduction(...), one per
  // reducer of the kernel, in order), as SYCL's parallel_for with reductions: each variable ends up combined
  // with the reduction of everything the body gave its reducer (or holding that alone with
  // initialize_to_identity). The variables may be ordinary host memory or allocations of the device.
  template <typename Range, typename... Rest>
  event parallel_for(const Range& range, const kernel& k, const Rest&... rest) {
    return submit_kernel(k, detail::make_kernel_call(range, rest...));
  }

  // Waits for everything submitted so far; rethrows the first error of work nobody waited for.
  void wait();

  const std::shared_ptr<detail::queue_impl>& impl() const { return impl_; }

 private:
  friend class device_group;  // submits each member's part of one reduction
  template <typename T>
  static std::uint64_t checked_bytes(std::uint64_t count) {
    if (count > UINT64_MAX / sizeof(T)) throw_size_overflow(count, sizeof(T));
    return count * sizeof(T);
  }
  [[noreturn]] static void throw_size_overflow(std::uint64_t count, std::size_t element_size);
  event submit(const void* input, element_type type, std::uint64_t n, bool host_input,
               std::span<const detail::reduction_spec> specs);
  event submit_segments(const void* input, std::uint64_t n, bool host_input, const detail::segment_source& segments,
                        const detail::reduction_spec& spec);
  // given_elements and given_results: the spans' sizes (UINT64_MAX: pointers, nothing to compare).
  event submit_axes(const void* input, bool host_input, std::span<const std::uint64_t> shape,
                    std::span<const std::int64_t> axes, const detail::reduction_spec& spec, std::uint64_t given_elements,
                    std::uint64_t given_results);
  event submit_kernel(const kernel& k, const detail::kernel_call& call);
  static std::uint64_t checked_product(std::uint64_t rows, std::uint64_t columns);
  [[noreturn]] static void throw_no_offsets();
  [[noreturn]] static void throw_ragged_rows(std::uint64_t n, std::uint64_t columns);
  static void check_segment_results(std::uint64_t results, std::uint64_t segments);
  static void check_segment_bounds(std::uint64_t begins, std::uint64_t ends);
  template <typename T>
  event submit_arg(const T* input, std::uint64_t n, bool host_input, arg_result<T>* result, op_kind op,
                   const property_list& props) {
    const std::array<detail::reduction_spec, 1> specs{detail::arg_spec(result, op, props)};
    return submit(input, detail::element_type_of<T>(), n, host_input, specs);
  }

  std::shared_ptr<detail::queue_impl> impl_;
};

// Owning pointers for allocations of a queue: freed through the queue that made them.
struct usm_deleter {
  std::optional<queue> owner;
  void operator()(void* pointer) const {
    if (owner) owner->free(pointer);
  }
};
template <typename T>
using usm_ptr = std::unique_ptr<T[], usm_deleter>;

template <typename T>
usm_ptr<T> make_device_array(queue& q, std::uint64_t count) { return usm_ptr<T>(q.malloc_device<T>(count), {q}); }
template <typename T>
usm_ptr<T> make_host_array(queue& q, std::uint64_t count) { return usm_ptr<T>(q.malloc_host<T>(count), {q}); }
template <typename T>
usm_ptr<T> make_shared_array(queue& q, std::uint64_t count) { return usm_ptr<T>(q.malloc_shared<T>(count), {q}); }

}  // namespace zr
