// zr_reproducible_bench: the reproducible sum (property::reduction::reproducible) against our default sum,
// side by side in one run on one device, and the digests of three seeded inputs for the cross-device table.
//
//   zr_reproducible_bench [--device INDEX] [--min-log2 20] [--max-log2 28] [--step 2] [--runs 15]
//
// Prints one JSON object per line:
//   {"kind":"speed", "type", "n", "default_s", "reproducible_s", "ratio", ...}  device time (kernel timestamps)
//       of a sum into device memory, median over --runs runs each, the two called in turn (interleaved);
//   {"kind":"digest", "type", "input", "n", "bits", "one_value", "strategies"}  the reproducible sum of each
//       seeded input (bench/README.md, "Reproducible sums"), by every strategy the device allows for it, from
//       device memory and from a host span: one value whatever the strategy ("one_value").
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <zereduce/zereduce.hpp>

#include "seeded_input.hpp"

namespace {

using zr::bench::bits_of;
using zr::bench::seeded_input;

struct Options {
  long device = -1;
  int min_log2 = 20, max_log2 = 28, step = 2, runs = 15;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const long value = std::stol(argv[i + 1]);
    if (flag == "--device") o.device = value;
    else if (flag == "--min-log2") o.min_log2 = static_cast<int>(value);
    else if (flag == "--max-log2") o.max_log2 = static_cast<int>(value);
    else if (flag == "--step") o.step = static_cast<int>(value);
    else if (flag == "--runs") o.runs = static_cast<int>(value);
    else throw std::runtime_error("unknown option " + flag);
  }
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T>
double device_seconds(zr::queue& q, const T* input, std::uint64_t n, T* result, const zr::property_list& props) {
  const zr::event e = q.reduce(input, n, zr::reduction(result, zr::plus<T>(), props));
  e.wait();
  return static_cast<double>(e.get_profile().kernel_ns) * 1e-9;
}

template <typename T>
void speed_rows(zr::queue& q, const char* type, const Options& o) {
  const zr::property_list plain{zr::property::reduction::initialize_to_identity{}};
  const zr::property_list reproducible{zr::property::reduction::initialize_to_identity{},
                                       zr::property::reduction::reproducible{}};
  for (int log2 = o.min_log2; log2 <= o.max_log2; log2 += o.step) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    const std::vector<T> host = seeded_input<T>(static_cast<std::uint64_t>(log2), n);
    auto input = zr::make_device_array<T>(q, n);
    auto result = zr::make_device_array<T>(q, 1);
    q.copy(host.data(), input.get(), n).wait();
    device_seconds(q, input.get(), n, result.get(), plain);  // warm-up (plans, module builds)
    device_seconds(q, input.get(), n, result.get(), reproducible);
    std::vector<double> default_s, reproducible_s;
    for (int run = 0; run < o.runs; ++run) {
      default_s.push_back(device_seconds(q, input.get(), n, result.get(), plain));
      reproducible_s.push_back(device_seconds(q, input.get(), n, result.get(), reproducible));
    }
    const double d = median(default_s), r = median(reproducible_s);
    const double bytes = static_cast<double>(n * sizeof(T));
    std::printf("{\"kind\":\"speed\",\"type\":\"%s\",\"n\":%" PRIu64 ",\"log2\":%d,\"default_s\":%.9g,"
                "\"reproducible_s\":%.9g,\"ratio\":%.4f,\"default_GBps\":%.2f,\"reproducible_GBps\":%.2f}\n",
                type, n, log2, d, r, d / r, bytes / d * 1e-9, bytes / r * 1e-9);
    std::fflush(stdout);
  }
}

template <typename T>
T reproducible_sum(zr::queue& q, const T* input, std::uint64_t n, std::optional<zr::strategy> s) {
  zr::property_list props{zr::property::reduction::reproducible{}};
  if (s) props = props.with(zr::property::reduction::use_strategy{*s});
  return q.reduce_value(input, n, zr::plus<T>(), props);
}

template <typename T>
void digest_rows(zr::queue& q, const char* type, zr::element_type element) {
  constexpr std::uint64_t n = zr::bench::kDigestElements;
  const auto strategies = q.get_device().strategies(element, zr::op_kind::plus, true, true);
  for (std::uint64_t seed : zr::bench::kDigestSeeds) {
    const std::vector<T> host = seeded_input<T>(seed, n);
    auto input = zr::make_device_array<T>(q, n);
    q.copy(host.data(), input.get(), n).wait();
    std::vector<std::uint64_t> seen;
    std::string names;
    for (zr::strategy s : strategies) {
      seen.push_back(bits_of(reproducible_sum(q, input.get(), n, s)));
      if (!names.empty()) names += ',';
      names += zr::to_string(s);
    }
    seen.push_back(bits_of(q.reduce_value(std::span<const T>(host), zr::plus<T>(),
                                          {zr::property::reduction::reproducible{}})));
    const bool one_value = std::all_of(seen.begin(), seen.end(), [&](std::uint64_t b) { return b == seen.front(); });
    zr::bench::print_digest_row(type, seed, seen.front(), one_value, names);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const zr::device device = o.device >= 0 ? zr::get_device(static_cast<std::size_t>(o.device)) : zr::default_device();
    std::printf("{\"kind\":\"device\",\"name\":\"%s\",\"zereduce\":\"%s\"}\n", device.description().c_str(),
                ZR_BENCH_VERSION);
    zr::queue q(device, {zr::property::queue::enable_profiling{}});
    digest_rows<float>(q, "f32", zr::element_type::f32);
    if (device.capabilities().fp64) digest_rows<double>(q, "f64", zr::element_type::f64);
    speed_rows<float>(q, "f32", o);
    if (device.capabilities().fp64) speed_rows<double>(q, "f64", o);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "zr_reproducible_bench: %s\n", error.what());
    return 1;
  }
}
