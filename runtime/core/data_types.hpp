#pragma once
// The element types and reduction operations ze-reduce knows, with the rules of which pairs are allowed.
// This table is shared by the runtime and by the build-time kernel embedder, so it has no driver dependency.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zr::core {

enum class DataType : std::uint8_t { i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, boolean };

enum class Op : std::uint8_t {
  plus,
  multiplies,
  minimum,
  maximum,
  bit_and,
  bit_or,
  bit_xor,
  logical_and,
  logical_or,
  // Arg-reductions: the extreme value and the 64-bit index of its first occurrence (arg_plan.hpp). They are
  // not among kAllOps, the nine SYCL ops that every strategy and the fused kernel serve.
  argmin,
  argmax,
  // Transform-reductions (transform.hpp): each element is transformed (squared, made absolute, compared,
  // widened) and the results summed in an accumulator type of the op's own, in one read of the input. Not
  // among kAllOps either: they run their own kernels (ttree, tlast, tfinal) and write a result type of their own.
  sum_squares,    // sum of x*x, floating types
  norm_l2,        // sqrt of the sum of x*x, floating types
  norm_l1,        // sum of |x|, floating types
  count_nonzero,  // how many x != 0 (NaN counts), every type; a u64 result
  count_equal,    // how many x == value (never a NaN), every type; a u64 result
  sum_i64,        // integers and bool summed into i64 (wrapping modulo 2^64)
  sum_u64,        // integers and bool summed into u64 (wrapping modulo 2^64)
  sum_f32,        // f16 summed into f32
  sum_f64,        // f16 and f32 summed into f64
  // Mean and variance in one read (moments_reference.hpp): the count, the mean and the sum of squared
  // deviations m2, kept in f32 or f64, merged pairwise (Chan, Golub, LeVeque); integers, f16, f32, f64.
  mean_var_f32,
  mean_var_f64,
  // A user-defined operator (user_operator.hpp): the request names it; the type is the element's bits (u8, u16,
  // u32 or u64 by its size) and the result is the operator's accumulator.
  user,
};

inline constexpr std::array<DataType, 12> kAllDataTypes{
    DataType::i8,  DataType::i16, DataType::i32, DataType::i64, DataType::u8,  DataType::u16,
    DataType::u32, DataType::u64, DataType::f16, DataType::f32, DataType::f64, DataType::boolean};

inline constexpr std::array<Op, 9> kAllOps{Op::plus,    Op::multiplies, Op::minimum,
                                           Op::maximum, Op::bit_and,    Op::bit_or,
                                           Op::bit_xor, Op::logical_and, Op::logical_or};
inline constexpr std::array<Op, 2> kArgOps{Op::argmin, Op::argmax};
inline constexpr bool is_arg_op(Op op) { return op == Op::argmin || op == Op::argmax; }
inline constexpr std::array<Op, 9> kTransformOps{Op::sum_squares,   Op::norm_l2, Op::norm_l1,
                                                 Op::count_nonzero, Op::count_equal, Op::sum_i64,
                                                 Op::sum_u64,       Op::sum_f32, Op::sum_f64};
inline constexpr bool is_transform_op(Op op) { return op >= Op::sum_squares && op <= Op::sum_f64; }
inline constexpr std::array<Op, 2> kMomentsOps{Op::mean_var_f32, Op::mean_var_f64};
inline constexpr bool is_moments_op(Op op) { return op == Op::mean_var_f32 || op == Op::mean_var_f64; }
// The accumulator of a mean and variance, and the size of its result, zr::moments<A>: {u64 count; A mean; A m2}.
inline constexpr bool is_user_op(Op op) { return op == Op::user; }
inline constexpr DataType moments_accumulator(Op op) { return op == Op::mean_var_f64 ? DataType::f64 : DataType::f32; }
inline constexpr std::uint64_t moments_bytes(Op op) { return op == Op::mean_var_f64 ? 24 : 16; }

// Short names used in kernel entry points and on the command line: i8 ... u64, f16, f32, f64, bool.
std::string_view name(DataType type);
// The SYCL 2020 function-object names: plus, multiplies, minimum, ...; and argmin, argmax.
std::string_view name(Op op);

std::optional<DataType> parse_data_type(std::string_view text);
std::optional<Op> parse_op(std::string_view text);

std::size_t size_of(DataType type);
bool is_integer(DataType type);  // bool is not an integer here
bool is_signed_integer(DataType type);
bool is_floating(DataType type);

// The type partial results are kept in between passes: float for half (so that long half sums do not
// lose everything to rounding), the element type itself otherwise.
DataType accumulator_type(DataType type);

// Arithmetic ops and arg-reductions on integers and floating types, bitwise ops on integers only, logical ops
// on bool only; transform-reductions as listed at their Op.
bool is_supported(Op op, DataType type);

// A transform-reduction's result type (what its variable holds) and the type it sums in: u64 for counts,
// the named type for widening sums, the element type for norms and sums of squares (f32 sums for f16).
DataType transform_result_type(Op op, DataType type);
DataType transform_accumulator_type(Op op, DataType type);

// Which element types a transform-reduction, a mean and variance or a user operator takes, in words, for the
// messages that refuse another ("sum_f64 takes f16 and f32").
std::string transform_type_rule(Op op);

}  // namespace zr::core
