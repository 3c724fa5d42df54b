#pragma once
// The sample user-defined operators of this folder as C++ sees them: their generated sources
// (zereduce_add_operator()) and their accumulators, field for field as the .cl files declare them. The tests,
// the conformance suite and the benchmarks use them.
#include <cstdint>

#include "bounds.hpp"
#include "f32_sum.hpp"
#include "f32_sum_f64.hpp"
#include "i16_range.hpp"
#include "i64_mix.hpp"
#include "u8_histogram.hpp"

namespace zr_operators {

// bounds.cl: the smallest and largest f32 values, the indices of their first occurrences, how many (NaN skipped).
struct bounds_acc {
  float lo, hi;
  std::uint64_t lo_index, hi_index;
  std::uint32_t count;
};
// i16_range.cl: the range of i16 values (no identity).
struct range16 {
  std::int16_t lo, hi;
};
// u8_histogram.cl: eight buckets of x / 32.
struct histogram8 {
  std::uint32_t counts[8];
};
// i64_mix.cl: the wrapping sum, and the xor of each value times its index (| 1).
struct mix_state {
  std::int64_t sum;
  std::uint64_t hash;
};

}  // namespace zr_operators
