#include "arg_run.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

#include "common/type_dispatch.hpp"
#include "identity.hpp"
#include "run_parts.hpp"

namespace zr::cli {

namespace {

template <typename T>
RunOutcome run_arg_typed(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress) {
  RunOutcome outcome;
  const bool largest = options.op == core::Op::argmax;
  // Reported as the request's identity (the JSON field is a value for every op); nothing is folded in, so
  // there is no initial value (outcome.initial stays empty).
  outcome.identity = core::known_identity(options.op, workload.type);
  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  const zr::property_list props = properties_of(options);
  zr::arg_result<T> result;
  run_timed(
      options, workload, progress, outcome,
      // An index no run can produce: a run that did not write the result cannot pass --verify as index 0.
      [&] { result = {T{}, UINT64_MAX}; },
      [&] { return input.arg(queue, largest, &result, props); });
  outcome.results.push_back(core::Scalar::from<T>(workload.type, result.value));
  outcome.index = result.index;
  return outcome;
}

}  // namespace

RunOutcome run_arg_reduction(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress) {
  return tools::visit_element_type(static_cast<element_type>(workload.type), [&](auto type_tag) -> RunOutcome {
    using T = typename decltype(type_tag)::type;
    if constexpr (std::is_same_v<T, bool>)
      throw zr::InvalidArgumentError(std::string(core::name(options.op)) +
                                     " is not defined for bool (argmin and argmax need an integer or floating-point "
                                     "type); choose another --op or --type");
    else return run_arg_typed<T>(queue, options, workload, progress);
  });
}

}  // namespace zr::cli
