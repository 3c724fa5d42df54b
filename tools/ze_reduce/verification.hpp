#pragma once
// --verify: each result against the host reference (runtime/core/host_reference.hpp), an independent
// sequential implementation; exact for integers, bool, minimum and maximum, within the documented error bound
// for floating sums and products. argmin/argmax: value bits and index exact (arg_verification.hpp).
// Transform-reductions and means and variances: within the bounds of their references (transform_verification.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host_reference.hpp"
#include "reduce_run.hpp"
#include "workload.hpp"

namespace zr::cli {

// mean_var: the rest of the reference's state (ColumnCheck::reference holds the mean and its bound).
struct MomentsCheck {
  std::uint64_t count = 0;
  core::Scalar m2;  // f64
  double m2_tolerance = 0;
};

struct ColumnCheck {
  core::HostReference reference;
  std::optional<MomentsCheck> moments;
  std::optional<std::uint64_t> index;  // argmin/argmax: the reference's index
  bool agrees = false;
  std::string why;  // how far off, when it does not agree
};

struct Verification {
  std::vector<ColumnCheck> columns;
  bool passed() const;
};

// reproducible: a floating-point sum is checked bit for bit against the host model of the binned sum.
Verification verify(core::Op op, std::uint64_t columns, bool reproducible, const Workload& workload,
                    const RunOutcome& outcome);

}  // namespace zr::cli
