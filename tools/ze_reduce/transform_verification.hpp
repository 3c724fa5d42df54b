#pragma once
// --verify for transform-reductions and means and variances: the device's result against
// core::transform_reference and core::moments_reference, sequential host implementations written independently
// of the kernels, with the error bounds of runtime/core/transform_reference.hpp and moments_reference.hpp (counts
// and integer sums exact). The plan's combine depth tightens the bounds, as for the other ops.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "data_types.hpp"
#include "reduce_run.hpp"
#include "verification.hpp"
#include "workload.hpp"

namespace zr::cli {

// One mean_var result (the whole input's, or a segment's: `data`, n elements of `type`) against
// core::moments_reference within the bounds of combine depth `depth` (none: the any-order bound).
ColumnCheck check_moments(core::Op op, core::DataType type, std::span<const std::byte> data, std::uint64_t n,
                          std::optional<std::uint64_t> depth, const MomentsOutcome& device);

// Precondition: op is a transform or moments op, outcome from run_transform_reduction.
Verification verify_transform(core::Op op, const Workload& workload, const RunOutcome& outcome);

}  // namespace zr::cli
