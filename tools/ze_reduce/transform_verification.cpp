#include "transform_verification.hpp"

#include "moments_reference.hpp"
#include "transform_reference.hpp"

namespace zr::cli {

namespace {

std::optional<std::uint64_t> combine_depth(const RunOutcome& outcome) {
  const std::uint64_t depth = outcome.plans.empty() ? 0 : outcome.plans.front().combine_depth;
  return depth ? std::optional<std::uint64_t>(depth) : std::nullopt;
}

core::Scalar as_f64(long double value) { return core::Scalar::from<double>(core::DataType::f64, static_cast<double>(value)); }

}  // namespace

ColumnCheck check_moments(core::Op op, core::DataType type, std::span<const std::byte> data, std::uint64_t n,
                          std::optional<std::uint64_t> depth, const MomentsOutcome& device) {
  const core::MomentsReference reference = core::moments_reference(op, type, data, n, depth);
  const core::Moments actual{device.count, static_cast<long double>(device.mean.to_double()),
                             static_cast<long double>(device.m2.to_double())};
  ColumnCheck check;
  check.reference = {as_f64(reference.exact.mean), static_cast<double>(reference.mean_tolerance)};
  check.moments = MomentsCheck{reference.exact.count, as_f64(reference.exact.m2),
                               static_cast<double>(reference.m2_tolerance)};
  check.agrees = core::agrees(reference, actual, &check.why);
  return check;
}

Verification verify_transform(core::Op op, const Workload& workload, const RunOutcome& outcome) {
  ColumnCheck check;
  if (core::is_moments_op(op)) {
    check = check_moments(op, workload.type, workload.data, workload.n, combine_depth(outcome), outcome.moments.value());
  } else {
    // count_equal compares with its value; the other ops ignore it.
    const core::Scalar value = outcome.equal_to.value_or(core::Scalar{workload.type, {}});
    check.reference = core::transform_reference(op, workload.type, workload.data, workload.n, value,
                                                combine_depth(outcome));
    check.agrees = core::agrees(check.reference, outcome.results.at(0), &check.why);
  }
  Verification verification;
  verification.columns.push_back(std::move(check));
  return verification;
}

}  // namespace zr::cli
