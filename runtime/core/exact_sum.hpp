#pragma once
// The exact sum of floating-point values (a long accumulator of 32-bit digits covering every double), for
// the tests' checks of sums that must be within a bound of exact: |computed - exact| is itself computed
// exactly (add -computed, then read the remainder), only the final reading is rounded (to long double).
#include <cstdint>
#include <vector>

namespace zr::core {

class ExactSum {
 public:
  ExactSum();
  void add(double value);  // finite values only (infinities and NaN are the caller's to track)
  // The sum so far, rounded (relative error below 2^-60).
  long double value() const;

 private:
  void normalize();
  std::vector<std::int64_t> digits_;  // digits_[i] * 2^(32 i + kLowestExponent), each |digit| < 2^62
  std::uint64_t adds_since_normalize_ = 0;
};

}  // namespace zr::core
