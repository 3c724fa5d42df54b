#pragma once
// From the runtime values (element_type, op_kind) to the C++ types the public API is written in. Only the
// pairs the API allows are instantiated (the rest would not compile): visiting another pair throws.
#include <cstdint>
#include <string>
#include <type_traits>

#include "zereduce/zereduce.hpp"

namespace zr::tools {

template <typename F>
decltype(auto) visit_element_type(element_type type, F&& visitor) {
  switch (type) {
    case element_type::i8: return visitor(std::type_identity<std::int8_t>{});
    case element_type::i16: return visitor(std::type_identity<std::int16_t>{});
    case element_type::i32: return visitor(std::type_identity<std::int32_t>{});
    case element_type::i64: return visitor(std::type_identity<std::int64_t>{});
    case element_type::u8: return visitor(std::type_identity<std::uint8_t>{});
    case element_type::u16: return visitor(std::type_identity<std::uint16_t>{});
    case element_type::u32: return visitor(std::type_identity<std::uint32_t>{});
    case element_type::u64: return visitor(std::type_identity<std::uint64_t>{});
    case element_type::f16: return visitor(std::type_identity<half>{});
    case element_type::f32: return visitor(std::type_identity<float>{});
    case element_type::f64: return visitor(std::type_identity<double>{});
    case element_type::boolean: return visitor(std::type_identity<bool>{});
  }
  throw InvalidArgumentError("unknown element type");
}

// Calls visitor(std::type_identity<T>{}, std::type_identity<Op<T>>{}) for the typed function object of op.
template <typename F>
decltype(auto) visit_pair(element_type type, op_kind op, F&& visitor) {
  return visit_element_type(type, [&](auto type_tag) -> decltype(auto) {
    using T = typename decltype(type_tag)::type;
    auto call = [&](auto op_tag) -> decltype(auto) { return visitor(type_tag, op_tag); };
    // The visitor's result type, from an op every type has (bool has only the logical ones).
    using AnyValidOp = std::conditional_t<std::is_same_v<T, bool>, logical_and<T>, plus<T>>;
    auto refuse = [&]() -> decltype(call(std::type_identity<AnyValidOp>{})) {
      throw InvalidArgumentError(std::string(to_string(op)) + " is not defined for " + std::string(to_string(type)));
    };
    switch (op) {
      case op_kind::plus:
        if constexpr (detail::supports<T>(op_kind::plus)) return call(std::type_identity<plus<T>>{});
        break;
      case op_kind::multiplies:
        if constexpr (detail::supports<T>(op_kind::multiplies)) return call(std::type_identity<multiplies<T>>{});
        break;
      case op_kind::minimum:
        if constexpr (detail::supports<T>(op_kind::minimum)) return call(std::type_identity<minimum<T>>{});
        break;
      case op_kind::maximum:
        if constexpr (detail::supports<T>(op_kind::maximum)) return call(std::type_identity<maximum<T>>{});
        break;
      case op_kind::bit_and:
        if constexpr (detail::supports<T>(op_kind::bit_and)) return call(std::type_identity<bit_and<T>>{});
        break;
      case op_kind::bit_or:
        if constexpr (detail::supports<T>(op_kind::bit_or)) return call(std::type_identity<bit_or<T>>{});
        break;
      case op_kind::bit_xor:
        if constexpr (detail::supports<T>(op_kind::bit_xor)) return call(std::type_identity<bit_xor<T>>{});
        break;
      case op_kind::logical_and:
        if constexpr (detail::supports<T>(op_kind::logical_and)) return call(std::type_identity<logical_and<T>>{});
        break;
      case op_kind::logical_or:
        if constexpr (detail::supports<T>(op_kind::logical_or)) return call(std::type_identity<logical_or<T>>{});
        break;
      default:
        break;  // argmin/argmax and transforms are not reduction(...) ops: they have calls of their own
    }
    return refuse();
  });
}

// Whether the API defines the pair at all (the same rule the library's headers enforce at compile time).
inline bool pair_defined(element_type type, op_kind op) {
  return visit_element_type(type, [&](auto type_tag) {
    return detail::supports<typename decltype(type_tag)::type>(op);
  });
}

}  // namespace zr::tools
