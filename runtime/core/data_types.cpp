#include "data_types.hpp"

namespace zr::core {

namespace {
struct TypeInfo {
  DataType type;
  std::string_view name;
  std::size_t size;
};

constexpr std::array<TypeInfo, 12> kTypes{{
    {DataType::i8, "i8", 1},
    {DataType::i16, "i16", 2},
    {DataType::i32, "i32", 4},
    {DataType::i64, "i64", 8},
    {DataType::u8, "u8", 1},
    {DataType::u16, "u16", 2},
    {DataType::u32, "u32", 4},
    {DataType::u64, "u64", 8},
    {DataType::f16, "f16", 2},
    {DataType::f32, "f32", 4},
    {DataType::f64, "f64", 8},
    {DataType::boolean, "bool", 1},
}};

constexpr std::array<std::string_view, 23> kOpNames{
    "plus",        "multiplies", "minimum",       "maximum",     "bit_and", "bit_or",  "bit_xor",
    "logical_and", "logical_or", "argmin",        "argmax",      "sum_squares", "norm_l2", "norm_l1",
    "count_nonzero", "count_equal", "sum_i64",    "sum_u64",     "sum_f32", "sum_f64", "mean_var_f32", "mean_var_f64",
    "user"};
}  // namespace

std::string_view name(DataType type) { return kTypes[static_cast<std::size_t>(type)].name; }

std::string_view name(Op op) { return kOpNames[static_cast<std::size_t>(op)]; }

std::optional<DataType> parse_data_type(std::string_view text) {
  for (const auto& info : kTypes) {
    if (info.name == text) return info.type;
  }
  return std::nullopt;
}

std::optional<Op> parse_op(std::string_view text) {
  for (Op op : kAllOps) {
    if (name(op) == text) return op;
  }
  for (Op op : kArgOps) {
    if (name(op) == text) return op;
  }
  for (Op op : kTransformOps) {
    if (name(op) == text) return op;
  }
  for (Op op : kMomentsOps) {
    if (name(op) == text) return op;
  }
  return std::nullopt;
}

std::size_t size_of(DataType type) { return kTypes[static_cast<std::size_t>(type)].size; }

bool is_integer(DataType type) {
  switch (type) {
    case DataType::i8: case DataType::i16: case DataType::i32: case DataType::i64:
    case DataType::u8: case DataType::u16: case DataType::u32: case DataType::u64:
      return true;
    default:
      return false;
  }
}

bool is_signed_integer(DataType type) {
  return type == DataType::i8 || type == DataType::i16 || type == DataType::i32 || type == DataType::i64;
}

bool is_floating(DataType type) {
  return type == DataType::f16 || type == DataType::f32 || type == DataType::f64;
}

DataType accumulator_type(DataType type) { return type == DataType::f16 ? DataType::f32 : type; }

bool is_supported(Op op, DataType type) {
  switch (op) {
    case Op::plus: case Op::multiplies: case Op::minimum: case Op::maximum: case Op::argmin: case Op::argmax:
      return is_integer(type) || is_floating(type);
    case Op::bit_and: case Op::bit_or: case Op::bit_xor:
      return is_integer(type);
    case Op::logical_and: case Op::logical_or:
      return type == DataType::boolean;
    case Op::sum_squares: case Op::norm_l2: case Op::norm_l1:
      return is_floating(type);
    case Op::count_nonzero: case Op::count_equal:
      return true;
    case Op::sum_i64: case Op::sum_u64:
      return is_integer(type) || type == DataType::boolean;
    case Op::sum_f32:
      return type == DataType::f16;
    case Op::sum_f64:
      return type == DataType::f16 || type == DataType::f32;
    case Op::mean_var_f32:
      return is_integer(type) || type == DataType::f16 || type == DataType::f32;
    case Op::mean_var_f64:
      return is_integer(type) || is_floating(type);
    case Op::user:
      return type == DataType::u8 || type == DataType::u16 || type == DataType::u32 || type == DataType::u64;
  }
  return false;
}

std::string transform_type_rule(Op op) {
  switch (op) {
    case Op::sum_squares: case Op::norm_l2: case Op::norm_l1: return "sum_squares, norm_l2 and norm_l1 take f16, f32, f64";
    case Op::sum_i64: case Op::sum_u64: return "sum_i64 and sum_u64 take integers and bool";
    case Op::sum_f32: return "sum_f32 takes f16";
    case Op::sum_f64: return "sum_f64 takes f16 and f32";
    case Op::mean_var_f32: return "mean_var_f32 takes integers, f16 and f32";
    case Op::mean_var_f64: return "mean_var_f64 takes integers and floating types";
    case Op::user: return "user operators take elements of 1, 2, 4 or 8 bytes";
    default: return "counts take every type";
  }
}

DataType transform_result_type(Op op, DataType type) {
  switch (op) {
    case Op::count_nonzero: case Op::count_equal: case Op::sum_u64: return DataType::u64;
    case Op::sum_i64: return DataType::i64;
    case Op::sum_f32: return DataType::f32;
    case Op::sum_f64: return DataType::f64;
    default: return type;
  }
}

DataType transform_accumulator_type(Op op, DataType type) {
  // Integer sums add in u64 whatever the sign: the bits of a wrapping i64 sum are those of the u64 sum.
  if (op == Op::sum_i64) return DataType::u64;
  return accumulator_type(transform_result_type(op, type));
}

}  // namespace zr::core
