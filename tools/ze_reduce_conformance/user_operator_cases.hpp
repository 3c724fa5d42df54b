#pragma once
// User-defined operators in the suite: the sample operators of tools/operators (built by
// zereduce_add_operator() and linked at run time into the reduction templates), each run through
// queue::reduce with a zr::user_operator and checked against a host reference written again here in C++.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "conformance_case.hpp"

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

}  // namespace zr::conformance
