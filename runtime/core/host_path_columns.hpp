#pragma once
// The host path of array reductions (a result per column of `rows` x `columns` values, NumPy's axis=0): small
// host input on a CPU device reduced on the calling thread (host_path.hpp says why). Each column is folded as
// the 1-D host path folds its elements, so a column's result has the bits of host_path_reduce over that
// column: kHostLanes accumulators, row r into lane r % kHostLanes, combined pairwise; here each lane is a row of
// accumulators, one per column, so that the loop over a row's columns is vectorised.
#include <cstddef>
#include <cstdint>

#include "strategy.hpp"

namespace zr::core {

// Whether the host path reduces these columns: the nine ops but a binned (reproducible floating) sum.
bool host_path_serves_columns(const ReductionRequest& request);

// Reduces each column of `data` (request.n = rows * columns elements, row after row) into results[c]; with
// request.include_initial each result's value is read first and folded in after its column.
void host_path_reduce_columns(const ReductionRequest& request, const std::byte* data, std::uint64_t columns,
                              std::byte* results);

}  // namespace zr::core
