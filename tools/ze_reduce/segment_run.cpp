#include "segment_run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>

#include "arg_reference.hpp"
#include "common/type_dispatch.hpp"
#include "identity.hpp"
#include "npy.hpp"
#include "run_parts.hpp"
#include "transform_choice.hpp"
#include "transform_reference.hpp"
#include "transform_verification.hpp"

namespace zr::cli {

namespace {

// Submits `operation` over the segments into host `results` (one per segment; the library stages them): segments by
// offsets or rows, the input on the device or handed over as host data.
template <typename T, typename Result, typename Operation>
zr::event submit_segments(zr::queue& queue, const DeviceInput<T>& input, const Segmentation& segmentation,
                          std::span<Result> results, Operation operation, const zr::property_list& props = {}) {
  const std::span<const std::uint64_t> offsets(segmentation.offsets);
  if (!offsets.empty()) {
    if (input.on_device())
      return queue.reduce_segments(static_cast<const T*>(input.copy.get()), input.n, offsets.data(),
                                   segmentation.segments, results.data(), operation, props);
    return queue.reduce_segments(std::span<const T>(input.host, input.n), offsets, results, operation, props);
  }
  if (input.on_device())
    return queue.reduce_rows(static_cast<const T*>(input.copy.get()), segmentation.segments, segmentation.length,
                             results.data(), operation, props);
  return queue.reduce_rows(std::span<const T>(input.host, input.n), segmentation.length, results, operation, props);
}

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
  auto submit = [&] { return submit_segments<T>(queue, input, segmentation, results, Op{}, props); };
  run_timed(options, workload, progress, outcome, [&] { std::fill(results.begin(), results.end(), initial); }, submit);
  outcome.results.reserve(segments);
  for (const T& value : results) outcome.results.push_back(core::Scalar::from<T>(type, value));
  return outcome;
}

// A transform per segment (mean_var: run_moments): results of the transform's type, written, never read.
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
  auto submit = [&] { return submit_segments<T>(queue, input, segmentation, std::span<Result>(results), transform, props); };
  run_timed(options, workload, progress, outcome, [] {}, submit);
  outcome.results.reserve(segments);
  for (const Result& value : results) outcome.results.push_back(core::Scalar::from<Result>(result_type, value));
  return outcome;
}

// mean_var per segment: each segment's count, mean and m2 (an empty one: count 0, mean 0, m2 0), with the variance
// and standard deviation --ddof asks for; the results are the means.
template <typename T, typename Transform>
RunOutcome run_moments(zr::queue& queue, const Options& options, const Workload& workload,
                       const Segmentation& segmentation, Progress& progress, Transform transform) {
  using Moments = zr::transform_result_t<Transform, T>;
  using A = decltype(Moments{}.mean);
  RunOutcome outcome;
  const core::DataType accumulator = core::moments_accumulator(options.op);
  outcome.identity = core::Scalar::from<A>(accumulator, A{});
  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  std::vector<Moments> results(segmentation.segments);
  const zr::property_list props = properties_of(options);
  auto submit = [&] { return submit_segments<T>(queue, input, segmentation, std::span<Moments>(results), transform, props); };
  run_timed(options, workload, progress, outcome, [] {}, submit);
  const std::uint64_t ddof = options.ddof.value_or(0);
  outcome.segment_moments.reserve(results.size());
  for (const Moments& found : results) {
    outcome.segment_moments.push_back(moments_outcome(found, accumulator, ddof));
    outcome.results.push_back(outcome.segment_moments.back().mean);
  }
  return outcome;
}

// argmin/argmax per segment: each segment's first extreme and its index from the segment's begin (an empty
// segment is refused by the library, naming it).
template <typename T, typename Operation>
RunOutcome run_arg(zr::queue& queue, const Options& options, const Workload& workload, const Segmentation& segmentation,
                   Progress& progress, Operation operation) {
  RunOutcome outcome;
  // The value the kernels start from: minimum's identity for argmin, maximum's for argmax (as arg_run.cpp says).
  outcome.identity = core::known_identity(options.op == core::Op::argmin ? core::Op::minimum : core::Op::maximum,
                                          workload.type);
  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  const std::uint64_t segments = segmentation.segments;
  std::vector<zr::arg_result<T>> results(segments);
  auto submit = [&] {
    return submit_segments<T>(queue, input, segmentation, std::span<zr::arg_result<T>>(results), operation);
  };
  run_timed(options, workload, progress, outcome, [] {}, submit);
  for (const auto& found : results) {
    outcome.results.push_back(core::Scalar::from<T>(workload.type, found.value));
    outcome.indices.push_back(found.index);
  }
  return outcome;
}

}  // namespace

RunOutcome run_segmented(zr::queue& queue, const Options& options, const Workload& workload,
                         const Segmentation& segmentation, Progress& progress) {
  if (core::is_arg_op(options.op))
    return tools::visit_element_type(static_cast<element_type>(workload.type), [&](auto type_tag) -> RunOutcome {
      using T = typename decltype(type_tag)::type;
      if constexpr (!zr::detail::is_arithmetic_v<T>)
        throw zr::InvalidArgumentError(std::string(core::name(options.op)) + " is not defined for bool");
      else if (options.op == core::Op::argmin)
        return run_arg<T>(queue, options, workload, segmentation, progress, zr::argmin<>());
      else
        return run_arg<T>(queue, options, workload, segmentation, progress, zr::argmax<>());
    });
  if (core::is_transform_op(options.op) || core::is_moments_op(options.op))
    return tools::visit_element_type(static_cast<element_type>(workload.type), [&](auto type_tag) -> RunOutcome {
      using T = typename decltype(type_tag)::type;
      return with_transform<T>(options, workload, [&](auto transform) -> RunOutcome {
        if constexpr (std::is_same_v<zr::transform_result_t<decltype(transform), T>, zr::moments<float>> ||
                      std::is_same_v<zr::transform_result_t<decltype(transform), T>, zr::moments<double>>)
          return run_moments<T>(queue, options, workload, segmentation, progress, transform);
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
    if (core::is_arg_op(op)) {  // bit for bit, and the index from the segment's begin
      const core::ArgCandidate reference = core::arg_reference(op, workload.type, data, end - begin);
      check.reference = {reference.value, 0.0};
      check.index = reference.index;
      check.agrees = reference.value.bitwise_equal(outcome.results.at(s)) && outcome.indices.at(s) == reference.index;
      if (!check.agrees)
        check.why = "expected " + reference.value.to_string() + " at index " + std::to_string(reference.index) +
                    ", got " + outcome.results.at(s).to_string() + " at index " + std::to_string(outcome.indices.at(s));
      verification.columns.push_back(std::move(check));
      continue;
    }
    const std::optional<std::uint64_t> bound_depth = depth ? std::optional<std::uint64_t>(depth) : std::nullopt;
    if (core::is_moments_op(op)) {  // count exactly, mean and m2 each within its bound
      verification.columns.push_back(
          check_moments(op, workload.type, data, end - begin, bound_depth, outcome.segment_moments.at(s)));
      continue;
    }
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
