#pragma once
// Kernels with reducers in the suite (queue::parallel_for, zereduce/kernel.hpp): the sample kernels of
// tools/kernels, built by zereduce_add_kernel() and linked at run time with ze-reduce's epilogue, over the same
// inputs as the plain reductions and checked against the same host references:
//   scalar: k_<op>_<type> combines every element into one scalar reducer;
//   span:   ks_<op>_<type> combines element i into bin i % kSpanBins of a span reducer (every bin checked);
//   several: seed_examples' sum_and_max, an f32 sum and maximum of the same values in one kernel;
//   own:     seed_examples' extent_and_sum, a reducer of the kernel's own (the least and greatest f32 values with
//            their first indices, zr::user_reduction) beside an f32 sum (a case of f32 maximum).
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "conformance_case.hpp"
#include "scalar.hpp"

namespace zr::conformance {

inline constexpr std::uint64_t kSpanBins = 37;

// Whether ze-reduce's sample kernels have this form for (type, op): every plain pair as a scalar reducer;
// spans of 32-bit integers (and 64-bit ones, in a module that needs 64-bit atomics) but multiplies and the
// logical ops, and f32 sums; several reducers for f32 plus; a reducer of the kernel's own for f32 maximum.
bool kernel_form_exists(KernelForm form, element_type type, op_kind op);

// Runs the case's kernel over its input (a device allocation) and checks every result against the host reference;
// deterministic cases run twice and must repeat their bits. nullopt: all agree. Throws what the library throws
// (UnsupportedError where the device lacks what the kernel's module needs: fp64, 64-bit atomics).
std::optional<std::string> kernel_disagreement(queue& q, const ConformanceCase& c, const void* input,
                                               std::span<const std::byte> host_input);

}  // namespace zr::conformance
