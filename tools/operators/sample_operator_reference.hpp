#pragma once
// The sample operators' meaning on the host, written again in C++ from their .cl files: the transform of element x
// at input index i, the combine, the identity where there is one, and field-by-field equality (padding bytes carry
// no value; floating-point fields compare as values). The tests and the conformance suite fold with these.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sample_operators.hpp"

namespace zr_operators::reference {

inline bounds_acc transform(const bounds_acc*, float x, std::uint64_t i) {
  if (std::isnan(x)) return {INFINITY, -INFINITY, UINT64_MAX, UINT64_MAX, 0};
  return {x, x, i, i, 1};
}
inline bounds_acc combine(const bounds_acc& a, const bounds_acc& b) {
  const bool lower = b.lo < a.lo || (b.lo == a.lo && b.lo_index < a.lo_index);
  const bool higher = b.hi > a.hi || (b.hi == a.hi && b.hi_index < a.hi_index);
  return {lower ? b.lo : a.lo, higher ? b.hi : a.hi, lower ? b.lo_index : a.lo_index, higher ? b.hi_index : a.hi_index,
          a.count + b.count};
}
inline bounds_acc identity(const bounds_acc*) { return {INFINITY, -INFINITY, UINT64_MAX, UINT64_MAX, 0}; }
inline bool same(const bounds_acc& a, const bounds_acc& b) {
  return std::memcmp(&a.lo, &b.lo, 4) == 0 && std::memcmp(&a.hi, &b.hi, 4) == 0 && a.lo_index == b.lo_index &&
         a.hi_index == b.hi_index && a.count == b.count;
}

// No identity.
inline range16 transform(const range16*, std::int16_t x, std::uint64_t) { return {x, x}; }
inline range16 combine(const range16& a, const range16& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
inline bool same(const range16& a, const range16& b) { return a.lo == b.lo && a.hi == b.hi; }

inline histogram8 transform(const histogram8*, std::uint8_t x, std::uint64_t) {
  histogram8 h{};
  h.counts[x >> 5] = 1;
  return h;
}
inline histogram8 combine(histogram8 a, const histogram8& b) {
  for (int k = 0; k < 8; ++k) a.counts[k] += b.counts[k];
  return a;
}
inline histogram8 identity(const histogram8*) { return {}; }
inline bool same(const histogram8& a, const histogram8& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline mix_state transform(const mix_state*, std::int64_t x, std::uint64_t i) {
  return {x, static_cast<std::uint64_t>(x) * (i | 1)};
}
inline mix_state combine(const mix_state& a, const mix_state& b) {
  return {static_cast<std::int64_t>(static_cast<std::uint64_t>(a.sum) + static_cast<std::uint64_t>(b.sum)), a.hash ^ b.hash};
}
inline mix_state identity(const mix_state*) { return {0, 0}; }
inline bool same(const mix_state& a, const mix_state& b) { return a.sum == b.sum && a.hash == b.hash; }

}  // namespace zr_operators::reference
