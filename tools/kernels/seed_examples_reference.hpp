#pragma once
// The host meaning of seed_examples.cl's reducer of its own (extent_and_sum), for the tests and the conformance
// suite: the C++ type of the same layout, its combine, and its identity.
#include <cstdint>
#include <limits>

namespace zr_kernels::reference {

struct extent {
  float lo, hi;
  std::uint64_t lo_index, hi_index;
};

// The lower value, or of equal ones the lower index (the same for the higher); a NaN never wins a comparison.
inline extent widen(extent a, const extent& b) {
  if (b.lo < a.lo || (b.lo == a.lo && b.lo_index < a.lo_index)) a.lo = b.lo, a.lo_index = b.lo_index;
  if (b.hi > a.hi || (b.hi == a.hi && b.hi_index < a.hi_index)) a.hi = b.hi, a.hi_index = b.hi_index;
  return a;
}

inline constexpr extent kNoExtent{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                  UINT64_MAX, UINT64_MAX};

}  // namespace zr_kernels::reference
