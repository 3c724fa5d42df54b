#include "test_naming.hpp"

#include <cctype>

#include "reference_check.hpp"

namespace zr::conformance {

namespace {

// "bit_and" -> "BitAnd", "global_atomics" -> "GlobalAtomics".
std::string camel(std::string_view snake) {
  std::string out;
  bool upper = true;
  for (char ch : snake) {
    if (ch == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return out;
}

std::string given(const ConformanceCase& c) {
  switch (c.expectation) {
    case Expectation::pair_refused:
    case Expectation::strategy_refused: return "GivenAnyInput";
    default:
      return "Given" + std::string(camel_name(c.input)) + "Of" + std::to_string(c.n) +
             (c.segments != SegmentShape::none ? "In" + std::string(camel_name(c.segments)) + "Segments" : "");
  }
}

std::string when(const ConformanceCase& c) {
  std::string text = "When" + camel(op_label(c)) + "By" +
                     (c.kernel != KernelForm::none ? std::string(camel_name(c.kernel))
                      : c.library_choice          ? std::string(c.expect_host_path ? "HostPath" : "LibraryChoice")
                                                  : camel(to_string(c.strategy)));
  if (c.expectation == Expectation::matches_reference)
    text += c.properties.initialize_to_identity ? "FromIdentity" : "WithInitialValue";
  if (c.properties.reproducible) text += "Reproducible";
  else if (c.properties.deterministic) text += "Deterministic";
  if (c.from_host_span) text += "FromHostSpan";
  return text;
}

std::string then(const ConformanceCase& c) {
  switch (c.expectation) {
    case Expectation::pair_refused: return "ThenRefusedAsUnsupportedPair";
    case Expectation::strategy_refused: return "ThenRefusedAsUnavailableStrategy";
    case Expectation::validity_only: return "ThenAcceptedAndCompleted";
    case Expectation::matches_reference: break;
  }
  if (c.segments != SegmentShape::none)
    return checked_within_bound(c.type, c.op) ? "ThenEverySegmentWithinItsErrorBoundAndBitwiseRepeatable"
                                              : "ThenEverySegmentExactlyHostReference";
  if (c.kernel == KernelForm::span) return "ThenEveryElementOfTheSpanAgreesWithItsHostReference";
  if (c.kernel == KernelForm::own)
    return c.properties.deterministic ? "ThenEveryFieldOfItsOwnReducerAndTheSumAgreeAndBitwiseRepeatable"
                                      : "ThenEveryFieldOfItsOwnReducerAndTheSumAgree";
  if (c.kernel != KernelForm::none)
    return c.properties.deterministic ? "ThenAgreesWithTheHostReferenceAndBitwiseRepeatable" : "ThenAgreesWithTheHostReference";
  if (is_arg_op(c.op)) return "ThenTheHostReferencesValueAndFirstIndex";
  if (c.op == op_kind::user) return "ThenTheOperatorsHostReferenceAndBitwiseRepeatable";
  if (is_moments_op(c.op))
    return c.properties.deterministic ? "ThenCountExactMeanAndM2WithinBoundsAndRepeatable" : "ThenCountExactMeanAndM2WithinBounds";
  if (is_transform_op(c.op) && checked_within_bound(c.type, c.op))
    return c.properties.deterministic ? "ThenWithinTheTransformBoundAndBitwiseRepeatable" : "ThenWithinTheTransformBound";
  if (!checked_within_bound(c.type, c.op)) return "ThenExactlyHostReference";
  if (c.properties.reproducible) return "ThenBitwiseTheHostBinnedSumWithinItsBoundOfExact";
  return c.properties.deterministic ? "ThenWithinErrorBoundAndBitwiseRepeatable" : "ThenWithinErrorBound";
}

}  // namespace

std::string test_suite_name(const DeviceUnderTest& dut, const ConformanceCase& c) {
  return dut.tag() + "_" + std::string(to_string(c.type));
}

std::string test_name(const ConformanceCase& c) { return given(c) + "_" + when(c) + "_" + then(c); }

}  // namespace zr::conformance
