#pragma once
// One conformance case as plain data: which device, (op, type), strategy, properties, size and input, and
// what is expected of it. Cases are generated from the devices' capability tables (case_generation.hpp)
// and each becomes one GoogleTest test (test_registration.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "zereduce/zereduce.hpp"

namespace zr::conformance {

// The inputs of issue 7. Which kinds run at which sizes is decided in case_generation.cpp.
enum class InputKind : std::uint8_t {
  identity,          // every element is the op's identity
  all_equal,         // one value repeated
  ascending,
  descending,
  random,            // seeded
  integer_overflow,  // integers near their maximum: sums and products wrap many times
  signed_zeros,      // +0.0 and -0.0 mixed (minimum must give -0.0, maximum +0.0)
  subnormals,        // subnormal values of both signs
  infinities,        // finite values with +inf and -inf
  nan_first,         // finite values, a NaN at index 0
  nan_middle,        // ... at index n / 2
  nan_last,          // ... at index n - 1
  order_sensitive,   // a sum or product whose rounded result depends on the evaluation order
};
std::string_view name(InputKind kind);         // "random", "nan_first", ...
std::string_view camel_name(InputKind kind);   // "Random", "NaNFirst", ... (test names)

enum class Expectation : std::uint8_t {
  matches_reference,  // run it and compare with the host reference (and repeat when deterministic)
  pair_refused,       // the device cannot run the (op, type) at all: it must refuse before any work
  strategy_refused,   // the device does not allow this strategy here: it must refuse before any work
  validity_only,      // the device does not execute kernels: the work must be accepted and complete
};

// Segmented reductions (queue::reduce_segments, queue::reduce_rows): how the input is cut. none: one reduction
// of the whole input, as every other case.
enum class SegmentShape : std::uint8_t {
  none,
  rows,                 // equal rows of 7, or 20 for odd seeds (reduce_rows)
  rows_of_one,          // equal rows of one element (reduce_rows with one column: a map on every device; for a
                        // third of the seeds one-element segments by offsets instead, an empty one every 97)
  tiny,                 // 0 to 5 elements each: a work-item per segment
  medium,               // 20 to 700: a group per segment
  few_long,             // three segments, one of them empty: slices folded by the column passes
  power_law,            // Pareto sizes, capped at n / 2
  one_huge_among_tiny,  // segments of one, and one of n / 2
  with_empty,           // every other segment empty
  begin_end,            // begin and end arrays: segments anywhere, overlapping, leaving elements out, some empty
  beyond_2_31,          // three segments of kLargeOneByteSize elements, the middle one of 2^31 + 4 (full mode)
  // Array reductions (queue::reduce_axes over axis 0): the first n / width * width elements as rows of `width`
  // columns, one result per column; widths for each CPU shape (plans/columns.cpp): a ragged quad, the first
  // row-wise width, one chunk, several chunks (and a single row at n = 5003).
  columns_3,
  columns_16,
  columns_300,
  columns_4099,
};
// The column count of an array-reduction shape; 0 for the others.
inline std::uint64_t column_width(SegmentShape shape) {
  switch (shape) {
    case SegmentShape::columns_3: return 3;
    case SegmentShape::columns_16: return 16;
    case SegmentShape::columns_300: return 300;
    case SegmentShape::columns_4099: return 4099;
    default: return 0;
  }
}
std::string_view name(SegmentShape shape);        // "one_huge_among_tiny"
std::string_view camel_name(SegmentShape shape);  // "OneHugeAmongTiny"

// Kernels with reducers (kernel_cases.hpp): none for every other case.
enum class KernelForm : std::uint8_t { none, scalar, span, several, own };
std::string_view camel_name(KernelForm form);  // "ScalarReducer", "SpanReducer", "SeveralReducers", "OwnReducer"

struct CaseProperties {
  bool initialize_to_identity = false;
  bool deterministic = false;
  bool reproducible = false;  // implies deterministic (floating-point sums: checked bit for bit)
};

struct ConformanceCase {
  std::size_t device_slot = 0;  // index into the selected devices (device_selection.hpp)
  element_type type = element_type::i32;
  op_kind op = op_kind::plus;
  zr::strategy strategy = zr::strategy::tree;
  CaseProperties properties;
  std::uint64_t n = 0;
  InputKind input = InputKind::random;
  std::uint64_t seed = 0;
  Expectation expectation = Expectation::matches_reference;
  // Reduce from a host span (the library copies it to the device in chunks that fit one allocation) rather
  // than from a device allocation the suite makes: only for the input larger than 2^31 elements.
  bool from_host_span = false;
  // No use_strategy: the library chooses, as for a user who asks for none. With it, `strategy` only names the
  // case, and the run must take the host path (CPU devices, small host input) exactly when expect_host_path.
  bool library_choice = false;
  bool expect_host_path = false;
  // op_kind::user: which sample operator (user_operator_cases.hpp); empty for every other op.
  std::string_view user_operator;
  // A segmented reduction of the input (segmented_cases.hpp): one result per segment, each checked.
  SegmentShape segments = SegmentShape::none;
  // An application's kernel with reducers (queue::parallel_for) instead of queue::reduce.
  KernelForm kernel = KernelForm::none;
};

// argmin and argmax: the value and the index of the first extreme (queue::argmin/argmax, not reduction(...)).
inline bool is_arg_op(op_kind op) { return op == op_kind::argmin || op == op_kind::argmax; }
// The reduction op whose values an arg-reduction picks (its identity, its inputs): minimum for argmin,
// maximum for argmax; other ops are their own.
inline bool is_transform_op(op_kind op) { return op >= op_kind::sum_squares && op <= op_kind::sum_f64; }
inline bool is_moments_op(op_kind op) { return op == op_kind::mean_var_f32 || op == op_kind::mean_var_f64; }
// The op whose inputs (input_generation.hpp) and identity a case reads: argmin/argmax those of minimum/maximum,
// transform-reductions those of plus (logical_or for bool, which has no plus).
inline op_kind value_op(op_kind op, element_type type) {
  if (op == op_kind::user) return op_kind::plus;
  if (is_transform_op(op) || is_moments_op(op)) return type == element_type::boolean ? op_kind::logical_or : op_kind::plus;
  return op == op_kind::argmin ? op_kind::minimum : op == op_kind::argmax ? op_kind::maximum : op;
}

// The op as reports and test names show it: its name, "user_<operator>" for a user-defined operator, or
// "<op>_segments" for a segmented reduction.
std::string op_label(const ConformanceCase& c);

// "op plus, type i32, strategy tree, n 4097, input random (seed 17), initialize_to_identity off,
// deterministic on": the words every failure message and the report use.
std::string describe(const ConformanceCase& c);

}  // namespace zr::conformance
