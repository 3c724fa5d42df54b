#include "plans/segment_check.hpp"

#include <algorithm>

#include "plans/plan_building.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

using namespace plans;

namespace {
// Segments a work-item checks at least before the launch takes another group (the walk reads two bounds and keeps
// four values: a group of 256 covers 4,096 segments).
constexpr std::uint64_t kCheckSegmentsPerItem = 16;
// At most this many groups: the host reads 32 bytes of each.
constexpr std::uint64_t kCheckMaxGroups = 1024;
}  // namespace

Plan make_segment_check_plan(const Capabilities& caps, const Tuning& tuning, const SegmentCheckRequest& request) {
  if (request.offset_bytes != 4 && request.offset_bytes != 8)
    throw InvalidArgumentError("segment offsets are 4- or 8-byte integers, not " + std::to_string(request.offset_bytes) +
                               "-byte ones");
  if (request.segments == 0) throw InvalidArgumentError("a check of segment offsets needs at least one segment");
  const DataType type = request.offset_bytes == 4 ? DataType::u32 : DataType::u64;
  const auto found = find_kernel("segcheck", type);
  if (!found) throw UnsupportedError("no 'segcheck' kernel is embedded for " + std::string(name(type)));

  Plan plan;
  plan.request.op = Op::maximum;
  plan.request.type = type;
  plan.request.n = request.segments + request.end_step;  // the bounds read
  plan.request.identity = Scalar::from(type, 0);
  plan.request.include_initial = false;
  plan.request.deterministic = true;
  plan.strategy = Strategy::tree;

  KernelPass pass;
  pass.module = found->module;
  pass.entry_point = kernel_entry_point("segcheck", type);
  pass.label = "check segment offsets";
  pass.local_size = std::min<std::uint64_t>(256, widest_group(caps, tuning, kSegmentCheckWordsPerGroup * 8));
  const std::uint64_t groups =
      std::clamp<std::uint64_t>(ceil_div(request.segments, pass.local_size * kCheckSegmentsPerItem), 1, kCheckMaxGroups);
  pass.global_size = groups * pass.local_size;
  pass.args = {BufferArg{BufferArg::Which::input, 0},
               u64(request.segments),
               u64(request.end_step),
               u64(request.n),
               u32(request.signed_offsets ? 1 : 0),
               u32(request.refuse_empty ? 1 : 0),
               BufferArg{BufferArg::Which::result, 0},
               LocalMemoryArg{pass.local_size * kSegmentCheckWordsPerGroup * 8}};
  plan.passes.push_back(std::move(pass));
  plan.results = {{Op::maximum, plan.request.identity, false, groups, kSegmentCheckWordsPerGroup * 8}};
  plan.reason = "check of " + std::to_string(request.segments) + " segments' " + std::to_string(request.offset_bytes * 8) +
                "-bit bounds: " + std::to_string(groups) + " group(s), a summary each";
  return plan;
}

SegmentCheckSummary fold_segment_check(std::span<const std::uint64_t> words) {
  SegmentCheckSummary summary;
  for (std::size_t g = 0; g + kSegmentCheckWordsPerGroup <= words.size(); g += kSegmentCheckWordsPerGroup) {
    if (words[g] != UINT64_MAX) summary.first_bad = std::min(summary.first_bad.value_or(UINT64_MAX), words[g]);
    summary.longest = std::max(summary.longest, words[g + 1]);
    summary.shortest = std::min(summary.shortest, words[g + 2]);
    summary.covered = words[g + 3] > UINT64_MAX - summary.covered ? UINT64_MAX : summary.covered + words[g + 3];
  }
  return summary;
}

}  // namespace zr::core
