#pragma once
// What the MPI tests share: the communicator's shape, a failure count that every rank keeps for itself, the
// same seeded global data on every rank, and the ways that data is split across the ranks.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>
#include <zereduce/zereduce.hpp>

namespace zr_mpi_test {

struct context {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  zr::queue* q = nullptr;
  int failures = 0;

  // Records a failure with this rank's number; the run fails if any rank recorded one.
  void expect(bool ok, const std::string& what);
  // Rank 0 says what passed, once for all ranks.
  void note(const std::string& what) const;
};

// Whether every rank holds the same bytes in `value` (the ranks' values gathered and compared).
bool same_on_every_rank(const context& c, const void* value, std::size_t bytes);
template <typename T>
bool same_on_every_rank(const context& c, const T& value) {
  return same_on_every_rank(c, &value, sizeof value);
}

// Rank 0's value of `value` on every rank.
template <typename T>
T from_rank_0(const context& c, T value) {
  MPI_Bcast(&value, sizeof value, MPI_BYTE, 0, c.comm);
  return value;
}

template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}
template <typename T>
std::string hex_bits(const T& value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", static_cast<int>(2 * sizeof value),
                static_cast<unsigned long long>(bits));
  return text;
}

// A split of n elements over the ranks: rank r holds [bounds[r], bounds[r + 1]).
struct split {
  std::string name;
  std::vector<std::uint64_t> bounds;
};
// even, uneven (rank r's share grows as (r + 1)^2), rank 0 empty, everything on the last rank, and cut at
// seeded random points: the same splits on every rank.
std::vector<split> splits_of(std::uint64_t n, int ranks);

template <typename T>
std::span<const T> share(std::span<const T> data, const split& s, int rank) {
  return data.subspan(s.bounds[rank], s.bounds[rank + 1] - s.bounds[rank]);
}
template <typename T>
std::span<const T> share(const std::vector<T>& data, const split& s, int rank) {
  return share(std::span<const T>(data), s, rank);
}

// n values x * 2^e, x uniform in (-1, 1), e uniform in [min_exponent, max_exponent]: mixed signs and
// magnitudes, the same on every rank for the same seed.
std::vector<float> mixed_floats(std::size_t n, unsigned seed, int min_exponent, int max_exponent);
std::vector<double> mixed_doubles(std::size_t n, unsigned seed, int min_exponent, int max_exponent);

void test_reproducible_sums(context& c);
void test_plain_reductions(context& c);
void test_errors(context& c);

}  // namespace zr_mpi_test
