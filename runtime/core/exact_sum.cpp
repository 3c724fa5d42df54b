#include "exact_sum.hpp"

#include <cmath>
#include <stdexcept>

namespace zr::core {

namespace {
constexpr int kLowestExponent = -1152;  // a multiple of 32 with room below 2^-1074 for a subnormal's 53-bit significand
constexpr int kDigits = 76;             // up to 2^(32*76 - 1152) = 2^1280: far beyond n * DBL_MAX
constexpr std::uint64_t kAddsBetweenCarries = std::uint64_t{1} << 28;  // each add puts < 2^32 in a digit
}  // namespace

ExactSum::ExactSum() : digits_(kDigits, 0) {}

void ExactSum::add(double value) {
  if (!std::isfinite(value)) throw std::invalid_argument("ExactSum takes finite values");
  if (value == 0) return;
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(value), &exponent);
  const auto significand = static_cast<std::uint64_t>(std::ldexp(fraction, 53));  // value = sig * 2^(exp-53)
  const int position = exponent - 53 - kLowestExponent;
  const int first = position / 32;
  unsigned __int128 shifted = static_cast<unsigned __int128>(significand) << (position % 32);
  const std::int64_t sign = value < 0 ? -1 : 1;
  for (int i = first; shifted != 0; ++i, shifted >>= 32)
    digits_.at(static_cast<std::size_t>(i)) += sign * static_cast<std::int64_t>(shifted & 0xffffffffu);
  if (++adds_since_normalize_ == kAddsBetweenCarries) normalize();
}

void ExactSum::normalize() {
  for (std::size_t i = 0; i + 1 < digits_.size(); ++i) {
    const std::int64_t carry = digits_[i] >> 32;  // floor: the digit keeps [0, 2^32)
    digits_[i] -= carry * (std::int64_t{1} << 32);
    digits_[i + 1] += carry;
  }
  adds_since_normalize_ = 0;
}

long double ExactSum::value() const {
  ExactSum copy = *this;
  copy.normalize();
  // Now every digit but the top one is in [0, 2^32) and the top one has the sign: a negative sum is read as
  // the negation of its magnitude, so that no two large terms cancel in long double.
  const bool negative = copy.digits_.back() < 0;
  if (negative) {
    for (auto& digit : copy.digits_) digit = -digit;
    copy.normalize();
  }
  // From the top down, the first four digits from the first non-zero one carry more than long double's 64
  // significant bits.
  long double sum = 0;
  int taken = 0;
  for (int i = kDigits - 1; i >= 0 && taken < 4; --i) {
    const std::int64_t digit = copy.digits_[static_cast<std::size_t>(i)];
    if (digit == 0 && taken == 0) continue;
    sum += std::ldexp(static_cast<long double>(digit), 32 * i + kLowestExponent);
    ++taken;
  }
  return negative ? -sum : sum;
}

}  // namespace zr::core
