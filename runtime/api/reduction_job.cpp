#include "api/reduction_job.hpp"

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <sstream>
#include <vector>

#include "api/memory_checks.hpp"
#include "api/requests.hpp"
#include "api/run_profiles.hpp"
#include "api/scoped_allocation.hpp"
#include "api/user_operators.hpp"
#include "arg_reference.hpp"
#include "binned_sum.hpp"
#include "fault_injection.hpp"
#include "host_path.hpp"
#include "host_path_columns.hpp"
#include "identity.hpp"
#include "strategy.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

namespace {

// SYCL leaves a wrong identity undefined; ze-reduce refuses it rather than return a changed result.
void check_user_identity(const std::string& which, const detail::reduction_spec& spec) {
  const core::Scalar identity = identity_of(spec);
  const auto op = static_cast<core::Op>(spec.op);
  if (core::is_supported(op, identity.type) && !core::is_identity(op, identity))
    throw InvalidArgumentError(which + ": " + identity.to_string() + " is not an identity of " +
                               std::string(core::name(op)) + " on " + std::string(core::name(identity.type)) +
                               " (an identity leaves every value unchanged; this one is " +
                               core::known_identity(op, identity.type).to_string() +
                               "): give that, or use reduction(var, op) without an identity");
}

// What a host-path summary says it did: a few fixed texts, made once, so that a call copies one.
const std::string& host_path_description(const core::ReductionRequest& request, bool columns) {
  static const std::string kArg =
      "on the calling thread: the extreme of each 16 KiB block (vectorised) in one pass, then the first index of "
      "the extreme in the first block that holds it";
  auto lanes = [](bool per_column, bool binned) {
    return "on the calling thread: " + std::to_string(core::kHostLanes) + " interleaved accumulators" +
           (per_column ? " per column" : "") + " combined pairwise" +
           (binned ? " (binned sum: the host model of the kernels' bins)" : "");
  };
  static const std::string kLanes[2][2] = {{lanes(false, false), lanes(false, true)}, {lanes(true, false), lanes(true, true)}};
  if (core::is_arg_op(request.op)) return kArg;
  return kLanes[columns][core::is_binned_sum(request)];
}

}  // namespace

ReductionJob::ReductionJob(BackendDevice& device, const void* input, element_type type, std::uint64_t n,
                           bool host_input, std::span<const detail::reduction_spec> specs,
                           core::Timestamps timestamps)
    : device_(device),
      input_(input),
      type_(static_cast<core::DataType>(type)),
      n_(n),
      host_input_(host_input),
      timestamps_(timestamps),
      specs_(specs.begin(), specs.end()) {
  const std::size_t element = core::size_of(type_);
  if (n_ > UINT64_MAX / element)
    throw InvalidArgumentError("n = " + std::to_string(n_) + " elements of " + std::string(core::name(type_)) +
                               " is more bytes than a 64-bit size can hold");
  check_input();  // before the strategy choice: a bad pointer is named as such on every device
  std::uint64_t columns_lcm = 1;
  Group scalars;
  const std::uint64_t max_allocation = device_.capabilities().max_allocation_bytes;
  const std::uint64_t scalar_first_chunk = max_allocation ? std::min(n_, max_allocation / element) : n_;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const auto& spec = specs_[i];
    // Built only for a message: a small reduction's host time matters (plan_cache.hpp).
    auto which = [&] { return "reduction " + std::to_string(i + 1) + " of " + std::to_string(specs_.size()); };
    if (!spec.var) throw InvalidArgumentError(which() + ": the reduction variable is nullptr");
    if (spec.columns == 0) throw InvalidArgumentError(which() + ": an array reduction needs at least one column");
    if (n_ % spec.columns != 0)
      throw InvalidArgumentError(which() + ": an array reduction of " + std::to_string(spec.columns) +
                                 " columns views the input as rows of " + std::to_string(spec.columns) +
                                 " values, but n = " + std::to_string(n_) + " is not a multiple of it");
    if (spec.op == op_kind::user) {
      if (!spec.user) throw InvalidArgumentError(which() + ": a user-defined reduction names no operator");
      const auto op = load_user_operator(*spec.user);
      if (n_ == 0 && spec.properties.initialize_to_identity() && !op->has_identity)
        throw InvalidArgumentError(which() + ": user operator '" + op->name + "' has no identity, so an empty input "
                                   "(n = 0) with initialize_to_identity has no result");
    }
    if (core::is_arg_op(static_cast<core::Op>(spec.op)) && n_ == 0)
      throw InvalidArgumentError(which() + ": " + std::string(to_string(spec.op)) +
                                 " of an empty input (n = 0) has no result (no value, no index)");
    if (spec.partial && !core::is_floating(type_))
      throw InvalidArgumentError(which() + ": a reproducible partial sum is of f16, f32 or f64 values, not " +
                                 std::string(core::name(type_)));
    check_variable(spec);
    if (spec.has_user_identity) check_user_identity(which(), spec);
    // Validates the (op, type) on this device before any work: the message names the device and what it lacks.
    // A request the device has planned before passed this check then, and its plan is the one to run.
    if (specs_.size() == 1 && spec.columns == 1) {
      initial_on_host_ = scalar_first_chunk == n_ && folds_initial_on_host(spec);
      cached_scalar_plan_ = device_.plan_cache().find(planned_request(spec, scalar_first_chunk, true));
    }
    auto scalar_request = request_of(spec, n_, true);
    scalar_request.strategy.reset();
    if (!cached_scalar_plan_ && !device_.plan_cache().checked(scalar_request)) {
      core::choose_strategy(device_.capabilities(), scalar_request);
      device_.plan_cache().remember_checked(scalar_request);
    }
    const bool binned = core::is_binned_sum(scalar_request);
    if (binned && spec.columns > 1)
      throw UnsupportedError(which() + ": reproducible array reductions of floating-point sums are not offered yet: "
                             "reduce each column on its own");
    if (binned) {
      binned_groups_ = true;
      groups_.push_back({{i}, 1, true});  // its own plan: the fused pass has no binned sums
    } else if (spec.columns == 1) {
      scalars.specs.push_back(i);
    } else {
      groups_.push_back({{i}, spec.columns});
      columns_lcm = std::lcm(columns_lcm, spec.columns);
      if (columns_lcm > (UINT64_MAX >> 1))
        throw InvalidArgumentError("the array reductions' column counts have no common multiple that fits 64 bits");
    }
  }
  if (!scalars.specs.empty()) groups_.insert(groups_.begin(), std::move(scalars));
  for (const auto& group : groups_) check_strategies(group);

  chunk_elements_ = max_allocation ? max_allocation / element : n_;
  chunk_elements_ -= chunk_elements_ % columns_lcm;
  if (chunk_elements_ == 0 && n_ > 0)
    throw UnsupportedError("device '" + device_.name() + "' cannot allocate one row of " +
                           std::to_string(columns_lcm) + " " + std::string(core::name(type_)) + " values");
  // Folding each chunk's rounded result into the next would round more than once: binned sums in chunks
  // leave partial sums instead, merged on the host (write_binned_result).
  binned_in_chunks_ = binned_groups_ && chunk_elements_ < n_;
  arg_in_chunks_ = specs_.size() == 1 && core::is_arg_op(static_cast<core::Op>(specs_.front().op)) && chunk_elements_ < n_;
  for (const auto& spec : specs_)
    if ((core::is_transform_op(static_cast<core::Op>(spec.op)) || core::is_moments_op(static_cast<core::Op>(spec.op)) ||
         core::is_user_op(static_cast<core::Op>(spec.op))) &&
        chunk_elements_ < n_)
      throw UnsupportedError(std::string(to_string(spec.op)) + " of n = " + std::to_string(n_) + " " +
                             std::string(core::name(type_)) + " values would run in chunks of " +
                             std::to_string(chunk_elements_) + " (device '" + device_.name() +
                             "' allocates at most " + std::to_string(max_allocation) +
                             " bytes at once), which transform-reductions and user operators do not offer yet: "
                             "reduce it in parts");
  // Small host input on a CPU device: the calling thread reduces it (core/host_path.hpp), nothing to plan or
  // build. The request was checked above as for the device, so both paths refuse the same requests.
  host_path_limit_ = core::host_path_max_bytes(device_.capabilities());
  host_path_ = takes_host_path();
  if (host_path_) return;
  // Planning now is what turns an unavailable strategy or a missing kernel into an error before any work.
  for (const auto& group : groups_) first_plans_.push_back(first_plan_for(group));
}

bool ReductionJob::takes_host_path() const {
  if (specs_.size() != 1 || !host_input_ || !device_.reads_host_input_in_place()) return false;
  const auto& spec = specs_.front();
  if (spec.partial || n_ * core::size_of(type_) > host_path_limit_) return false;
  const auto request = request_of(spec, n_, true);
  return spec.columns == 1 ? core::host_path_serves(request) : core::host_path_serves_columns(request);
}

void ReductionJob::write_host_path_columns(const core::ReductionRequest& request, bool host_variable) const {
  const auto& spec = specs_.front();
  const std::uint64_t bytes = spec.columns * core::size_of(type_);
  const auto* data = static_cast<const std::byte*>(input_);
  if (host_variable) return core::host_path_reduce_columns(request, data, spec.columns, static_cast<std::byte*>(spec.var));
  std::vector<std::byte> results(bytes);
  if (request.include_initial) device_.copy(results.data(), spec.var, bytes);
  core::host_path_reduce_columns(request, data, spec.columns, results.data());
  device_.copy(spec.var, results.data(), bytes);
}

void ReductionJob::write_host_path_result(const core::ReductionRequest& request, bool host_variable) const {
  const auto& spec = specs_.front();
  const std::size_t element = core::size_of(type_);
  core::Scalar initial{type_, {}};
  if (request.include_initial) {
    if (host_variable) std::memcpy(initial.bytes.data(), spec.var, element);
    else device_.copy(initial.bytes.data(), spec.var, element);
  }
  const core::Scalar result = core::host_path_reduce(
      request, std::span<const std::byte>(static_cast<const std::byte*>(input_), n_ * element), initial);
  if (host_variable) std::memcpy(spec.var, result.data(), element);
  else device_.copy(spec.var, result.data(), element);
}

void ReductionJob::execute_on_host(profile& out) const {
  device_.throw_if_unusable();
  const auto& spec = specs_.front();
  const auto request = request_of(spec, n_, true);
  const std::size_t element = core::size_of(type_);
  const auto allocation = device_.find(spec.var);
  const bool host_variable = !(allocation && device_.kernels_access(allocation->kind));
  if (core::is_arg_op(request.op)) {
    std::array<std::byte, core::kArgResultBytes> bytes{};
    core::arg_to_bytes(core::host_path_arg_reduce(
                           request, std::span<const std::byte>(static_cast<const std::byte*>(input_), n_ * element)),
                       bytes.data());
    if (host_variable) std::memcpy(spec.var, bytes.data(), bytes.size());
    else device_.copy(spec.var, bytes.data(), bytes.size());
  } else if (spec.columns > 1) {
    write_host_path_columns(request, host_variable);
  } else {
    write_host_path_result(request, host_variable);
  }
  plan_summary summary;
  summary.host_path = true;
  summary.strategy = zr::strategy::cpu_chunks;
  summary.reason = host_path_reason(n_ * element, host_path_limit_, "core/host_path.hpp");
  summary.description = host_path_description(request, spec.columns > 1);
  summary.combine_depth = core::host_path_combine_depth(n_ / spec.columns);
  out.plans.push_back(std::move(summary));
}

std::shared_ptr<const PlannedRun> ReductionJob::first_plan_for(const Group& group) const {
  const std::uint64_t n = std::min(n_, chunk_elements_);
  if (group.columns > 1 || group.specs.size() > 1)
    return std::make_shared<const PlannedRun>(planned_run(plan_for(group, n, true)));
  if (cached_scalar_plan_ && !(group.binned && binned_in_chunks_)) return cached_scalar_plan_;
  const core::ReductionRequest request = scalar_request(group, n, true);
  return device_.plan_cache().get(request, [&] { return planned_run(device_.plan(request)); });
}

void ReductionJob::check_input() const {
  if (n_ == 0) return;
  const std::uint64_t bytes = n_ * core::size_of(type_);
  if (!input_) throw InvalidArgumentError("the input is nullptr but n = " + std::to_string(n_));
  // Kernels and host copies read whole elements: an input that starts inside one would be read as other numbers
  // (or fault), never refused by the driver.
  if (reinterpret_cast<std::uintptr_t>(input_) % core::size_of(type_) != 0)
    throw InvalidArgumentError("the input at " + address(input_) + " is not aligned to its " +
                               std::to_string(core::size_of(type_)) + "-byte " + std::string(core::name(type_)) +
                               " elements: start it at a multiple of the element size");
  if (host_input_) return;
  is_host_range(
      device_, input_, bytes,
      [this] { return "the input range of n = " + std::to_string(n_) + " " + std::string(core::name(type_)) + " elements"; },
      false);
}

void ReductionJob::check_variable(const detail::reduction_spec& spec) const {
  const auto allocation = device_.find(spec.var);
  if (!allocation) return;  // ordinary host memory: the result is copied back into it
  // What the kernels write there, and the alignment their stores (and atomics) need.
  const auto op = static_cast<core::Op>(spec.op);
  struct Layout {
    std::uint64_t bytes, alignment;
  };
  const Layout layout = spec.partial                 ? Layout{sizeof(core::BinnedState), alignof(core::BinnedState)}
                        : core::is_arg_op(op)        ? Layout{core::kArgResultBytes, 8}
                        : core::is_moments_op(op)    ? Layout{core::moments_bytes(op), 8}
                        : spec.op == op_kind::user   ? Layout{load_user_operator(*spec.user)->accumulator_bytes,
                                                              load_user_operator(*spec.user)->accumulator_alignment}
                        : core::is_transform_op(op)  ? Layout{core::size_of(core::transform_result_type(op, type_)),
                                                              core::size_of(core::transform_result_type(op, type_))}
                                                     : Layout{spec.columns * core::size_of(type_), core::size_of(type_)};
  const auto* start = static_cast<const std::byte*>(spec.var);
  const std::uint64_t offset = static_cast<std::uint64_t>(start - allocation->base);
  if (offset > allocation->bytes || layout.bytes > allocation->bytes - offset)
    throw InvalidArgumentError("the reduction variable (" + std::to_string(layout.bytes) + " bytes) at offset " +
                               std::to_string(offset) + " runs past the end of its allocation of " +
                               std::to_string(allocation->bytes) + " bytes on device '" + device_.name() + "'");
  if (layout.alignment > 1 && reinterpret_cast<std::uintptr_t>(spec.var) % layout.alignment != 0)
    throw InvalidArgumentError("the reduction variable at offset " + std::to_string(offset) + " of its allocation on device '" +
                               device_.name() + "' is not aligned to " + std::to_string(layout.alignment) +
                               " bytes, which the result's stores need");
}

void ReductionJob::check_strategies(const Group& group) const {
  if (group.columns == 1 && group.specs.size() == 1) return;  // the strategy choice checks a single reduction
  for (std::size_t index : group.specs) {
    const auto asked = specs_[index].properties.requested_strategy();
    if (!asked) continue;
    if (group.columns > 1)
      throw UnsupportedError("array reductions run their own column plan; strategy '" + std::string(to_string(*asked)) +
                             "' was asked for: reduce each column separately to use it");
    if (*asked != strategy::tree)
      throw UnsupportedError("several reductions over one input run in one fused pass (strategy 'tree'); strategy '" +
                             std::string(to_string(*asked)) + "' was asked for: submit that reduction on its own");
  }
}

core::Plan ReductionJob::plan_for(const Group& group, std::uint64_t n, bool first_chunk) const {
  const auto& caps = device_.capabilities();
  if (group.columns > 1) {
    const auto request = request_of(specs_[group.specs.front()], n, first_chunk);
    return core::make_column_plan(caps, request, group.columns, core::tuning_for(caps));
  }
  if (group.specs.size() == 1) return device_.plan(scalar_request(group, n, first_chunk));
  std::vector<core::PlanResultSpec> results;
  bool deterministic = false;
  for (std::size_t index : group.specs) {
    const auto request = request_of(specs_[index], n, first_chunk);
    results.push_back({request.op, request.identity, request.include_initial});
    deterministic = deterministic || request.deterministic;
  }
  (void)deterministic;  // the fused pass is a fixed-order tree: always deterministic
  return core::make_fused_plan(caps, type_, n, results, core::tuning_for(caps));
}

core::ReductionRequest ReductionJob::planned_request(const detail::reduction_spec& spec, std::uint64_t n,
                                                     bool first_chunk) const {
  core::ReductionRequest request = request_of(spec, n, first_chunk);
  if (initial_on_host_) request.include_initial = false;
  return request;
}

bool ReductionJob::folds_initial_on_host(const detail::reduction_spec& spec) const {
  const auto op = static_cast<core::Op>(spec.op);
  if (spec.properties.initialize_to_identity() || spec.partial || core::is_arg_op(op) || core::is_transform_op(op) ||
      core::is_moments_op(op) || core::is_user_op(op) || core::accumulator_type(type_) != type_)
    return false;
  if (spec.properties.reproducible() && core::is_floating(type_)) return false;  // a binned sum adds it to its bins
  const auto allocation = device_.find(spec.var);
  return !(allocation && device_.kernels_access(allocation->kind));
}

core::ReductionRequest ReductionJob::scalar_request(const Group& group, std::uint64_t n, bool first_chunk) const {
  core::ReductionRequest request = planned_request(specs_[group.specs.front()], n, first_chunk);
  if (group.binned && binned_in_chunks_) {
    request.binned_state_output = true;
    request.include_initial = false;
  }
  return request;
}

void ReductionJob::write_binned_result(const detail::reduction_spec& spec, const core::ResultTarget& target,
                                       const core::BinnedState& merged) const {
  const std::size_t element = core::size_of(type_);
  core::BinnedState state = merged;
  std::array<std::byte, sizeof(core::BinnedState)> bytes{};
  if (!spec.partial) {
    if (!spec.properties.initialize_to_identity()) {
      if (target.host_memory) std::memcpy(bytes.data(), target.pointer, element);
      else device_.copy(bytes.data(), target.pointer, element);
      state = core::binned_add_all(state, std::span<const std::byte>(bytes.data(), element), 1, type_);
    }
    const core::Scalar value = core::binned_value(state, type_);
    std::memcpy(bytes.data(), value.data(), element);
  } else {
    std::memcpy(bytes.data(), &state, sizeof state);
  }
  const std::size_t size = spec.partial ? sizeof state : element;
  if (target.host_memory) std::memcpy(target.pointer, bytes.data(), size);
  else device_.copy(target.pointer, bytes.data(), size);
}

void ReductionJob::execute(profile& out) {
  if (host_path_) return execute_on_host(out);
  const std::size_t element = core::size_of(type_);
  std::vector<core::ResultTarget> targets(specs_.size());
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const auto allocation = device_.find(specs_[i].var);
    targets[i] = {specs_[i].var, !(allocation && device_.kernels_access(allocation->kind))};
  }

  const bool staged = (host_input_ && !device_.reads_host_input_in_place()) || n_ == 0;
  ScopedAllocation staging;
  if (staged) staging = ScopedAllocation(device_, memory_kind::device, std::min(n_, chunk_elements_) * element);

  // Reproducible sums in chunks: each chunk's partial lands in chunk_states[g], merged into merged_states[g].
  // Sized only when used: a small reduction pays for every allocation here.
  const std::size_t binned_states = binned_in_chunks_ ? groups_.size() : 0;
  std::vector<core::BinnedState> chunk_states(binned_states), merged_states(binned_states);
  std::array<std::byte, core::kArgResultBytes> chunk_arg{};
  core::Scalar initial{type_, {}};
  if (initial_on_host_) std::memcpy(initial.bytes.data(), specs_.front().var, element);
  std::optional<core::ArgCandidate> best_arg;
  std::uint64_t first = 0;
  do {
    const std::uint64_t count = std::min(chunk_elements_, n_ - first);
    const auto* source = static_cast<const std::byte*>(input_) + (input_ ? first * element : 0);
    const void* chunk = source;
    if (staged) {
      if (count > 0) timed_copy(device_, out, "copy input to the device", staging.get(), source, count * element);
      chunk = staging.get();
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      const Group& group = groups_[g];
      std::optional<core::Plan> later_plan;
      if (first == 0) {
        out.plans.push_back(first_plans_[g]->summary);
      } else {
        later_plan = plan_for(group, count, false);
        // Each later chunk folds the result so far in as its initial value: its combines come on top.
        out.plans[g].combine_depth += core::combine_depth(*later_plan);
      }
      const core::Plan& plan = later_plan ? *later_plan : first_plans_[g]->plan;
      const bool partial = group.binned && binned_in_chunks_;
      std::vector<core::ResultTarget> results;
      if (partial) results.push_back({&chunk_states[g], true});
      else if (arg_in_chunks_) results.push_back({chunk_arg.data(), true});
      else
        for (std::size_t index : group.specs) results.push_back(targets[index]);
      add_run(out, device_.run(plan, chunk, results, timestamps_));
      if (partial) merged_states[g] = core::binned_merge(merged_states[g], chunk_states[g]);
      if (arg_in_chunks_) {
        core::ArgCandidate candidate = core::arg_from_bytes(type_, chunk_arg.data());
        candidate.index += first;
        if (!best_arg || core::arg_precedes(plan.request.op, candidate, *best_arg)) best_arg = candidate;
      }
    }
    first += count;
  } while (first < n_);
  if (best_arg) {
    core::arg_to_bytes(*best_arg, chunk_arg.data());
    const core::ResultTarget& target = targets.front();
    if (target.host_memory) std::memcpy(target.pointer, chunk_arg.data(), chunk_arg.size());
    else device_.copy(target.pointer, chunk_arg.data(), chunk_arg.size());
  }
  if (initial_on_host_) {
    core::Scalar result{type_, {}};
    std::memcpy(result.bytes.data(), specs_.front().var, element);
    std::memcpy(specs_.front().var, core::combine_initial(static_cast<core::Op>(specs_.front().op), initial, result).data(),
                element);
    out.plans.front().combine_depth += 1;  // the combine the kernels would have made
  }
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].binned && binned_in_chunks_)
      write_binned_result(specs_[groups_[g].specs.front()], targets[groups_[g].specs.front()], merged_states[g]);

  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (core::injected(core::FaultKind::wrong_result, static_cast<core::Strategy>(out.plans[g].strategy), device_.name()))
      for (std::size_t index : groups_[g].specs) flip_lowest_bit(targets[index]);
}

void ReductionJob::flip_lowest_bit(const core::ResultTarget& target) {
  if (target.host_memory) {
    *static_cast<std::byte*>(target.pointer) ^= std::byte{1};
    return;
  }
  std::byte first_byte{};
  device_.copy(&first_byte, target.pointer, 1);
  first_byte ^= std::byte{1};
  device_.copy(target.pointer, &first_byte, 1);
}

}  // namespace zr::api
