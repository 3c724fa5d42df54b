#include "arg_options.hpp"

#include <string>

#include "zereduce/errors.hpp"

namespace zr::cli {

void check_arg_options(const Options& options) {
  if (!core::is_arg_op(options.op)) return;
  const std::string op(core::name(options.op));
  if (options.identity)
    throw InvalidArgumentError("--identity " + *options.identity + ": " + op +
                               " takes no identity (it picks one of the input's elements and its index, starting "
                               "from none); leave --identity out");
  if (options.initial)
    throw InvalidArgumentError("--initial " + *options.initial + ": " + op +
                               " has no initial value to combine (its result is written, never read); leave "
                               "--initial out");
  if (options.columns != 1)
    throw InvalidArgumentError("--columns " + std::to_string(options.columns) + ": " + op +
                               " reduces the whole input to one value and its index; per-column arg-reductions are "
                               "not offered, leave --columns out");
  // --init-to-identity is accepted: it says what an arg-reduction always does (the variable is not read).
  // --deterministic and --reproducible too: every arg-reduction is both (ties go to the smallest index).
}

}  // namespace zr::cli
