#include "conformance_case.hpp"

namespace zr::conformance {

std::string_view name(InputKind kind) {
  switch (kind) {
    case InputKind::identity: return "identity";
    case InputKind::all_equal: return "all_equal";
    case InputKind::ascending: return "ascending";
    case InputKind::descending: return "descending";
    case InputKind::random: return "random";
    case InputKind::integer_overflow: return "integer_overflow";
    case InputKind::signed_zeros: return "signed_zeros";
    case InputKind::subnormals: return "subnormals";
    case InputKind::infinities: return "infinities";
    case InputKind::nan_first: return "nan_first";
    case InputKind::nan_middle: return "nan_middle";
    case InputKind::nan_last: return "nan_last";
    case InputKind::order_sensitive: return "order_sensitive";
  }
  return "unknown";
}

std::string_view camel_name(InputKind kind) {
  switch (kind) {
    case InputKind::identity: return "Identity";
    case InputKind::all_equal: return "AllEqual";
    case InputKind::ascending: return "Ascending";
    case InputKind::descending: return "Descending";
    case InputKind::random: return "Random";
    case InputKind::integer_overflow: return "IntegerOverflow";
    case InputKind::signed_zeros: return "SignedZeros";
    case InputKind::subnormals: return "Subnormals";
    case InputKind::infinities: return "Infinities";
    case InputKind::nan_first: return "NaNFirst";
    case InputKind::nan_middle: return "NaNMiddle";
    case InputKind::nan_last: return "NaNLast";
    case InputKind::order_sensitive: return "OrderSensitive";
  }
  return "Unknown";
}

std::string_view name(SegmentShape shape) {
  switch (shape) {
    case SegmentShape::none: return "none";
    case SegmentShape::rows: return "rows";
    case SegmentShape::rows_of_one: return "rows_of_one";
    case SegmentShape::tiny: return "tiny";
    case SegmentShape::medium: return "medium";
    case SegmentShape::few_long: return "few_long";
    case SegmentShape::power_law: return "power_law";
    case SegmentShape::one_huge_among_tiny: return "one_huge_among_tiny";
    case SegmentShape::with_empty: return "with_empty";
    case SegmentShape::begin_end: return "begin_end";
    case SegmentShape::beyond_2_31: return "beyond_2_31";
    case SegmentShape::columns_3: return "columns_3";
    case SegmentShape::columns_16: return "columns_16";
    case SegmentShape::columns_300: return "columns_300";
    case SegmentShape::columns_4099: return "columns_4099";
  }
  return "unknown";
}

std::string_view camel_name(SegmentShape shape) {
  switch (shape) {
    case SegmentShape::none: return "";
    case SegmentShape::rows: return "Rows";
    case SegmentShape::rows_of_one: return "RowsOfOne";
    case SegmentShape::tiny: return "Tiny";
    case SegmentShape::medium: return "Medium";
    case SegmentShape::few_long: return "FewLong";
    case SegmentShape::power_law: return "PowerLaw";
    case SegmentShape::one_huge_among_tiny: return "OneHugeAmongTiny";
    case SegmentShape::with_empty: return "WithEmpty";
    case SegmentShape::begin_end: return "BeginEnd";
    case SegmentShape::beyond_2_31: return "Beyond2To31";
    case SegmentShape::columns_3: return "Columns3";
    case SegmentShape::columns_16: return "Columns16";
    case SegmentShape::columns_300: return "Columns300";
    case SegmentShape::columns_4099: return "Columns4099";
  }
  return "Unknown";
}

std::string op_label(const ConformanceCase& c) {
  if (c.op == op_kind::user) return "user_" + std::string(c.user_operator);
  if (c.segments != SegmentShape::none) return std::string(to_string(c.op)) + "_segments";
  if (c.kernel != KernelForm::none) return std::string(to_string(c.op)) + "_in_kernel";
  return std::string(to_string(c.op));
}

std::string describe(const ConformanceCase& c) {
  return "op " + op_label(c) + ", type " + std::string(to_string(c.type)) + ", strategy " +
         std::string(to_string(c.strategy)) + ", n " + std::to_string(c.n) + ", input " +
         std::string(name(c.input)) + " (seed " + std::to_string(c.seed) + "), initialize_to_identity " +
         (c.properties.initialize_to_identity ? "on" : "off") + ", deterministic " +
         (c.properties.deterministic ? "on" : "off") +
         (c.segments != SegmentShape::none ? ", segments " + std::string(name(c.segments)) : std::string()) +
         (c.kernel != KernelForm::none ? ", kernel with " + std::string(camel_name(c.kernel)) : std::string());
}

std::string_view camel_name(KernelForm form) {
  switch (form) {
    case KernelForm::scalar: return "ScalarReducer";
    case KernelForm::span: return "SpanReducer";
    case KernelForm::several: return "SeveralReducers";
    case KernelForm::own: return "OwnReducer";
    case KernelForm::none: break;
  }
  return "";
}

}  // namespace zr::conformance
