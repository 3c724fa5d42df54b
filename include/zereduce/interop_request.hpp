#pragma once
// What a typed interop call (zereduce/opencl.hpp, zereduce/level_zero.hpp) knows of one reduction, in the
// library's terms: the element type, the operation, its known identity and the properties.
#include <array>
#include <cstddef>

#include "zereduce/known_identity.hpp"
#include "zereduce/properties.hpp"
#include "zereduce/reduction.hpp"
#include "zereduce/types.hpp"

namespace zr::detail {

struct interop_request {
  element_type type = element_type::f32;
  op_kind op = op_kind::plus;
  std::array<std::byte, 8> identity{};
  property_list properties;
};

template <typename T, typename BinaryOperation>
interop_request make_interop_request(const property_list& properties) {
  static_assert(has_known_identity_v<typed_op_t<BinaryOperation, T>, T>,
                "this operation has no known identity for this type");
  interop_request request;
  request.type = element_type_of<T>();
  request.op = checked_op<T, BinaryOperation>();
  request.identity = bytes_of(known_identity_v<typed_op_t<BinaryOperation, T>, T>);
  request.properties = properties;
  return request;
}

}  // namespace zr::detail
