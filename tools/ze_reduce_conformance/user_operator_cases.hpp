#pragma once
// User-defined operators in the suite: the sample operators of tools/operators (built by
// zereduce_add_operator() and linked at run time into the reduction templates), each run through
// queue::reduce with a zr::user_operator and checked against a host reference written again here in C++.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "conformance_case.hpp"
#include "sample_operators.hpp"

namespace zr::conformance {

struct SampleOperator {
  std::string_view name;
  const user_operator_source* source;
  element_type type;  // of the elements it reads (the suite's inputs of that type)
  bool has_identity;
};
std::span<const SampleOperator> sample_operators();
// Throws InvalidArgumentError for a name that is none of them.
const SampleOperator& sample_operator(std::string_view name);

// Calls f(std::type_identity<T>{}, std::type_identity<A>{}) with the element and accumulator types of the sample
// operator `name`; throws InvalidArgumentError for a name that is none of them.
template <typename F>
decltype(auto) visit_sample_operator(std::string_view name, F&& f) {
  using namespace zr_operators;
  if (name == "f32_sum") return f(std::type_identity<float>{}, std::type_identity<float>{});
  if (name == "f32_sum_f64") return f(std::type_identity<float>{}, std::type_identity<double>{});
  if (name == "bounds") return f(std::type_identity<float>{}, std::type_identity<bounds_acc>{});
  if (name == "i16_range") return f(std::type_identity<std::int16_t>{}, std::type_identity<range16>{});
  if (name == "u8_histogram") return f(std::type_identity<std::uint8_t>{}, std::type_identity<histogram8>{});
  if (name == "i64_mix") return f(std::type_identity<std::int64_t>{}, std::type_identity<mix_state>{});
  throw InvalidArgumentError("no sample user operator '" + std::string(name) + "'");
}

// The value the suite folds an operator's reduction after (each segment's too), as the accumulator's bytes.
std::vector<std::byte> user_initial_value(const ConformanceCase& c);

struct UserRun {
  zr::strategy strategy = zr::strategy::tree;  // what the library says it ran
  std::uint64_t combine_depth = 0;
  std::vector<std::byte> result;  // the accumulator's bytes
};

// Reduces the case's input (a device allocation, or host data when c.from_host_span) with the case's operator
// into a host variable: from the operator's identity, or from the operator's fixed initial value (initial_of).
UserRun reduce_user_once(queue& q, const ConformanceCase& c, const void* input);

// Whether two runs gave the same accumulator, field by field (padding bytes carry no value), floating-point
// fields bit for bit.
bool same_user_result(const ConformanceCase& c, const UserRun& a, const UserRun& b);

// Why `run` disagrees with the operator's host reference over the case's input (nullopt: it agrees). Exact
// for every operator but the floating-point sums, which must lie within the plain sum's bound for the run's
// combine depth (core/host_reference.hpp).
std::optional<std::string> user_disagreement(const ConformanceCase& c, std::span<const std::byte> input, const UserRun& run);

// The same for c.n elements at `input` whose first has index first_index in the whole input (a segment), and the
// accumulator `result` a run gave for them with the given combine depth.
std::optional<std::string> user_range_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                   std::uint64_t first_index, std::span<const std::byte> result,
                                                   std::uint64_t combine_depth);

}  // namespace zr::conformance
