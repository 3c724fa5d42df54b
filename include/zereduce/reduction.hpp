#pragma once
// zr::reduction(...): what to reduce into, with which operation and properties, as SYCL 2020's
// sycl::reduction. A reduction object is handed to queue::reduce together with the input.
//
//   reduction(T* var, op, props)             the initial *var is part of the result unless
//   reduction(T* var, identity, op, props)   initialize_to_identity is given; identity initialises the
//                                            temporaries (it must be an identity of op, as in SYCL;
//                                            another value is refused with InvalidArgumentError)
//   reduction(std::span<T, N> vars, ...)     array reduction: the input is rows of N values and vars[j]
//                                            reduces column j, as N independent scalar reductions would
//
// `var` may point to memory from this library's malloc_device/host/shared or to ordinary host memory
// (the result is then copied back when the reduction completes). It must stay valid until then.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "zereduce/properties.hpp"
#include "zereduce/types.hpp"

namespace zr {

struct user_operator_source;

namespace detail {
// The type-erased form the runtime receives.
struct reduction_spec {
  element_type type = element_type::i32;
  op_kind op = op_kind::plus;
  void* var = nullptr;
  std::uint64_t columns = 1;  // > 1 only for array reductions
  bool span = false;           // made from a std::span (queue::parallel_for: a span reducer, whatever its size)
  bool partial = false;        // var is a reproducible_partial<T> (queue::reduce_partial), not a T
  bool has_user_identity = false;
  std::array<std::byte, 8> identity{};  // the identity's bytes (known or user-given)
  std::array<std::byte, 8> operand{};   // op_kind::count_equal: the value counted
  const user_operator_source* user = nullptr;  // op_kind::user: the operator (var holds its accumulator)
  // op_kind::user without an operator: a kernel's reducer of its own (user_reduction), var holding
  // kernel_value_bytes, aligned to kernel_value_alignment.
  std::uint32_t kernel_value_bytes = 0;
  std::uint32_t kernel_value_alignment = 0;
  property_list properties;
};

template <typename T>
std::array<std::byte, 8> bytes_of(const T& value) {
  std::array<std::byte, 8> bytes{};
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

template <typename T, typename BinaryOperation>
reduction_spec make_spec(T* var, std::uint64_t columns, const T* identity, const property_list& props) {
  reduction_spec spec;
  spec.type = element_type_of<T>();
  spec.op = checked_op<T, BinaryOperation>();
  spec.var = static_cast<void*>(const_cast<std::remove_cv_t<T>*>(var));
  spec.columns = columns;
  spec.properties = props;
  if (identity) {
    spec.has_user_identity = true;
    spec.identity = bytes_of(*identity);
  } else if constexpr (has_known_identity_v<BinaryOperation, T>) {
    spec.identity = bytes_of(known_identity_v<BinaryOperation, T>);
  }
  return spec;
}

// Transparent function objects (zr::plus<>) have their identity looked up for the variable's type.
template <typename BinaryOperation, typename T>
using typed_op_t = std::conditional_t<std::is_void_v<typename op_of<std::remove_cv_t<BinaryOperation>>::operand>,
                                      typename op_of<std::remove_cv_t<BinaryOperation>>::template rebind<T>,
                                      std::remove_cv_t<BinaryOperation>>;
}  // namespace detail

// A reduction of T values into one variable (Columns == 1) or into an array of variables.
template <typename T>
class reduction_descriptor {
 public:
  using value_type = T;
  explicit reduction_descriptor(detail::reduction_spec spec) : spec_(spec) {}
  const detail::reduction_spec& spec() const { return spec_; }

 private:
  detail::reduction_spec spec_;
};

namespace detail {
template <typename T>
inline constexpr bool is_reduction_descriptor_v = false;
template <typename T>
inline constexpr bool is_reduction_descriptor_v<reduction_descriptor<T>> = true;
}  // namespace detail

template <typename T, typename BinaryOperation>
reduction_descriptor<T> reduction(T* var, BinaryOperation, const property_list& props = {}) {
  static_assert(!std::is_const_v<T>, "the reduction variable receives the result: it cannot be const");
  detail::checked_op<T, BinaryOperation>();
  static_assert(has_known_identity_v<detail::typed_op_t<BinaryOperation, T>, T>,
                "this operation has no known identity for this type: pass one, reduction(var, identity, op)");
  return reduction_descriptor<T>(
      detail::make_spec<T, detail::typed_op_t<BinaryOperation, T>>(var, 1, nullptr, props));
}

template <typename T, typename BinaryOperation>
reduction_descriptor<T> reduction(T* var, const std::type_identity_t<T>& identity, BinaryOperation,
                                  const property_list& props = {}) {
  static_assert(!std::is_const_v<T>, "the reduction variable receives the result: it cannot be const");
  detail::checked_op<T, BinaryOperation>();
  return reduction_descriptor<T>(
      detail::make_spec<T, detail::typed_op_t<BinaryOperation, T>>(var, 1, &identity, props));
}

template <typename T, std::size_t Extent, typename BinaryOperation>
reduction_descriptor<T> reduction(std::span<T, Extent> vars, BinaryOperation, const property_list& props = {}) {
  static_assert(!std::is_const_v<T>, "the reduction variables receive the results: they cannot be const");
  detail::checked_op<T, BinaryOperation>();
  static_assert(Extent != 0, "an array reduction needs at least one column");
  auto spec = detail::make_spec<T, detail::typed_op_t<BinaryOperation, T>>(vars.data(), vars.size(), nullptr, props);
  spec.span = true;
  return reduction_descriptor<T>(spec);
}

template <typename T, std::size_t Extent, typename BinaryOperation>
reduction_descriptor<T> reduction(std::span<T, Extent> vars, const std::type_identity_t<T>& identity,
                                  BinaryOperation, const property_list& props = {}) {
  static_assert(!std::is_const_v<T>, "the reduction variables receive the results: they cannot be const");
  detail::checked_op<T, BinaryOperation>();
  static_assert(Extent != 0, "an array reduction needs at least one column");
  auto spec = detail::make_spec<T, detail::typed_op_t<BinaryOperation, T>>(vars.data(), vars.size(), &identity, props);
  spec.span = true;
  return reduction_descriptor<T>(spec);
}

// The variable of a kernel's reducer of its own (ZR_USER_REDUCER_TYPE in reducer_cl.h, queue::parallel_for): A must
// have the size of the kernel's accumulator type (checked against its SPIR-V). Its combine and identity are the
// kernel's; the initial *var is part of the result unless initialize_to_identity.
template <typename A>
reduction_descriptor<A> user_reduction(A* var, const property_list& props = {}) {
  static_assert(!std::is_const_v<A>, "the reduction variable receives the result: it cannot be const");
  static_assert(std::is_trivially_copyable_v<A>, "the reduction variable must be trivially copyable");
  detail::reduction_spec spec;
  spec.type = element_type::u8;
  spec.op = op_kind::user;
  spec.var = static_cast<void*>(var);
  spec.kernel_value_bytes = static_cast<std::uint32_t>(sizeof(A));
  spec.kernel_value_alignment = static_cast<std::uint32_t>(alignof(A));
  spec.properties = props;
  return reduction_descriptor<A>(spec);
}

}  // namespace zr
