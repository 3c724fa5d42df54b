#include "shares.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "zereduce/errors.hpp"

namespace zr::core {

std::vector<InputChunk> split_by_weights(std::uint64_t n, std::span<const double> weights) {
  if (weights.empty()) throw InvalidArgumentError("an input split needs at least one weight");
  long double total = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i]) || weights[i] < 0)
      throw InvalidArgumentError("weight " + std::to_string(i) + " is " + std::to_string(weights[i]) +
                                 ": weights must be finite and not negative");
    total += weights[i];
  }
  if (!(total > 0)) throw InvalidArgumentError("the weights add up to 0: at least one must be positive");

  // Floors first (long double: n up to 2^64 keeps 64 bits of the product), then one more element each for
  // the largest remainders until the parts add up to n.
  std::vector<std::uint64_t> counts(weights.size());
  std::vector<long double> remainders(weights.size());
  std::uint64_t assigned = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const long double exact = static_cast<long double>(n) * weights[i] / total;
    counts[i] = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::floor(exact)), n - assigned);
    remainders[i] = exact - static_cast<long double>(counts[i]);
    assigned += counts[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  for (std::size_t k = 0; assigned < n; k = (k + 1) % order.size()) {
    if (weights[order[k]] == 0) continue;
    ++counts[order[k]];
    ++assigned;
  }

  std::vector<InputChunk> parts;
  std::uint64_t first = 0;
  for (std::uint64_t count : counts) {
    parts.push_back({first, count});
    first += count;
  }
  return parts;
}

}  // namespace zr::core
