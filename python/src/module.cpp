// _zereduce: the compiled part of the zereduce Python package (python/zereduce/__init__.py holds the Python API
// and its NumPy conventions). It maps NumPy dtypes to the library's element types, starts reductions of NumPy
// arrays (read in place on CPU devices) or of arrays kept in device memory on a device's queue with the GIL
// released, waits for them in a way Ctrl-C can interrupt, and turns the library's exceptions into Python ones
// of the same names.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/device_text.hpp"
#include "common/type_dispatch.hpp"
#include "zereduce/zereduce.hpp"

namespace py = pybind11;

namespace {

// The element type of a dtype when it is one the library reads in place (native byte order), from the
// descriptor's fields alone (no Python attribute lookups: this is the fast path's first step); nullopt else.
std::optional<zr::element_type> native_element_type(const py::dtype& dtype) {
  const char order = dtype.byteorder();
  if (order != '=' && order != '|' && order != (std::endian::native == std::endian::little ? '<' : '>')) return std::nullopt;
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'b' && size == 1) return zr::element_type::boolean;
  if (kind == 'i' || kind == 'u') {
    const bool is_signed = kind == 'i';
    switch (size) {
      case 1: return is_signed ? zr::element_type::i8 : zr::element_type::u8;
      case 2: return is_signed ? zr::element_type::i16 : zr::element_type::u16;
      case 4: return is_signed ? zr::element_type::i32 : zr::element_type::u32;
      case 8: return is_signed ? zr::element_type::i64 : zr::element_type::u64;
      default: return std::nullopt;
    }
  }
  if (kind == 'f' && (size == 2 || size == 4 || size == 8))
    return size == 2 ? zr::element_type::f16 : size == 4 ? zr::element_type::f32 : zr::element_type::f64;
  return std::nullopt;
}

zr::element_type element_type_of(const py::dtype& dtype) {
  // The library reads elements in the host's byte order: swapped bytes would be other numbers, not an error.
  if (!dtype.attr("isnative").cast<bool>())
    throw zr::InvalidArgumentError("dtype " + dtype.attr("str").cast<std::string>() +
                                   " is not in the host's byte order: convert it with "
                                   "x.astype(x.dtype.newbyteorder('='))");
  if (const auto type = native_element_type(dtype)) return *type;
  throw zr::InvalidArgumentError("dtype " + dtype.attr("name").cast<std::string>() +
                                 " is not reduced by ze-reduce (int8..int64, uint8..uint64, float16, float32, "
                                 "float64 and bool are)");
}

zr::op_kind op_of(const std::string& name) {
  for (int op = 0; op <= static_cast<int>(zr::op_kind::logical_or); ++op)
    if (zr::to_string(static_cast<zr::op_kind>(op)) == name) return static_cast<zr::op_kind>(op);
  throw zr::InvalidArgumentError("'" + name + "' is not an operation (plus, multiplies, minimum, maximum, bit_and, "
                                 "bit_or, bit_xor, logical_and, logical_or)");
}

zr::strategy strategy_of(const std::string& name) {
  for (int s = 0; s <= static_cast<int>(zr::strategy::global_atomics); ++s)
    if (zr::to_string(static_cast<zr::strategy>(s)) == name) return static_cast<zr::strategy>(s);
  throw zr::InvalidArgumentError("'" + name + "' is not a strategy (tree, subgroup, work_group, local_atomics, "
                                 "cpu_chunks, last_group, global_atomics)");
}

// One queue per device index (the default device under -1), made on first use and shared by every thread:
// a zr::queue may be used from several threads at once.
zr::queue& queue_for(long device) {
  static std::mutex mutex;
  static std::map<long, zr::queue> queues;
  std::lock_guard lock(mutex);
  auto found = queues.find(device);
  if (found == queues.end()) {
    zr::queue made = device < 0 ? zr::queue() : zr::queue(zr::get_device(static_cast<std::size_t>(device)));
    found = queues.emplace(device, std::move(made)).first;
  }
  return found->second;
}

// An array in a device allocation (zereduce.asarray): copied there once, reduced in place as often as wanted.
class DeviceArray {
 public:
  DeviceArray(const py::array& host, long device)
      : device_(device), queue_(queue_for(device)), dtype_(host.dtype()), shape_(host.shape(), host.shape() + host.ndim()) {
    if (!(host.flags() & py::array::c_style)) throw zr::InvalidArgumentError("_zereduce.DeviceArray takes a contiguous array");
    (void)element_type_of(dtype_);  // before the copy: a dtype it refuses would make every later reduction wrong
    bytes_ = static_cast<std::uint64_t>(host.nbytes());
    data_ = queue_.malloc_device_bytes(bytes_);
    py::gil_scoped_release released;
    queue_.memcpy(data_, host.data(), bytes_).wait();
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { queue_.free(data_); }  // waits for the queue's work, reductions of this array included

  py::array to_numpy() const {
    py::array host(dtype_, shape_);
    void* destination = host.mutable_data();
    py::gil_scoped_release released;
    queue_.memcpy(destination, data_, bytes_).wait();
    return host;
  }
  const void* data() const { return data_; }
  long device() const { return device_; }
  const py::dtype& dtype() const { return dtype_; }
  const std::vector<py::ssize_t>& shape() const { return shape_; }
  std::uint64_t size() const { return bytes_ / static_cast<std::uint64_t>(dtype_.itemsize()); }
  std::uint64_t nbytes() const { return bytes_; }

 private:
  long device_;
  mutable zr::queue queue_;  // copies are submissions: not const in the C++ API
  py::dtype dtype_;
  std::vector<py::ssize_t> shape_;
  std::uint64_t bytes_ = 0;
  void* data_ = nullptr;
};

// A submitted reduction: its event, the result's storage that the work writes, and the input it reads (kept
// alive until the work is done). wait() releases the GIL and waits in short slices, checking for signals
// between them, so that Ctrl-C interrupts a long wait (the work itself runs on; zereduce keeps it alive).
class Submission {
 public:
  // The results land in a NumPy array of their own, which result() hands out as it is: no copy of 16.7M row sums
  // (uninitialised, as numpy.empty: the work writes every element).
  Submission(py::object input_owner, py::dtype dtype, std::size_t results, bool scalar)
      : input_owner_(std::move(input_owner)), dtype_(std::move(dtype)), scalar_(scalar),
        storage_(dtype_, std::vector<py::ssize_t>{static_cast<py::ssize_t>(results)}) {}
  Submission(const Submission&) = delete;
  Submission& operator=(const Submission&) = delete;
  ~Submission() {
    // The work writes storage_ and reads the input: neither may go before it is done.
    if (event_.is_complete()) return;
    py::gil_scoped_release released;
    try {
      event_.wait();
    } catch (const zr::Error&) {
      // Nobody asked for the result: its error has no one to go to.
    }
  }

  std::byte* storage() { return static_cast<std::byte*>(storage_.mutable_data()); }
  void start(zr::event event) { event_ = std::move(event); }
  bool done() const { return event_.is_complete(); }

  // True once the work is done (rethrowing its error); false if `timeout_s` passed first (None: no limit).
  bool wait(std::optional<double> timeout_s) const {
    using clock = std::chrono::steady_clock;
    constexpr auto slice = std::chrono::milliseconds(50);
    const auto deadline = timeout_s ? clock::now() + std::chrono::duration_cast<clock::duration>(
                                                         std::chrono::duration<double>(std::max(0.0, *timeout_s)))
                                    : clock::time_point::max();
    for (;;) {
      const auto left = deadline - clock::now();
      bool done = false;
      {
        py::gil_scoped_release released;
        done = event_.wait_for(std::min<clock::duration>(slice, std::max<clock::duration>(left, clock::duration::zero())));
      }
      if (done) return true;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (clock::now() >= deadline) return false;
    }
  }

  // The result (waiting for it): a 0-d array for a scalar reduction, one value per column otherwise; the same
  // array on every call, as concurrent.futures gives the same object.
  py::array result() {
    (void)wait(std::nullopt);
    if (scalar_) return storage_.reshape(std::vector<py::ssize_t>{});
    return storage_;
  }

 private:
  py::object input_owner_;
  py::dtype dtype_;
  bool scalar_;
  py::array storage_;
  zr::event event_;
};

// The elements a reduction reads: a C-contiguous NumPy array (read in place on CPU devices, copied to others by
// the library) or a DeviceArray (whose device `device` becomes; another one asked for is refused).
struct InputView {
  const void* data = nullptr;
  std::uint64_t n = 0;
  py::dtype dtype;
  std::vector<py::ssize_t> shape;
  bool host_input = true;
};

InputView input_of(const py::object& values, long& device, const std::string& caller) {
  InputView view;
  if (py::isinstance<DeviceArray>(values)) {
    const auto& array = values.cast<const DeviceArray&>();
    if (device >= 0 && device != array.device())
      throw zr::InvalidArgumentError("the array lives on device " + std::to_string(array.device()) +
                                     ", but device=" + std::to_string(device) + " was asked for");
    device = array.device();
    view = {array.data(), array.size(), array.dtype(), array.shape(), false};
  } else {
    const auto array = values.cast<py::array>();
    if (!(array.flags() & py::array::c_style)) throw zr::InvalidArgumentError(caller + " takes a contiguous array");
    if (array.size() > 0 && reinterpret_cast<std::uintptr_t>(array.data()) % static_cast<std::uintptr_t>(array.itemsize()) != 0)
      throw zr::InvalidArgumentError(caller + " takes an array aligned to its " + std::to_string(array.itemsize()) +
                                     "-byte elements (this one starts at an odd address: copy it with numpy.array)");
    view = {array.data(), static_cast<std::uint64_t>(array.size()), array.dtype(),
            std::vector<py::ssize_t>(array.shape(), array.shape() + array.ndim()), true};
  }
  return view;
}

// Starts the reduction of `values`: a C-contiguous NumPy array (1-D, or 2-D reduced along its first axis into
// one value per column: the library's array reduction) or a DeviceArray (all of it, or with `columns` its rows
// of shape[1] values). `initial` (one value of the dtype per result, or None) is folded in; without it the
// result starts from the operation's identity. `identity` (one value, or None) is a user identity as in SYCL's
// reduction(var, identity, op): it must be the operation's identity.
std::unique_ptr<Submission> submit(const py::object& values, const std::string& op_name,
                                   const std::optional<py::array>& initial, const std::optional<py::array>& identity,
                                   bool deterministic, bool reproducible,
                                   const std::optional<std::string>& strategy_name, long device, bool columns) {
  const InputView view = input_of(values, device, "_zereduce.submit");
  if (columns && view.shape.size() != 2) throw zr::InvalidArgumentError("axis=0 needs a 2-D array");
  const std::size_t column_count = columns ? static_cast<std::size_t>(view.shape[1]) : 1;
  const void* data = view.data;
  const std::uint64_t n = view.n;
  const py::dtype& dtype = view.dtype;
  const bool host_input = view.host_input;
  if (columns && column_count == 0) throw zr::InvalidArgumentError("an array reduction needs at least one column");
  const zr::element_type type = element_type_of(dtype);
  const zr::op_kind op = op_of(op_name);
  std::optional<zr::strategy> strategy;
  if (strategy_name) strategy = strategy_of(*strategy_name);
  auto job = std::make_unique<Submission>(values, dtype, column_count, !columns);
  if (identity && (!identity->dtype().is(dtype) || identity->size() != 1))
    throw zr::InvalidArgumentError("the identity must be one value of the array's dtype");
  if (initial) {
    if (!initial->dtype().is(dtype) || static_cast<std::size_t>(initial->size()) != column_count)
      throw zr::InvalidArgumentError("the initial value must be one value of the array's dtype per result");
    std::memcpy(job->storage(), initial->data(), column_count * static_cast<std::size_t>(dtype.itemsize()));
  }
  zr::queue& q = queue_for(device);
  zr::tools::visit_pair(type, op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    zr::property_list props;
    if (!initial) props = props.with(zr::property::reduction::initialize_to_identity{});
    if (deterministic) props = props.with(zr::property::reduction::deterministic{});
    if (reproducible) props = props.with(zr::property::reduction::reproducible{});
    if (strategy) props = props.with(zr::property::reduction::use_strategy{*strategy});
    auto* results = reinterpret_cast<T*>(job->storage());
    const auto* input = static_cast<const T*>(data);
    T identity_value{};
    if (identity) std::memcpy(&identity_value, identity->data(), sizeof(T));
    // The library refuses an identity that is not one (it would change the result).
    auto described = [&](auto variable) {
      return identity ? zr::reduction(variable, identity_value, Op{}, props) : zr::reduction(variable, Op{}, props);
    };
    auto reduction = columns ? described(std::span<T>(results, column_count)) : described(results);
    // Small work runs on this thread (queue.hpp): without the GIL, as other threads may be reducing too.
    py::gil_scoped_release released;
    job->start(host_input ? q.reduce(std::span<const T>(input, n), reduction) : q.reduce(input, n, reduction));
  });
  return job;
}

using OffsetArray = py::array_t<std::int64_t, py::array::c_style>;

OffsetArray offset_array(const py::array& offsets, const char* what) {
  if (!offsets.dtype().is(py::dtype::of<std::int64_t>()) || offsets.ndim() != 1 || !(offsets.flags() & py::array::c_style))
    throw zr::InvalidArgumentError(std::string(what) + " must be a contiguous 1-D int64 array");
  return offsets.cast<OffsetArray>();
}

// The segments of a segmented call, checked: `offsets` (segments + 1), or with `ends` begins and ends (as many of
// each), or, with neither, rows of `columns` values.
struct SegmentArrays {
  std::optional<OffsetArray> bounds, end_bounds;
  std::uint64_t segments = 0;
};
SegmentArrays segment_arrays(std::uint64_t n, const std::optional<py::array>& offsets, std::uint64_t columns,
                             const std::optional<py::array>& ends) {
  SegmentArrays arrays;
  if (ends && !offsets) throw zr::InvalidArgumentError("segment ends need the segments' begins too");
  if (offsets) {
    arrays.bounds = offset_array(*offsets, ends ? "segment begins" : "segment offsets");
    if (ends) {
      arrays.end_bounds = offset_array(*ends, "segment ends");
      if (arrays.end_bounds->size() != arrays.bounds->size())
        throw zr::InvalidArgumentError("the segments' begin offsets are " + std::to_string(arrays.bounds->size()) +
                                       " but their end offsets " + std::to_string(arrays.end_bounds->size()) +
                                       ": give one begin and one end per segment");
    } else if (arrays.bounds->size() == 0) {
      throw zr::InvalidArgumentError("segment offsets: give segments + 1 of them (none were given)");
    }
  } else if (columns == 0 ? n != 0 : n % columns != 0) {
    throw zr::InvalidArgumentError("rows of " + std::to_string(columns) + " values cannot hold the " +
                                   std::to_string(n) + " values given");
  }
  arrays.segments = arrays.end_bounds ? static_cast<std::uint64_t>(arrays.bounds->size())
                    : arrays.bounds   ? static_cast<std::uint64_t>(arrays.bounds->size() - 1)
                    : columns         ? n / columns
                                      : 0;
  return arrays;
}

// Starts a segmented reduction of all of `values` (a C-contiguous NumPy array or a DeviceArray): with `offsets`
// (segments + 1 int64 values, host memory the library copies as needed) queue::reduce_segments; with `ends` too,
// `offsets` are the segments' begins and `ends` their ends (as many of each); else rows of `columns` values
// (queue::reduce_rows). `initial` as for submit, one value per segment; `reproducible`: floating sums per segment
// as binned sums.
std::unique_ptr<Submission> submit_segments(const py::object& values, const std::optional<py::array>& offsets,
                                            std::uint64_t columns, const std::string& op_name,
                                            const std::optional<py::array>& initial, bool deterministic, long device,
                                            const std::optional<py::array>& ends, bool reproducible) {
  const InputView view = input_of(values, device, "_zereduce.submit_segments");
  const zr::element_type type = element_type_of(view.dtype);
  const zr::op_kind op = op_of(op_name);
  const SegmentArrays arrays = segment_arrays(view.n, offsets, columns, ends);
  const std::optional<OffsetArray>& bounds = arrays.bounds;
  const std::optional<OffsetArray>& end_bounds = arrays.end_bounds;
  const std::uint64_t segments = arrays.segments;
  auto job = std::make_unique<Submission>(end_bounds ? py::make_tuple(values, *bounds, *end_bounds)
                                          : bounds   ? py::make_tuple(values, *bounds)
                                                     : py::make_tuple(values),
                                          view.dtype, static_cast<std::size_t>(segments), false);
  if (initial) {
    if (!initial->dtype().is(view.dtype) || static_cast<std::uint64_t>(initial->size()) != segments)
      throw zr::InvalidArgumentError("the initial value must be one value of the array's dtype per segment");
    std::memcpy(job->storage(), initial->data(), segments * static_cast<std::size_t>(view.dtype.itemsize()));
  }
  zr::queue& q = queue_for(device);
  zr::tools::visit_pair(type, op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    zr::property_list props;
    if (!initial) props = props.with(zr::property::reduction::initialize_to_identity{});
    if (deterministic) props = props.with(zr::property::reduction::deterministic{});
    if (reproducible) props = props.with(zr::property::reduction::reproducible{});
    auto* results = reinterpret_cast<T*>(job->storage());
    const auto* input = static_cast<const T*>(view.data);
    const std::int64_t* bound = bounds ? bounds->data() : nullptr;
    const std::int64_t* end_bound = end_bounds ? end_bounds->data() : nullptr;
    py::gil_scoped_release released;
    if (view.host_input) {
      const std::span<const T> host(input, view.n);
      const std::span<T> out(results, segments);
      if (end_bound)
        job->start(q.reduce_segments(host, std::span<const std::int64_t>(bound, segments),
                                     std::span<const std::int64_t>(end_bound, segments), out, Op{}, props));
      else if (bound)
        job->start(q.reduce_segments(host, std::span<const std::int64_t>(bound, segments + 1), out, Op{}, props));
      else
        job->start(q.reduce_rows(host, columns, out, Op{}, props));
    } else if (end_bound) {
      job->start(q.reduce_segments(input, view.n, bound, end_bound, segments, results, Op{}, props));
    } else {
      job->start(bound ? q.reduce_segments(input, view.n, bound, segments, results, Op{}, props)
                       : q.reduce_rows(input, segments, columns, results, Op{}, props));
    }
  });
  return job;
}

// The fast paths (reduce_now, arg_now, reduceat_now) reduce arrays that the default device's host path takes, on
// this thread. Up to this many bytes they hold the GIL (a few microseconds, of which releasing and taking it back
// would be a good part); above it they release it for the run, as NumPy's own loops do.
constexpr std::uint64_t kHoldGilBytes = 64 << 10;

// Runs `submit` (work that the calling thread does itself, or, should the library choose the device after all,
// queues) and waits for it: with the GIL held for at most kHoldGilBytes of input (an error of work run at once
// rethrown; queued work waited for without the GIL), else with the GIL released for both.
template <typename Submit>
void run_at_once(std::uint64_t bytes, Submit&& submit) {
  if (bytes > kHoldGilBytes) {
    py::gil_scoped_release released;
    submit().wait();
    return;
  }
  const zr::event done = submit();
  if (done.is_complete()) {
    done.wait();
  } else {
    py::gil_scoped_release released;
    done.wait();
  }
}

// A NumPy scalar of `dtype` holding the bytes at `value` (what numpy.sum returns), made by NumPy's
// PyArray_Scalar: pybind11 does not wrap it, and a 0-d array indexed with () from Python took about 0.3 us more.
// Its slot in NumPy's C-API table (60) has not moved since NumPy 1.0.
py::object numpy_scalar(const void* value, const py::dtype& dtype) {
  using ScalarFunction = PyObject* (*)(void*, PyObject*, PyObject*);
  static const ScalarFunction make = [] {
    const py::object table = py::module_::import("numpy.core.multiarray").attr("_ARRAY_API");
    void** api = static_cast<void**>(PyCapsule_GetPointer(table.ptr(), nullptr));
    if (api == nullptr) throw py::error_already_set();
    return reinterpret_cast<ScalarFunction>(api[60]);
  }();
  PyObject* scalar = make(const_cast<void*>(value), dtype.ptr(), nullptr);
  if (scalar == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(scalar);
}

// zereduce.sum(x) and its siblings without keyword arguments (or with an int `axis` alone), on a NumPy array that
// is C-contiguous, aligned, of a dtype in the host's byte order, not empty, and small enough for the default
// device's host path (a CPU device reduces it on this thread: core/host_path*.hpp): reduced at once (run_at_once),
// the result returned as a NumPy scalar (as numpy.sum's), or with `axis` an array: the last axis as rows
// (queue::reduce_rows, shaped as the array without that axis; a scalar for a 1-D array) or axis 0 of a 2-D array
// (an array reduction, a result per column). None for anything else: the general path converts or refuses, and
// waits for devices without the GIL and with Ctrl-C able to interrupt the wait while it keeps the work's memory
// alive.
py::object reduce_now(const py::handle& values, int op_index, std::optional<long> axis) {
  static const std::uint64_t host_path_bytes = queue_for(-1).get_device().host_path_max_bytes();
  static const std::uint64_t segment_host_path_bytes = queue_for(-1).get_device().host_path_max_segment_bytes();
  if (!py::isinstance<py::array>(values)) return py::none();
  const auto array = py::reinterpret_borrow<py::array>(values);
  if (!(array.flags() & py::array::c_style) || !(array.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) ||
      array.size() == 0)
    return py::none();
  const py::ssize_t ndim = array.ndim();
  const long last = static_cast<long>(ndim) - 1;
  const bool rows = axis && (*axis == -1 || *axis == last);
  const bool columns = axis && ndim == 2 && (*axis == 0 || *axis == -2);
  if (axis && ((!rows && !columns) || ndim == 0)) return py::none();
  const auto bytes = static_cast<std::uint64_t>(array.nbytes());
  if (bytes > (rows ? segment_host_path_bytes : host_path_bytes)) return py::none();
  const py::dtype dtype = array.dtype();
  const auto type = native_element_type(dtype);
  if (!type || op_index < 0 || op_index > static_cast<int>(zr::op_kind::logical_or)) return py::none();
  const auto op = static_cast<zr::op_kind>(op_index);
  const auto n = static_cast<std::uint64_t>(array.size());
  const auto width = static_cast<std::uint64_t>(axis ? array.shape(rows ? ndim - 1 : 1) : 1);
  std::vector<py::ssize_t> shape;  // the result's: the array's without the reduced axis
  if (rows) shape.assign(array.shape(), array.shape() + ndim - 1);
  if (columns) shape = {array.shape(1)};
  zr::queue& q = queue_for(-1);
  const bool one_value = shape.empty();  // no axis, or the one axis of a 1-D array
  alignas(8) std::byte scalar[8];        // then the result, the widest element
  std::optional<py::array> out;  // (a default py::array is a new empty array, not nothing)
  if (!one_value) out.emplace(dtype, shape);
  void* result = one_value ? static_cast<void*>(scalar) : out->mutable_data();
  const void* input = array.data();
  zr::tools::visit_pair(*type, op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    const zr::property_list props{zr::property::reduction::initialize_to_identity{}};
    const std::span<const T> host(static_cast<const T*>(input), n);
    auto* results = static_cast<T*>(result);
    run_at_once(bytes, [&] {
      return rows      ? q.reduce_rows(host, width, std::span<T>(results, n / width), Op{}, props)
             : columns ? q.reduce(host, zr::reduction(std::span<T>(results, width), Op{}, props))
                       : q.reduce(host, zr::reduction(results, Op{}, props));
    });
  });
  return one_value ? numpy_scalar(scalar, dtype) : py::object(std::move(*out));
}

// zereduce.argmax(x) and argmin(x) without keyword arguments, on a NumPy array as reduce_now takes it (C-contiguous,
// aligned, a numeric dtype in the host's byte order, not empty, small enough for the default device's host path):
// found at once with the GIL held, as (index, the value as a NumPy scalar); None for anything else (the general path).
py::object arg_now(const py::handle& values, bool maximum) {
  static const std::uint64_t host_path_bytes = queue_for(-1).get_device().host_path_max_bytes();
  if (!py::isinstance<py::array>(values)) return py::none();
  const auto array = py::reinterpret_borrow<py::array>(values);
  if (!(array.flags() & py::array::c_style) || !(array.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) ||
      array.size() == 0 || static_cast<std::uint64_t>(array.nbytes()) > host_path_bytes)
    return py::none();
  const py::dtype dtype = array.dtype();
  const auto type = native_element_type(dtype);
  if (!type || *type == zr::element_type::boolean) return py::none();
  zr::queue& q = queue_for(-1);
  alignas(8) std::byte value[8];  // the extreme, the widest element
  std::uint64_t index = 0;
  zr::tools::visit_element_type(*type, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    if constexpr (zr::detail::is_arithmetic_v<T>) {
      zr::arg_result<T> result;
      const std::span<const T> host(static_cast<const T*>(array.data()), static_cast<std::uint64_t>(array.size()));
      run_at_once(host.size_bytes(), [&] { return maximum ? q.argmax(host, &result) : q.argmin(host, &result); });
      std::memcpy(value, &result.value, sizeof(T));
      index = result.index;
    }
  });
  return py::make_tuple(index, numpy_scalar(value, dtype));
}

// reduce_now and arg_now as CPython METH_FASTCALL functions: pybind11's dispatcher (its argument loaders, an
// overload loop and a call record) took about 1,500 instructions a call, a third of what these fast paths add to
// the C++ call (callgrind, 2^10 float32; bench/results/python_binding_2026-11-30). Exceptions are turned into
// Python ones by the translators pybind11 registered, as its dispatcher does.
PyObject* raise_translated() {
  try {
    throw;
  } catch (py::error_already_set& error) {
    error.restore();
  } catch (...) {
    if (!py::detail::apply_exception_translators(py::detail::get_local_internals().registered_exception_translators) &&
        !py::detail::apply_exception_translators(py::detail::get_internals().registered_exception_translators))
      PyErr_SetString(PyExc_SystemError, "an exception escaped zereduce's exception translators");
  }
  return nullptr;
}

// An int argument; false with Python's TypeError or OverflowError set when it is none or does not fit.
bool long_argument(PyObject* value, long& out) {
  out = PyLong_AsLong(value);
  return !(out == -1 && PyErr_Occurred());
}

// reduce_now(values, op[, axis])
PyObject* reduce_now_fastcall(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count < 2 || count > 3) {
    PyErr_SetString(PyExc_TypeError, "reduce_now(values, op, axis=None) takes 2 or 3 positional arguments");
    return nullptr;
  }
  long op = 0;
  if (!long_argument(args[1], op)) return nullptr;
  std::optional<long> axis;
  if (count == 3 && args[2] != Py_None) {
    long value = 0;
    if (!long_argument(args[2], value)) return nullptr;
    axis = value;
  }
  // An op index out of int's range is no op (None), never another op by truncation.
  const int op_index = op >= 0 && op <= std::numeric_limits<int>::max() ? static_cast<int>(op) : -1;
  try {
    return reduce_now(py::handle(args[0]), op_index, axis).release().ptr();
  } catch (...) {
    return raise_translated();
  }
}

// arg_now(values, maximum)
PyObject* arg_now_fastcall(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 2) {
    PyErr_SetString(PyExc_TypeError, "arg_now(values, maximum) takes 2 positional arguments");
    return nullptr;
  }
  const int maximum = PyObject_IsTrue(args[1]);
  if (maximum < 0) return nullptr;
  try {
    return arg_now(py::handle(args[0]), maximum != 0).release().ptr();
  } catch (...) {
    return raise_translated();
  }
}

PyMethodDef fast_paths[] = {
    {"reduce_now", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&reduce_now_fastcall)), METH_FASTCALL,
     "reduce_now(values, op, axis=None): zereduce.sum and its siblings at once, or None"},
    {"arg_now", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&arg_now_fastcall)), METH_FASTCALL,
     "arg_now(values, maximum): zereduce.argmax/argmin at once as (index, value), or None"},
};

// NumPy's reduceat at once, for its usual call: a small 1-D C-contiguous array the default device reduces on the
// calling thread (a CPU device's host path), int64 indices strictly increasing inside it, one of the nine ops (by
// the library's name). The segments are indices[s] .. indices[s + 1] (the last to the end), reduced from the
// identity as zereduce.segment_reduce reduces them. None for anything else: the Python path then checks, converts,
// handles repeated and decreasing indices, and raises NumPy's errors.
py::object reduceat_now(const py::handle& values, const py::handle& indices, const std::string& op_name) {
  static const std::uint64_t host_path_bytes = queue_for(-1).get_device().host_path_max_segment_bytes();
  if (!py::isinstance<py::array>(values) || !py::isinstance<py::array>(indices)) return py::none();
  const auto array = py::reinterpret_borrow<py::array>(values);
  const auto starts = py::reinterpret_borrow<py::array>(indices);
  auto contiguous_aligned = [](const py::array& a) {
    return (a.flags() & py::array::c_style) && (a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_);
  };
  if (array.ndim() != 1 || !contiguous_aligned(array) || array.size() == 0 ||
      static_cast<std::uint64_t>(array.nbytes()) > host_path_bytes)
    return py::none();
  if (starts.ndim() != 1 || starts.size() == 0 || !starts.dtype().is(py::dtype::of<std::int64_t>()) ||
      !contiguous_aligned(starts))
    return py::none();
  const auto type = native_element_type(array.dtype());
  zr::op_kind op;
  try {
    op = op_of(op_name);
  } catch (const zr::InvalidArgumentError&) {
    return py::none();
  }
  if (!type) return py::none();
  const auto n = static_cast<std::int64_t>(array.size());
  const auto segments = static_cast<std::size_t>(starts.size());
  const auto* first = static_cast<const std::int64_t*>(starts.data());
  std::vector<std::int64_t> offsets(segments + 1);
  std::int64_t previous = -1;
  for (std::size_t s = 0; s < segments; ++s) {
    if (first[s] <= previous || first[s] >= n) return py::none();
    offsets[s] = previous = first[s];
  }
  offsets[segments] = n;
  py::array out(array.dtype(), std::vector<py::ssize_t>{static_cast<py::ssize_t>(segments)});
  zr::queue& q = queue_for(-1);
  const bool defined = zr::tools::visit_element_type(
      *type, [&](auto type_tag) { return zr::detail::supports<typename decltype(type_tag)::type>(op); });
  if (!defined) return py::none();  // the general path names the refusal
  zr::tools::visit_pair(*type, op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    const zr::property_list props{zr::property::reduction::initialize_to_identity{}};
    const std::span<const T> host(static_cast<const T*>(array.data()), array.size());
    auto* results = static_cast<T*>(out.mutable_data());
    run_at_once(host.size_bytes(), [&] {
      return q.reduce_segments(host, std::span<const std::int64_t>(offsets), std::span<T>(results, segments), Op{}, props);
    });
  });
  return out;
}

// The properties of a blocking call that may name a strategy.
zr::property_list strategy_props(const std::optional<std::string>& strategy_name) {
  zr::property_list props;
  if (strategy_name) props = props.with(zr::property::reduction::use_strategy{strategy_of(*strategy_name)});
  return props;
}

// argmin/argmax of all of `values` (a C-contiguous NumPy array or a DeviceArray), waited for: (index, value as a
// 0-d array). Blocking with the GIL released; arg-reductions are quick enough that Ctrl-C need not cut them short.
py::tuple arg_reduce(const py::object& values, const std::string& op_name, const std::optional<std::string>& strategy_name,
                     long device) {
  const zr::op_kind op = op_name == "argmin" ? zr::op_kind::argmin : op_name == "argmax" ? zr::op_kind::argmax
      : throw zr::InvalidArgumentError("'" + op_name + "' is not an arg-reduction (argmin, argmax)");
  const InputView view = input_of(values, device, "_zereduce.arg_reduce");
  const void* data = view.data;
  const std::uint64_t n = view.n;
  const py::dtype& dtype = view.dtype;
  const bool host_input = view.host_input;
  const zr::element_type type = element_type_of(dtype);
  const zr::property_list props = strategy_props(strategy_name);
  zr::queue& q = queue_for(device);
  py::array value(dtype, std::vector<py::ssize_t>{});
  std::uint64_t index = 0;
  zr::tools::visit_element_type(type, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    if constexpr (!zr::detail::is_arithmetic_v<T>) {
      throw zr::InvalidArgumentError(op_name + " is not defined for bool (it needs an integer or floating-point dtype)");
    } else {
      zr::arg_result<T> result;
      const auto* input = static_cast<const T*>(data);
      {
        py::gil_scoped_release released;
        zr::event done = op == zr::op_kind::argmax
                             ? (host_input ? q.argmax(std::span<const T>(input, n), &result, props) : q.argmax(input, n, &result, props))
                             : (host_input ? q.argmin(std::span<const T>(input, n), &result, props) : q.argmin(input, n, &result, props));
        done.wait();
      }
      std::memcpy(value.mutable_data(), &result.value, sizeof(T));
      index = result.index;
    }
  });
  return py::make_tuple(index, value);
}

// Runs `operation` over the segments of all of `values` into host `results`, one per segment, and waits (the GIL
// released): segments by offsets, begins and ends, or rows of `columns`, as segment_arrays checked them.
template <typename T, typename Result, typename Operation>
void reduce_segments_into(zr::queue& q, const InputView& view, const SegmentArrays& arrays, std::uint64_t columns,
                          std::span<Result> results, Operation operation) {
  py::gil_scoped_release released;
  const auto* input = static_cast<const T*>(view.data);
  const std::uint64_t segments = arrays.segments;
  const std::int64_t* bound = arrays.bounds ? arrays.bounds->data() : nullptr;
  const std::int64_t* end_bound = arrays.end_bounds ? arrays.end_bounds->data() : nullptr;
  zr::event done;
  if (view.host_input) {
    const std::span<const T> host(input, view.n);
    if (end_bound)
      done = q.reduce_segments(host, std::span<const std::int64_t>(bound, segments),
                               std::span<const std::int64_t>(end_bound, segments), results, operation);
    else if (bound) done = q.reduce_segments(host, std::span<const std::int64_t>(bound, segments + 1), results, operation);
    else done = q.reduce_rows(host, columns, results, operation);
  } else if (end_bound) {  // device input: the results are host memory all the same (the library stages them)
    done = q.reduce_segments(input, view.n, bound, end_bound, segments, results.data(), operation);
  } else if (bound) {
    done = q.reduce_segments(input, view.n, bound, segments, results.data(), operation);
  } else {
    done = q.reduce_rows(input, segments, columns, results.data(), operation);
  }
  done.wait();
}

// argmin/argmax per segment of all of `values`, waited for (blocking with the GIL released, as arg_reduce):
// (indices from each segment's begin as int64, values of the array's dtype). Segments as submit_segments gives
// them: offsets, begins and ends, or rows of `columns`.
py::tuple segment_arg(const py::object& values, const std::optional<py::array>& offsets, std::uint64_t columns,
                      const std::string& op_name, long device, const std::optional<py::array>& ends) {
  const zr::op_kind op = op_name == "argmin" ? zr::op_kind::argmin : op_name == "argmax" ? zr::op_kind::argmax
      : throw zr::InvalidArgumentError("'" + op_name + "' is not an arg-reduction (argmin, argmax)");
  const InputView view = input_of(values, device, "_zereduce.segment_arg");
  const SegmentArrays arrays = segment_arrays(view.n, offsets, columns, ends);
  const std::uint64_t segments = arrays.segments;
  zr::queue& q = queue_for(device);
  py::array_t<std::int64_t> indices(static_cast<py::ssize_t>(segments));
  py::array found(view.dtype, std::vector<py::ssize_t>{static_cast<py::ssize_t>(segments)});
  zr::tools::visit_element_type(element_type_of(view.dtype), [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    if constexpr (!zr::detail::is_arithmetic_v<T>) {
      throw zr::InvalidArgumentError(op_name + " is not defined for bool (it needs an integer or floating-point dtype)");
    } else {
      std::vector<zr::arg_result<T>> results(segments);
      if (op == zr::op_kind::argmax) reduce_segments_into<T>(q, view, arrays, columns, std::span(results), zr::argmax<>());
      else reduce_segments_into<T>(q, view, arrays, columns, std::span(results), zr::argmin<>());
      auto index = indices.mutable_unchecked<1>();
      T* value = static_cast<T*>(found.mutable_data());
      for (std::uint64_t s = 0; s < segments; ++s) {
        index(static_cast<py::ssize_t>(s)) = static_cast<std::int64_t>(results[s].index);
        value[s] = results[s].value;
      }
    }
  });
  return py::make_tuple(indices, found);
}

template <typename R>
constexpr bool is_moments_result_v = std::is_same_v<R, zr::moments<float>> || std::is_same_v<R, zr::moments<double>>;

// run(transform) with the transform of zereduce/transform.hpp named op_name (core::Op's names); `value` is
// count_equal's (a 0-d array of T).
template <typename T, typename Run>
void visit_transform(const std::string& op_name, const std::optional<py::array>& value, Run&& run) {
  if (op_name == "sum_squares") run(zr::sum_of_squares{});
  else if (op_name == "norm_l2") run(zr::norm_l2{});
  else if (op_name == "norm_l1") run(zr::norm_l1{});
  else if (op_name == "count_nonzero") run(zr::count_nonzero{});
  else if (op_name == "count_equal") {
    if (!value) throw zr::InvalidArgumentError("count_equal needs the value to count");
    T counted{};
    std::memcpy(&counted, value->data(), sizeof(T));
    run(zr::count_equal<T>{counted});
  } else if (op_name == "sum_i64") run(zr::sum_as<std::int64_t>{});
  else if (op_name == "sum_u64") run(zr::sum_as<std::uint64_t>{});
  else if (op_name == "sum_f32") run(zr::sum_as<float>{});
  else if (op_name == "sum_f64") run(zr::sum_as<double>{});
  else if (op_name == "mean_var_f32") run(zr::mean_variance<float>{});
  else if (op_name == "mean_var_f64") run(zr::mean_variance<double>{});
  else throw zr::InvalidArgumentError("'" + op_name + "' is not a transform-reduction");
}

// A transform per segment of all of `values` (queue::reduce_segments with a transform), waited for: one result per
// segment, as an array of the transform's result type; a mean and variance as (count, mean, m2) arrays. Segments as
// submit_segments gives them: offsets, begins and ends, or rows of `columns`.
py::object segment_transform(const py::object& values, const std::optional<py::array>& offsets, std::uint64_t columns,
                             const std::string& op_name, const std::optional<py::array>& value, long device,
                             const std::optional<py::array>& ends) {
  const InputView view = input_of(values, device, "_zereduce.segment_transform");
  const zr::element_type type = element_type_of(view.dtype);
  const SegmentArrays arrays = segment_arrays(view.n, offsets, columns, ends);
  const auto segments = static_cast<py::ssize_t>(arrays.segments);
  zr::queue& q = queue_for(device);
  py::object out;
  zr::tools::visit_element_type(type, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    visit_transform<T>(op_name, value, [&](auto transform) {
      using Transform = decltype(transform);
      if constexpr (!zr::detail::transform_of<Transform, T>::known) {
        throw zr::InvalidArgumentError(op_name + " is not defined for " + std::string(zr::to_string(type)) +
                                       " (zereduce's documentation lists the dtypes each takes)");
      } else {
        using R = zr::transform_result_t<Transform, T>;
        std::vector<R> results(arrays.segments);
        reduce_segments_into<T>(q, view, arrays, columns, std::span(results), transform);
        if constexpr (is_moments_result_v<R>) {
          using A = decltype(R::mean);
          py::array_t<std::uint64_t> counts(segments);
          py::array_t<A> means(segments), m2s(segments);
          for (py::ssize_t s = 0; s < segments; ++s) {
            counts.mutable_at(s) = results[s].count;
            means.mutable_at(s) = results[s].mean;
            m2s.mutable_at(s) = results[s].m2;
          }
          out = py::make_tuple(counts, means, m2s);
        } else {
          // A half result (norms of float16 data) has the input's dtype; the others are plain C++ types.
          using Stored = std::conditional_t<std::is_same_v<R, zr::half>, std::uint16_t, R>;
          py::array array = std::is_same_v<R, zr::half> ? py::array(view.dtype, std::vector<py::ssize_t>{segments})
                                                        : py::array(py::dtype::of<Stored>(), std::vector<py::ssize_t>{segments});
          if (segments) std::memcpy(array.mutable_data(), results.data(), results.size() * sizeof(R));
          out = array;
        }
      }
    });
  });
  return out;
}

// A transform-reduction (zereduce/transform.hpp) of all of `values`, waited for: the result as a 0-d array of
// the op's result type. `value`: count_equal's value (a 0-d array of the input's dtype). Blocking with the GIL
// released, as arg_reduce.
py::array transform_reduce(const py::object& values, const std::string& op_name, const std::optional<py::array>& value,
                           const std::optional<std::string>& strategy_name, long device) {
  const InputView view = input_of(values, device, "_zereduce.transform_reduce");
  const zr::element_type type = element_type_of(view.dtype);
  const zr::property_list props = strategy_props(strategy_name);
  zr::queue& q = queue_for(device);
  py::array out;
  zr::tools::visit_element_type(type, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    const auto* input = static_cast<const T*>(view.data);
    auto run = [&](auto transform) {
      using Transform = decltype(transform);
      if constexpr (!zr::detail::transform_of<Transform, T>::known) {
        throw zr::InvalidArgumentError(op_name + " is not defined for " + std::string(zr::to_string(type)) +
                                       " (zereduce's documentation lists the dtypes each takes)");
      } else if constexpr (is_moments_result_v<zr::transform_result_t<Transform, T>>) {
        throw zr::InvalidArgumentError(op_name + ": means and variances come from _zereduce.moments");
      } else {
        using R = zr::transform_result_t<Transform, T>;
        R result{};
        {
          py::gil_scoped_release released;
          (view.host_input ? q.transform_reduce(std::span<const T>(input, view.n), transform, &result, props)
                           : q.transform_reduce(input, view.n, transform, &result, props))
              .wait();
        }
        // A half result (norms of float16 data) has the input's dtype; the others are plain C++ types.
        if constexpr (std::is_same_v<R, zr::half>) out = py::array(view.dtype, std::vector<py::ssize_t>{});
        else out = py::array(py::dtype::of<R>(), std::vector<py::ssize_t>{});
        std::memcpy(out.mutable_data(), &result, sizeof(R));
      }
    };
    visit_transform<T>(op_name, value, run);
  });
  return out;
}

// Mean and variance (zr::mean_variance<A>) of all of `values`, waited for: (count, mean, m2), accumulated in
// float32 or float64 as `accumulator` says.
py::tuple moments(const py::object& values, const std::string& accumulator, const std::optional<std::string>& strategy_name,
                  long device) {
  const InputView view = input_of(values, device, "_zereduce.moments");
  const zr::element_type type = element_type_of(view.dtype);
  const zr::property_list props = strategy_props(strategy_name);
  zr::queue& q = queue_for(device);
  py::tuple out;
  auto run = [&](auto transform) {
    using A = decltype(transform.mean);
    zr::tools::visit_element_type(type, [&](auto type_tag) {
      using T = typename decltype(type_tag)::type;
      if constexpr (!zr::detail::transform_of<zr::mean_variance<A>, T>::known) {
        throw zr::InvalidArgumentError("the mean and variance of " + std::string(zr::to_string(type)) + " in " + accumulator +
                                       " are not offered (float32 takes integers, float16 and float32; float64 every "
                                       "number dtype)");
      } else {
        zr::moments<A> result;
        const auto* input = static_cast<const T*>(view.data);
        {
          py::gil_scoped_release released;
          (view.host_input ? q.transform_reduce(std::span<const T>(input, view.n), zr::mean_variance<A>{}, &result, props)
                           : q.transform_reduce(input, view.n, zr::mean_variance<A>{}, &result, props))
              .wait();
        }
        out = py::make_tuple(result.count, result.mean, result.m2);
      }
    });
  };
  if (accumulator == "float32") run(zr::moments<float>{});
  else if (accumulator == "float64") run(zr::moments<double>{});
  else throw zr::InvalidArgumentError("accumulator '" + accumulator + "': float32 or float64");
  return out;
}

py::list devices() {
  py::list list;
  const auto& all = zr::get_devices();
  std::optional<zr::device> chosen;
  try {
    chosen = zr::default_device();
  } catch (const zr::Error&) {  // no device executes kernels, or ZE_REDUCE_DEVICE names none: no default
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& d = all[i];
    py::dict entry;
    entry["index"] = i;
    entry["name"] = d.name();
    entry["backend"] = std::string(zr::to_string(d.get_backend()));
    entry["kind"] = std::string(zr::to_string(d.kind()));
    entry["description"] = d.description();
    entry["executes_kernels"] = d.executes_kernels();
    entry["default"] = chosen && *chosen == d;
    entry["host_path_max_bytes"] = d.host_path_max_bytes();
    entry["host_path_max_segment_bytes"] = d.host_path_max_segment_bytes();
    list.append(entry);
  }
  return list;
}

}  // namespace

PYBIND11_MODULE(_zereduce, m) {
  m.doc() = "compiled part of zereduce: use the zereduce package";
  // Most derived last: pybind11 tries the translators of later registrations first.
  auto error = py::register_exception<zr::Error>(m, "Error", PyExc_RuntimeError);
  py::register_exception<zr::InvalidArgumentError>(m, "InvalidArgumentError", error.ptr());
  py::register_exception<zr::UnsupportedError>(m, "UnsupportedError", error.ptr());
  auto backend = py::register_exception<zr::BackendError>(m, "BackendError", error.ptr());
  py::register_exception<zr::DeviceLostError>(m, "DeviceLostError", backend.ptr());
  py::register_exception<zr::TimeoutError>(m, "TimeoutError", backend.ptr());
  m.def("devices", &devices, "every device, as ze_reduce --list shows them");
  m.def("devices_text", &zr::tools::devices_text, py::arg("verbose"), "ze_reduce --list's text (-v: verbose)");
  py::class_<DeviceArray>(m, "DeviceArray")
      .def(py::init<const py::array&, long>(), py::arg("host"), py::arg("device"))
      .def("to_numpy", &DeviceArray::to_numpy)
      .def_property_readonly("device", &DeviceArray::device)
      .def_property_readonly("dtype", &DeviceArray::dtype)
      .def_property_readonly("shape", [](const DeviceArray& a) { return py::tuple(py::cast(a.shape())); })
      .def_property_readonly("size", &DeviceArray::size)
      .def_property_readonly("nbytes", &DeviceArray::nbytes);
  py::class_<Submission>(m, "Submission")
      .def("done", &Submission::done)
      .def("wait", &Submission::wait, py::arg("timeout") = py::none())
      .def("result", &Submission::result);
  m.def("arg_reduce", &arg_reduce, py::arg("values"), py::arg("op"), py::arg("strategy"), py::arg("device"));
  m.def("moments", &moments, py::arg("values"), py::arg("accumulator"), py::arg("strategy"), py::arg("device"));
  m.def("transform_reduce", &transform_reduce, py::arg("values"), py::arg("op"), py::arg("value"), py::arg("strategy"),
        py::arg("device"));
  for (PyMethodDef& method : fast_paths) {
    PyObject* function = PyCFunction_NewEx(&method, nullptr, nullptr);
    if (function == nullptr) throw py::error_already_set();
    m.add_object(method.ml_name, py::reinterpret_steal<py::object>(function));
  }
  m.def("reduceat_now", &reduceat_now, py::arg("values"), py::arg("indices"), py::arg("op"));
  m.def("segment_transform", &segment_transform, py::arg("values"), py::arg("offsets"), py::arg("columns"), py::arg("op"),
        py::arg("value"), py::arg("device"), py::arg("ends") = py::none());
  m.def("segment_arg", &segment_arg, py::arg("values"), py::arg("offsets"), py::arg("columns"), py::arg("op"),
        py::arg("device"), py::arg("ends") = py::none());
  m.def("submit_segments", &submit_segments, py::arg("values"), py::arg("offsets"), py::arg("columns"), py::arg("op"),
        py::arg("initial"), py::arg("deterministic"), py::arg("device"), py::arg("ends") = py::none(),
        py::arg("reproducible") = false);
  m.def("submit", &submit, py::arg("values"), py::arg("op"), py::arg("initial"), py::arg("identity"),
        py::arg("deterministic"), py::arg("reproducible"), py::arg("strategy"), py::arg("device"), py::arg("columns"));
}
