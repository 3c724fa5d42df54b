#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace zr_mpi_test {

void context::expect(bool ok, const std::string& what) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "rank %d of %d: FAILED: %s\n", rank, size, what.c_str());
}

void context::note(const std::string& what) const {
  if (rank == 0) std::printf("[%d ranks] %s\n", size, what.c_str());
}

bool same_on_every_rank(const context& c, const void* value, std::size_t bytes) {
  std::vector<unsigned char> all(bytes * static_cast<std::size_t>(c.size));
  MPI_Allgather(value, static_cast<int>(bytes), MPI_BYTE, all.data(), static_cast<int>(bytes), MPI_BYTE, c.comm);
  for (int r = 1; r < c.size; ++r)
    if (std::memcmp(all.data(), all.data() + r * bytes, bytes) != 0) return false;
  return true;
}

std::vector<split> splits_of(std::uint64_t n, int ranks) {
  const auto p = static_cast<std::uint64_t>(ranks);
  std::vector<split> splits;

  split even{"even", {}};
  for (std::uint64_t r = 0; r <= p; ++r) even.bounds.push_back(r * n / p);
  splits.push_back(even);

  split uneven{"uneven", {0}};
  std::uint64_t weights = 0;
  for (std::uint64_t r = 1; r <= p; ++r) weights += r * r;
  std::uint64_t so_far = 0;
  for (std::uint64_t r = 1; r <= p; ++r) {
    so_far += r * r;
    uneven.bounds.push_back(n * so_far / weights);
  }
  splits.push_back(uneven);

  split first_empty{"rank 0 empty", {0}};
  for (std::uint64_t r = 0; r < p; ++r) first_empty.bounds.push_back(p == 1 ? n : r * n / (p - 1));
  splits.push_back(first_empty);

  split all_on_last{"all on the last rank", std::vector<std::uint64_t>(p, 0)};
  all_on_last.bounds.push_back(n);
  splits.push_back(all_on_last);

  split random{"random cuts", {0}};
  std::mt19937_64 rng(1234 + p);
  std::vector<std::uint64_t> cuts;
  for (std::uint64_t r = 1; r < p; ++r) cuts.push_back(rng() % (n + 1));
  std::sort(cuts.begin(), cuts.end());
  random.bounds.insert(random.bounds.end(), cuts.begin(), cuts.end());
  random.bounds.push_back(n);
  splits.push_back(random);
  return splits;
}

namespace {
template <typename T>
std::vector<T> mixed(std::size_t n, unsigned seed, int min_exponent, int max_exponent) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> x(-1, 1);
  std::uniform_int_distribution<int> e(min_exponent, max_exponent);
  std::vector<T> values(n);
  for (T& v : values) v = std::ldexp(x(rng), e(rng));
  return values;
}
}  // namespace

std::vector<float> mixed_floats(std::size_t n, unsigned seed, int min_exponent, int max_exponent) {
  return mixed<float>(n, seed, min_exponent, max_exponent);
}
std::vector<double> mixed_doubles(std::size_t n, unsigned seed, int min_exponent, int max_exponent) {
  return mixed<double>(n, seed, min_exponent, max_exponent);
}

}  // namespace zr_mpi_test
