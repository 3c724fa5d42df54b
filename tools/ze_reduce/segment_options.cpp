#include "segment_options.hpp"

#include <cstring>
#include <fstream>
#include <numeric>
#include <string>

#include "npy.hpp"
#include "zereduce/errors.hpp"

namespace zr::cli {

namespace {

std::uint64_t product(std::span<const std::uint64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), std::uint64_t{1}, std::multiplies<>());
}

template <typename Offset>
std::vector<std::uint64_t> widened(const std::vector<std::byte>& data, const std::string& path) {
  std::vector<std::uint64_t> offsets(data.size() / sizeof(Offset));
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    Offset value;
    std::memcpy(&value, data.data() + i * sizeof(Offset), sizeof value);
    if constexpr (std::is_signed_v<Offset>)
      if (value < 0)
        throw InvalidArgumentError("--segments " + path + ": offset " + std::to_string(i) + " is negative (" +
                                   std::to_string(value) + ")");
    offsets[i] = static_cast<std::uint64_t>(value);
  }
  return offsets;
}

std::vector<std::uint64_t> read_offsets(const std::string& path, std::uint64_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgumentError("--segments " + path + ": cannot open the file");
  const NpyArray array = read_npy(in, path);
  if (array.header.shape.size() != 1)
    throw InvalidArgumentError("--segments " + path + ": the offsets must be a 1-D array, not of shape " +
                               format_shape(array.header.shape));
  std::vector<std::uint64_t> offsets;
  switch (array.header.type) {
    case core::DataType::i32: offsets = widened<std::int32_t>(array.data, path); break;
    case core::DataType::u32: offsets = widened<std::uint32_t>(array.data, path); break;
    case core::DataType::i64: offsets = widened<std::int64_t>(array.data, path); break;
    case core::DataType::u64: offsets = widened<std::uint64_t>(array.data, path); break;
    default:
      throw InvalidArgumentError("--segments " + path + ": offsets of dtype " + array.header.descr +
                                 " are not taken; use int32, uint32, int64 or uint64");
  }
  if (offsets.empty())
    throw InvalidArgumentError("--segments " + path + ": no offsets; m segments need m + 1 (0 segments: one)");
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1])
      throw InvalidArgumentError("--segments " + path + ": offsets must not decrease, but offset " + std::to_string(i) +
                                 " (" + std::to_string(offsets[i]) + ") is below offset " + std::to_string(i - 1) +
                                 " (" + std::to_string(offsets[i - 1]) + ")");
  if (offsets.back() > n)
    throw InvalidArgumentError("--segments " + path + ": the last offset, " + std::to_string(offsets.back()) +
                               ", is past the input's " + std::to_string(n) + " elements");
  return offsets;
}

// Moves axis k of a C-ordered array of `shape` to the end, on the host: (outer, len, inner) -> (outer, inner, len).
void move_axis_last(Workload& workload, std::size_t k) {
  const auto& shape = workload.shape;
  const std::uint64_t outer = product(std::span(shape).first(k));
  const std::uint64_t len = shape[k];
  const std::uint64_t inner = product(std::span(shape).subspan(k + 1));
  const std::size_t element = core::size_of(workload.type);
  std::vector<std::byte> moved(workload.data.size());
  for (std::uint64_t o = 0; o < outer; ++o)
    for (std::uint64_t l = 0; l < len; ++l)
      for (std::uint64_t i = 0; i < inner; ++i)
        std::memcpy(moved.data() + ((o * inner + i) * len + l) * element,
                    workload.data.data() + ((o * len + l) * inner + i) * element, element);
  workload.data = std::move(moved);
}

}  // namespace

void check_segment_options(const Options& options) {
  if (!options.output_path.empty() && (core::is_arg_op(options.op) || core::is_moments_op(options.op)))
    throw InvalidArgumentError("--output writes reductions' values; " + std::string(core::name(options.op)) +
                               " gives more than a value (use --json)");
  const bool segmented = options.axis || !options.segments_path.empty();
  if (options.axis && !options.segments_path.empty())
    throw InvalidArgumentError("--axis and --segments are two ways to say what to reduce: give one");
  if (!segmented) return;
  const std::string which = options.axis ? "--axis" : "--segments";
  if (options.columns > 1) throw InvalidArgumentError(which + " and --columns cannot be combined: give one");
  if (options.identity) throw InvalidArgumentError(which + " takes the op's known identity: leave --identity out");
  if (options.reproducible) throw InvalidArgumentError(which + " has no reproducible sums yet: leave --reproducible out");
  if (options.strategy) throw InvalidArgumentError(which + " chooses its own plans: leave --strategy out");
  if (options.axis && options.input_path.empty())
    throw InvalidArgumentError("--axis needs an N-D .npy --input (generated input has no axes)");
}

std::optional<Segmentation> segment_workload(Options& options, Workload& workload) {
  if (!options.segments_path.empty()) {
    Segmentation segmentation;
    segmentation.offsets = read_offsets(options.segments_path, workload.n);
    segmentation.segments = segmentation.offsets.size() - 1;
    segmentation.result_shape = {segmentation.segments};
    return segmentation;
  }
  if (!options.axis) return std::nullopt;
  if (workload.format != "npy")
    throw InvalidArgumentError("--axis needs a .npy --input, whose header gives the array's shape");
  const auto& shape = workload.shape;
  const auto ndim = static_cast<std::int64_t>(shape.size());
  const std::int64_t axis = *options.axis < 0 ? *options.axis + ndim : *options.axis;
  if (ndim == 0 || axis < 0 || axis >= ndim)
    throw InvalidArgumentError("--axis " + std::to_string(*options.axis) + " is out of range for an array of shape " +
                               format_shape(shape) + " (" + std::to_string(ndim) + " dimensions)");
  const auto k = static_cast<std::size_t>(axis);
  Segmentation segmentation;
  segmentation.result_shape = shape;
  segmentation.result_shape.erase(segmentation.result_shape.begin() + axis);
  const std::uint64_t len = shape[k];
  const std::uint64_t inner = product(std::span(shape).subspan(k + 1));
  // The first axis: an array reduction of `inner` columns, each a column of rows (the SYCL ops; transforms, means and
  // variances and arg-reductions have no column plans, so their first axis is moved last as any other).
  if (k == 0 && ndim > 1 && !core::is_transform_op(options.op) && !core::is_moments_op(options.op) &&
      !core::is_arg_op(options.op)) {
    options.columns = inner;
    return std::nullopt;
  }
  if (inner > 1) move_axis_last(workload, k);
  segmentation.length = len;
  segmentation.segments = len == 0 ? product(segmentation.result_shape) : workload.n / len;
  return segmentation;
}

std::vector<std::uint64_t> plain_result_shape(const Options& options, const Workload& workload) {
  if (options.axis) return {workload.shape.begin() + 1, workload.shape.end()};  // --axis 0 of 2 or more dimensions
  if (options.columns > 1) return {options.columns};
  return {};
}

}  // namespace zr::cli
