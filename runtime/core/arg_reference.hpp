#pragma once
// Arg-reductions on the host: the order of candidates (NaN first, then the smaller/larger value, then the
// smaller index: include/zereduce/arg_result.hpp), a sequential reference written independently of the
// kernels, and the 16-byte result layout the kernels write (value as T at offset 0, index at offset 8).
#include <cstddef>
#include <cstdint>
#include <span>

#include "data_types.hpp"
#include "scalar.hpp"

namespace zr::core {

struct ArgCandidate {
  Scalar value;
  std::uint64_t index = UINT64_MAX;
};

// Whether a comes before b for op (Op::argmin or Op::argmax); both of the same type.
bool arg_precedes(Op op, const ArgCandidate& a, const ArgCandidate& b);

// The first occurrence of the extreme value of data[0, n) (n >= 1); a NaN value is the canonical quiet NaN.
ArgCandidate arg_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n);

ArgCandidate arg_from_bytes(DataType type, const std::byte* result);  // reads kArgResultBytes
void arg_to_bytes(const ArgCandidate& candidate, std::byte* result);   // writes kArgResultBytes

}  // namespace zr::core
