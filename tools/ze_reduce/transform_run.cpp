#include "transform_run.hpp"

#include <string>
#include <type_traits>

#include "common/type_dispatch.hpp"
#include "run_parts.hpp"
#include "transform_choice.hpp"

namespace zr::cli {

namespace {

template <typename T, typename Transform>
RunOutcome run_with(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress,
                    Transform transform) {
  using Result = zr::transform_result_t<Transform, T>;
  RunOutcome outcome;
  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  const zr::property_list props = properties_of(options);
  Result result{};
  run_timed(
      options, workload, progress, outcome, [&] { result = Result{}; },
      [&] { return input.transform(queue, transform, &result, props); });
  if constexpr (std::is_same_v<Result, zr::moments<float>> || std::is_same_v<Result, zr::moments<double>>) {
    using A = decltype(result.mean);
    const core::DataType accumulator = core::moments_accumulator(options.op);
    const std::uint64_t ddof = options.ddof.value_or(0);
    outcome.identity = core::Scalar::from<A>(accumulator, A{});  // the state starts empty: count 0, mean 0, m2 0
    outcome.moments = moments_outcome(result, accumulator, ddof);
    outcome.results.push_back(outcome.moments->mean);
  } else {
    const core::DataType result_type = core::transform_result_type(options.op, workload.type);
    outcome.identity = core::Scalar::from<Result>(result_type, Result{});  // the sum's zero
    outcome.results.push_back(core::Scalar::from<Result>(result_type, result));
  }
  return outcome;
}

}  // namespace

RunOutcome run_transform_reduction(zr::queue& queue, const Options& options, const Workload& workload,
                                   Progress& progress) {
  // One result over the whole input: never columns (check_transform_options refuses them; --axis runs as segments).
  if (options.columns != 1)
    throw zr::InvalidArgumentError(std::string(core::name(options.op)) + " has no array reduction over " +
                                   std::to_string(options.columns) + " columns");
  return tools::visit_element_type(static_cast<element_type>(workload.type), [&](auto type_tag) -> RunOutcome {
    using T = typename decltype(type_tag)::type;
    return with_transform<T>(options, workload,
                             [&](auto transform) { return run_with<T>(queue, options, workload, progress, transform); });
  });
}

}  // namespace zr::cli
