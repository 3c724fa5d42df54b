#pragma once
// The transform object (zereduce/transform.hpp) of a transform-reduction or mean-and-variance op_kind, handed to a
// callable: the suite's 1-D and segmented runs build their calls from it.
#include <cstring>
#include <string>

#include "scalar.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::conformance {

// f(transform) for the op; `operand` is count_equal's value (element type), ignored by the other ops. Every call
// of f must return the same type.
template <typename T, typename F>
auto visit_transform(op_kind op, const core::Scalar& operand, F&& f) -> decltype(f(sum_of_squares{})) {
  switch (op) {
    case op_kind::mean_var_f32: return f(mean_variance<float>{});
    case op_kind::mean_var_f64: return f(mean_variance<double>{});
    case op_kind::sum_squares: return f(sum_of_squares{});
    case op_kind::norm_l2: return f(norm_l2{});
    case op_kind::norm_l1: return f(norm_l1{});
    case op_kind::count_nonzero: return f(count_nonzero{});
    case op_kind::count_equal: {
      T value{};
      std::memcpy(&value, operand.data(), sizeof(T));
      return f(count_equal<T>{value});
    }
    case op_kind::sum_i64: return f(sum_as<std::int64_t>{});
    case op_kind::sum_u64: return f(sum_as<std::uint64_t>{});
    case op_kind::sum_f32: return f(sum_as<float>{});
    case op_kind::sum_f64: return f(sum_as<double>{});
    default: throw InvalidArgumentError(std::string(to_string(op)) + " is not a transform-reduction");
  }
}

}  // namespace zr::conformance
