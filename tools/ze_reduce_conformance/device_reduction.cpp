#include "device_reduction.hpp"

#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/type_dispatch.hpp"
#include "transform_visit.hpp"

namespace zr::conformance {
using tools::visit_pair;

namespace {

property_list properties_of(const ConformanceCase& c) {
  property_list props;
  if (!c.library_choice) props = props.with(property::reduction::use_strategy{c.strategy});
  if (c.properties.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.properties.deterministic) props = props.with(property::reduction::deterministic{});
  if (c.properties.reproducible) props = props.with(property::reduction::reproducible{});
  return props;
}

// Chunk boundaries: about 1/7 and 4/7 of n, on multiples of 256 elements from 4096 on (so that large device
// inputs need no copy for an unaligned start), anywhere below (odd splits, empty chunks).
std::uint64_t boundary(std::uint64_t n, std::uint64_t sevenths) {
  const std::uint64_t at = n / 7 * sevenths + n % 7 * sevenths / 7;
  return n >= 4096 ? at / 256 * 256 : at;
}

}  // namespace

core::Scalar reduce_in_chunks(queue& q, const ConformanceCase& c, const void* input, const core::Scalar& initial) {
  return visit_pair(c.type, c.op, [&](auto type_tag, auto) -> core::Scalar {
    using T = typename decltype(type_tag)::type;
    if constexpr (!std::is_same_v<T, half> && !std::is_same_v<T, float> && !std::is_same_v<T, double>) {
      throw InvalidArgumentError("reproducible partial sums are of floating-point data only");
    } else {
      const std::uint64_t bounds[] = {0, boundary(c.n, 1), boundary(c.n, 4), c.n};
      const property_list strategy{property::reduction::use_strategy{c.strategy}};
      const T* elements = static_cast<const T*>(input);
      std::array<reproducible_partial<T>, 3> partials;
      std::vector<event> events;
      for (std::size_t k = 0; k < partials.size(); ++k) {
        const T* start = elements ? elements + bounds[k] : nullptr;
        const std::uint64_t count = bounds[k + 1] - bounds[k];
        events.push_back(c.from_host_span ? q.reduce_partial(std::span<const T>(start, count), &partials[k], strategy)
                                          : q.reduce_partial(start, count, &partials[k], strategy));
      }
      for (const event& e : events) e.wait();
      reproducible_partial<T> merged;
      for (std::size_t k = partials.size(); k-- > 0;) merged += partials[k];
      if (!c.properties.initialize_to_identity) {
        T value{};
        std::memcpy(&value, initial.data(), sizeof(T));
        merged.add(value);
      }
      return core::Scalar::from(static_cast<core::DataType>(c.type), merged.value());
    }
  });
}

namespace {
DeviceRun run_of(const event& done) {
  const profile& p = done.get_profile();
  DeviceRun run;
  if (!p.plans.empty()) {
    run.combine_depth = p.plans.front().combine_depth;
    run.strategy = p.plans.front().strategy;
    run.host_path = p.plans.front().host_path;
  }
  return run;
}

DeviceRun arg_reduce_once(queue& q, const ConformanceCase& c, const void* input) {
  return tools::visit_element_type(c.type, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    if constexpr (!detail::is_arithmetic_v<T>) {
      throw InvalidArgumentError(std::string(to_string(c.op)) + " is not defined for " + std::string(to_string(c.type)));
      return DeviceRun{};
    } else {
      const T* elements = static_cast<const T*>(input);
      arg_result<T> result{};
      const property_list props = properties_of(c);
      const bool largest = c.op == op_kind::argmax;
      const event done = c.from_host_span
                             ? (largest ? q.argmax(std::span<const T>(elements, c.n), &result, props)
                                        : q.argmin(std::span<const T>(elements, c.n), &result, props))
                             : (largest ? q.argmax(elements, c.n, &result, props) : q.argmin(elements, c.n, &result, props));
      done.wait();
      DeviceRun run = run_of(done);
      run.result = core::Scalar::from(static_cast<core::DataType>(c.type), result.value);
      run.index = result.index;
      return run;
    }
  });
}

template <typename T, typename Transform>
DeviceRun transform_run(queue& q, const ConformanceCase& c, const void* input, Transform transform) {
  transform_result_t<Transform, T> result{};
  const T* elements = static_cast<const T*>(input);
  const property_list props = properties_of(c);
  const event done = c.from_host_span ? q.transform_reduce(std::span<const T>(elements, c.n), transform, &result, props)
                                      : q.transform_reduce(elements, c.n, transform, &result, props);
  done.wait();
  DeviceRun run = run_of(done);
  if constexpr (std::is_same_v<Transform, mean_variance<float>> || std::is_same_v<Transform, mean_variance<double>>) {
    run.moments = {result.count, result.mean, result.m2};
  } else {
    const auto type = static_cast<core::DataType>(c.type);
    run.result = core::Scalar::from(core::transform_result_type(static_cast<core::Op>(c.op), type), result);
  }
  return run;
}

// `operand` is count_equal's value (element type).
DeviceRun transform_reduce_once(queue& q, const ConformanceCase& c, const void* input, const core::Scalar& operand) {
  return tools::visit_element_type(c.type, [&](auto type_tag) -> DeviceRun {
    using T = typename decltype(type_tag)::type;
    auto run_with = [&](auto transform) -> DeviceRun {
      if constexpr (detail::transform_of<decltype(transform), T>::known) return transform_run<T>(q, c, input, transform);
      else throw InvalidArgumentError(std::string(to_string(c.op)) + " is not defined for " + std::string(to_string(c.type)));
    };
    return visit_transform<T>(c.op, operand, run_with);
  });
}
}  // namespace

DeviceRun reduce_once(queue& q, const ConformanceCase& c, const void* input, const core::Scalar& initial) {
  if (is_arg_op(c.op)) return arg_reduce_once(q, c, input);
  if (is_transform_op(c.op) || is_moments_op(c.op)) return transform_reduce_once(q, c, input, initial);
  return visit_pair(c.type, c.op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    T variable{};
    std::memcpy(&variable, initial.data(), sizeof(T));
    const auto descriptor = reduction(&variable, Op{}, properties_of(c));
    const T* elements = static_cast<const T*>(input);
    const event done = c.from_host_span ? q.reduce(std::span<const T>(elements, c.n), descriptor)
                                        : q.reduce(elements, c.n, descriptor);
    done.wait();
    DeviceRun run = run_of(done);
    run.result = core::Scalar::from(static_cast<core::DataType>(c.type), variable);
    return run;
  });
}

}  // namespace zr::conformance
