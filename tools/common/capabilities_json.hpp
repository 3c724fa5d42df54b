#pragma once
// A device's capabilities as JSON, the same object in ze_reduce --list --json and in the conformance report
// (docs/ze_reduce.schema.json and docs/conformance.schema.json describe it).
#include <nlohmann/json.hpp>

#include "zereduce/zereduce.hpp"

namespace zr::tools {

inline nlohmann::json capabilities_json(const device_capabilities& caps) {
  return {{"compute_units", caps.compute_units},
          {"max_work_group_size", caps.max_work_group_size},
          {"local_memory_bytes", caps.local_memory_bytes},
          {"global_memory_bytes", caps.global_memory_bytes},
          {"max_allocation_bytes", caps.max_allocation_bytes},
          {"sub_group_sizes", caps.sub_group_sizes},
          {"fp16", caps.fp16},
          {"fp64", caps.fp64},
          {"int64_atomics", caps.int64_atomics},
          {"work_group_collectives", caps.work_group_collectives},
          {"f32_atomic_add", caps.f32_atomic_add},
          {"f32_atomic_min_max", caps.f32_atomic_min_max}};
}

}  // namespace zr::tools
