#include "case_generation.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <utility>

#include "common/type_dispatch.hpp"
#include "data_types.hpp"
#include "kernel_cases.hpp"
#include "user_operator_cases.hpp"

namespace zr::conformance {
using tools::pair_defined;

namespace {

constexpr std::array<element_type, 12> kTypes{element_type::i8,  element_type::i16, element_type::i32,
                                              element_type::i64, element_type::u8,  element_type::u16,
                                              element_type::u32, element_type::u64, element_type::f16,
                                              element_type::f32, element_type::f64, element_type::boolean};
constexpr std::array<op_kind, 22> kOps{
    op_kind::plus,        op_kind::multiplies,  op_kind::minimum,     op_kind::maximum,       op_kind::bit_and,
    op_kind::bit_or,      op_kind::bit_xor,     op_kind::logical_and, op_kind::logical_or,    op_kind::argmin,
    op_kind::argmax,      op_kind::sum_squares, op_kind::norm_l2,     op_kind::norm_l1,       op_kind::count_nonzero,
    op_kind::count_equal, op_kind::sum_i64,     op_kind::sum_u64,     op_kind::sum_f32,       op_kind::sum_f64,
    op_kind::mean_var_f32, op_kind::mean_var_f64};
constexpr std::array<strategy, 7> kStrategies{strategy::tree,          strategy::subgroup,   strategy::work_group,
                                              strategy::local_atomics, strategy::cpu_chunks, strategy::last_group,
                                              strategy::global_atomics};

bool is_floating(element_type t) { return t == element_type::f16 || t == element_type::f32 || t == element_type::f64; }

struct SizedInput {
  std::uint64_t n;
  InputKind input;
};

// Which inputs run at which sizes. Not every input at every size: random input at every size (the large
// ones only with it), the structured and special inputs at a spread of the edge sizes.
std::vector<SizedInput> schedule(element_type type, SuiteMode mode) {
  const bool full = mode == SuiteMode::full;
  std::vector<SizedInput> out;
  auto add = [&](InputKind kind, std::initializer_list<std::uint64_t> sizes) {
    for (std::uint64_t n : sizes) out.push_back({n, kind});
  };
  if (full) {
    for (std::uint64_t n : kFullSizes) out.push_back({n, InputKind::random});
    add(InputKind::identity, {1, 33, 256, 4097, 65537});
    add(InputKind::all_equal, {1, 32, 257, 4096, 65537});
  } else {
    add(InputKind::random, {0, 1, 2, 33, 257, 4097, 65537});
    add(InputKind::identity, {33});
    add(InputKind::all_equal, {257});
  }
  if (type == element_type::boolean) return out;
  if (full) {
    add(InputKind::ascending, {2, 31, 257, 4095, 65537});
    add(InputKind::descending, {3, 33, 255, 4097, 65537});
  } else {
    add(InputKind::ascending, {257});
    add(InputKind::descending, {4097});
  }
  if (!is_floating(type)) {
    if (full) add(InputKind::integer_overflow, {3, 32, 255, 4096, 65537});
    else add(InputKind::integer_overflow, {4097});
    return out;
  }
  for (InputKind kind : {InputKind::signed_zeros, InputKind::subnormals, InputKind::infinities, InputKind::nan_first,
                         InputKind::nan_middle, InputKind::nan_last}) {
    if (full) add(kind, {1, 3, 33, 257, 4097});
    else add(kind, {3, 257});
  }
  if (full) add(InputKind::order_sensitive, {33, 4097, 65537, (1u << 20) + 7});
  else add(InputKind::order_sensitive, {4097});
  return out;
}

// initialize_to_identity and deterministic, each on and off, in all four combinations (in both modes: the
// modes differ in sizes and inputs).
constexpr CaseProperties kPropertySets[] = {{false, false, false}, {true, false, false}, {false, true, false}, {true, true, false}};

// Seeds depend on the type, size and input only (not on op or strategy), so cases share inputs; the base
// seed (--seed) changes them all.
std::uint64_t seed_for(std::uint64_t base, element_type type, std::uint64_t n, InputKind input) {
  return base * 1000003u + static_cast<std::uint64_t>(type) * 7919u + n * 31u + static_cast<std::uint64_t>(input);
}

bool contains(const std::vector<strategy>& list, strategy s) { return std::find(list.begin(), list.end(), s) != list.end(); }

ConformanceCase case_of(std::size_t slot, element_type type, op_kind op, strategy s) {
  ConformanceCase c;
  c.device_slot = slot;
  c.type = type;
  c.op = op;
  c.strategy = s;
  return c;
}

// The strategies the device allows for the pair, without and with the deterministic and reproducible properties.
struct AllowedStrategies {
  std::vector<strategy> plain, deterministic, reproducible;
  AllowedStrategies(const zr::device& device, element_type type, op_kind op)
      : plain(device.strategies(type, op, false)),
        deterministic(device.strategies(type, op, true)),
        reproducible(device.strategies(type, op, true, true)) {}
  const std::vector<strategy>& with(const CaseProperties& props) const {
    return props.reproducible ? reproducible : props.deterministic ? deterministic : plain;
  }
};

// Reproducible floating-point sums (binned sums) get a dimension of their own: initialize_to_identity on and
// off. (Reproducible is not repeated for the other pairs: it changes nothing there.)
bool binned(element_type type, op_kind op) {
  return op == op_kind::plus && (type == element_type::f16 || type == element_type::f32 || type == element_type::f64);
}
// Arg- and transform-reductions never read the variable (the API runs them from the identity) and are
// deterministic whatever the properties say: deterministic off and on.
std::vector<CaseProperties> property_sets(element_type type, op_kind op) {
  if (is_arg_op(op) || is_transform_op(op) || is_moments_op(op)) return {{true, false, false}, {true, true, false}};
  std::vector<CaseProperties> sets(std::begin(kPropertySets), std::end(kPropertySets));
  if (binned(type, op)) {
    sets.push_back({false, true, true});
    sets.push_back({true, true, true});
  }
  return sets;
}

// Cases that need no kernel to execute: refusals of what the device cannot do, and (on a device whose kernels
// do not execute) every allowed strategy submitted once.
void add_refusals_and_validity(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                               element_type type, op_kind op, std::uint64_t base_seed) {
  const std::uint64_t n = 4097;
  auto add = [&](strategy s, const CaseProperties& props, Expectation expectation) {
    ConformanceCase c = case_of(slot, type, op, s);
    c.properties = props;
    c.n = n;
    c.seed = seed_for(base_seed, type, n, InputKind::random);
    c.expectation = expectation;
    out.push_back(c);
  };
  if (dut.get().why_unsupported(type, op)) {
    for (strategy s : kStrategies) add(s, {}, Expectation::pair_refused);
    return;
  }
  const AllowedStrategies allowed(dut.get(), type, op);
  std::vector<CaseProperties> property_sets = {{false, false, false}, {false, true, false}};
  if (binned(type, op)) property_sets.push_back({false, true, true});
  for (strategy s : kStrategies)
    for (const CaseProperties& props : property_sets) {
      if (!contains(allowed.with(props), s)) add(s, props, Expectation::strategy_refused);
      else if (!dut.executes_kernels()) add(s, props, Expectation::validity_only);
    }
}

// Cases whose results are compared with the host reference: for each (n, input) of the schedule, every op,
// allowed strategy and property set (the input is shared by all of them, see dataset_cache.hpp).
void add_result_checks(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                       element_type type, SuiteMode mode, std::uint64_t base_seed) {
  std::vector<std::pair<op_kind, AllowedStrategies>> runnable;
  for (op_kind op : kOps)
    if (pair_defined(type, op) && !dut.get().why_unsupported(type, op))
      runnable.push_back({op, AllowedStrategies(dut.get(), type, op)});
  // Transform-reductions and means/variances take the quick schedule in both modes: their kernels read the input
  // as the plain reductions do (zr_grid.h, cpu.cl's chunks), which the full schedule covers, and their full
  // schedule added a quarter to every full run (CI has 30 minutes; the H100 reports at fc545d3/01a2216 ran it).
  const std::vector<SizedInput> full = schedule(type, mode), quick = schedule(type, SuiteMode::quick);
  for (bool own_kernels : {false, true})
    for (const SizedInput& sized : own_kernels ? quick : full)
      for (const auto& [op, allowed] : runnable) {
        if ((is_transform_op(op) || is_moments_op(op)) != own_kernels) continue;
        for (strategy s : kStrategies)
          for (const CaseProperties& props : property_sets(type, op)) {
            if (!contains(allowed.with(props), s)) continue;
            if (is_arg_op(op) && sized.n == 0) continue;  // refused by design (tests/api/arg_reduction_test.cpp)
            ConformanceCase c = case_of(slot, type, op, s);
            c.properties = props;
            c.n = sized.n;
            c.input = sized.input;
            c.seed = seed_for(base_seed, type, sized.n, sized.input);
            out.push_back(c);
          }
      }
}

// Host spans (read where they lie on CPU devices, copied to the device first on others): every op at the
// schedule's largest random input, with the device's first strategy for it.
void add_host_span_checks(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                          element_type type, SuiteMode mode, std::uint64_t base_seed) {
  SizedInput largest{0, InputKind::random};
  for (const SizedInput& sized : schedule(type, mode))
    if (sized.input == InputKind::random && sized.n > largest.n) largest = sized;
  for (op_kind op : kOps) {
    if (!pair_defined(type, op) || dut.get().why_unsupported(type, op)) continue;
    ConformanceCase c = case_of(slot, type, op, dut.get().strategies(type, op).front());
    if (is_arg_op(op) || is_transform_op(op) || is_moments_op(op)) c.properties.initialize_to_identity = true;
    c.n = largest.n;
    c.input = largest.input;
    c.seed = seed_for(base_seed, type, c.n, c.input);
    c.from_host_span = true;
    out.push_back(c);
  }
}

// The host path (CPU devices: host input of at most host_path_max_bytes() is reduced on the calling thread):
// the nine ops and argmin/argmax from a host span without a strategy, at a small size and on each side of the
// crossover, from the identity, with the initial value, deterministic, and reproducible sums; each must agree
// with the reference and take the host path exactly below the crossover.
void add_host_path_checks(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                          element_type type, std::uint64_t base_seed) {
  const std::uint64_t max_bytes = dut.get().host_path_max_bytes();
  if (max_bytes == 0 || !dut.executes_kernels()) return;
  const std::uint64_t at_most = max_bytes / core::size_of(static_cast<core::DataType>(type));
  for (op_kind op : kOps) {
    if (is_transform_op(op) || is_moments_op(op) || !pair_defined(type, op) || dut.get().why_unsupported(type, op))
      continue;
    std::vector<CaseProperties> sets = {{true, false, false}, {false, true, false}};
    if (is_arg_op(op)) sets = property_sets(type, op);  // they never read the variable
    if (binned(type, op)) sets.push_back({false, true, true});
    for (const CaseProperties& props : sets)
      for (std::uint64_t n : {std::uint64_t{17}, at_most, at_most + 1}) {
        ConformanceCase c = case_of(slot, type, op, dut.get().strategies(type, op).front());
        c.properties = props;
        c.n = n;
        c.input = InputKind::random;
        c.seed = seed_for(base_seed, type, n, c.input);
        c.from_host_span = true;
        c.library_choice = true;
        c.expect_host_path = n <= at_most;
        out.push_back(c);
      }
  }
}

// The input above 2^31 elements: u8 plus, the device's first strategy, from a host span.
void add_large_input(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                     std::uint64_t base_seed) {
  const element_type type = element_type::u8;
  if (dut.get().why_unsupported(type, op_kind::plus)) return;
  ConformanceCase c = case_of(slot, type, op_kind::plus, dut.get().strategies(type, op_kind::plus).front());
  c.n = kLargeOneByteSize;
  c.input = InputKind::random;
  c.seed = seed_for(base_seed, type, c.n, c.input);
  c.from_host_span = true;
  out.push_back(c);
}

// The segment shapes and sizes of the segmented cases (segmented_cases.hpp): one size that ends in a partial row, and in
// full mode one of 2^18 + 5 elements (long enough for slices on every device; 2^20 cost CI a minute per device for
// the host checks of its 400,000 segments).
constexpr SegmentShape kSegmentShapes[] = {SegmentShape::rows,      SegmentShape::tiny,
                                           SegmentShape::medium,    SegmentShape::few_long,
                                           SegmentShape::power_law, SegmentShape::one_huge_among_tiny,
                                           SegmentShape::with_empty, SegmentShape::begin_end,
                                           SegmentShape::rows_of_one};
std::vector<std::uint64_t> segment_case_sizes(SuiteMode mode) {
  if (mode == SuiteMode::full) return {5003, (1u << 18) + 5};
  return {5003};
}

// User-defined operators (user_operator_cases.hpp): each sample operator of this element type, refused where
// the device lacks what it needs, else every strategy the device offers it (the others refused) on the quick
// schedule's inputs, from the identity and from an initial value. Deterministic by construction: every
// checked case is run twice and must repeat its bits.
void add_user_operator_cases(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                             element_type type, SuiteMode mode, std::uint64_t base_seed) {
  for (const SampleOperator& op : sample_operators()) {
    if (op.type != type) continue;
    auto make = [&](strategy s, std::uint64_t n, InputKind input, Expectation expectation) {
      ConformanceCase c = case_of(slot, type, op_kind::user, s);
      c.user_operator = op.name;
      c.n = n;
      c.input = input;
      c.seed = seed_for(base_seed, type, n, input);
      c.expectation = expectation;
      return c;
    };
    const std::vector<strategy> allowed = dut.get().strategies(*op.source);
    if (allowed.empty()) {
      out.push_back(make(strategy::tree, 4097, InputKind::random, Expectation::pair_refused));
      continue;
    }
    for (strategy s : kStrategies)
      if (!contains(allowed, s)) out.push_back(make(s, 4097, InputKind::random, Expectation::strategy_refused));
    if (!dut.executes_kernels()) {
      for (strategy s : allowed) out.push_back(make(s, 4097, InputKind::random, Expectation::validity_only));
      continue;
    }
    for (const SizedInput& sized : schedule(type, SuiteMode::quick))
      for (strategy s : allowed)
        for (bool from_identity : {true, false}) {
          if (sized.n == 0 && from_identity && !op.has_identity) continue;  // refused by design (no identity)
          ConformanceCase c = make(s, sized.n, sized.input, Expectation::matches_reference);
          c.properties.initialize_to_identity = from_identity;
          c.properties.deterministic = !from_identity;
          out.push_back(c);
        }
    // Per segment: every shape, from the identity or from initial values (always from initial values for an
    // operator without an identity, whose empty segments are refused otherwise), each run twice.
    for (std::uint64_t n : segment_case_sizes(mode))
      for (std::size_t k = 0; k < std::size(kSegmentShapes); ++k) {
        ConformanceCase c = make(strategy::tree, n, InputKind::random, Expectation::matches_reference);
        c.library_choice = true;
        c.segments = kSegmentShapes[k];
        c.seed += k;
        c.properties.initialize_to_identity = op.has_identity && k % 2 == 0;
        c.properties.deterministic = true;
        out.push_back(c);
      }
  }
}

// Kernels with reducers (kernel_cases.hpp): every (op, type) the device runs as a scalar reducer over the quick
// schedule's inputs, from the identity and (deterministic, so run twice) from an initial value; spans of the types
// that have them over random input, the bins from the identity and from initial values; two reducers in one kernel.
void add_kernel_cases(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                      element_type type, std::uint64_t base_seed) {
  for (op_kind op : kOps) {
    if (!pair_defined(type, op) || dut.get().why_unsupported(type, op)) continue;
    auto add = [&](KernelForm form, std::uint64_t n, InputKind input, bool from_identity) {
      if (!kernel_form_exists(form, type, op)) return;
      ConformanceCase c = case_of(slot, type, op, strategy::last_group);
      c.kernel = form;
      c.n = n;
      c.input = input;
      c.seed = seed_for(base_seed, type, n, input);
      c.properties.initialize_to_identity = from_identity;
      // A span's floating-point sum is combined by atomics in any order: not deterministic (and refused so).
      c.properties.deterministic = !from_identity && !(form == KernelForm::span && is_floating(type));
      out.push_back(c);
    };
    for (const SizedInput& sized : schedule(type, SuiteMode::quick))
      for (bool from_identity : {true, false}) {
        add(KernelForm::scalar, sized.n, sized.input, from_identity);
        add(KernelForm::several, sized.n, sized.input, from_identity);
        add(KernelForm::own, sized.n, sized.input, from_identity);
      }
    for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1000}, std::uint64_t{100003}})
      for (bool from_identity : {true, false}) add(KernelForm::span, n, InputKind::random, from_identity);
  }
}

// A segmented (or array) reduction case of `shape` that the library plans itself, deterministic (so run twice),
// seeded by its size, input and the shape's index k in its list.
ConformanceCase planned_segments_case(std::size_t slot, element_type type, op_kind op, SegmentShape shape,
                                      std::uint64_t n, InputKind input, std::size_t k, std::uint64_t base_seed) {
  ConformanceCase c = case_of(slot, type, op, strategy::tree);
  c.library_choice = true;
  c.segments = shape;
  c.n = n;
  c.input = input;
  c.seed = seed_for(base_seed, type, n, input) + k;
  c.properties.deterministic = true;
  return c;
}

// Segmented reductions (segmented_cases.hpp): every op the device runs (plain, argmin/argmax, transforms, means and
// variances), every shape of segments, random input (and infinities for floating types' plain ops, signed zeros
// and a NaN for their minima and maxima), from the
// identity and from initial values, deterministic (so each runs twice); floating sums also reproducible.
void add_segment_checks(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                        element_type type, SuiteMode mode, std::uint64_t base_seed) {
  const std::vector<std::uint64_t> sizes = segment_case_sizes(mode);
  constexpr auto& kShapes = kSegmentShapes;
  for (op_kind op : kOps) {
    const bool transform = is_transform_op(op) || is_moments_op(op);
    if ((!is_arg_op(op) && !pair_defined(type, op)) || (is_arg_op(op) && type == element_type::boolean) ||
        dut.get().why_unsupported(type, op))
      continue;
    // Transforms (written, never read: no initial values) on random input: their special values are the 1-D cases'.
    std::vector<InputKind> inputs = {InputKind::random};
    if (is_floating(type) && !transform) inputs.push_back(InputKind::infinities);
    // Floating minima and maxima also of zeros of both signs and with a NaN: the kernels that fold a run with
    // fmin/fmax settle exactly those (spirv_kernels/src/zr_quick_extremes.h).
    if (is_floating(type) && (op == op_kind::minimum || op == op_kind::maximum))
      inputs.insert(inputs.end(), {InputKind::signed_zeros, InputKind::nan_middle});
    for (std::uint64_t n : sizes)
      for (InputKind input : inputs)
        for (std::size_t k = 0; k < std::size(kShapes); ++k) {
          ConformanceCase c = planned_segments_case(slot, type, op, kShapes[k], n, input, k, base_seed);
          c.properties.initialize_to_identity = is_arg_op(op) || transform || (k + static_cast<std::size_t>(op)) % 2 == 0;
          out.push_back(c);
          // Floating sums again, reproducible: each segment bitwise its own 1-D binned sum (the host model).
          if (op == op_kind::plus && is_floating(type) && !dut.get().strategies(type, op, true, true).empty()) {
            c.properties.reproducible = true;
            c.properties.initialize_to_identity = !c.properties.initialize_to_identity;
            out.push_back(c);
          }
        }
  }
}

// Array reductions (queue::reduce_axes over axis 0; segmented_cases.hpp checks each column as a segment): the plain
// ops on the segmented cases' sizes, every column width, random input (and infinities for floating types), from
// device memory, from the identity and from initial values, deterministic (so each runs twice).
void add_column_checks(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                       element_type type, SuiteMode mode, std::uint64_t base_seed) {
  constexpr SegmentShape kWidths[] = {SegmentShape::columns_3, SegmentShape::columns_16, SegmentShape::columns_300,
                                      SegmentShape::columns_4099};
  for (op_kind op : kOps) {
    if (is_arg_op(op) || is_transform_op(op) || is_moments_op(op) || !pair_defined(type, op) ||
        dut.get().why_unsupported(type, op))
      continue;
    std::vector<InputKind> inputs = {InputKind::random};
    if (is_floating(type)) inputs.push_back(InputKind::infinities);
    for (std::uint64_t n : segment_case_sizes(mode))
      for (InputKind input : inputs)
        for (std::size_t k = 0; k < std::size(kWidths); ++k) {
          ConformanceCase c = planned_segments_case(slot, type, op, kWidths[k], n, input, k, base_seed);
          c.properties.initialize_to_identity = (k + static_cast<std::size_t>(op)) % 2 == 0;
          out.push_back(c);
        }
  }
}

// The host path of segmented reductions (CPU devices: host input and results, at most
// host_path_max_segment_bytes() of input): the plain ops and argmin/argmax from host spans in every layout the span forms take (rows, offsets,
// begin and end arrays), tiny, skewed and empty segments, from the identity and from initial values, floating
// sums also reproducible; and on each side of the crossover for sums, maxima and argmax. Each must agree with
// the references segment by segment and take the host path exactly below the crossover.
void add_segment_host_path_checks(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                                  element_type type, std::uint64_t base_seed) {
  const std::uint64_t max_bytes = dut.get().host_path_max_segment_bytes();
  if (max_bytes == 0) return;
  const std::uint64_t at_most = max_bytes / core::size_of(static_cast<core::DataType>(type));
  constexpr SegmentShape kShapes[] = {SegmentShape::rows, SegmentShape::tiny, SegmentShape::power_law,
                                      SegmentShape::with_empty, SegmentShape::begin_end};
  for (op_kind op : kOps) {
    if (is_transform_op(op) || is_moments_op(op) || (is_arg_op(op) && type == element_type::boolean) ||
        (!is_arg_op(op) && !pair_defined(type, op)) || dut.get().why_unsupported(type, op))
      continue;
    auto add = [&](SegmentShape shape, std::uint64_t n, std::size_t k, bool reproducible) {
      ConformanceCase c = case_of(slot, type, op, strategy::tree);
      c.library_choice = true;
      c.from_host_span = true;
      c.expect_host_path = n <= at_most;
      c.segments = shape;
      c.n = n;
      c.input = InputKind::random;
      c.seed = seed_for(base_seed, type, n, c.input) + k;
      c.properties.initialize_to_identity = is_arg_op(op) || (k + static_cast<std::size_t>(op)) % 2 == 0;
      c.properties.deterministic = true;
      c.properties.reproducible = reproducible;
      out.push_back(c);
    };
    const bool binned_sum = op == op_kind::plus && is_floating(type) && !dut.get().strategies(type, op, true, true).empty();
    for (std::size_t k = 0; k < std::size(kShapes); ++k) {
      add(kShapes[k], 5003, k, false);
      if (binned_sum) add(kShapes[k], 5003, k, true);
    }
    if (op == op_kind::plus || op == op_kind::maximum || op == op_kind::argmax)
      for (std::uint64_t n : {at_most, at_most + 1}) add(SegmentShape::medium, n, 0, false);
  }
}

// A segment past 2^31 elements (full mode): u8 sums (wrapping) and argmax over the input of add_large_input (the same
// seed and size: one dataset), from a host span, where the device allocates that much at once.
void add_large_segments(std::vector<ConformanceCase>& out, const DeviceUnderTest& dut, std::size_t slot,
                        std::uint64_t base_seed) {
  const element_type type = element_type::u8;
  for (op_kind op : {op_kind::plus, op_kind::argmax}) {
    if (dut.get().why_unsupported(type, op)) continue;
    ConformanceCase c = case_of(slot, type, op, strategy::tree);
    c.library_choice = true;
    c.segments = SegmentShape::beyond_2_31;
    c.n = kLargeOneByteSize;
    c.input = InputKind::random;
    c.seed = seed_for(base_seed, type, c.n, c.input);
    c.from_host_span = true;
    c.properties.initialize_to_identity = op == op_kind::argmax;
    c.properties.deterministic = true;
    out.push_back(c);
  }
}

}  // namespace

std::vector<ConformanceCase> generate_cases(const DeviceUnderTest& dut, std::size_t slot, SuiteMode mode,
                                            std::uint64_t base_seed) {
  std::vector<ConformanceCase> cases;
  for (element_type type : kTypes) {
    // One test suite per type: first the refusals and validity checks (cheap), then the result checks.
    for (op_kind op : kOps)
      if (pair_defined(type, op))  // not a device question: other pairs do not compile
        add_refusals_and_validity(cases, dut, slot, type, op, base_seed);
    add_user_operator_cases(cases, dut, slot, type, mode, base_seed);
    if (!dut.executes_kernels()) continue;
    add_result_checks(cases, dut, slot, type, mode, base_seed);
    add_host_span_checks(cases, dut, slot, type, mode, base_seed);
    add_host_path_checks(cases, dut, slot, type, base_seed);
    add_segment_checks(cases, dut, slot, type, mode, base_seed);
    add_column_checks(cases, dut, slot, type, mode, base_seed);
    add_segment_host_path_checks(cases, dut, slot, type, base_seed);
    add_kernel_cases(cases, dut, slot, type, base_seed);
    if (mode == SuiteMode::full && type == element_type::u8) {
      add_large_input(cases, dut, slot, base_seed);
      add_large_segments(cases, dut, slot, base_seed);
    }
  }
  return cases;
}

}  // namespace zr::conformance
