#pragma once
// The options that have no meaning for argmin/argmax, refused before any device is used rather than ignored:
// an arg-reduction writes its result without reading it, so it takes no --identity and no --initial, and it
// reduces the whole input to one value and index, so it takes no --columns.
#include "options.hpp"

namespace zr::cli {

// zr::InvalidArgumentError naming the option and the op; nothing when options.op is not argmin/argmax.
void check_arg_options(const Options& options);

}  // namespace zr::cli
