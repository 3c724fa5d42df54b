#include "segmented_cases.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "common/type_dispatch.hpp"
#include "plan.hpp"
#include "moments_reference.hpp"
#include "reference_check.hpp"
#include "transform_visit.hpp"
#include "user_operator_cases.hpp"

namespace zr::conformance {

namespace {
// The row length of the equal-rows shapes (reduce_rows); 0 for the others. Rows are 7 long (a work-item each), or
// for odd seeds 20 (several work-items each on GPUs, which read rows of a multiple of 16 bytes as vectors).
std::uint64_t row_length(const ConformanceCase& c) {
  if (c.segments == SegmentShape::rows) return c.seed % 2 == 1 ? 20 : 7;
  return c.segments == SegmentShape::rows_of_one ? 1 : 0;
}

// Whether a case of rows of one is given as offsets rather than through reduce_rows (for a third of the seeds):
// one-element segments with an empty one after every 97th, so that segitem's quads on GPUs meet four singles at
// and off a multiple of four elements, and quads with an empty segment.
bool rows_as_offsets(const ConformanceCase& c) { return c.segments == SegmentShape::rows_of_one && c.seed % 3 == 1; }

std::size_t element_size(const ConformanceCase& c) { return core::size_of(static_cast<core::DataType>(c.type)); }

core::Scalar scalar_at(const ConformanceCase& c, std::span<const std::byte> packed, std::uint64_t i) {
  core::Scalar value{static_cast<core::DataType>(c.type), {}};
  std::memcpy(value.bytes.data(), packed.data() + i * element_size(c), element_size(c));
  return value;
}

bool transform_case(const ConformanceCase& c) { return is_transform_op(c.op) || is_moments_op(c.op); }

// The bytes of one segment's result: the element, an arg_result, a transform's result or a moments<A>.
std::size_t result_size(const ConformanceCase& c) {
  const auto op = static_cast<core::Op>(c.op);
  if (c.op == op_kind::user) return describe(*sample_operator(c.user_operator).source).accumulator_bytes;
  if (is_arg_op(c.op)) return core::kArgResultBytes;
  if (is_transform_op(c.op)) return core::size_of(core::transform_result_type(op, static_cast<core::DataType>(c.type)));
  if (is_moments_op(c.op)) return core::moments_bytes(op);
  return element_size(c);
}

// begin_end: segments anywhere in the input, overlapping and leaving elements out, a few empty ones (some at n).
// The lengths follow the seed and op: all of at most 6 elements (a work-item each), 20 to 700, or mostly short
// with a tenth up to n / 3 (a group per segment, slices on some devices).
CaseSegments begin_end_segments(const ConformanceCase& c) {
  std::mt19937_64 rng(c.seed);
  const std::uint64_t n = c.n;
  const std::uint64_t family = (c.seed + static_cast<std::uint64_t>(c.op)) % 3;
  auto length = [&]() -> std::uint64_t {
    if (family == 0) return rng() % 7;
    if (family == 1) return 20 + rng() % 681;
    return rng() % 10 == 0 ? rng() % (n / 3 + 1) : rng() % 40;
  };
  CaseSegments segments;
  std::uint64_t covered = 0;
  while (segments.count() < 3 || covered < n) {
    const std::uint64_t k = segments.count();
    const std::uint64_t begin = k % 13 == 5 ? n : rng() % (n + 1);
    const std::uint64_t end = k % 11 == 3 ? begin : std::min(n, begin + length());
    segments.begins.push_back(begin);
    segments.ends.push_back(end);
    covered += std::max<std::uint64_t>(end - begin, 1);
  }
  return segments;
}

std::vector<std::uint64_t> segment_offsets(const ConformanceCase& c) {
  std::mt19937_64 rng(c.seed);
  const std::uint64_t n = c.n;
  std::vector<std::uint64_t> offsets;
  if (rows_as_offsets(c)) {
    for (std::uint64_t at = 0; at < n; ++at) {
      offsets.push_back(at);
      if (at % 97 == 96) offsets.push_back(at);
    }
    offsets.push_back(n);
    return offsets;
  }
  if (const std::uint64_t length = row_length(c)) {
    for (std::uint64_t at = 0; at + length <= n; at += length) offsets.push_back(at);
    offsets.push_back(offsets.empty() ? 0 : offsets.back() + length);
    return offsets;
  }
  if (c.segments == SegmentShape::beyond_2_31) return {0, 3, 3 + (1ull << 31) + 4, n};
  std::uint64_t at = n > 10 ? rng() % 3 : 0;  // a few elements before the first segment, in none
  offsets.push_back(at);
  auto next_size = [&](std::uint64_t k) -> std::uint64_t {
    switch (c.segments) {
      case SegmentShape::tiny: return rng() % 6;
      case SegmentShape::medium: return 20 + rng() % 681;
      case SegmentShape::few_long: return k == 1 ? 0 : n / 2;
      case SegmentShape::power_law: {
        const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        return std::min<std::uint64_t>(static_cast<std::uint64_t>(std::pow(1.0 - u, -1.0 / 0.8)) - 1, n / 2);
      }
      case SegmentShape::one_huge_among_tiny: return k == 5 ? n / 2 : 1;
      case SegmentShape::with_empty: return k % 2 ? 0 : 1 + rng() % 300;
      default: return n;
    }
  };
  for (std::uint64_t k = 0; offsets.size() < 3 || at < n; ++k) {
    at = std::min(n, at + next_size(k));
    offsets.push_back(at);
    if (c.segments == SegmentShape::few_long && k == 2) break;
  }
  return offsets;
}

// rows x width elements of `size` bytes (row-major) stored column after column.
std::vector<std::byte> columns_one_after_another(std::span<const std::byte> input, std::uint64_t rows,
                                                 std::uint64_t width, std::size_t size) {
  std::vector<std::byte> out(rows * width * size);
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t k = 0; k < width; ++k)
      std::memcpy(out.data() + (k * rows + r) * size, input.data() + (r * width + k) * size, size);
  return out;
}

}  // namespace

CaseSegments case_segments(const ConformanceCase& c) {
  CaseSegments segments;
  if (const std::uint64_t width = column_width(c.segments)) {
    // Column k as segment k of the input transposed (columns_one_after_another).
    const std::uint64_t rows = c.n / width;
    for (std::uint64_t k = 0; k < width; ++k) {
      segments.begins.push_back(k * rows);
      segments.ends.push_back((k + 1) * rows);
    }
    return segments;
  }
  if (c.segments == SegmentShape::begin_end) {
    segments = begin_end_segments(c);
  } else {
    segments.offsets = segment_offsets(c);
    // An empty segment has no argmin/argmax (refused: tests/api/segment_arg_test.cpp): arg cases leave them out.
    if (is_arg_op(c.op)) segments.offsets.erase(std::unique(segments.offsets.begin(), segments.offsets.end()), segments.offsets.end());
    segments.begins.assign(segments.offsets.begin(), segments.offsets.end() - 1);
    segments.ends.assign(segments.offsets.begin() + 1, segments.offsets.end());
  }
  if (is_arg_op(c.op) && segments.offsets.empty()) {
    std::size_t kept = 0;
    for (std::size_t s = 0; s < segments.count(); ++s)
      if (segments.ends[s] > segments.begins[s]) {
        segments.begins[kept] = segments.begins[s];
        segments.ends[kept++] = segments.ends[s];
      }
    segments.begins.resize(kept);
    segments.ends.resize(kept);
  }
  return segments;
}

std::vector<std::byte> segment_initial_values(const ConformanceCase& c, std::uint64_t segments) {
  if (c.op == op_kind::user) {
    const std::vector<std::byte> one = user_initial_value(c);
    std::vector<std::byte> values;
    for (std::uint64_t s = 0; s < segments; ++s) values.insert(values.end(), one.begin(), one.end());
    return values;
  }
  if (is_arg_op(c.op) || transform_case(c)) return std::vector<std::byte>(segments * result_size(c));  // written, never read
  std::vector<std::byte> values(segments * element_size(c));
  for (std::uint64_t s = 0; s < segments; ++s)
    std::memcpy(values.data() + s * element_size(c), initial_value(c.type, c.op, c.seed + s).data(), element_size(c));
  return values;
}

SegmentedRun reduce_segments_once(queue& q, const ConformanceCase& c, const void* input, const CaseSegments& bounds,
                                  std::span<const std::byte> initial, const core::Scalar& operand) {
  SegmentedRun run;
  run.results.assign(initial.begin(), initial.end());
  const std::uint64_t segments = bounds.count();
  property_list props;
  if (c.properties.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.properties.deterministic) props = props.with(property::reduction::deterministic{});
  if (c.properties.reproducible) props = props.with(property::reduction::reproducible{});
  const bool device_offsets = c.seed % 2 == 0;
  const bool narrow_offsets = c.seed / 2 % 2 == 1;
  auto reduce = [&](auto type_tag, auto op, auto* results) {
    using T = typename decltype(type_tag)::type;
    const T* elements = static_cast<const T*>(input);
    if (const std::uint64_t width = column_width(c.segments)) {
      const std::uint64_t shape[] = {c.n / width, width};
      const std::int64_t axes[] = {0};
      if (!c.from_host_span) return q.reduce_axes(elements, std::span<const std::uint64_t>(shape), axes, results, op, props);
      auto e = q.reduce_axes(std::span<const T>(elements, shape[0] * width), std::span<const std::uint64_t>(shape),
                             std::span<const std::int64_t>(axes),
                             std::span<std::remove_pointer_t<decltype(results)>>(results, width), op, props);
      e.wait();
      return e;
    }
    if (const std::uint64_t length = row_length(c); length > 0 && !rows_as_offsets(c)) {
      if (!c.from_host_span) return q.reduce_rows(elements, segments, length, results, op, props);
      auto e = q.reduce_rows(std::span<const T>(elements, segments * length), length,
                             std::span<std::remove_pointer_t<decltype(results)>>(results, segments), op, props);
      e.wait();
      return e;
    }
    auto submit = [&](auto width_tag) {
      using Offset = typename decltype(width_tag)::type;
      // Each array as the library reads it, on the host or copied to the device.
      auto placed = [&](const std::vector<std::uint64_t>& values) {
        std::vector<Offset> narrowed(values.begin(), values.end());
        auto on_device = make_device_array<Offset>(q, std::max<std::size_t>(narrowed.size(), 1));
        if (device_offsets && !narrowed.empty()) q.copy(narrowed.data(), on_device.get(), narrowed.size()).wait();
        return std::make_pair(std::move(narrowed), std::move(on_device));
      };
      auto pointer = [&](const auto& array) { return device_offsets ? array.second.get() : array.first.data(); };
      event e;
      if (c.from_host_span) {  // host data, host offsets (or begins and ends): the span forms
        const std::span<std::remove_pointer_t<decltype(results)>> out(results, bounds.count());
        if (bounds.offsets.empty()) {
          const std::vector<Offset> begins(bounds.begins.begin(), bounds.begins.end());
          const std::vector<Offset> ends(bounds.ends.begin(), bounds.ends.end());
          e = q.reduce_segments(std::span<const T>(elements, c.n), std::span<const Offset>(begins),
                                std::span<const Offset>(ends), out, op, props);
          e.wait();  // the arrays must outlive the work
        } else {
          const std::vector<Offset> offsets(bounds.offsets.begin(), bounds.offsets.end());
          e = q.reduce_segments(std::span<const T>(elements, c.n), std::span<const Offset>(offsets), out, op, props);
          e.wait();
        }
      } else if (bounds.offsets.empty()) {
        const auto begins = placed(bounds.begins), ends = placed(bounds.ends);
        e = q.reduce_segments(elements, c.n, pointer(begins), pointer(ends), segments, results, op, props);
        e.wait();  // the arrays must outlive the work
      } else {
        const auto offsets = placed(bounds.offsets);
        e = q.reduce_segments(elements, c.n, pointer(offsets), segments, results, op, props);
        e.wait();
      }
      return e;
    };
    return narrow_offsets ? submit(std::type_identity<std::uint32_t>{}) : submit(std::type_identity<std::uint64_t>{});
  };
  const event done =
      c.op == op_kind::user
          ? visit_sample_operator(c.user_operator, [&](auto element_tag, auto accumulator_tag) {
              using T = typename decltype(element_tag)::type;
              using A = typename decltype(accumulator_tag)::type;
              return reduce(element_tag, user_operator<T, A>(*sample_operator(c.user_operator).source),
                            reinterpret_cast<A*>(run.results.data()));
            })
      : transform_case(c)
          ? tools::visit_element_type(c.type, [&](auto type_tag) {
              using T = typename decltype(type_tag)::type;
              return visit_transform<T>(c.op, operand, [&](auto transform) {
                using Result = transform_result_t<decltype(transform), T>;
                if constexpr (!detail::transform_of<decltype(transform), T>::known) {
                  throw InvalidArgumentError(std::string(to_string(c.op)) + " is not defined for " + std::string(to_string(c.type)));
                  return event{};
                } else {
                  return reduce(std::type_identity<T>{}, transform, reinterpret_cast<Result*>(run.results.data()));
                }
              });
            })
      : is_arg_op(c.op)
          ? tools::visit_element_type(c.type, [&](auto type_tag) {
              using T = typename decltype(type_tag)::type;
              if constexpr (!detail::is_arithmetic_v<T>) {
                throw InvalidArgumentError(std::string(to_string(c.op)) + " is not defined for " + std::string(to_string(c.type)));
                return event{};
              } else {
                auto* results = reinterpret_cast<arg_result<T>*>(run.results.data());
                return c.op == op_kind::argmax ? reduce(type_tag, argmax<>(), results) : reduce(type_tag, argmin<>(), results);
              }
            })
          : tools::visit_pair(c.type, c.op, [&](auto type_tag, auto op_tag) {
              using T = typename decltype(type_tag)::type;
              return reduce(type_tag, typename decltype(op_tag)::type(), reinterpret_cast<T*>(run.results.data()));
            });
  done.wait();
  const profile& p = done.get_profile();
  if (!p.plans.empty()) {
    run.combine_depth = p.plans.front().combine_depth;
    run.host_path = p.plans.front().host_path;
  }
  for (const auto& pass : p.passes)
    if (pass.what == pass_profile::kind::kernel) run.kernels += (run.kernels.empty() ? "" : ", ") + pass.kernel;
  return run;
}

std::optional<std::string> segments_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                 const CaseSegments& bounds, std::span<const std::byte> initial,
                                                 const core::Scalar& operand, const SegmentedRun& run) {
  std::vector<std::byte> transposed;
  if (const std::uint64_t width = column_width(c.segments)) {
    transposed = columns_one_after_another(input, c.n / width, width, element_size(c));
    input = transposed;
  }
  std::string message;
  std::uint64_t wrong = 0;
  const std::uint64_t segments = bounds.count();
  for (std::uint64_t s = 0; s < segments; ++s) {
    ConformanceCase segment = c;
    segment.n = bounds.ends[s] - bounds.begins[s];
    const auto data = input.subspan(bounds.begins[s] * element_size(c), segment.n * element_size(c));
    std::optional<std::string> why;
    if (c.op == op_kind::user) {
      const auto result = std::span<const std::byte>(run.results).subspan(s * result_size(c), result_size(c));
      why = user_range_disagreement(segment, data, bounds.begins[s], result, run.combine_depth);
    } else if (is_arg_op(c.op)) {
      const std::span<const std::byte> result = std::span<const std::byte>(run.results).subspan(s * core::kArgResultBytes);
      std::uint64_t index = 0;
      std::memcpy(&index, result.data() + 8, 8);
      why = arg_disagreement(segment, data, scalar_at(c, result, 0), index);
    } else if (is_moments_op(c.op)) {
      const core::Moments moments = core::moments_from_bytes(static_cast<core::Op>(c.op), run.results.data() + s * result_size(c));
      why = moments_disagreement(segment, data, moments, run.combine_depth);
    } else if (is_transform_op(c.op)) {
      const auto op = static_cast<core::Op>(c.op);
      core::Scalar result{core::transform_result_type(op, static_cast<core::DataType>(c.type)), {}};
      std::memcpy(result.bytes.data(), run.results.data() + s * result_size(c), result_size(c));
      why = disagreement(segment, data, operand, result, run.combine_depth);  // `initial`: count_equal's value
    } else {
      why = disagreement(segment, data, scalar_at(c, initial, s), scalar_at(c, run.results, s), run.combine_depth);
    }
    if (why && wrong++ < 3)
      message += (message.empty() ? "" : "; ") + ("segment " + std::to_string(s) + " of " + std::to_string(segments) +
                                                  " (" + std::to_string(segment.n) + " elements): " + *why);
  }
  if (wrong == 0) return std::nullopt;
  return std::to_string(wrong) + " segment(s) wrong, by " + run.kernels + ": " + message;
}

}  // namespace zr::conformance
