// Reductions without the reproducible property: each checked against a host computation over the whole
// global data, for several splits. Floating sums within the bound of any summation order, every other op
// exact (integer arithmetic wraps; minimum/maximum, bitwise and logical ops are exact), and the same bits on
// every rank.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <zereduce/mpi.hpp>

#include "test_support.hpp"

namespace zr_mpi_test {

namespace {

// |result - exact| <= (n + ranks) * u * sum|x| bounds any order of n - 1 additions and the ranks' combines;
// the long double reference adds its own n * 2^-63 * sum|x|.
template <typename T>
void check_plain_sum(context& c, const char* name, const std::vector<T>& data) {
  long double exact = 0, abs_sum = 0;
  for (T v : data) {
    exact += v;
    abs_sum += std::fabs(static_cast<long double>(v));
  }
  const long double u = std::ldexp(1.0L, -std::numeric_limits<T>::digits);
  const long double n = static_cast<long double>(data.size());
  const long double bound = (n + c.size) * u * abs_sum + n * std::ldexp(abs_sum, -63);
  for (const split& s : splits_of(data.size(), c.size)) {
    const T sum = zr::mpi::allreduce(c.comm, *c.q, share(data, s, c.rank), zr::plus<>());
    const long double error = std::fabs(static_cast<long double>(sum) - exact);
    c.expect(error <= bound, std::string(name) + " plain sum, " + s.name + ": off by " +
                                 std::to_string(static_cast<double>(error)) + ", more than the bound " +
                                 std::to_string(static_cast<double>(bound)));
    c.expect(same_on_every_rank(c, sum),
             std::string(name) + " plain sum, " + s.name + ": the ranks got different bits");
  }
  c.note(std::string(name) + " plain sum within (n + ranks) * u * sum|x| for every split");
}

// An exact op: the bits of a host fold over the whole data.
template <typename T, typename Op, typename HostOp>
void check_exact(context& c, const std::string& what, std::span<const T> data, Op op, T identity, HostOp host_op) {
  T expected = identity;
  for (T v : data) expected = host_op(expected, v);
  for (const split& s : splits_of(data.size(), c.size)) {
    const T result = zr::mpi::allreduce(c.comm, *c.q, share(data, s, c.rank), op);
    c.expect(same_bits(result, expected),
             what + ", " + s.name + ": " + hex_bits(result) + ", expected " + hex_bits(expected));
    c.expect(same_on_every_rank(c, result), what + ", " + s.name + ": the ranks got different bits");
  }
  c.note(what + ": exact for every split");
}
template <typename T, typename Op, typename HostOp>
void check_exact(context& c, const std::string& what, const std::vector<T>& data, Op op, T identity, HostOp host_op) {
  check_exact(c, what, std::span<const T>(data), op, identity, host_op);
}

template <typename T>
std::vector<T> random_integers(std::size_t n, unsigned seed, T low, T high) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> pick(static_cast<std::int64_t>(low), static_cast<std::int64_t>(high));
  std::vector<T> values(n);
  for (T& v : values) v = static_cast<T>(pick(rng));
  return values;
}

// IEEE 754-2019 maximum/minimum as the library defines them, written out for the reference.
float reference_max(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float reference_min(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

}  // namespace

void test_plain_reductions(context& c) {
  // Positive values, so that the bound is relative to the sum itself (about 0.6 % for this f32 n): a rank's
  // share dropped or counted twice is outside it for every split but the tiniest shares.
  std::vector<float> floats = mixed_floats(100'003, 31, -20, 20);
  for (float& v : floats) v = std::fabs(v);
  std::vector<double> doubles_to_sum = mixed_doubles(1'000'003, 32, -40, 40);
  for (double& v : doubles_to_sum) v = std::fabs(v);
  check_plain_sum(c, "f32", floats);
  check_plain_sum(c, "f64", doubles_to_sum);

  constexpr std::size_t n = 100'003;
  // Integer sums and products wrap modulo 2^bits: host folds in unsigned arithmetic.
  const auto i64 = random_integers<std::int64_t>(n, 41, std::numeric_limits<std::int64_t>::min(),
                                                 std::numeric_limits<std::int64_t>::max());
  check_exact(c, "i64 plus (wrapping)", i64, zr::plus<>(), std::int64_t{0}, [](std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  });
  const auto i16 = random_integers<std::int16_t>(n, 42, -30000, 30000);
  check_exact(c, "i16 plus (wrapping)", i16, zr::plus<>(), std::int16_t{0}, [](std::int16_t a, std::int16_t b) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(a) + static_cast<std::uint16_t>(b));
  });
  const auto factors = random_integers<std::int32_t>(n, 43, -3, 3);
  std::vector<std::int32_t> nonzero;
  for (std::int32_t f : factors) nonzero.push_back(f == 0 ? 1 : f);
  check_exact(c, "i32 multiplies (wrapping)", nonzero, zr::multiplies<>(), std::int32_t{1},
              [](std::int32_t a, std::int32_t b) {
                return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
              });
  const auto i32 = random_integers<std::int32_t>(n, 44, std::numeric_limits<std::int32_t>::min(),
                                                 std::numeric_limits<std::int32_t>::max());
  check_exact(c, "i32 minimum", i32, zr::minimum<>(), std::numeric_limits<std::int32_t>::max(),
              [](std::int32_t a, std::int32_t b) { return std::min(a, b); });
  check_exact(c, "i32 maximum", i32, zr::maximum<>(), std::numeric_limits<std::int32_t>::lowest(),
              [](std::int32_t a, std::int32_t b) { return std::max(a, b); });
  const auto u64 = random_integers<std::int64_t>(n, 45, 0, std::numeric_limits<std::int64_t>::max());
  std::vector<std::uint64_t> bits;
  for (std::int64_t v : u64) bits.push_back(static_cast<std::uint64_t>(v) | 0x8000'0000'0000'0001ull);
  check_exact(c, "u64 bit_and", bits, zr::bit_and<>(), ~std::uint64_t{0},
              [](std::uint64_t a, std::uint64_t b) { return a & b; });
  check_exact(c, "u64 bit_or", bits, zr::bit_or<>(), std::uint64_t{0},
              [](std::uint64_t a, std::uint64_t b) { return a | b; });
  const auto u8 = random_integers<std::uint8_t>(n, 46, 0, 255);
  check_exact(c, "u8 bit_xor", u8, zr::bit_xor<>(), std::uint8_t{0},
              [](std::uint8_t a, std::uint8_t b) { return static_cast<std::uint8_t>(a ^ b); });

  // One false value among trues (logical_and) and one true among falses (logical_or), on whichever rank the
  // split puts it; without it, the opposite results.
  const std::unique_ptr<bool[]> mostly_true(new bool[n]), mostly_false(new bool[n]);
  for (std::size_t i = 0; i < n; ++i) {
    mostly_true[i] = i != n - 5;
    mostly_false[i] = i == n - 5;
  }
  const auto both = [](bool a, bool b) { return a && b; };
  const auto either = [](bool a, bool b) { return a || b; };
  check_exact(c, "bool logical_and, one false", std::span<const bool>(mostly_true.get(), n), zr::logical_and<>(), true,
              both);
  check_exact(c, "bool logical_and, all true", std::span<const bool>(mostly_true.get(), n - 5), zr::logical_and<>(),
              true, both);
  check_exact(c, "bool logical_or, one true", std::span<const bool>(mostly_false.get(), n), zr::logical_or<>(), false,
              either);
  check_exact(c, "bool logical_or, all false", std::span<const bool>(mostly_false.get(), n - 5), zr::logical_or<>(),
              false, either);

  // Floating minimum/maximum: -0.0 below +0.0, NaN wins (the canonical quiet NaN), on any split.
  std::vector<float> zeros(1000, -0.0f);
  std::fill(zeros.begin() + 500, zeros.end(), 0.0f);
  check_exact(c, "f32 maximum of -0.0 and +0.0", zeros, zr::maximum<>(), -std::numeric_limits<float>::infinity(),
              reference_max);
  check_exact(c, "f32 minimum of -0.0 and +0.0", zeros, zr::minimum<>(), std::numeric_limits<float>::infinity(),
              reference_min);
  std::vector<float> with_nan = mixed_floats(n, 47, -10, 10);
  with_nan[n - 3] = std::numeric_limits<float>::quiet_NaN();
  check_exact(c, "f32 maximum with a NaN", with_nan, zr::maximum<>(), -std::numeric_limits<float>::infinity(),
              reference_max);
  // f16 through zr::half, where the device has fp16: maximum exact, -0.0 below +0.0, and the sum within
  // each rank's f32 accumulation (n * 2^-24 * sum|x|) plus an f16 rounding per rank and per combine.
  if (c.q->get_device().capabilities().fp16) {
    std::vector<zr::half> halves;
    for (float v : mixed_floats(n, 49, -8, 0)) halves.push_back(zr::half(v));
    check_exact(c, "f16 maximum", halves, zr::maximum<>(), zr::half::from_bits(0xfc00), [](zr::half a, zr::half b) {
      return zr::half(reference_max(static_cast<float>(a), static_cast<float>(b)));
    });
    std::vector<zr::half> half_zeros(1000, zr::half(-0.0f));
    std::fill(half_zeros.begin() + 500, half_zeros.end(), zr::half(0.0f));
    check_exact(
        c, "f16 minimum of -0.0 and +0.0", half_zeros, zr::minimum<>(), zr::half::from_bits(0x7c00),
        [](zr::half a, zr::half b) { return zr::half(reference_min(static_cast<float>(a), static_cast<float>(b))); });
    for (zr::half& v : halves) v = zr::half(std::fabs(static_cast<float>(v)));  // the bound is then relative
    long double exact = 0, abs_sum = 0;
    for (zr::half v : halves) {
      exact += static_cast<float>(v);
      abs_sum += std::fabs(static_cast<float>(v));
    }
    const long double bound = (n * std::ldexp(1.0L, -24) + (c.size + 1) * std::ldexp(1.0L, -11)) * abs_sum;
    for (const split& s : splits_of(halves.size(), c.size)) {
      const zr::half sum = zr::mpi::allreduce(c.comm, *c.q, share(halves, s, c.rank), zr::plus<>());
      const long double error = std::fabs(static_cast<float>(sum) - exact);
      c.expect(error <= bound, "f16 plain sum, " + s.name + ": off by " + std::to_string(static_cast<double>(error)) +
                                   ", more than " + std::to_string(static_cast<double>(bound)));
      c.expect(same_on_every_rank(c, sum), "f16 plain sum, " + s.name + ": the ranks got different bits");
    }
    c.note("f16 plain sum within its bound for every split");
  } else {
    c.note("f16: the device has no fp16; the plain f16 cases are skipped");
  }

  const std::vector<double> doubles = mixed_doubles(n, 48, -30, 30);
  check_exact(c, "f64 minimum", doubles, zr::minimum<>(), std::numeric_limits<double>::infinity(),
              [](double a, double b) { return std::min(a, b); });
}

}  // namespace zr_mpi_test
