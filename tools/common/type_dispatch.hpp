#pragma once
// From the element type and op the command line names at run time to the C++ types the public API takes.
#include <cstdint>
#include <utility>

#include "data_types.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

// Calls f.template operator()<T>() with the C++ type of `type`.
template <typename F>
decltype(auto) with_element_type(core::DataType type, F&& f) {
  switch (type) {
    case core::DataType::i8: return f.template operator()<std::int8_t>();
    case core::DataType::i16: return f.template operator()<std::int16_t>();
    case core::DataType::i32: return f.template operator()<std::int32_t>();
    case core::DataType::i64: return f.template operator()<std::int64_t>();
    case core::DataType::u8: return f.template operator()<std::uint8_t>();
    case core::DataType::u16: return f.template operator()<std::uint16_t>();
    case core::DataType::u32: return f.template operator()<std::uint32_t>();
    case core::DataType::u64: return f.template operator()<std::uint64_t>();
    case core::DataType::f16: return f.template operator()<zr::half>();
    case core::DataType::f32: return f.template operator()<float>();
    case core::DataType::f64: return f.template operator()<double>();
    case core::DataType::boolean: break;
  }
  return f.template operator()<bool>();
}

// Calls f(Op{}) with the typed function object of `op` for T. Only pairs the API allows are instantiated; the
// caller checks core::is_supported first (an unsupported pair reaching here is a logic error).
template <typename T, typename F>
void with_op(core::Op op, F&& f) {
  auto call = [&]<template <typename> class Op>() {
    if constexpr (zr::detail::supports<T>(zr::detail::op_of<Op<T>>::kind)) f(Op<T>{});
  };
  switch (op) {
    case core::Op::plus: return call.template operator()<zr::plus>();
    case core::Op::multiplies: return call.template operator()<zr::multiplies>();
    case core::Op::minimum: return call.template operator()<zr::minimum>();
    case core::Op::maximum: return call.template operator()<zr::maximum>();
    case core::Op::bit_and: return call.template operator()<zr::bit_and>();
    case core::Op::bit_or: return call.template operator()<zr::bit_or>();
    case core::Op::bit_xor: return call.template operator()<zr::bit_xor>();
    case core::Op::logical_and: return call.template operator()<zr::logical_and>();
    case core::Op::logical_or: return call.template operator()<zr::logical_or>();
  }
}

}  // namespace zr::cli
