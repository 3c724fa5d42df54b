#pragma once
// SYCL 2020 known identities (section 3.11.2 "known_identity"), for every (op, type) pair ze-reduce allows.
#include "data_types.hpp"
#include "scalar.hpp"

namespace zr::core {

// plus, bit_or, bit_xor: 0; multiplies: 1; bit_and: all bits set; logical_and: true; logical_or: false;
// minimum: numeric_limits::max() for integers, +inf for floating types; maximum: lowest() / -inf.
// Precondition: is_supported(op, type).
// For argmin/argmax: the value part of the identity (the value of minimum/maximum; its index is UINT64_MAX).
Scalar known_identity(Op op, DataType type);

// Whether `value` is an identity of `op` on its type: op(value, x) == x for every x. For ze-reduce's ops that
// is the known identity only, except that -0 serves a floating sum as well as +0 and any non-zero bool byte
// is true. A user identity that is not one would silently change the result, so the API refuses it.
bool is_identity(Op op, const Scalar& value);

}  // namespace zr::core
