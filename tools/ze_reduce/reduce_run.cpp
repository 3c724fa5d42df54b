#include "reduce_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "arg_run.hpp"
#include "transform_run.hpp"
#include "common/type_dispatch.hpp"
#include "identity.hpp"
#include "run_parts.hpp"

namespace zr::cli {

namespace {

template <typename T>
T value_of(const core::Scalar& scalar) {
  return scalar.as<T>();
}

template <typename T, typename Op>
RunOutcome run_typed(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress) {
  RunOutcome outcome;
  const core::DataType type = workload.type;
  // A plain value and a flag rather than std::optional<T>: GCC 12 warns falsely that the optional's value may be
  // read uninitialised.
  const bool has_user_identity = options.identity.has_value();
  const T user_identity = has_user_identity ? value_of<T>(core::parse_scalar(type, *options.identity)) : T{};
  const auto op = static_cast<core::Op>(zr::detail::op_of<Op>::kind);
  outcome.identity = options.identity ? core::parse_scalar(type, *options.identity) : core::known_identity(op, type);
  if (!core::is_identity(op, outcome.identity))
    throw zr::InvalidArgumentError("--identity " + *options.identity + " is not an identity of " +
                                   std::string(core::name(op)) + " on " + std::string(core::name(type)) +
                                   " (it would change the result); its identity is " +
                                   core::known_identity(op, type).to_string() + ", or leave --identity out");
  const core::Scalar initial_scalar = options.initial ? core::parse_scalar(type, *options.initial) : outcome.identity;
  if (!options.initialize_to_identity) outcome.initial = initial_scalar;
  const T initial = value_of<T>(initial_scalar);

  const DeviceInput<T> input = place_input<T>(queue, workload, outcome.upload_ns);
  outcome.input_on_device = input.on_device();
  const auto columns = options.columns;
  const auto variables = std::make_unique<T[]>(columns);
  const zr::property_list props = properties_of(options);
  auto descriptor = [&]() {
    const std::span<T> vars(variables.get(), columns);
    if (columns == 1)
      return has_user_identity ? zr::reduction(&vars[0], user_identity, Op{}, props) : zr::reduction(&vars[0], Op{}, props);
    return has_user_identity ? zr::reduction(vars, user_identity, Op{}, props) : zr::reduction(vars, Op{}, props);
  };
  run_timed(
      options, workload, progress, outcome, [&] { std::fill(variables.get(), variables.get() + columns, initial); },
      [&] { return input.reduce(queue, descriptor()); });
  for (std::uint64_t c = 0; c < columns; ++c) outcome.results.push_back(core::Scalar::from<T>(type, variables[c]));
  return outcome;
}

}  // namespace

std::uint64_t median(std::vector<std::uint64_t> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

RunOutcome run_reduction(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress) {
  // argmin/argmax are not reduction(...) ops (visit_pair refuses them): they have calls of their own.
  if (core::is_arg_op(options.op)) return run_arg_reduction(queue, options, workload, progress);
  if (core::is_transform_op(options.op) || core::is_moments_op(options.op))
    return run_transform_reduction(queue, options, workload, progress);
  return tools::visit_pair(static_cast<element_type>(workload.type), static_cast<op_kind>(options.op),
                           [&](auto type_tag, auto op_tag) {
                             using T = typename decltype(type_tag)::type;
                             using Op = typename decltype(op_tag)::type;
                             return run_typed<T, Op>(queue, options, workload, progress);
                           });
}

std::optional<std::uint64_t> measure_read_probe_ns(zr::queue& queue, const Options& options, const Workload& workload,
                                                   Progress& progress) {
  const std::uint64_t bytes = workload.data.size();
  if (bytes == 0 || bytes > queue.get_device().capabilities().max_allocation_bytes) return std::nullopt;
  auto probe = [&]<typename Word>() -> std::optional<std::uint64_t> {
    const std::uint64_t words = bytes / sizeof(Word);
    auto data = zr::make_device_array<Word>(queue, words);
    queue.copy(reinterpret_cast<const Word*>(workload.data.data()), data.get(), words).wait();
    std::vector<std::uint64_t> kernel_ns;
    for (std::uint64_t run = 0; run < options.warmup + options.iterations; ++run) {
      progress.update("read probe, run " + std::to_string(run + 1));
      Word result{};
      const zr::profile& profile =
          queue.reduce(static_cast<const Word*>(data.get()), words,
                       zr::reduction(&result, zr::bit_or<Word>(), zr::property::reduction::initialize_to_identity{}))
              .get_profile();
      if (!profile.timestamps_valid) return std::nullopt;
      if (run >= options.warmup) kernel_ns.push_back(profile.kernel_ns);
    }
    return median(kernel_ns);
  };
  return bytes % 4 == 0 ? probe.template operator()<std::uint32_t>() : probe.template operator()<std::uint8_t>();
}

}  // namespace zr::cli
