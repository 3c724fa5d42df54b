#pragma once
// The transform (zereduce/transform.hpp) that --op names, for T elements: the whole reductions (transform_run.cpp)
// and the segmented ones (segment_run.cpp) both start from it.
#include <string>

#include "options.hpp"
#include "reduce_run.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

// run(transform) -> RunOutcome for options.op (a transform or moments op, resolved), count_equal's value parsed
// from --equal-to and recorded in the outcome. An op that does not take T is refused with zr::InvalidArgumentError.
template <typename T, typename Run>
RunOutcome with_transform(const Options& options, const Workload& workload, Run&& run_known) {
  auto run = [&](auto transform) -> RunOutcome {
    if constexpr (zr::detail::transform_of<decltype(transform), T>::known)
      return run_known(transform);
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

}  // namespace zr::cli
