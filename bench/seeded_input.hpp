#pragma once
// The three seeded inputs of the cross-device digest table (bench/results/reproducible.md), shared by every
// program that adds a column to it: one device (zr_reproducible_bench), a device group (zr_group_digest) and
// MPI ranks (zr_mpi_digest). The same seed gives the same values in every process.
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace zr::bench {

inline constexpr std::uint64_t kDigestElements = 1'000'003;
inline constexpr std::uint64_t kDigestSeeds[] = {1, 2, 3};

// Signed values over a wide range of magnitudes (2^-30 .. 2^30), so that the sums cancel and round.
template <typename T>
std::vector<T> seeded_input(std::uint64_t seed, std::uint64_t n) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::uniform_real_distribution<double> fraction(0.5, 1.0);
  std::vector<T> values(n);
  for (auto& v : values) v = static_cast<T>((rng() & 1 ? -1.0 : 1.0) * std::ldexp(fraction(rng), exponent(rng)));
  return values;
}

template <typename T>
std::uint64_t bits_of(T value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

// One row of the digest table, as bench/reproducible_report.py reads it: `ways` names how the sum was made
// (strategies, splits), `one_value` whether every way gave the same bits.
inline void print_digest_row(const char* type, std::uint64_t seed, std::uint64_t bits, bool one_value,
                             const std::string& ways) {
  std::printf("{\"kind\":\"digest\",\"type\":\"%s\",\"input\":\"seeded wide-range, seed %" PRIu64 "\",\"n\":%" PRIu64
              ",\"bits\":\"0x%016" PRIx64 "\",\"one_value\":%s,\"strategies\":\"%s\"}\n",
              type, seed, kDigestElements, bits, one_value ? "true" : "false", ways.c_str());
  std::fflush(stdout);
}

}  // namespace zr::bench
