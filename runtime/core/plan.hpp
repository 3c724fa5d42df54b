#pragma once
// A Plan is everything an executor needs to run one reduction, as plain data: the scratch buffers, and the
// kernel passes in order with their ND-ranges and arguments. All size arithmetic lives here in the core;
// executors only translate a plan into driver calls.
//
// Kernel argument conventions (spirv_kernels/src/*.cl):
//   partial-producing first passes (tree, subgroup, workgroup, localatomic, cpu):
//       (const T* in, ulong n, ACC* partials, ACC identity, local ACC* scratch)   (localatomic: local ATOM*)
//   final: (const ACC* partials, ulong count, T* result, ACC identity, uint include_initial, local ACC* scratch)
//   lastgroup: (const T* in, ulong n, ACC* partials, ACC identity, local ACC* scratch,
//               uint* counter, T* result, uint include_initial)
//   atomic: (const T* in, ulong n, ATOM* accumulator, ACC identity, local ACC* scratch,
//            uint* counter, T* result, uint include_initial)
// ACC is the accumulator type (float for half); ATOM is ACC widened to 32 bits for narrower integers.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "capabilities.hpp"
#include "kernel_catalog.hpp"
#include "scalar.hpp"
#include "strategy.hpp"
#include "tuning.hpp"

namespace zr::core {

struct ScratchBuffer {
  std::uint64_t bytes = 0;
  // Contents the buffer must hold before its first use (repeated over the buffer); kernels that use such
  // buffers (counters, atomic accumulators) restore them before they finish, so one fill at allocation is
  // enough for every later run of the same plan.
  std::optional<Scalar> initial_fill;
  std::string purpose;
};

// A buffer argument: the input, result `index` of the plan, scratch buffer `index`, a null pointer (the
// fused kernel's switched-off ops), the segment offsets of a segmented reduction (plans/segmented.hpp), or
// pointer `index` of plan.kernel_pointers (an application's kernel with reducers: plans/kernel_reducers.hpp).
struct BufferArg {
  enum class Which { input, result, scratch, none, segment_offsets, kernel_pointer } which = Which::input;
  std::uint32_t index = 0;
  bool operator==(const BufferArg&) const = default;
};

struct LocalMemoryArg {
  std::uint64_t bytes = 0;
};

// A by-value argument is a Scalar: its type gives the size (u64 for counts, u32 for flags, ACC for identities).
using KernelArg = std::variant<BufferArg, LocalMemoryArg, Scalar>;

struct KernelPass {
  const EmbeddedModule* module = nullptr;
  std::string entry_point;
  std::uint64_t global_size = 0;  // work-items, a multiple of local_size
  std::uint64_t local_size = 0;
  std::vector<KernelArg> args;
  std::string label;  // "partials", "intermediate", "final", "single pass"

  std::uint64_t group_count() const { return local_size ? global_size / local_size : 0; }
};

// The result of an arg-reduction (Op::argmin, Op::argmax), as zr::arg_result<T> lays it out: the value as T at
// offset 0, the 64-bit index at offset 8.
inline constexpr std::uint64_t kArgResultBytes = 16;

// One result a plan writes: executors get one buffer per result, in this order, holding `elements` values
// of the request's type (several for array reductions); the initial values are read first when
// include_initial.
struct PlanResult {
  Op op = Op::plus;
  Scalar identity;
  bool include_initial = true;
  std::uint64_t elements = 1;
  // Bytes of one element when the results differ in type (kernels with reducers); 0: the request's type.
  std::uint64_t element_bytes = 0;
};

// How a segmented reduction cuts its input (plans/segmented.hpp): `segments` consecutive segments, each given
// by an array of segments + 1 offsets of `offset_bytes` (4 or 8) bytes, or, when offset_bytes is 0, all of
// `length` elements. `longest` is the longest segment (the plan's choice and its error bound depend on it).
struct SegmentLayout {
  std::uint64_t segments = 0;
  std::uint32_t offset_bytes = 0;
  std::uint64_t length = 0;
  std::uint64_t longest = 0;
  // Segment s ends at offset s + end_step: 1 for segments + 1 offsets (and equal segments); `segments` for begin
  // and end arrays stored one after the other, whose segments may overlap or leave gaps: `covered` then holds the
  // sum of their lengths, which sets the mean length instead of n.
  std::uint64_t end_step = 1;
  std::uint64_t covered = 0;
  bool operator==(const SegmentLayout&) const = default;
};

struct Plan {
  ReductionRequest request;  // the first result's request (n and the type hold for every result)
  std::optional<SegmentLayout> segments;  // a segmented reduction: its runs take the offsets as a second input
  std::vector<PlanResult> results;
  Strategy strategy = Strategy::tree;
  std::string reason;
  std::vector<ScratchBuffer> scratch;
  std::vector<KernelPass> passes;
  // An application's kernel with reducers (plans/kernel_reducers.hpp): the indices its body runs for, and its
  // pointer arguments (allocations of the device, passed as they are). Unset and empty for every other plan.
  std::optional<std::uint64_t> kernel_indices;
  std::vector<const void*> kernel_pointers;
};

// Result `index` of a plan: its size in bytes, and whether the kernels read its initial value first. A plan
// without a results list (made by hand in tests) has one scalar result as its request says.
std::uint64_t result_bytes(const Plan& plan, std::size_t index);
bool reads_initial_value(const Plan& plan, std::size_t index);

// Where a run leaves one of a plan's results. Kernels write only memory the device can access; a result in
// ordinary host memory (host_memory) is staged by the executor through a device buffer of its own, in the
// same submission as the kernels: its initial value copied in first when the plan reads it, the result
// copied out last. A small reduction into a host variable then costs one synchronisation, as a kernel and a
// read would, instead of three. (The OpenCL executor writes large results in place on CPU devices, whose
// kernels can address host memory: pointer_run.cpp.)
struct ResultTarget {
  void* pointer = nullptr;
  bool host_memory = false;
};

// Builds the plan for a strategy already known to be available (see choose_strategy). Throws
// UnsupportedError if a kernel the plan needs is not embedded.
Plan make_plan(const Capabilities& caps, const ReductionRequest& request, const StrategyChoice& choice);
Plan make_plan(const Capabilities& caps, const ReductionRequest& request, const StrategyChoice& choice,
               const Tuning& tuning);

// Several reductions of one input in one read (the "fused" kernel, a tree-shaped launch), then the
// intermediate and final passes of each result. Results of the same op share the first pass, made with the
// identity of the first of them. Strategy::tree: deterministic.
struct PlanResultSpec {
  Op op = Op::plus;
  Scalar identity;  // element type
  bool include_initial = true;
};
Plan make_fused_plan(const Capabilities& caps, DataType type, std::uint64_t n, std::span<const PlanResultSpec> results,
                     const Tuning& tuning);

// An array reduction: request.n values seen as rows of `columns`; result element c reduces column c (the
// "columns" kernels: one pass per level, rows folded in a fixed order, so deterministic). n must be a
// multiple of columns (zr::InvalidArgumentError otherwise).
Plan make_column_plan(const Capabilities& caps, const ReductionRequest& request, std::uint64_t columns,
                      const Tuning& tuning);

// An input larger than the device can allocate at once is reduced in chunks, one after another, each one
// folding the previous result in as its initial value. Chunks are as large as `max_allocation_bytes` allows.
struct InputChunk {
  std::uint64_t first = 0;  // element index
  std::uint64_t count = 0;
};
std::vector<InputChunk> split_input(std::uint64_t n, DataType type, std::uint64_t max_allocation_bytes);

// The height of the combining tree the plan builds: the most combines any one input goes through on its way
// to the result. Floating-point rounding error is bounded by it (see host_reference.hpp), and it is far
// smaller than n for every strategy: grid-stride or chunk loops, then trees across work-items and passes.
std::uint64_t combine_depth(const Plan& plan);

// Human-readable multi-line description (for logs, ze_reduce --verbose and test failure messages).
std::string describe(const Plan& plan);

}  // namespace zr::core
