#include "reference_check.hpp"

#include <cmath>

#include <cstring>
#include <string_view>

#include "arg_reference.hpp"
#include "binned_sum.hpp"
#include "exact_sum.hpp"
#include "host_reference.hpp"
#include "transform_reference.hpp"
#include "common/type_dispatch.hpp"

namespace zr::conformance {
using tools::visit_pair;
using tools::visit_element_type;

namespace {

core::DataType core_type(element_type type) { return static_cast<core::DataType>(type); }
core::Op core_op(op_kind op) { return static_cast<core::Op>(op); }

bool floating(element_type type) {
  return type == element_type::f16 || type == element_type::f32 || type == element_type::f64;
}

// What the memo's key says of a reference beyond the input: which fold, the case's (op, type, n), the initial
// value folded in (its bits) and the combine depth of the bound (0: none).
std::string memo_key(std::string_view fold, const ConformanceCase& c, const std::optional<core::Scalar>& initial,
                     std::uint64_t depth) {
  std::string key = std::string(fold) + ' ' + std::to_string(static_cast<int>(c.op)) + ' ' +
                    std::to_string(static_cast<int>(c.type)) + ' ' + std::to_string(c.n) + ' ';
  if (initial)
    for (std::size_t i = 0; i < initial->size(); ++i) key += std::to_string(static_cast<int>(initial->bytes[i])) + ',';
  return key + ' ' + std::to_string(depth);
}

// The reference that make() returns, kept in `memo` under the key when there is one.
template <typename Reference, typename Make>
Reference remembered(ReferenceMemo* memo, const std::string& key, Make&& make) {
  return memo ? memo->get<Reference>(key, std::forward<Make>(make)) : make();
}

// The host model of a reproducible sum (binned_sum.hpp), and whether it is within its bound of the exact sum of
// this input (exact_sum.hpp; not checked when an infinity or NaN decides the result).
BinnedModel binned_model(const ConformanceCase& c, std::span<const std::byte> input,
                         const std::optional<core::Scalar>& initial) {
  const core::DataType type = core_type(c.type);
  const core::BinnedState state = core::binned_sum_state(type, input, c.n, initial);
  BinnedModel made{core::binned_value(state, type), std::nullopt};
  const core::Scalar& model = made.model;
  if (state.flags != 0 || !std::isfinite(model.to_double())) return made;
  core::ExactSum exact;
  auto add_all = [&](std::span<const std::byte> values, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
      core::Scalar value{type, {}};
      std::memcpy(value.bytes.data(), values.data() + i * core::size_of(type), core::size_of(type));
      exact.add(value.to_double());
    }
  };
  add_all(input, c.n);
  if (initial) add_all(std::as_bytes(std::span(initial->bytes)), 1);
  exact.add(-model.to_double());
  const long double error = std::fabs(exact.value());
  const double bound = core::binned_error_bound(state, c.n + (initial ? 1 : 0), type);
  if (error > bound)
    made.beyond_bound = "the host binned sum " + model.to_string() + " is " + std::to_string(static_cast<double>(error)) +
                        " from the exact sum, beyond its bound " + std::to_string(bound);
  return made;
}

// A reproducible sum: the device's bits must be the host model's, and the model within its bound.
std::optional<std::string> binned_sum_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                   const std::optional<core::Scalar>& initial,
                                                   const core::Scalar& actual, ReferenceMemo* memo) {
  const BinnedModel made = remembered<BinnedModel>(memo, memo_key("binned", c, initial, 0),
                                                   [&] { return binned_model(c, input, initial); });
  if (!made.model.bitwise_equal(actual))
    return "reproducible sum " + actual.to_string() + " is not the host binned sum " + made.model.to_string() +
           " bit for bit";
  return made.beyond_bound;
}

}  // namespace

bool checked_within_bound(element_type type, op_kind op) {
  const bool rounded_transform = op == op_kind::sum_squares || op == op_kind::norm_l2 || op == op_kind::norm_l1 ||
                                 op == op_kind::sum_f32 || op == op_kind::sum_f64;
  return floating(type) && (op == op_kind::plus || op == op_kind::multiplies || rounded_transform);
}

core::Scalar counted_value(const ConformanceCase& c, std::span<const std::byte> input) {
  core::Scalar value{core_type(c.type), {}};
  const std::size_t size = core::size_of(value.type);
  if (c.n > 0) std::memcpy(value.bytes.data(), input.data() + c.n / 2 * size, size);
  return value;
}

core::Scalar known_identity(element_type type, op_kind op) {
  return visit_pair(type, value_op(op, type), [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    return core::Scalar::from(core_type(type), known_identity_v<Op, T>);
  });
}

core::Scalar initial_value(element_type type, op_kind op, std::uint64_t seed) {
  return visit_element_type(type, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return core::Scalar::from<std::uint8_t>(core_type(type), seed % 2);
    } else if constexpr (std::is_same_v<T, half>) {
      return core::Scalar::from(core_type(type), half(op == op_kind::multiplies ? 1.25f : 0.75f));
    } else if constexpr (std::is_floating_point_v<T>) {
      return core::Scalar::from(core_type(type), static_cast<T>(op == op_kind::multiplies ? 1.25 : 0.75));
    } else {
      return core::Scalar::from(core_type(type), static_cast<T>(91));  // odd: a wrapped product stays non-zero
    }
  });
}

std::optional<std::string> disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                        const core::Scalar& initial, const core::Scalar& actual,
                                        std::uint64_t combine_depth, ReferenceMemo* memo) {
  std::optional<core::Scalar> folded_initial;
  if (!c.properties.initialize_to_identity) folded_initial = initial;
  // m of the bound. Sums: the combine depth the library reports (each input's error grows only along its own
  // path to the root). Products: every multiplication's rounding scales the whole result (Higham 3.1:
  // prod fl = exact * (1 + theta_k), k the number of multiplications), so the tree's height is not enough
  // whatever its shape: m = n + 1 (host_reference's "any order"). A reported depth of 0 also means any order.
  if (c.properties.reproducible && checked_within_bound(c.type, c.op) && c.op == op_kind::plus)
    return binned_sum_disagreement(c, input, folded_initial, actual, memo);
  std::optional<std::uint64_t> depth;
  if (combine_depth > 0 && c.op != op_kind::multiplies) depth = combine_depth;
  // Transform-reductions: `initial` is count_equal's value (counted_value); there is no initial value.
  // Exact results do not depend on the depth (their tolerance is 0): strategies of any depth share them.
  const std::uint64_t bound_depth = checked_within_bound(c.type, c.op) ? depth.value_or(0) : 0;
  const std::optional<core::Scalar> keyed_initial = is_transform_op(c.op) ? initial : folded_initial;
  const core::HostReference reference = remembered<core::HostReference>(
      memo, memo_key("fold", c, keyed_initial, bound_depth), [&] {
        return is_transform_op(c.op)
                   ? core::transform_reference(core_op(c.op), core_type(c.type), input, c.n, initial, depth)
                   : core::host_reference(core_op(c.op), core_type(c.type), input, c.n, known_identity(c.type, c.op),
                                          folded_initial, depth);
      });
  if (reference.value.bitwise_equal(actual)) return std::nullopt;
  if (checked_within_bound(c.type, c.op) && std::isnan(reference.value.to_double()) &&
      std::isnan(actual.to_double()))
    return std::nullopt;
  std::string why;
  if (core::agrees(reference, actual, &why)) return std::nullopt;
  if (!checked_within_bound(c.type, c.op)) return why;
  return why + (depth ? " (bound for combine depth m = " + std::to_string(*depth) + ")"
                      : " (bound for m = n + 1 roundings)");
}

std::optional<std::string> moments_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                const core::Moments& actual, std::uint64_t combine_depth,
                                                ReferenceMemo* memo) {
  std::optional<std::uint64_t> depth;
  if (combine_depth > 0) depth = combine_depth;
  const core::MomentsReference reference =
      remembered<core::MomentsReference>(memo, memo_key("moments", c, std::nullopt, depth.value_or(0)), [&] {
        return core::moments_reference(core_op(c.op), core_type(c.type), input, c.n, depth);
      });
  std::string why;
  if (core::agrees(reference, actual, &why)) return std::nullopt;
  return why + (depth ? " (bound for combine depth m = " + std::to_string(*depth) + ")" : " (bound for m = n + 1)");
}

std::optional<std::string> arg_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                            const core::Scalar& actual_value, std::uint64_t actual_index,
                                            ReferenceMemo* memo) {
  const core::ArgCandidate reference = remembered<core::ArgCandidate>(
      memo, memo_key("arg", c, std::nullopt, 0),
      [&] { return core::arg_reference(core_op(c.op), core_type(c.type), input, c.n); });
  if (reference.value.bitwise_equal(actual_value) && reference.index == actual_index) return std::nullopt;
  return "got " + actual_value.to_string() + " at index " + std::to_string(actual_index) + ", the host reference " +
         reference.value.to_string() + " at index " + std::to_string(reference.index);
}

}  // namespace zr::conformance
