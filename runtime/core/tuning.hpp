#pragma once
// Launch shapes per device class, kept apart from the strategy logic (like CUB's per-architecture policies).
// Values come from measurements in bench/; each says which.
#include <cstdint>
#include <string_view>

#include "capabilities.hpp"

namespace zr::core {

// The device classes that have their own table (tuning.cpp says which measurement chose each value).
enum class DeviceClass {
  cpu,         // CPU devices (PoCL): cpu_chunks
  nvidia_gpu,  // NVIDIA GPUs through NVIDIA's OpenCL driver (measured on the H100)
  gpu,         // every other GPU (Intel through Level Zero or OpenCL)
};
DeviceClass device_class(const Capabilities& caps);
std::string_view name(DeviceClass device_class);

struct Tuning {
  std::uint64_t work_group_size;          // upper bound; clipped to the device's maximum
  std::uint64_t groups_per_compute_unit;  // the most groups launched: compute units x this
  std::uint64_t min_elements_per_item;    // groups = n / (work_group_size x this), within [1, the most]
                                          // (and see the wave fields below)
  std::uint64_t final_work_group_size;    // the one group of the final pass
  std::uint64_t max_final_inputs;         // more partials than this get an intermediate pass
  // Up to this many elements (where the default strategy would launch one group anyway) the final pass alone
  // reads the input: one launch instead of two. 0: never.
  std::uint64_t final_only_max_elements = 0;
  // Optional (0: off): at least one wave of groups (compute units x this) once n gives each item
  // min_elements_per_item, and beyond that one group per work_group_size x wave_elements_per_item elements.
  std::uint64_t wave_groups_per_compute_unit = 0;
  std::uint64_t wave_elements_per_item = 0;
  // CPU devices: inputs of at most this many bytes divided by the compute units are reduced on the calling
  // thread (host_path.hpp). 0: never.
  std::uint64_t host_path_max_bytes = 0;
  // The same for segmented and row reductions (host_path_segments.hpp), whose short segments cost the calling
  // thread more per element than a plain fold.
  std::uint64_t host_path_segment_max_bytes = 0;
  // Segmented reductions on GPUs (plans/segmented.hpp): segments of up to a thousand or so elements get a power
  // of two of work-items each, so that none folds more than this many elements on average.
  std::uint64_t segment_lane_elements = 32;
  // Segmented reductions with a group per segment (seggroup): the group is as wide as gives each work-item at
  // least this many elements (from a sub-group's width up to work_group_size). Measured on the H100 (segments of
  // 4096, 2^28 in all, bench/results/segmented_h100_2026-11-27c): f32 and i32 read at the probe with 32 or 64
  // (349-353 us against 398-479 with 4 or 16), f64 within 2% of 4's; 2^14 and 2^16 the same for all four.
  std::uint64_t segment_group_elements_per_item = 64;
  // Segmented reductions with a work-item per segment (or per lanes' share) on GPUs (segitem, segt/segm, and segarg's
  // scan unless it defers long segments): its groups per compute unit at most, each work-item striding over the
  // segments beyond (0: enough groups for a segment per work-item, up to 64 waves).
  std::uint64_t segment_item_groups_per_compute_unit = 0;
  // Segmented reductions of skewed sizes on GPUs (segspan, 16 or 8 positions per lane of a tile, in registers): its
  // groups per compute unit at most (each takes an equal span of whole tiles),
  std::uint64_t segment_span_groups_per_compute_unit = 8;
  // ... and its lanes per group at most (a power of two; the lanes' scan takes log2 of it in barriers).
  std::uint64_t segment_span_lanes = 256;
  // argmin/argmax per segment on GPUs (plans/segmented_arg.cpp): at most a lane per this many elements of the mean
  // segment (and no more than segment_lanes gives a sum). H200, f32 argmax, 2^28 in all
  // (bench/results/segarg_vectors_h200_2026-11-30): segments of 16 and 64 took 0.60x and 0.79x the time with one
  // lane each rather than 2 and 4, 256 took 0.90x with 4 lanes rather than 8 (2 lanes: 1.01x), and 1024 kept its 8.
  std::uint64_t segment_arg_lane_elements = 64;
  // The same for transform-reductions and moments per segment (plans/segmented_transform.cpp; 0: a sum's lanes).
  // H200, f32 norm_l2 (same results folder): segments of 16 took 0.78x the time with one lane rather than 2; 32, 64
  // and 128 per lane made segments of 64 and 256 slower (1.13-1.51x), 16 left them as they were.
  std::uint64_t segment_transform_lane_elements = 16;
};

Tuning tuning_for(const Capabilities& caps);

// What a backend learns from the compiled first-pass kernel, for the plan to honour (Level Zero:
// zeKernelSuggestGroupSize and zeKernelGetProperties). Zero means "no hint".
struct KernelHints {
  std::uint64_t suggested_group_size = 0;  // the driver's group size for a large range
  std::uint64_t required_group_size = 0;   // the kernel can only run with this group size
  std::uint64_t subgroup_size = 0;         // the kernel's (maximum) sub-group size
};

// The tuning with the kernel's hints applied: a required size wins; else the work-group size is capped by
// the suggestion (it knows the kernel's register use) and kept a multiple of the sub-group size.
Tuning refine(Tuning tuning, const KernelHints& hints);

}  // namespace zr::core
