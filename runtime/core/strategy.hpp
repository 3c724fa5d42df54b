#pragma once
// How a reduction is carried out on a device, and the rules that pick one from the device's capabilities.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capabilities.hpp"
#include "data_types.hpp"
#include "scalar.hpp"

namespace zr::core {

struct UserOperator;

enum class Strategy {
  tree,            // local-memory tree per work-group -> partials -> final pass(es)
  subgroup,        // sub-group reduce, then local memory across sub-groups -> partials -> final pass(es)
  work_group,      // work_group_reduce_* collective -> partials -> final pass(es)
  local_atomics,   // work-items combine through local-memory atomics -> partials -> final pass(es)
  cpu_chunks,      // one long contiguous chunk per work-item (CPU devices) -> partials -> final pass
  last_group,      // tree per group, partials, and the last group to finish reduces them: one launch
  global_atomics,  // tree per group, one global atomic per group, the last group writes the result: one launch
};

inline constexpr Strategy kAllStrategies[] = {Strategy::tree,          Strategy::subgroup,   Strategy::work_group,
                                              Strategy::local_atomics, Strategy::cpu_chunks, Strategy::last_group,
                                              Strategy::global_atomics};

std::string_view name(Strategy strategy);
std::optional<Strategy> parse_strategy(std::string_view text);
// The kernel variant (kernels.table) of the strategy's first pass.
std::string_view kernel_variant(Strategy strategy);
// Same, for a given (op, type) on a device: global atomics on floating types use the float-atomic variants,
// and cpu_chunks for floating min/max the wide-lane CPU-only variant where the device can load it.
std::string_view first_pass_variant(Strategy strategy, Op op, DataType type, const Capabilities& caps);

struct ReductionRequest {
  Op op = Op::plus;
  DataType type = DataType::f32;
  std::uint64_t n = 0;
  Scalar identity;               // element type; the known identity unless the user gave one
  bool include_initial = true;   // false with initialize_to_identity
  bool deterministic = false;
  bool reproducible = false;     // implies deterministic
  // A binned sum that leaves its merged state (binned_sum.hpp's BinnedState, 64 bytes) in the result instead
  // of the rounded value, for the caller to merge with other states and round once (queue::reduce_partial).
  // Only with is_binned_sum, and never with include_initial: a state holds the input alone.
  bool binned_state_output = false;
  std::optional<Strategy> strategy;  // asked for explicitly (testing, tuning)
  // Op::count_equal: the value counted (element type); ignored by every other op.
  Scalar transform_value;
  // Op::user: the operator (user_operator.hpp); null for every other op.
  std::shared_ptr<const UserOperator> user_operator;
};

// Whether the request runs as a binned sum (spirv_kernels/src/zr_binned.h): reproducible floating-point plus.
// Reproducible requests of other (op, type) pairs are order-independent already and run as usual.
bool is_binned_sum(const ReductionRequest& request);
// The kernel variant of a binned sum's first pass: rgrid (GPU-like, Strategy::tree), or for cpu_chunks rchunks
// (8 interleaved streams per work-item) on CPU devices of fewer than 8 compute units and rchunks4 (4 streams)
// on larger ones (spirv_kernels/src/rchunks.cl says why).
std::string_view binned_variant(Strategy strategy, const Capabilities& caps);

// Why the device cannot run this strategy for this request, or nullopt when it can.
std::optional<std::string> why_unavailable(Strategy strategy, const Capabilities& caps, const ReductionRequest& request);

struct StrategyChoice {
  Strategy strategy;
  std::string reason;  // one line a user can read: why this one
};

// The fastest strategy the device allows for the request (the requested one, if any, when it is allowed).
// Throws zr::InvalidArgumentError when the (op, type) is not allowed, zr::UnsupportedError when the device lacks a
// needed feature or the requested strategy is unavailable; the message names the device and what is missing.
StrategyChoice choose_strategy(const Capabilities& caps, const ReductionRequest& request);

}  // namespace zr::core
