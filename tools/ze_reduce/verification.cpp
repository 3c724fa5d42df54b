#include "verification.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "arg_verification.hpp"
#include "transform_verification.hpp"

namespace zr::cli {

bool Verification::passed() const {
  return std::all_of(columns.begin(), columns.end(), [](const ColumnCheck& c) { return c.agrees; });
}

Verification verify(core::Op op, std::uint64_t columns, bool reproducible, const Workload& workload,
                    const RunOutcome& outcome) {
  if (core::is_arg_op(op)) return verify_arg(op, workload, outcome);
  if (core::is_transform_op(op) || core::is_moments_op(op)) return verify_transform(op, workload, outcome);
  Verification verification;
  const std::size_t element = core::size_of(workload.type);
  const std::uint64_t rows = columns ? workload.n / columns : 0;
  std::vector<std::byte> column_data;
  for (std::uint64_t c = 0; c < columns; ++c) {
    std::span<const std::byte> data(workload.data);
    if (columns > 1) {  // gather column c: the reference reduces a packed array
      column_data.resize(rows * element);
      for (std::uint64_t r = 0; r < rows; ++r)
        std::memcpy(column_data.data() + r * element, workload.data.data() + (r * columns + c) * element, element);
      data = column_data;
    }
    ColumnCheck check;
    // The plan's combine depth gives the tight error bound; 0 (no plan: n = 0) leaves the any-order bound.
    const std::uint64_t depth = outcome.plans.empty() ? 0 : outcome.plans.front().combine_depth;
    if (reproducible && op == core::Op::plus && core::is_floating(workload.type))
      check.reference = core::reproducible_sum_reference(workload.type, data, rows, outcome.initial);
    else
      check.reference = core::host_reference(op, workload.type, data, rows, outcome.identity, outcome.initial,
                                             depth ? std::optional<std::uint64_t>(depth) : std::nullopt);
    check.agrees = core::agrees(check.reference, outcome.results.at(c), &check.why);
    verification.columns.push_back(std::move(check));
  }
  return verification;
}

}  // namespace zr::cli
