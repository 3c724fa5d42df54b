#include "kernel_cases.hpp"

#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

#include "every_reducer.hpp"
#include "every_reducer_f64.hpp"
#include "every_span_i64.hpp"
#include "reference_check.hpp"
#include "seed_examples.hpp"
#include "seed_examples_reference.hpp"
#include "common/type_dispatch.hpp"

namespace zr::conformance {

namespace {

std::size_t element_bytes(element_type type) { return core::size_of(static_cast<core::DataType>(type)); }

bool span_op(op_kind op) {
  return op == op_kind::plus || op == op_kind::minimum || op == op_kind::maximum || op == op_kind::bit_and ||
         op == op_kind::bit_or || op == op_kind::bit_xor;
}

// The sample kernel of the case, by the names tools/kernels gives them.
kernel case_kernel(const ConformanceCase& c) {
  static std::mutex mutex;
  static std::set<std::string> names;  // a kernel keeps its name's pointer: the names live for the process
  std::lock_guard lock(mutex);
  const char* name = names
                         .insert(std::string(c.kernel == KernelForm::span ? "ks_" : "k_") + std::string(to_string(c.op)) +
                                 "_" + std::string(to_string(c.type)))
                         .first->c_str();
  const bool wide_span = c.kernel == KernelForm::span && (c.type == element_type::i64 || c.type == element_type::u64);
  return kernel(wide_span ? zr_kernels::every_span_i64
                : c.type == element_type::f64 ? zr_kernels::every_reducer_f64
                                              : zr_kernels::every_reducer,
                name);
}

property_list properties_of(const ConformanceCase& c) {
  property_list props;
  if (c.properties.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.properties.deterministic) props = props.with(property::reduction::deterministic{});
  return props;
}

using Extent = zr_kernels::reference::extent;
using zr_kernels::reference::kNoExtent;
using zr_kernels::reference::widen;
constexpr Extent kInitialExtent{-0.5f, 0.5f, 7, 9};

struct KernelRun {
  std::vector<std::byte> results;  // packed values of the case's type
  std::uint64_t combine_depth = 0;
};

KernelRun run_once(queue& q, const ConformanceCase& c, const void* input) {
  KernelRun run;
  const property_list props = properties_of(c);
  if (c.kernel == KernelForm::own) {
    Extent extent = kInitialExtent;
    float sum = initial_value(element_type::f32, op_kind::plus, c.seed).as<float>();
    const event done = q.parallel_for(range{c.n}, kernel(zr_kernels::seed_examples, "extent_and_sum"),
                                      static_cast<const float*>(input), user_reduction(&extent, props),
                                      reduction(&sum, plus<>(), props));
    done.wait();
    if (!done.get_profile().plans.empty()) run.combine_depth = done.get_profile().plans.front().combine_depth;
    run.results.resize(sizeof extent + sizeof sum);
    std::memcpy(run.results.data(), &extent, sizeof extent);
    std::memcpy(run.results.data() + sizeof extent, &sum, sizeof sum);
    return run;
  }
  const core::Scalar initial = initial_value(c.type, c.op, c.seed);
  const std::uint64_t results = c.kernel == KernelForm::span ? kSpanBins : c.kernel == KernelForm::several ? 2 : 1;
  run.results.resize(results * element_bytes(c.type));
  for (std::uint64_t r = 0; r < results; ++r)
    std::memcpy(run.results.data() + r * element_bytes(c.type), initial.data(), element_bytes(c.type));
  const event done = tools::visit_pair(c.type, c.op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    T* vars = reinterpret_cast<T*>(run.results.data());
    const T* x = static_cast<const T*>(input);
    if (c.kernel == KernelForm::span)
      return q.parallel_for(range{c.n}, case_kernel(c), x, kSpanBins, reduction(std::span<T>(vars, kSpanBins), Op(), props));
    if (c.kernel == KernelForm::several) {
      if constexpr (std::is_same_v<T, float>)
        return q.parallel_for(range{c.n}, kernel(zr_kernels::seed_examples, "sum_and_max"), x,
                              reduction(vars, Op(), props), reduction(vars + 1, maximum<>(), props));
      throw InvalidArgumentError("several reducers: f32 only");
    }
    return q.parallel_for(range{c.n}, case_kernel(c), x, reduction(vars, Op(), props));
  });
  done.wait();
  const profile& p = done.get_profile();
  if (!p.plans.empty()) run.combine_depth = p.plans.front().combine_depth;
  return run;
}

core::Scalar value_at(element_type type, std::span<const std::byte> packed, std::uint64_t i) {
  core::Scalar value{static_cast<core::DataType>(type), {}};
  std::memcpy(value.bytes.data(), packed.data() + i * element_bytes(type), element_bytes(type));
  return value;
}

// The reducer of the kernel's own exactly (every field), and the sum within its bound.
std::optional<std::string> check_own(const ConformanceCase& c, std::span<const std::byte> input, const KernelRun& run) {
  Extent want = c.properties.initialize_to_identity ? kNoExtent : kInitialExtent;
  for (std::uint64_t i = 0; i < c.n; ++i) {
    float x;
    std::memcpy(&x, input.data() + i * sizeof x, sizeof x);
    want = widen(want, Extent{x, x, i, i});
  }
  Extent got;
  std::memcpy(&got, run.results.data(), sizeof got);
  auto text = [](const Extent& e) {
    std::ostringstream out;
    out << "{" << e.lo << " at " << e.lo_index << ", " << e.hi << " at " << e.hi_index << "}";
    return out.str();
  };
  // Bit for bit: the fields are copies of input values (or the initial value's).
  if (std::memcmp(&got.lo, &want.lo, sizeof got.lo) != 0 || std::memcmp(&got.hi, &want.hi, sizeof got.hi) != 0 ||
      got.lo_index != want.lo_index || got.hi_index != want.hi_index)
    return "the reducer of its own: got " + text(got) + ", the host reference is " + text(want);
  ConformanceCase sum_case = c;
  sum_case.op = op_kind::plus;
  return disagreement(sum_case, input, initial_value(element_type::f32, op_kind::plus, c.seed),
                      value_at(element_type::f32, run.results, sizeof(Extent) / sizeof(float)), run.combine_depth);
}

std::optional<std::string> check(const ConformanceCase& c, std::span<const std::byte> input, const KernelRun& run) {
  if (c.kernel == KernelForm::own) return check_own(c, input, run);
  const core::Scalar initial = initial_value(c.type, c.op, c.seed);
  if (c.kernel == KernelForm::scalar) return disagreement(c, input, initial, value_at(c.type, run.results, 0), run.combine_depth);
  if (c.kernel == KernelForm::several) {
    if (auto why = disagreement(c, input, initial, value_at(c.type, run.results, 0), run.combine_depth))
      return "the sum: " + *why;
    ConformanceCase maximum_case = c;
    maximum_case.op = op_kind::maximum;
    if (auto why = disagreement(maximum_case, input, initial, value_at(c.type, run.results, 1), run.combine_depth))
      return "the maximum: " + *why;
    return std::nullopt;
  }
  // A span: every bin against the reference of its own elements, combined in any order (atomics).
  const std::size_t each = element_bytes(c.type);
  for (std::uint64_t bin = 0; bin < kSpanBins; ++bin) {
    std::vector<std::byte> elements;
    for (std::uint64_t i = bin; i < c.n; i += kSpanBins)
      elements.insert(elements.end(), input.begin() + i * each, input.begin() + (i + 1) * each);
    ConformanceCase bin_case = c;
    bin_case.n = elements.size() / each;
    if (auto why = disagreement(bin_case, elements, initial, value_at(c.type, run.results, bin), bin_case.n + 2))
      return "bin " + std::to_string(bin) + " of " + std::to_string(kSpanBins) + ": " + *why;
  }
  return std::nullopt;
}

}  // namespace

bool kernel_form_exists(KernelForm form, element_type type, op_kind op) {
  switch (form) {
    case KernelForm::none: return false;
    case KernelForm::scalar: return !is_arg_op(op) && !is_transform_op(op) && !is_moments_op(op) && op != op_kind::user;
    case KernelForm::span:
      if (type == element_type::f32) return op == op_kind::plus;
      return span_op(op) && (type == element_type::i32 || type == element_type::u32 || type == element_type::i64 ||
                             type == element_type::u64);
    case KernelForm::several: return type == element_type::f32 && op == op_kind::plus;
    case KernelForm::own: return type == element_type::f32 && op == op_kind::maximum;
  }
  return false;
}

std::optional<std::string> kernel_disagreement(queue& q, const ConformanceCase& c, const void* input,
                                               std::span<const std::byte> host_input) {
  const KernelRun first = run_once(q, c, input);
  if (auto why = check(c, host_input, first)) return why;
  if (!c.properties.deterministic) return std::nullopt;
  if (run_once(q, c, input).results != first.results) return "deterministic, yet run 2 gave other bits";
  return std::nullopt;
}

}  // namespace zr::conformance
