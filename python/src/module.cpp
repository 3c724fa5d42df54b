// _zereduce: the compiled part of the zereduce Python package (python/zereduce/__init__.py holds the Python API
// and its NumPy conventions). It maps NumPy dtypes to the library's element types, runs one reduction of a
// C-contiguous 1-D array on a device's queue with the GIL released, and turns the library's exceptions into
// Python ones of the same names.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/type_dispatch.hpp"
#include "zereduce/zereduce.hpp"

namespace py = pybind11;

namespace {

zr::element_type element_type_of(const py::dtype& dtype) {
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
      default: break;
    }
  }
  if (kind == 'f') {
    if (size == 2) return zr::element_type::f16;
    if (size == 4) return zr::element_type::f32;
    if (size == 8) return zr::element_type::f64;
  }
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

// The reduction of a C-contiguous array: a 1-D one into a 0-d array of its dtype, a 2-D one (rows x columns)
// along its first axis into one value per column (the library's array reduction). `initial` (an array of the
// result's shape and dtype, or None) is folded in; without it the result starts from the operation's identity.
py::array reduce(const py::array& values, const std::string& op_name, const std::optional<py::array>& initial,
                 bool deterministic, bool reproducible, const std::optional<std::string>& strategy_name,
                 long device) {
  if (values.ndim() != 1 && values.ndim() != 2) throw zr::InvalidArgumentError("_zereduce.reduce takes a 1-D or 2-D array");
  if (!(values.flags() & py::array::c_style)) throw zr::InvalidArgumentError("_zereduce.reduce takes a contiguous array");
  const bool columns = values.ndim() == 2;
  const auto column_count = static_cast<std::size_t>(columns ? values.shape(1) : 1);
  if (columns && column_count == 0) throw zr::InvalidArgumentError("an array reduction needs at least one column");
  const zr::element_type type = element_type_of(values.dtype());
  const zr::op_kind op = op_of(op_name);
  std::optional<zr::strategy> strategy;
  if (strategy_name) strategy = strategy_of(*strategy_name);
  py::array result(values.dtype(), columns ? std::vector<py::ssize_t>{static_cast<py::ssize_t>(column_count)}
                                           : std::vector<py::ssize_t>{});
  if (initial) {
    if (!initial->dtype().is(values.dtype()) || static_cast<std::size_t>(initial->size()) != column_count)
      throw zr::InvalidArgumentError("the initial value must be one value of the array's dtype per result");
    std::memcpy(result.mutable_data(), initial->data(), column_count * values.itemsize());
  }
  zr::queue& q = queue_for(device);
  const auto n = static_cast<std::uint64_t>(values.size());
  const void* data = values.data();
  void* out = result.mutable_data();
  zr::tools::visit_pair(type, op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    zr::property_list props;
    if (!initial) props = props.with(zr::property::reduction::initialize_to_identity{});
    if (deterministic) props = props.with(zr::property::reduction::deterministic{});
    if (reproducible) props = props.with(zr::property::reduction::reproducible{});
    if (strategy) props = props.with(zr::property::reduction::use_strategy{*strategy});
    // Not std::vector: vector<bool> has no data().
    const auto results = std::make_unique<T[]>(column_count);
    std::memcpy(results.get(), out, column_count * sizeof(T));
    const std::span<const T> input(static_cast<const T*>(data), n);
    {
      py::gil_scoped_release released;
      if (columns) q.reduce(input, zr::reduction(std::span<T>(results.get(), column_count), Op{}, props)).wait();
      else q.reduce(input, zr::reduction(results.get(), Op{}, props)).wait();
    }
    std::memcpy(out, results.get(), column_count * sizeof(T));
  });
  return result;
}

py::list devices() {
  py::list list;
  const auto& all = zr::get_devices();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& d = all[i];
    py::dict entry;
    entry["index"] = i;
    entry["name"] = d.name();
    entry["backend"] = std::string(zr::to_string(d.get_backend()));
    entry["kind"] = std::string(zr::to_string(d.kind()));
    entry["description"] = d.description();
    entry["executes_kernels"] = d.executes_kernels();
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
  m.def("reduce", &reduce, py::arg("values"), py::arg("op"), py::arg("initial"), py::arg("deterministic"),
        py::arg("reproducible"), py::arg("strategy"), py::arg("device"));
}
