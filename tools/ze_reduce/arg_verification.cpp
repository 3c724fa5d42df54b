#include "arg_verification.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "arg_reference.hpp"

namespace zr::cli {

namespace {

std::string hex_bits(const core::Scalar& value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, value.data(), value.size());
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", static_cast<int>(2 * value.size()), static_cast<unsigned long long>(bits));
  return text;
}

std::string candidate_text(const core::Scalar& value, std::optional<std::uint64_t> index) {
  return value.to_string() + " at index " + (index ? std::to_string(*index) : std::string("(none)"));
}

}  // namespace

Verification verify_arg(core::Op op, const Workload& workload, const RunOutcome& outcome) {
  const core::ArgCandidate reference = core::arg_reference(op, workload.type, workload.data, workload.n);
  const core::Scalar& value = outcome.results.at(0);
  ColumnCheck check;
  check.reference = {reference.value, 0.0};  // tolerance 0: bit for bit
  check.index = reference.index;
  check.agrees = reference.value.bitwise_equal(value) && outcome.index == reference.index;
  if (!check.agrees) {
    check.why = "expected " + candidate_text(reference.value, reference.index) + ", got " +
                candidate_text(value, outcome.index);
    // Two NaNs print alike: say that the bits differ (the result must be the canonical quiet NaN).
    if (!reference.value.bitwise_equal(value) && std::isnan(value.to_double()) &&
        std::isnan(reference.value.to_double()))
      check.why += " (a NaN with bits " + hex_bits(value) + ", not the canonical " + hex_bits(reference.value) + ")";
  }
  Verification verification;
  verification.columns.push_back(std::move(check));
  return verification;
}

}  // namespace zr::cli
