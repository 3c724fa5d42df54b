#include "identity.hpp"

#include <limits>
#include <stdexcept>

#include "half.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
using zr::InvalidArgumentError;

namespace {
template <typename T>
Scalar integer_identity(Op op, DataType type) {
  switch (op) {
    case Op::plus: case Op::bit_or: case Op::bit_xor: return Scalar::from(type, T{});
    case Op::count_nonzero: case Op::count_equal: case Op::sum_i64: case Op::sum_u64: return Scalar::from(type, T{});
    case Op::mean_var_f32: case Op::mean_var_f64: return Scalar::from(type, T{});  // unused: states start empty
    case Op::user: return Scalar::from(type, T{});  // unused: the operator has its own identity, if any
    case Op::multiplies: return Scalar::from(type, T{1});
    case Op::bit_and: return Scalar::from(type, static_cast<T>(~T{}));
    case Op::minimum: case Op::argmin: return Scalar::from(type, std::numeric_limits<T>::max());
    case Op::maximum: case Op::argmax: return Scalar::from(type, std::numeric_limits<T>::lowest());
    default: break;
  }
  throw std::logic_error("no identity for this integer op");
}

template <typename T>
Scalar floating_identity(Op op, DataType type) {
  switch (op) {
    case Op::plus: return Scalar::from(type, T{});
    case Op::sum_squares: case Op::norm_l2: case Op::norm_l1: case Op::count_nonzero: case Op::count_equal:
    case Op::sum_f32: case Op::sum_f64: case Op::mean_var_f32: case Op::mean_var_f64:
      return Scalar::from(type, T{});  // transform-reductions sum from zero, moments from an empty state
    case Op::multiplies: return Scalar::from(type, T{1});
    case Op::minimum: case Op::argmin: return Scalar::from(type, std::numeric_limits<T>::infinity());
    case Op::maximum: case Op::argmax: return Scalar::from(type, -std::numeric_limits<T>::infinity());
    default: break;
  }
  throw std::logic_error("no identity for this floating-point op");
}
}  // namespace

Scalar known_identity(Op op, DataType type) {
  if (!is_supported(op, type))
    throw InvalidArgumentError(std::string(name(op)) + " is not defined for " + std::string(name(type)));
  switch (type) {
    case DataType::i8: return integer_identity<std::int8_t>(op, type);
    case DataType::i16: return integer_identity<std::int16_t>(op, type);
    case DataType::i32: return integer_identity<std::int32_t>(op, type);
    case DataType::i64: return integer_identity<std::int64_t>(op, type);
    case DataType::u8: return integer_identity<std::uint8_t>(op, type);
    case DataType::u16: return integer_identity<std::uint16_t>(op, type);
    case DataType::u32: return integer_identity<std::uint32_t>(op, type);
    case DataType::u64: return integer_identity<std::uint64_t>(op, type);
    case DataType::f16: {
      const Scalar f = floating_identity<float>(op, DataType::f32);
      return Scalar::from(type, float_to_half_bits(f.as<float>()));
    }
    case DataType::f32: return floating_identity<float>(op, type);
    case DataType::f64: return floating_identity<double>(op, type);
    case DataType::boolean:
      return Scalar::from<std::uint8_t>(type, op == Op::logical_and ? 1 : 0);
  }
  throw std::logic_error("unknown type");
}

bool is_identity(Op op, const Scalar& value) {
  const Scalar known = known_identity(op, value.type);
  if (value.bitwise_equal(known)) return true;
  if (value.type == DataType::boolean) return (value.bytes[0] != std::byte{0}) == (known.bytes[0] != std::byte{0});
  return op == Op::plus && is_floating(value.type) && value.to_double() == 0.0;
}

}  // namespace zr::core
