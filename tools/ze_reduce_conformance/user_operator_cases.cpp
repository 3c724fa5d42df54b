#include "user_operator_cases.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>

#include "host_reference.hpp"
#include "sample_operator_reference.hpp"

namespace zr::conformance {

namespace {

using bounds = zr_operators::bounds_acc;
using zr_operators::histogram8;
using zr_operators::mix_state;
using zr_operators::range16;
using namespace zr_operators::reference;

const SampleOperator kOperators[] = {
    {"f32_sum", &zr_operators::f32_sum, element_type::f32, true},
    {"f32_sum_f64", &zr_operators::f32_sum_f64, element_type::f32, true},
    {"bounds", &zr_operators::bounds, element_type::f32, true},
    {"i16_range", &zr_operators::i16_range, element_type::i16, false},
    {"u8_histogram", &zr_operators::u8_histogram, element_type::u8, true},
    {"i64_mix", &zr_operators::i64_mix, element_type::i64, true},
};

// ---- the initial value the suite folds each operator's reduction after, and how a result reads in a message ----
bounds initial(const bounds*) { return {-0.25f, 0.25f, 7, 9, 3}; }
std::string text(const bounds& b) {
  std::ostringstream out;
  out << "{lo " << b.lo << " at " << b.lo_index << ", hi " << b.hi << " at " << b.hi_index << ", count " << b.count << "}";
  return out.str();
}

range16 initial(const range16*) { return {-3, 4}; }
std::string text(const range16& r) {
  std::ostringstream out;
  out << "{" << r.lo << ", " << r.hi << "}";
  return out.str();
}

histogram8 initial(const histogram8*) { return {{1, 2, 3, 4, 5, 6, 7, 8}}; }
std::string text(const histogram8& h) {
  std::ostringstream out;
  out << "{";
  for (int i = 0; i < 8; ++i) out << (i ? ", " : "") << h.counts[i];
  out << "}";
  return out.str();
}

mix_state initial(const mix_state*) { return {-5, 0x9e3779b97f4a7c15ull}; }
std::string text(const mix_state& m) {
  std::ostringstream out;
  out << "{sum " << m.sum << ", hash " << m.hash << "}";
  return out.str();
}

float initial(const float*) { return 0.75f; }
double initial(const double*) { return 0.75; }

template <typename T, typename A>
UserRun run_typed(queue& q, const ConformanceCase& c, const void* input) {
  const user_operator<T, A> op(*sample_operator(c.user_operator).source);
  property_list props{property::reduction::use_strategy{c.strategy}};
  if (c.properties.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.properties.deterministic) props = props.with(property::reduction::deterministic{});
  A result = initial(static_cast<const A*>(nullptr));
  const T* elements = static_cast<const T*>(input);
  const event done = c.from_host_span ? q.reduce(std::span<const T>(elements, c.n), op, &result, props)
                                      : q.reduce(elements, c.n, op, &result, props);
  done.wait();
  UserRun run;
  const auto& plans = done.get_profile().plans;
  if (!plans.empty()) {
    run.strategy = plans.front().strategy;
    run.combine_depth = plans.front().combine_depth;
  }
  run.result.resize(sizeof(A));
  std::memcpy(run.result.data(), &result, sizeof(A));
  return run;
}

template <typename T, typename A>
std::optional<std::string> exact_check(const ConformanceCase& c, std::span<const std::byte> input, std::uint64_t first_index,
                                       std::span<const std::byte> result, bool has_identity) {
  const A* tag = nullptr;
  std::optional<A> want;
  if (!c.properties.initialize_to_identity) want = initial(tag);
  for (std::uint64_t i = 0; i < c.n; ++i) {
    T x;
    std::memcpy(&x, input.data() + i * sizeof(T), sizeof(T));
    const A a = transform(tag, x, first_index + i);
    want = want ? combine(*want, a) : a;
  }
  if (!want) {
    if constexpr (requires { identity(tag); }) want = identity(tag);
    else return has_identity ? std::optional<std::string>("no host reference") : std::nullopt;
  }
  A got;
  std::memcpy(&got, result.data(), sizeof(A));
  if (same(got, *want)) return std::nullopt;
  std::string why = "got ";
  why += text(got);
  why += ", the host reference is ";
  why += text(*want);
  return why;
}

// A floating-point sum: within the plain sum's bound for the run's combine depth, computed in the accumulator's
// precision (f32 for f32_sum; f64 for f32_sum_f64, over the same values widened exactly).
template <typename A>
std::optional<std::string> sum_check(const ConformanceCase& c, std::span<const std::byte> input,
                                     std::span<const std::byte> result, std::uint64_t combine_depth) {
  const core::DataType acc = std::is_same_v<A, double> ? core::DataType::f64 : core::DataType::f32;
  std::vector<std::byte> widened(c.n * sizeof(A));
  for (std::uint64_t i = 0; i < c.n; ++i) {
    float x;
    std::memcpy(&x, input.data() + i * sizeof(float), sizeof x);
    const A w = static_cast<A>(x);
    std::memcpy(widened.data() + i * sizeof(A), &w, sizeof(A));
  }
  std::optional<core::Scalar> start;
  if (!c.properties.initialize_to_identity) start = core::Scalar::from(acc, initial(static_cast<const A*>(nullptr)));
  const auto reference = core::host_reference(core::Op::plus, acc, widened, c.n, core::Scalar::from(acc, A{}), start,
                                              combine_depth);
  A got;
  std::memcpy(&got, result.data(), sizeof(A));
  // A NaN is any NaN (its sign and payload depend on the order of the adds), as for the built-in sums.
  if (std::isnan(reference.value.to_double()) && std::isnan(got)) return std::nullopt;
  std::string why;
  if (core::agrees(reference, core::Scalar::from(acc, got), &why)) return std::nullopt;
  return why;
}

}  // namespace

std::span<const SampleOperator> sample_operators() { return kOperators; }

const SampleOperator& sample_operator(std::string_view name) {
  for (const auto& op : kOperators)
    if (op.name == name) return op;
  throw InvalidArgumentError("no sample user operator '" + std::string(name) + "'");
}

UserRun reduce_user_once(queue& q, const ConformanceCase& c, const void* input) {
  return visit_sample_operator(c.user_operator, [&](auto element_tag, auto accumulator_tag) {
    return run_typed<typename decltype(element_tag)::type, typename decltype(accumulator_tag)::type>(q, c, input);
  });
}

namespace {
template <typename A>
bool same_typed(const UserRun& a, const UserRun& b) {
  A x, y;
  std::memcpy(&x, a.result.data(), sizeof(A));
  std::memcpy(&y, b.result.data(), sizeof(A));
  if constexpr (std::is_floating_point_v<A>) return std::memcmp(&x, &y, sizeof(A)) == 0;
  else return same(x, y);
}
}  // namespace

bool same_user_result(const ConformanceCase& c, const UserRun& a, const UserRun& b) {
  return visit_sample_operator(c.user_operator, [&](auto, auto accumulator_tag) {
    return same_typed<typename decltype(accumulator_tag)::type>(a, b);
  });
}

std::optional<std::string> user_range_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                   std::uint64_t first_index, std::span<const std::byte> result,
                                                   std::uint64_t combine_depth) {
  const std::string_view name = c.user_operator;
  if (name == "f32_sum") return sum_check<float>(c, input, result, combine_depth);
  if (name == "f32_sum_f64") return sum_check<double>(c, input, result, combine_depth);
  if (name == "bounds") return exact_check<float, bounds>(c, input, first_index, result, true);
  if (name == "i16_range") return exact_check<std::int16_t, range16>(c, input, first_index, result, false);
  if (name == "u8_histogram") return exact_check<std::uint8_t, histogram8>(c, input, first_index, result, true);
  if (name == "i64_mix") return exact_check<std::int64_t, mix_state>(c, input, first_index, result, true);
  return "no sample user operator '" + std::string(name) + "'";
}

std::optional<std::string> user_disagreement(const ConformanceCase& c, std::span<const std::byte> input, const UserRun& run) {
  return user_range_disagreement(c, input, 0, run.result, run.combine_depth);
}

std::vector<std::byte> user_initial_value(const ConformanceCase& c) {
  return visit_sample_operator(c.user_operator, [](auto, auto accumulator_tag) {
    using A = typename decltype(accumulator_tag)::type;
    const A value = initial(static_cast<const A*>(nullptr));
    std::vector<std::byte> bytes(sizeof(A));
    std::memcpy(bytes.data(), &value, sizeof(A));
    return bytes;
  });
}

}  // namespace zr::conformance
