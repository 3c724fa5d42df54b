#include "segment_run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>

#include "common/type_dispatch.hpp"
#include "identity.hpp"
#include "npy.hpp"
#include "run_parts.hpp"
#include "transform_choice.hpp"
#include "transform_reference.hpp"

namespace zr::cli {

namespace {

template <typename T, typename Op>
RunOutcome run_typed(zr::queue& queue, const Options& options, const Workload& workload,
                     const Segmentation& segmentation, Progress& progress) {
  RunOutcome outcome;
  const core::DataType type = workload.type;
  const auto op = static_cast<core::Op>(zr::detail::op_of<Op>::kind);
  outcome.identity = core::known_identity(op, type);
  const core::Scalar initial_scalar = options.initial ? core::parse_scalar(type, *options.initial) : outcome.identity;
  if (!options.initialize_to_identity) outcome.initial = initial_scalar;
  const T initial = initial_scalar.as<T>();

  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  const std::uint64_t segments = segmentation.segments;
  // Offsets and results stay in host memory: the library copies them as it needs (the timings count it).
  // (unique_ptr rather than vector: std::vector<bool> has no data().)
  const auto storage = std::make_unique<T[]>(segments);
  const std::span<T> results(storage.get(), segments);
  const zr::property_list props = properties_of(options);
  const std::span<const std::uint64_t> offsets(segmentation.offsets);
  auto submit = [&]() -> zr::event {
    if (!offsets.empty()) {
      if (input.on_device())
        return queue.reduce_segments(static_cast<const T*>(input.copy.get()), input.n, offsets.data(), segments,
                                     results.data(), Op{}, props);
      return queue.reduce_segments(std::span<const T>(input.host, input.n), offsets, results, Op{}, props);
    }
    if (input.on_device())
      return queue.reduce_rows(static_cast<const T*>(input.copy.get()), segments, segmentation.length, results.data(),
                               Op{}, props);
    return queue.reduce_rows(std::span<const T>(input.host, input.n), segmentation.length, results, Op{},
                             props);
  };
  run_timed(options, workload, progress, outcome, [&] { std::fill(results.begin(), results.end(), initial); }, submit);
  outcome.results.reserve(segments);
  for (const T& value : results) outcome.results.push_back(core::Scalar::from<T>(type, value));
  return outcome;
}

// A transform per segment (not mean_var: check_segment_options refuses it): results of the transform's type,
// written, never read.
template <typename T, typename Transform>
RunOutcome run_transform(zr::queue& queue, const Options& options, const Workload& workload,
                         const Segmentation& segmentation, Progress& progress, Transform transform) {
  using Result = zr::transform_result_t<Transform, T>;
  RunOutcome outcome;
  const core::DataType result_type = core::transform_result_type(options.op, workload.type);
  outcome.identity = core::Scalar::from<Result>(result_type, Result{});  // the sum's zero
  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  const std::uint64_t segments = segmentation.segments;
  std::vector<Result> results(segments);
  const zr::property_list props = properties_of(options);
  const std::span<const std::uint64_t> offsets(segmentation.offsets);
  auto submit = [&]() -> zr::event {
    if (!offsets.empty()) {
      if (input.on_device())
        return queue.reduce_segments(static_cast<const T*>(input.copy.get()), input.n, offsets.data(), segments,
                                     results.data(), transform, props);
      return queue.reduce_segments(std::span<const T>(input.host, input.n), offsets, std::span<Result>(results),
                                   transform, props);
    }
    if (input.on_device())
      return queue.reduce_rows(static_cast<const T*>(input.copy.get()), segments, segmentation.length, results.data(),
                               transform, props);
    return queue.reduce_rows(std::span<const T>(input.host, input.n), segmentation.length, std::span<Result>(results),
                             transform, props);
  };
  run_timed(options, workload, progress, outcome, [] {}, submit);
  outcome.results.reserve(segments);
  for (const Result& value : results) outcome.results.push_back(core::Scalar::from<Result>(result_type, value));
  return outcome;
}

}  // namespace

RunOutcome run_segmented(zr::queue& queue, const Options& options, const Workload& workload,
                         const Segmentation& segmentation, Progress& progress) {
  if (core::is_transform_op(options.op))
    return tools::visit_element_type(static_cast<element_type>(workload.type), [&](auto type_tag) -> RunOutcome {
      using T = typename decltype(type_tag)::type;
      return with_transform<T>(options, workload, [&](auto transform) -> RunOutcome {
        if constexpr (std::is_same_v<zr::transform_result_t<decltype(transform), T>, zr::moments<float>> ||
                      std::is_same_v<zr::transform_result_t<decltype(transform), T>, zr::moments<double>>)
          throw zr::InvalidArgumentError("mean_var per segment is not offered by ze_reduce yet");
        else
          return run_transform<T>(queue, options, workload, segmentation, progress, transform);
      });
    });
  return tools::visit_pair(static_cast<element_type>(workload.type), static_cast<op_kind>(options.op),
                           [&](auto type_tag, auto op_tag) {
                             using T = typename decltype(type_tag)::type;
                             using Op = typename decltype(op_tag)::type;
                             return run_typed<T, Op>(queue, options, workload, segmentation, progress);
                           });
}

Verification verify_segments(core::Op op, const Workload& workload, const Segmentation& segmentation,
                             const RunOutcome& outcome) {
  Verification verification;
  const std::size_t element = core::size_of(workload.type);
  // The plan's combine depth gives the tight bound (0, no plan: every segment empty, the any-order bound).
  const std::uint64_t depth = outcome.plans.empty() ? 0 : outcome.plans.front().combine_depth;
  for (std::uint64_t s = 0; s < segmentation.segments; ++s) {
    const std::uint64_t begin = segmentation.offsets.empty() ? s * segmentation.length : segmentation.offsets[s];
    const std::uint64_t end = segmentation.offsets.empty() ? begin + segmentation.length : segmentation.offsets[s + 1];
    const std::span<const std::byte> data(workload.data.data() + begin * element, (end - begin) * element);
    ColumnCheck check;
    const std::optional<std::uint64_t> bound_depth = depth ? std::optional<std::uint64_t>(depth) : std::nullopt;
    // Transforms: count_equal compares with its value, the others ignore it.
    check.reference = core::is_transform_op(op)
                          ? core::transform_reference(op, workload.type, data, end - begin,
                                                      outcome.equal_to.value_or(core::Scalar{workload.type, {}}), bound_depth)
                          : core::host_reference(op, workload.type, data, end - begin, outcome.identity, outcome.initial,
                                                 bound_depth);
    check.agrees = core::agrees(check.reference, outcome.results.at(s), &check.why);
    verification.columns.push_back(std::move(check));
  }
  return verification;
}

void write_results_npy(const std::string& path, core::DataType type, const std::vector<std::uint64_t>& shape,
                       const std::vector<core::Scalar>& results) {
  const std::size_t element = core::size_of(type);
  std::vector<std::byte> data(results.size() * element);
  for (std::size_t i = 0; i < results.size(); ++i) std::memcpy(data.data() + i * element, results[i].data(), element);
  // Written next to the destination and renamed over it: a reader never sees half a file.
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw InvalidArgumentError("--output " + path + ": cannot write the file");
    write_npy(out, type, shape, data);
    out.flush();
    if (!out) throw InvalidArgumentError("--output " + path + ": writing the file failed");
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0)
    throw InvalidArgumentError("--output " + path + ": cannot replace the file");
}

}  // namespace zr::cli
