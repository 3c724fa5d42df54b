#pragma once
// The inputs of the suite, as packed element bytes. Every value comes from the case's seed through a
// counter-based generator (element i depends only on seed and i), so a failure is reproduced from the seed
// printed with it, on any machine, at any thread count.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "conformance_case.hpp"

namespace zr::conformance {

// n elements of `type` for `kind`. `op` matters for identity inputs (its identity) and for products, whose
// random values stay near 1 so that a product of millions of them neither overflows nor underflows in any
// evaluation order (which would make the exact answer depend on the order, not just its rounding).
std::vector<std::byte> make_input(element_type type, op_kind op, InputKind kind, std::uint64_t n, std::uint64_t seed);

// The ops whose inputs differ for the same (type, kind, n, seed): inputs for any two ops that map to the
// same value here are identical, so the suite uploads them once.
op_kind input_family(element_type type, op_kind op, InputKind kind);

}  // namespace zr::conformance
