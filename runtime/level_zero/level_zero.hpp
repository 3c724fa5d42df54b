#pragma once
// The Level Zero backend of ze-reduce (namespace zr::level_zero):
//   devices()            every Level Zero device and sub-device; empty when there is no driver
//   Device               description() (everything the driver reports), capabilities() (the core's view),
//                        modules() (the per-device module/kernel cache), USM allocation
//   Executor             runs core::Plans on a device: one command list per plan shape, kernel timestamps
//   result.hpp           the checked-call helpers and the ze_result_t name table
#include "level_zero/device.hpp"
#include "level_zero/device_info.hpp"
#include "level_zero/executor.hpp"
#include "level_zero/handles.hpp"
#include "level_zero/module_cache.hpp"
#include "level_zero/planning.hpp"
#include "level_zero/result.hpp"
