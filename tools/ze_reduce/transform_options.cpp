#include "transform_options.hpp"

#include <string>

#include "zereduce/errors.hpp"

namespace zr::cli {

void check_transform_options(const Options& options) {
  const core::Op op = options.op;
  const std::string name(core::name(op));
  if (options.equal_to && op != core::Op::count_equal)
    throw InvalidArgumentError("--equal-to " + *options.equal_to + ": only -o count_equal counts a value (this is " +
                               name + "); leave --equal-to out or use -o count_equal");
  if (op == core::Op::count_equal && !options.equal_to)
    throw InvalidArgumentError("count_equal counts the elements equal to a value: give it with --equal-to, e.g. "
                               "--equal-to 0");
  if (options.ddof && !core::is_moments_op(op))
    throw InvalidArgumentError("--ddof " + std::to_string(*options.ddof) +
                               ": only -o mean_var computes a variance (this is " + name + "); leave --ddof out");
  if (!core::is_transform_op(op) && !core::is_moments_op(op)) return;
  const std::string what = core::is_moments_op(op) ? "its count, mean and variance start from nothing"
                                                   : "its result is written, never read, and has a type of its own";
  if (options.identity)
    throw InvalidArgumentError("--identity " + *options.identity + ": " + name + " takes no identity (" + what +
                               "); leave --identity out");
  if (options.initial)
    throw InvalidArgumentError("--initial " + *options.initial + ": " + name + " has no initial value to combine (" +
                               what + "); leave --initial out");
  if (options.columns != 1)
    throw InvalidArgumentError("--columns " + std::to_string(options.columns) + ": " + name +
                               " reduces the whole input to one result; per-column transform-reductions are not "
                               "offered, leave --columns out");
  // --init-to-identity is accepted: it says what these reductions always do (the variable is not read).
}

core::Op resolve_moments_accumulator(const Options& options, const zr::device& device) {
  if (options.moments_accumulator_named) return options.op;
  return device.capabilities().fp64 ? core::Op::mean_var_f64 : core::Op::mean_var_f32;
}

}  // namespace zr::cli
