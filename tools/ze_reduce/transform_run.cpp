#include "transform_run.hpp"

#include <string>
#include <type_traits>

#include "common/type_dispatch.hpp"
#include "run_parts.hpp"

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
    outcome.moments = MomentsOutcome{result.count,
                                     core::Scalar::from<A>(accumulator, result.mean),
                                     core::Scalar::from<A>(accumulator, result.m2),
                                     core::Scalar::from<A>(accumulator, result.variance(ddof)),
                                     core::Scalar::from<A>(accumulator, result.stddev(ddof)),
                                     ddof};
    outcome.results.push_back(outcome.moments->mean);
  } else {
    const core::DataType result_type = core::transform_result_type(options.op, workload.type);
    outcome.identity = core::Scalar::from<Result>(result_type, Result{});  // the sum's zero
    outcome.results.push_back(core::Scalar::from<Result>(result_type, result));
  }
  return outcome;
}

template <typename T>
RunOutcome run_typed(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress) {
  auto run = [&](auto transform) -> RunOutcome {
    if constexpr (zr::detail::transform_of<decltype(transform), T>::known)
      return run_with<T>(queue, options, workload, progress, transform);
    else
      throw zr::InvalidArgumentError(std::string(core::name(options.op)) + " is not defined for " +
                                     std::string(core::name(workload.type)) + " (" +
                                     core::transform_type_rule(options.op) + "); choose another --op or --type");
  };
  switch (options.op) {
    case core::Op::sum_squares: return run(zr::sum_of_squares{});
    case core::Op::norm_l2: return run(zr::norm_l2{});
    case core::Op::norm_l1: return run(zr::norm_l1{});
    case core::Op::count_nonzero: return run(zr::count_nonzero{});
    case core::Op::count_equal: {
      const core::Scalar value = [&] {
        try {
          return core::parse_scalar(workload.type, options.equal_to.value());
        } catch (const zr::InvalidArgumentError& error) {
          throw zr::InvalidArgumentError("--equal-to " + *options.equal_to + ": " + error.what() + " (count_equal's "
                                         "value has the element type, " + std::string(core::name(workload.type)) + ")");
        }
      }();
      RunOutcome outcome = run(zr::count_equal<T>{value.as<T>()});
      outcome.equal_to = value;
      return outcome;
    }
    case core::Op::sum_i64: return run(zr::sum_as<std::int64_t>{});
    case core::Op::sum_u64: return run(zr::sum_as<std::uint64_t>{});
    case core::Op::sum_f32: return run(zr::sum_as<float>{});
    case core::Op::sum_f64: return run(zr::sum_as<double>{});
    case core::Op::mean_var_f32: return run(zr::mean_variance<float>{});
    case core::Op::mean_var_f64: return run(zr::mean_variance<double>{});
    default:
      throw zr::InvalidArgumentError(std::string(core::name(options.op)) + " is not a transform-reduction");
  }
}

}  // namespace

RunOutcome run_transform_reduction(zr::queue& queue, const Options& options, const Workload& workload,
                                   Progress& progress) {
  return tools::visit_element_type(static_cast<element_type>(workload.type), [&](auto type_tag) -> RunOutcome {
    return run_typed<typename decltype(type_tag)::type>(queue, options, workload, progress);
  });
}

}  // namespace zr::cli
