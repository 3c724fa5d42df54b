#include "tuning.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace zr::core {

namespace {
bool name_contains(const std::string& name, std::string_view word) {
  return std::search(name.begin(), name.end(), word.begin(), word.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         }) != name.end();
}
}  // namespace

DeviceClass device_class(const Capabilities& caps) {
  if (caps.type == DeviceType::cpu) return DeviceClass::cpu;
  if (caps.type == DeviceType::gpu && caps.backend == "opencl" && name_contains(caps.device_name, "nvidia"))
    return DeviceClass::nvidia_gpu;
  return DeviceClass::gpu;
}

std::string_view name(DeviceClass device_class) {
  switch (device_class) {
    case DeviceClass::cpu: return "cpu";
    case DeviceClass::nvidia_gpu: return "nvidia_gpu";
    case DeviceClass::gpu: break;
  }
  return "gpu";
}

// The tables. Vector width is not a run-time knob: the kernels load 16 bytes per work-item per step, two
// steps in flight (spirv_kernels/src/zr_grid.h), and cpu_chunks folds 16 lanes (cpu.cl); both were measured
// in bench/ (scalar loads reached 0.75x CUB on the H100).
static Tuning class_tuning(const Capabilities& caps) {
  switch (device_class(caps)) {
    case DeviceClass::cpu:
      // PoCL runs a work-group's items one after another; cpu_chunks launches one item per group. Measured on
      // the H100 host's 16-core Xeon with PoCL 5 (f32 plus, 2^26): 64 chunks per core was best (G = 1024:
      // 190 GB/s, on par with OpenMP in the same run; G = 256 about 20% slower), with chunks of at least 16K
      // elements; on the 2-core CI machine every G from 2 to 256 read at the memory limit (both measured in
      // the previous session). bench/results/pocl_2core.md (2026-11-23, measured in turn with OpenMP) shows
      // these values at 0.97-1.43x OpenMP at n >= 2^26 for f32, f64 and i32 sum/min/max; f64 min/max had
      // trailed (0.93x) because of the kernel's narrow lanes, not this shape (cpu_wide.cl fixed that).
      return Tuning{.work_group_size = 64,
                    .groups_per_compute_unit = 64,
                    .min_elements_per_item = 1u << 14,
                    .final_work_group_size = 16,
                    .max_final_inputs = 1u << 16,
                    // Measured with ze_reduce (wall median of 1000, 2 interleaved rounds, 2-core EPYC, PoCL
                    // 3.1): at 2^10 the final pass alone took 46-73 us against 62-97 us for cpu_chunks + final;
                    // at 2^14 its 16 scalar lanes lose (f32 max 104-155 us against 78-99).
                    .final_only_max_elements = 1u << 12,
                    // Divided by the compute units (host_path.cpp): the device's threads share the work, the
                    // calling thread does it alone. Measured with the C++ API on the 2-core machine (f32 sum and
                    // max, medians of 200, 2026-11-30, once the queue stopped handing host-path work above 1 MiB
                    // to its worker thread): PoCL 3.1's device took 350-374 us at 8 MiB against 192-195 us on
                    // the calling thread, and 773-922 against 962-977 at 16 MiB; Intel's CPU runtime 198-252
                    // against 190-212 at 8 MiB, and 428-518 against 838-841 at 16 MiB. So 8 MiB on 2 compute units.
                    .host_path_max_bytes = 16u << 20,
                    // Measured from Python on the same machine (2026-11-28, f32 sums of rows of 1, 4, 16 and 256
                    // values, medians): the calling thread took 0.44-0.80x the device's time at 1 MiB and won
                    // rows of 1-4 values at 4 MiB but lost rows of 16-256 (1.35-1.5x the device's time), so
                    // 1 MiB on 2 compute units. Column reductions keep host_path_max_bytes (0.2-0.5x at 4 MiB).
                    .host_path_segment_max_bytes = 2u << 20};
    case DeviceClass::nvidia_gpu:
      // NVIDIA through its OpenCL driver, measured on the H100 (132 SMs) on 2026-11-23 with
      // bench/tune_sweep.cpp (work-group size {128..1024} x groups per SM {2..128} x elements per item
      // {16..256}; f32 plus/max, f64 plus, i32 plus/min; 2^22..2^30) and checked with zr_reduce_bench against
      // CUB in the same run (bench/results/h100.md). 512-wide groups; the best group count grows with n:
      // about one resident wave (4 groups of 512 per SM) up to 2^26 (f32 plus 2^26: 528 groups 2.87 TB/s,
      // 2048 groups 2.82, CUB 2.78-2.86), then more (2^30: 8192+ groups 3.12-3.15 TB/s vs 3.06 for one wave
      // of 256 x 8, CUB 3.07-3.19). So: n / (512 x 16) groups for small n, at least one wave from 2^22, then
      // n / (512 x 256), at most 128 per SM. The previous 256 x 8 x 16 read f32 at 0.98-0.99x CUB at 2^28.
      return Tuning{.work_group_size = 512,
                    .groups_per_compute_unit = 128,
                    .min_elements_per_item = 16,
                    .final_work_group_size = 256,
                    .max_final_inputs = 1u << 15,
                    // One 512-wide group's share: last_group would launch that one group and count it.
                    .final_only_max_elements = 512 * 16,
                    .wave_groups_per_compute_unit = 4,
                    .wave_elements_per_item = 256,
                    // segspan (skewed segment sizes): two warps per group, 128 groups per SM. Power-law sums and
                    // maxima at 2^28 on the H200 with the register-held kernel (bench/results/
                    // segspan_shape_h200_2026-11-28: a sweep of 32-128 lanes x 16-128 groups, then A/B in one call):
                    // f32, f64 and i32 took 0.95-0.98x the time of 32 lanes x 64 groups, the shape measured for
                    // 2f01bef's kernel (there 1.23 and 1.44 ms for f32 against 1.37 and 1.59 with 256 lanes x 8).
                    // A work-item per segment (segitem, segarg, segt): 32 groups of 512 per SM, each work-item
                    // striding over several segments. H200, f32, 2^28 elements in segments of 1 and 4
                    // (bench/results/segitem_groups_h200_2026-11-29): rows of 1 took 720 us against 969 with a
                    // work-item per segment, 32-bit offsets 1,298 against 1,670, argmax 2,759 against 3,409;
                    // 4, 8 and 16 groups were within 3% of 32 for sums and maxima, up to 1.25x slower for argmax.
                    // A group per segment (seggroup; the lanes of segarg and segt from 1,024 elements on): 128
                    // elements per work-item. H200, 2^28 elements (bench/results/segment_group_elements_h200_2026-11-29):
                    // segments of 2^14 took 0.94-0.97x the time of 64 (a group of 256 instead of 512), of 2^12
                    // 0.94-1.01x, of 2^16 within 1%; f32 argmax of 2^10 1.04x (8 lanes instead of 16).
                    .segment_group_elements_per_item = 128,
                    .segment_item_groups_per_compute_unit = 32,
                    .segment_span_groups_per_compute_unit = 128,
                    .segment_span_lanes = 64};
    case DeviceClass::gpu:
      break;
  }
  // Other GPUs (Intel through Level Zero or OpenCL; not measured on hardware here, compile-only): 256-wide
  // groups, 8 per compute unit, the shape first measured on the H100 (1.00x CUB at 2^28 with 16-byte loads).
  return Tuning{.work_group_size = 256,
                .groups_per_compute_unit = 8,
                .min_elements_per_item = 16,
                .final_work_group_size = 256,
                .max_final_inputs = 1u << 14,
                .final_only_max_elements = 256 * 16};  // one group's share, as on the H100
}

static std::uint64_t environment_count(const char* name) {
  const char* text = std::getenv(name);
  return text ? std::strtoull(text, nullptr, 10) : 0ull;
}

// ZE_REDUCE_SEGMENT_LANE_ELEMENTS, ZE_REDUCE_SEGMENT_GROUP_ELEMENTS, ZE_REDUCE_SEGMENT_ITEM_GROUPS,
// ZE_REDUCE_SEGMENT_SPAN_GROUPS, ZE_REDUCE_SEGMENT_SPAN_LANES, ZE_REDUCE_SEGMENT_ARG_LANE_ELEMENTS and
// ZE_REDUCE_SEGMENT_TRANSFORM_LANE_ELEMENTS (positive integers, read once) replace segment_lane_elements,
// segment_group_elements_per_item, segment_item_groups_per_compute_unit, segment_span_groups_per_compute_unit,
// segment_span_lanes, segment_arg_lane_elements and segment_transform_lane_elements:
// knobs for benchmarks that sweep them (bench/run_h100_segmented.sh), not for applications. Likewise
// ZE_REDUCE_WORK_GROUP_SIZE, ZE_REDUCE_MIN_ELEMENTS_PER_ITEM, ZE_REDUCE_FINAL_WORK_GROUP_SIZE,
// ZE_REDUCE_MAX_FINAL_INPUTS and ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS for the small inputs' launch shapes
// (bench/results/small_shapes_h200_2026-11-30).
Tuning tuning_for(const Capabilities& caps) {
  static const std::uint64_t work_group = environment_count("ZE_REDUCE_WORK_GROUP_SIZE");
  static const std::uint64_t elements_per_item = environment_count("ZE_REDUCE_MIN_ELEMENTS_PER_ITEM");
  static const std::uint64_t final_group = environment_count("ZE_REDUCE_FINAL_WORK_GROUP_SIZE");
  static const std::uint64_t final_inputs = environment_count("ZE_REDUCE_MAX_FINAL_INPUTS");
  static const std::uint64_t final_only = environment_count("ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS");
  static const std::uint64_t lane_elements = environment_count("ZE_REDUCE_SEGMENT_LANE_ELEMENTS");
  static const std::uint64_t group_elements = environment_count("ZE_REDUCE_SEGMENT_GROUP_ELEMENTS");
  static const std::uint64_t item_groups = environment_count("ZE_REDUCE_SEGMENT_ITEM_GROUPS");
  static const std::uint64_t span_groups = environment_count("ZE_REDUCE_SEGMENT_SPAN_GROUPS");
  static const std::uint64_t span_lanes = environment_count("ZE_REDUCE_SEGMENT_SPAN_LANES");
  static const std::uint64_t arg_lane_elements = environment_count("ZE_REDUCE_SEGMENT_ARG_LANE_ELEMENTS");
  static const std::uint64_t transform_lane_elements = environment_count("ZE_REDUCE_SEGMENT_TRANSFORM_LANE_ELEMENTS");
  Tuning tuning = class_tuning(caps);
  if (work_group > 0) tuning.work_group_size = work_group;
  if (elements_per_item > 0) tuning.min_elements_per_item = elements_per_item;
  if (final_group > 0) tuning.final_work_group_size = final_group;
  if (final_inputs > 0) tuning.max_final_inputs = final_inputs;
  if (final_only > 0) tuning.final_only_max_elements = final_only;
  if (lane_elements > 0) tuning.segment_lane_elements = lane_elements;
  if (group_elements > 0) tuning.segment_group_elements_per_item = group_elements;
  if (item_groups > 0) tuning.segment_item_groups_per_compute_unit = item_groups;
  if (span_groups > 0) tuning.segment_span_groups_per_compute_unit = span_groups;
  if (span_lanes > 0) tuning.segment_span_lanes = span_lanes;
  if (arg_lane_elements > 0) tuning.segment_arg_lane_elements = arg_lane_elements;
  if (transform_lane_elements > 0) tuning.segment_transform_lane_elements = transform_lane_elements;
  return tuning;
}

Tuning refine(Tuning tuning, const KernelHints& hints) {
  if (hints.required_group_size > 0) {
    tuning.work_group_size = hints.required_group_size;
    return tuning;
  }
  if (hints.suggested_group_size > 0 && hints.suggested_group_size < tuning.work_group_size)
    tuning.work_group_size = hints.suggested_group_size;
  if (hints.subgroup_size > 1 && tuning.work_group_size >= hints.subgroup_size)
    tuning.work_group_size -= tuning.work_group_size % hints.subgroup_size;
  return tuning;
}

}  // namespace zr::core
