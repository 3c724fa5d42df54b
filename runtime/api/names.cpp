// Names of the public enums, the version, and zr::half's conversions.
#include "half.hpp"
#include "strategy.hpp"
#include "zereduce/device.hpp"
#include "zereduce/half.hpp"
#include "zereduce/queue.hpp"
#include "zereduce/version.hpp"

namespace zr {

// The public enums mirror the core's, value for value.
static_assert(static_cast<int>(element_type::boolean) == static_cast<int>(core::DataType::boolean));
static_assert(static_cast<int>(element_type::f16) == static_cast<int>(core::DataType::f16));
static_assert(static_cast<int>(op_kind::logical_or) == static_cast<int>(core::Op::logical_or));
static_assert(static_cast<int>(op_kind::argmax) == static_cast<int>(core::Op::argmax));
static_assert(static_cast<int>(op_kind::count_equal) == static_cast<int>(core::Op::count_equal));
static_assert(static_cast<int>(op_kind::sum_f64) == static_cast<int>(core::Op::sum_f64));
static_assert(static_cast<int>(op_kind::mean_var_f64) == static_cast<int>(core::Op::mean_var_f64));
static_assert(static_cast<int>(op_kind::user) == static_cast<int>(core::Op::user));
static_assert(static_cast<int>(op_kind::bit_and) == static_cast<int>(core::Op::bit_and));
static_assert(static_cast<int>(strategy::global_atomics) == static_cast<int>(core::Strategy::global_atomics));
static_assert(static_cast<int>(strategy::local_atomics) == static_cast<int>(core::Strategy::local_atomics));

std::string_view to_string(element_type type) { return core::name(static_cast<core::DataType>(type)); }
std::string_view to_string(op_kind op) { return core::name(static_cast<core::Op>(op)); }
std::string_view to_string(strategy s) { return core::name(static_cast<core::Strategy>(s)); }

std::string_view to_string(backend b) { return b == backend::level_zero ? "level_zero" : "opencl"; }

std::string_view to_string(device_kind k) {
  switch (k) {
    case device_kind::gpu: return "gpu";
    case device_kind::cpu: return "cpu";
    case device_kind::accelerator: return "accelerator";
    default: return "other";
  }
}

std::string_view to_string(kernel_execution::status s) {
  switch (s) {
    case kernel_execution::status::yes: return "yes";
    case kernel_execution::status::no: return "no";
    default: return "unknown";
  }
}

std::string_view to_string(memory_kind k) {
  switch (k) {
    case memory_kind::host: return "host";
    case memory_kind::device: return "device";
    case memory_kind::shared: return "shared";
    default: return "unknown";
  }
}

std::string_view version() { return ZR_VERSION; }

half::half(float value) : bits(core::float_to_half_bits(value)) {}
half::operator float() const { return core::half_bits_to_float(bits); }

}  // namespace zr
