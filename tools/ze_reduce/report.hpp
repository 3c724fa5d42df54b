#pragma once
// What a run of ze_reduce prints: text for people, or one JSON document whose schema is
// docs/ze_reduce.schema.json (described in docs/ze_reduce.md). Both come from the same Report.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "options.hpp"
#include "reduce_run.hpp"
#include "verification.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

struct Report {
  const Options& options;
  const zr::device& device;
  std::size_t device_index;
  const Workload& workload;
  const RunOutcome& outcome;
  std::optional<Verification> verification;
  std::optional<std::uint64_t> probe_ns;  // --bandwidth
  std::optional<std::uint64_t> segments;  // --axis (other than a first axis) and --segments: the segments reduced
  std::vector<std::uint64_t> result_shape;
};

// What the op writes: the element type, or a transform-reduction's own result type, or a mean's accumulator.
core::DataType result_type(core::Op op, core::DataType element);

nlohmann::json to_json(const Report& report);
void print_text(const Report& report, std::FILE* out);

}  // namespace zr::cli
