#include "host_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "binned_sum.hpp"
#include "host_fold.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {

std::uint64_t host_path_bytes_from_environment(std::uint64_t fallback) {
  const char* text = std::getenv("ZE_REDUCE_HOST_PATH_MAX_BYTES");
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0' || text[0] == '-')
    throw InvalidArgumentError(std::string("ZE_REDUCE_HOST_PATH_MAX_BYTES=") + text +
                               " is not a whole number of bytes (0 turns the host path off)");
  return value;
}

// ZE_REDUCE_HOST_PATH_MAX_BYTES, read once: a small reduction's host time is what the host path is for.
const std::optional<std::uint64_t>& configured_host_path_bytes() {
  static const std::optional<std::uint64_t> configured = [] {
    const std::uint64_t unset = UINT64_MAX;
    const std::uint64_t value = host_path_bytes_from_environment(unset);
    return value == unset ? std::nullopt : std::optional<std::uint64_t>(value);
  }();
  return configured;
}

}  // namespace

bool host_path_serves(const ReductionRequest& request) {
  if (request.strategy || request.binned_state_output || request.user_operator) return false;
  if (is_arg_op(request.op)) return request.n > 0 && request.type != DataType::boolean;
  bool basic = false;
  for (Op op : kAllOps) basic = basic || op == request.op;
  return basic && (!request.reproducible || !is_floating(request.type) || is_binned_sum(request) ||
                   request.op != Op::multiplies);
}

std::uint64_t host_path_max_bytes(const Capabilities& caps) {
  if (caps.type != DeviceType::cpu) return 0;
  if (const auto& configured = configured_host_path_bytes()) return *configured;
  return tuning_for(caps).host_path_max_bytes / std::max<std::uint64_t>(1, caps.compute_units);
}

std::uint64_t host_path_segment_max_bytes(const Capabilities& caps) {
  if (caps.type != DeviceType::cpu) return 0;
  if (const auto& configured = configured_host_path_bytes()) return *configured;
  return tuning_for(caps).host_path_segment_max_bytes / std::max<std::uint64_t>(1, caps.compute_units);
}

Scalar host_path_reduce(const ReductionRequest& request, std::span<const std::byte> data, const Scalar& initial) {
  if (is_binned_sum(request)) {
    BinnedState state = binned_add_all(BinnedState{}, data, request.n, request.type);
    if (request.include_initial)
      state = binned_add_all(state, std::span<const std::byte>(initial.data(), initial.size()), 1, request.type);
    return binned_value(state, request.type);
  }
  Scalar result{request.type, {}};
  const std::byte* initial_bytes = request.include_initial ? initial.data() : nullptr;
  host_fold::with_element_types(request.type, [&]<typename Element, typename Acc>() {
    host_fold::fold_into<Element, Acc>(request.op, request.type, host_fold::load<Element, Acc>(request.identity.data(), 0),
                                       data.data(), request.n, initial_bytes, result.bytes.data());
  });
  return result;
}

Scalar combine_initial(Op op, const Scalar& initial, const Scalar& result) {
  if (accumulator_type(result.type) != result.type || initial.type != result.type)
    throw Error("combine_initial: " + std::string(name(result.type)) + " is not its own accumulator type");
  Scalar combined{result.type, {}};
  host_fold::with_element_types(result.type, [&]<typename Element, typename Acc>() {
    const Acc value = host_fold::Combine<Acc>{op}(host_fold::load<Element, Acc>(initial.data(), 0),
                                                  host_fold::load<Element, Acc>(result.data(), 0));
    host_fold::store<Element, Acc>(result.type, value, combined.bytes.data());
  });
  return combined;
}

ArgCandidate host_path_arg_reduce(const ReductionRequest& request, std::span<const std::byte> data) {
  const Op op = request.op;
  const DataType type = request.type;
  const std::byte* bytes = data.data();
  const std::uint64_t n = request.n;
  if (!is_arg_op(op) || n == 0) throw Error("host path: an arg-reduction needs argmin or argmax and an element");
  if (type == DataType::boolean) throw Error("host path: argmin and argmax take integer or floating-point values");
  ArgCandidate result;
  host_fold::with_element_types(type, [&]<typename Element, typename Acc>() {
    result = host_fold::arg_as<Element, Acc>(op, type, bytes, n);
  });
  return result;
}

std::uint64_t host_path_combine_depth(std::uint64_t n) {
  std::uint64_t lanes_depth = 0;
  for (std::uint64_t width = 1; width < kHostLanes; width *= 2) ++lanes_depth;
  return (n + kHostLanes - 1) / kHostLanes + lanes_depth + 1;  // + 1: the initial value
}

}  // namespace zr::core
