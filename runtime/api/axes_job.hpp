#pragma once
// One queue::reduce_axes call: a reduction over axes of a C-contiguous N-D array (core/axes.hpp), run as the
// segmented and array reductions it is made of. The reduced axes last: one segmented reduction of rows, for every
// op. Otherwise the nine plain ops only, a pass per group of reduced axes from the last: rows, or per block of the
// axes before a group an array reduction of its columns; each pass but the last writes a temporary of the op's
// type from the identity, the last the results (folded after their values unless initialize_to_identity).
// Checked when submitted, and the first reduction planned then; the rest is made as it runs.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "api/backend_device.hpp"
#include "api/reduction_job.hpp"
#include "api/scoped_allocation.hpp"
#include "api/segmented_job.hpp"
#include "axes.hpp"
#include "zereduce/queue.hpp"

namespace zr::api {

class AxesJob {
 public:
  AxesJob(BackendDevice& device, const void* input, bool host_input, std::span<const std::uint64_t> shape,
          std::span<const std::int64_t> axes, const detail::reduction_spec& spec, core::Timestamps timestamps);

  void execute(profile& out);
  std::uint64_t elements() const { return axes_.elements; }
  std::uint64_t results() const { return axes_.results; }
  const std::string& shape_text() const { return axes_.shape_text; }

 private:
  using SubJob = std::variant<SegmentedJob, ReductionJob>;
  // Pass p's reduction of block `block` (rows: the whole pass), reading `source`.
  SubJob make_job(std::size_t p, std::uint64_t block, const void* source, bool host_source) const;
  void* target_of(std::size_t p) const;

  BackendDevice& device_;
  const void* input_;
  bool host_input_;
  detail::reduction_spec spec_;
  core::Timestamps timestamps_;
  core::AxesReduction axes_;
  std::size_t element_ = 0;
  std::vector<ScopedAllocation> temporaries_;  // pass p's output for every pass but the last
  std::optional<SubJob> first_;                // pass 0, block 0: made (checked, planned) when submitted
};

}  // namespace zr::api
