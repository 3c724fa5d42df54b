#pragma once
// ze-reduce: parallel reductions on Intel GPUs (Level Zero) and OpenCL devices, with SYCL 2020 reduction
// semantics. See docs/api.md.
#include "zereduce/device.hpp"
#include "zereduce/device_group.hpp"
#include "zereduce/errors.hpp"
#include "zereduce/event.hpp"
#include "zereduce/functional.hpp"
#include "zereduce/half.hpp"
#include "zereduce/known_identity.hpp"
#include "zereduce/properties.hpp"
#include "zereduce/queue.hpp"
#include "zereduce/reduction.hpp"
#include "zereduce/arg_result.hpp"
#include "zereduce/reproducible_partial.hpp"
#include "zereduce/transform.hpp"
#include "zereduce/types.hpp"
#include "zereduce/user_operator.hpp"
#include "zereduce/version.hpp"
