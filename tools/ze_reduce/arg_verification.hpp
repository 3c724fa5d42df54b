#pragma once
// --verify for argmin/argmax: the device's value and index against core::arg_reference, a sequential host
// implementation written independently of the kernels. Both must be exact: the value bit for bit (a NaN result
// is the canonical quiet NaN, so a NaN with other bits is a mismatch too) and the index equal.
#include "data_types.hpp"
#include "reduce_run.hpp"
#include "verification.hpp"
#include "workload.hpp"

namespace zr::cli {

// Precondition: core::is_arg_op(op), outcome from run_arg_reduction (one result and its index).
Verification verify_arg(core::Op op, const Workload& workload, const RunOutcome& outcome);

}  // namespace zr::cli
