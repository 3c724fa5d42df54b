#include "host_path_columns.hpp"

#include <algorithm>
#include <vector>

#include "host_fold.hpp"
#include "host_path.hpp"

namespace zr::core {

namespace {

template <typename Element, typename Acc, Op kOp>
void fold_columns(const ReductionRequest& request, const std::byte* data, std::uint64_t columns, std::byte* results) {
  const host_fold::Combine<Acc> combine{kOp};
  const Acc identity = host_fold::load<Element, Acc>(request.identity.data(), 0);
  const std::uint64_t rows = columns ? request.n / columns : 0;
  // Lanes past the rows would only ever hold the identity, and a combine with the identity changes no value the
  // lanes can hold (a sum from +0.0 is never -0.0): they are left out.
  const std::uint64_t lanes = std::min<std::uint64_t>(kHostLanes, rows);
  std::vector<Acc> lane(lanes * columns, identity);
  for (std::uint64_t r = 0; r < rows; ++r) {
    Acc* accumulators = lane.data() + (r % kHostLanes) * columns;
    const std::byte* row = data + r * columns * sizeof(Element);
    for (std::uint64_t c = 0; c < columns; ++c)
      accumulators[c] = combine(accumulators[c], host_fold::load<Element, Acc>(row, c));
  }
  for (std::uint64_t width = kHostLanes / 2; width >= 1; width /= 2)
    for (std::uint64_t j = 0; j < width && j + width < lanes; ++j)
      for (std::uint64_t c = 0; c < columns; ++c)
        lane[j * columns + c] = combine(lane[j * columns + c], lane[(j + width) * columns + c]);
  for (std::uint64_t c = 0; c < columns; ++c) {
    std::byte* out = results + c * sizeof(Element);
    Acc result = lanes ? lane[c] : identity;
    if (request.include_initial) result = combine(host_fold::load<Element, Acc>(out, 0), result);
    host_fold::store<Element, Acc>(request.type, result, out);
  }
}

}  // namespace

bool host_path_serves_columns(const ReductionRequest& request) {
  return host_path_serves(request) && !is_arg_op(request.op) && !is_binned_sum(request);
}

void host_path_reduce_columns(const ReductionRequest& request, const std::byte* data, std::uint64_t columns,
                              std::byte* results) {
  host_fold::with_element_types(request.type, [&]<typename Element, typename Acc>() {
    host_fold::with_op(request.op, [&]<Op kOp>() { fold_columns<Element, Acc, kOp>(request, data, columns, results); });
  });
}

}  // namespace zr::core
