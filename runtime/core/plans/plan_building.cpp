#include "plans/plan_building.hpp"

#include <algorithm>
#include <bit>

#include "zereduce/errors.hpp"

namespace zr::core::plans {

std::uint64_t ceil_log2(std::uint64_t x) {
  std::uint64_t bits = 0;
  while (bits < 64 && (1ull << bits) < x) ++bits;
  return bits;
}

KernelPass kernel_pass(std::string_view variant, Op op, DataType type, std::string label) {
  const auto found = find_kernel(variant, op, type);
  if (!found)
    throw UnsupportedError("no '" + std::string(variant) + "' kernel is embedded for " + std::string(name(op)) +
                           " on " + std::string(name(type)));
  KernelPass pass;
  pass.module = found->module;
  pass.entry_point = kernel_entry_point(variant, op, type);
  pass.label = std::move(label);
  return pass;
}

BufferArg add_scratch(Plan& plan, std::uint64_t bytes, std::optional<Scalar> fill, std::string purpose) {
  plan.scratch.push_back({std::max<std::uint64_t>(bytes, 8), std::move(fill), std::move(purpose)});
  return BufferArg{BufferArg::Which::scratch, static_cast<std::uint32_t>(plan.scratch.size() - 1)};
}

std::uint64_t widest_group(const Capabilities& caps, const Tuning& tuning, std::size_t acc_size) {
  std::uint64_t widest = std::min(tuning.work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) widest = std::min<std::uint64_t>(widest, caps.local_memory_bytes / (2 * acc_size));
  return std::bit_floor(std::max<std::uint64_t>(widest, 1));
}

Scalar transform_lane_value(const ReductionRequest& request) {
  Scalar value = to_accumulator(request.transform_value.type == request.type ? request.transform_value
                                                                            : Scalar{request.type, {}});
  if (request.type == DataType::boolean) value = Scalar::from<std::uint8_t>(DataType::boolean, value.bytes[0] != std::byte{0});
  return value;
}

namespace {
constexpr std::uint64_t kTreeRadix = 8;  // ZR_TREE_RADIX
}

std::uint64_t local_tree_depth(std::uint64_t local_size) {
  std::uint64_t depth = 0;
  for (std::uint64_t active = local_size; active > 1;) {
    const std::uint64_t step = ceil_div(active, kTreeRadix);
    depth += ceil_log2(ceil_div(active, step));
    active = step;
  }
  return depth;
}

}  // namespace zr::core::plans
