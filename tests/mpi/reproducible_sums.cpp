// Reproducible sums across ranks: for every split of the same global data, every rank gets the same bits,
// and they are the bits of one reproducible sum of all the data on one device (rank 0's) and of the host
// model (reproducible_partial::add, value by value): independent of the rank count, so the runs with 1 to 4
// ranks check the same number, printed by rank 0.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <zereduce/mpi.hpp>

#include "test_support.hpp"

namespace zr_mpi_test {

namespace {

const zr::property_list kReproducible{zr::property::reduction::reproducible{}};

template <typename T>
double as_double(T x) {
  if constexpr (std::is_same_v<T, zr::half>)
    return static_cast<float>(x);
  else
    return static_cast<double>(x);
}

// The documented accuracy of a reproducible sum, n * 2^-48 * max|x| (f16, f32) or n * 2^-60 * max|x| (f64)
// plus half an ulp, checked against a long double sum, whose own error is bounded by n * 2^-63 * sum|x|:
// a share dropped or counted twice, or a merge gone wrong, is far outside it.
template <typename T>
bool within_documented_bound(const std::vector<T>& data, T result) {
  long double exact = 0, abs_sum = 0;
  double max_abs = 0;
  for (T v : data) {
    exact += as_double(v);
    abs_sum += std::fabs(as_double(v));
    max_abs = std::max(max_abs, std::fabs(as_double(v)));
  }
  const double n = static_cast<double>(data.size());
  const int digits = std::is_same_v<T, double> ? 53 : std::is_same_v<T, float> ? 24 : 11;
  const double window = n * std::ldexp(max_abs, std::is_same_v<T, double> ? -60 : -48);
  const double r = as_double(result);
  const double half_ulp = std::ldexp(1.0, std::ilogb(r == 0 ? 1.0 : r) - digits);
  const long double error = std::fabs(static_cast<long double>(r) - exact);
  return error <= window + half_ulp + n * std::ldexp(static_cast<long double>(abs_sum), -63);
}

template <typename T>
void check_type(context& c, const char* name, const std::vector<T>& data) {
  zr::queue& q = *c.q;
  // Computed once, on rank 0: the single-device result and the host model of the same sum.
  T whole{}, model{};
  if (c.rank == 0) {
    whole = q.reduce_value(std::span<const T>(data), zr::plus<>(), kReproducible);
    zr::reproducible_partial<T> partial;
    for (T v : data) partial.add(v);
    model = partial.value();
    c.expect(same_bits(whole, model),
             std::string(name) + ": rank 0's device gives " + hex_bits(whole) + ", the host model " + hex_bits(model));
    c.expect(within_documented_bound(data, whole), std::string(name) + ": the sum is outside its documented bound");
  }
  whole = from_rank_0(c, whole);

  for (const split& s : splits_of(data.size(), c.size)) {
    const std::span<const T> mine = share(data, s, c.rank);
    const T sum = zr::mpi::allreduce(c.comm, q, mine, zr::plus<>(), kReproducible);
    c.expect(same_on_every_rank(c, sum), std::string(name) + ", " + s.name + ": the ranks got different bits");
    c.expect(same_bits(sum, whole), std::string(name) + ", " + s.name + ": " + hex_bits(sum) +
                                        " differs from the single-device sum " + hex_bits(whole));

    // The same share in another order on each rank, read from device memory.
    std::vector<T> shuffled(mine.begin(), mine.end());
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(77 + c.rank));
    const zr::usm_ptr<T> device = zr::make_device_array<T>(q, shuffled.size());
    q.copy(shuffled.data(), device.get(), shuffled.size()).wait();
    const T again = zr::mpi::allreduce(c.comm, q, static_cast<const T*>(device.get()), shuffled.size(), zr::plus<>(),
                                       kReproducible);
    c.expect(same_bits(again, whole), std::string(name) + ", " + s.name + ", shuffled, device memory: " +
                                          hex_bits(again) + " differs from " + hex_bits(whole));
  }
  c.note(std::string(name) + " reproducible sum of " + std::to_string(data.size()) + " values: " + hex_bits(whole) +
         " on every rank for every split, as on one device");
}

}  // namespace

void test_reproducible_sums(context& c) {
  constexpr std::size_t n = 1'000'003;
  check_type(c, "f64", mixed_doubles(n, 2024, -40, 40));
  check_type(c, "f32", mixed_floats(n, 2025, -20, 20));

  // f16 where the device has it; elsewhere every rank is refused alike.
  std::vector<zr::half> halves;
  for (float v : mixed_floats(100'003, 2026, -8, 4)) halves.push_back(zr::half(v));
  if (c.q->get_device().capabilities().fp16) {
    check_type(c, "f16", halves);
  } else {
    bool refused = false;
    try {
      zr::mpi::allreduce(c.comm, *c.q, std::span<const zr::half>(halves), zr::plus<>(), kReproducible);
    } catch (const zr::UnsupportedError&) {
      refused = true;
    }
    c.expect(refused, "f16 on a device without fp16: no UnsupportedError");
    c.note("f16: the device has no fp16; every rank was refused alike");
  }
}

}  // namespace zr_mpi_test
