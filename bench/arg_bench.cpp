// zr_arg_bench: our argmax/argmin against our plain maximum (and f32 sum) of the same data, side by side in one
// run on one device; bench/arg_report.py puts them next to CUB's ArgMax/ArgMin (bench/cub/cub_argreduce.cu).
//
//   zr_arg_bench [--device INDEX] [--min-log2 20] [--max-log2 28] [--step 2] [--runs 21] [--sorted 1]
//
// Prints one JSON object per line: {"peer":"ours","op":"argmax"|"argmin"|"max"|"sum","type":"f32"|"i32","log2",
// "n","seconds","gbps","ok"}. seconds: the device span of the reduction (first kernel's start to the last
// one's end, as CUDA events around CUB's launches measure it), median of --runs runs, the ops called in turn
// (interleaved) on device-resident input; results go to device memory. ok: the result equals a host scan.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "device_timing.hpp"

namespace {

using zr::bench::device_span_s;
using zr::bench::median;
using zr::bench::Options;

// Values with few ties: i32 over its whole range, f32 of random sign, mantissa and one of 64 exponents.
template <typename T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    if constexpr (std::is_same_v<T, float>)
      x = std::ldexp((r & 1 ? -1.0f : 1.0f) * (1.0f + static_cast<float>((r >> 1) & 0x7fffff) / 8388608.0f),
                     static_cast<int>((r >> 24) % 64) - 32);
    else
      x = static_cast<T>(static_cast<std::uint32_t>(r >> 32));
  }
  return v;
}

template <typename T>
zr::arg_result<T> host_scan(const std::vector<T>& v, bool largest) {
  std::uint64_t best = 0;
  for (std::uint64_t i = 1; i < v.size(); ++i)
    if (largest ? v[best] < v[i] : v[i] < v[best]) best = i;
  return {v[best], best};
}

constexpr auto row = zr::bench::print_row;

template <typename T>
void rows(zr::queue& q, const char* type, const Options& o) {
  const zr::property_list from_identity{zr::property::reduction::initialize_to_identity{}};
  for (int log2 = o.min_log2; log2 <= o.max_log2; log2 += o.step) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    std::vector<T> host = random_values<T>(n, static_cast<std::uint64_t>(log2));
    if (o.sorted) std::sort(host.begin(), host.end());
    auto input = zr::make_device_array<T>(q, n);
    auto arg = zr::make_device_array<zr::arg_result<T>>(q, 1);
    auto value = zr::make_device_array<T>(q, 1);
    q.copy(host.data(), input.get(), n).wait();
    auto argmax = [&] { return device_span_s(q.argmax(input.get(), n, arg.get())); };
    auto argmin = [&] { return device_span_s(q.argmin(input.get(), n, arg.get())); };
    auto max = [&] {
      return device_span_s(q.reduce(input.get(), n, zr::reduction(value.get(), zr::maximum<T>(), from_identity)));
    };
    auto sum = [&] {
      return device_span_s(q.reduce(input.get(), n, zr::reduction(value.get(), zr::plus<T>(), from_identity)));
    };
    argmax(), argmin(), max(), sum();  // warm-up (module builds, plans)
    std::vector<double> argmax_s, argmin_s, max_s, sum_s;
    for (int run = 0; run < o.runs; ++run) {
      argmax_s.push_back(argmax());
      argmin_s.push_back(argmin());
      max_s.push_back(max());
      sum_s.push_back(sum());
    }
    zr::arg_result<T> got{};
    q.argmax(input.get(), n, &got).wait();
    row("argmax", type, log2, n, sizeof(T), median(argmax_s), got == host_scan(host, true));
    q.argmin(input.get(), n, &got).wait();
    row("argmin", type, log2, n, sizeof(T), median(argmin_s), got == host_scan(host, false));
    const T max_value = q.reduce_value(input.get(), n, zr::maximum<T>());
    row("max", type, log2, n, sizeof(T), median(max_s), max_value == host_scan(host, true).value);
    row("sum", type, log2, n, sizeof(T), median(sum_s), true);
  }
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = zr::bench::parse_options(argc, argv);
  const zr::device device = zr::bench::device_of(o);
  std::fprintf(stderr, "device: %s\n", device.description().c_str());
  zr::queue q(device, {zr::property::queue::enable_profiling{}});
  rows<float>(q, "f32", o);
  rows<std::int32_t>(q, "i32", o);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "zr_arg_bench: %s\n", e.what());
  return 1;
}
