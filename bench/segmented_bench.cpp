// zr_segmented_bench: our segmented reductions (queue::reduce_rows for equal segments, queue::reduce_segments with
// 32-bit offsets for equal and power-law segments) of f32, f64 and i32 sums and maxima, f32 argmax and f32 L2 norms
// (a transform per segment, no CUB peer), the total fixed at
// 2^total_log2 elements and the segments those of bench/segment_sizes.hpp, so that bench/segmented_report.py
// can put them next to CUB's DeviceSegmentedReduce (bench/cub/cub_segmented.cu) on the same GPU.
//
//   zr_segmented_bench [--device INDEX] [--max-log2 28 (the total)] [--min-log2 0] [--upto-log2 K] [--step 2]
//                      [--runs 11] [--plans 1] [--types 7]
// (segment lengths 2^min-log2 .. 2^upto-log2 by --step; --types a mask, 1 f32 + 2 f64 + 4 i32; the power-law
// segments only when the lengths go up to the total)
//
// Prints one JSON object per line: {"peer":"ours","api":"rows"|"offsets","op":"sum"|"max"|"argmax"|"norm_l2","type","layout":
// "equal"|"power_law","log2" (segment length; -1 for power law),"n","segments","seconds","check_seconds",
// "wall_seconds","ok"}. seconds: the reduction's device span (first kernel's start to the last one's end), median
// of --runs runs; check_seconds: the device's check of the offsets (0 for rows); wall_seconds: the call's wall
// time on the host, submission to completion; input, offsets and results in device memory. ok: every segment's result against a host fold (maxima and i32 sums exactly, floating
// sums within 1e-3 relative of a double sum, norms of the double norm, argmax's value and first index within the
// segment).
// ZR_SEGMENTED_BENCH_REPRODUCIBLE=1: every reduction with property::reduction::reproducible (floating sums run
// as binned sums; the other rows are unchanged), each line then carrying "reproducible":true.
// ZR_SEGMENTED_BENCH_OPS=argmax,norm_l2 (a comma-separated list): only those ops, for a short A/B of one kernel.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "device_timing.hpp"
#include "segment_sizes.hpp"

namespace {

using zr::bench::device_span_s;
using zr::bench::median;
using zr::bench::Options;

constexpr const char* kCheckLabel = "check segment offsets";  // core/plans/segment_check.hpp

bool op_selected(const std::string& op) {
  const char* list = std::getenv("ZR_SEGMENTED_BENCH_OPS");
  if (list == nullptr || *list == '\0') return true;
  std::string_view rest(list);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == op) return true;
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return false;
}

template <typename T>
T value_at(std::uint64_t i) {
  const unsigned long long h = (i * 2654435761ull) ^ (i >> 7);
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(h % 1000) / static_cast<T>(7) - static_cast<T>(50);
  else return static_cast<T>(h % 2001) - 1000;
}

template <typename T>
bool agrees(bool sum, const std::vector<T>& host, const std::vector<std::uint32_t>& offsets, const std::vector<T>& got) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double exact = 0, magnitude = 0;
    T folded = sum ? T{} : std::numeric_limits<T>::lowest();
    for (std::uint32_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      exact += static_cast<double>(host[i]);
      magnitude += std::fabs(static_cast<double>(host[i]));
      folded = sum ? static_cast<T>(folded + host[i]) : std::max(folded, host[i]);
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (sum ? std::fabs(static_cast<double>(got[s]) - exact) > 1e-3 * magnitude + 1e-6 : got[s] != folded) return false;
    } else if (got[s] != folded) {
      return false;
    }
  }
  return true;
}

template <typename T>
bool norm_agrees(const std::vector<T>& host, const std::vector<std::uint32_t>& offsets, const std::vector<T>& got) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double squares = 0;
    for (std::uint32_t i = offsets[s]; i < offsets[s + 1]; ++i) squares += static_cast<double>(host[i]) * host[i];
    if (std::fabs(static_cast<double>(got[s]) - std::sqrt(squares)) > 1e-3 * std::sqrt(squares) + 1e-6) return false;
  }
  return true;
}

template <typename T>
bool argmax_agrees(const std::vector<T>& host, const std::vector<std::uint32_t>& offsets,
                   const std::vector<zr::arg_result<T>>& got) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::uint32_t best = offsets[s];
    for (std::uint32_t i = offsets[s]; i < offsets[s + 1]; ++i)
      if (host[best] < host[i]) best = i;
    if (got[s].value != host[best] || got[s].index != best - offsets[s]) return false;
  }
  return true;
}

template <typename T>
void bench(zr::queue& q, const char* type, const Options& o) {
  const std::uint64_t n = std::uint64_t{1} << o.max_log2;
  std::vector<T> host(n);
  for (std::uint64_t i = 0; i < n; ++i) host[i] = value_at<T>(i);
  auto input = zr::make_device_array<T>(q, n);
  auto results = zr::make_device_array<T>(q, n);
  auto offsets_device = zr::make_device_array<std::uint32_t>(q, n + 1);
  // argmax (f32 only, as the CUB peer): one arg_result per segment.
  auto arg_results = zr::make_device_array<zr::arg_result<T>>(q, std::is_same_v<T, float> ? n : 1);
  q.copy(host.data(), input.get(), n).wait();
  const char* reproducible_env = std::getenv("ZR_SEGMENTED_BENCH_REPRODUCIBLE");
  const bool reproducible = reproducible_env && std::string(reproducible_env) == "1";
  zr::property_list from_identity{zr::property::reduction::initialize_to_identity{}};
  if (reproducible) from_identity = from_identity.with(zr::property::reduction::reproducible{});

  auto measure = [&](const char* api, const char* layout, int log2, const std::vector<std::uint32_t>& offsets) {
    const std::uint64_t segments = offsets.size() - 1;
    q.copy(offsets.data(), offsets_device.get(), offsets.size()).wait();
    for (const std::string op : {"sum", "max", "argmax", "norm_l2"}) {
      if ((op == "argmax" || op == "norm_l2") && !std::is_same_v<T, float>) continue;
      if (!op_selected(op)) continue;
      const bool sum = op == "sum";
      auto once = [&] {
        const bool rows = std::string(api) == "rows";
        const std::uint64_t length = std::uint64_t{1} << std::max(log2, 0);
        if (op == "argmax")
          return rows ? q.reduce_rows(input.get(), segments, length, arg_results.get(), zr::argmax<>())
                      : q.reduce_segments(input.get(), n, offsets_device.get(), segments, arg_results.get(), zr::argmax<>());
        if constexpr (std::is_floating_point_v<T>)
          if (op == "norm_l2")
            return rows ? q.reduce_rows(input.get(), segments, length, results.get(), zr::norm_l2{})
                        : q.reduce_segments(input.get(), n, offsets_device.get(), segments, results.get(), zr::norm_l2{});
        if (sum)
          return rows ? q.reduce_rows(input.get(), segments, length, results.get(), zr::plus<T>(), from_identity)
                      : q.reduce_segments(input.get(), n, offsets_device.get(), segments, results.get(), zr::plus<T>(),
                                          from_identity);
        return rows ? q.reduce_rows(input.get(), segments, length, results.get(), zr::maximum<T>(), from_identity)
                    : q.reduce_segments(input.get(), n, offsets_device.get(), segments, results.get(), zr::maximum<T>(),
                                        from_identity);
      };
      const zr::event warm = once();
      warm.wait();
      if (o.plans && !warm.get_profile().plans.empty()) {
        std::fprintf(stderr, "%s %s %s 2^%d: %s\n", api, op.c_str(), type, log2,
                     warm.get_profile().plans.front().description.c_str());
        // Each pass's device time, to see which pass a plan spends its time in.
        for (const auto& pass : once().get_profile().passes)
          std::fprintf(stderr, "  pass %s (%s): %.1f us\n", pass.label.c_str(), pass.kernel.c_str(),
                       static_cast<double>(pass.duration_ns()) * 1e-3);
      }
      // The reduction's device span, the device check of the offsets (none for rows), and each call's wall time from
      // submission to completion on the host's clock (the check, its read-back and the planning included).
      std::vector<double> s, check, wall;
      for (int run = 0; run < o.runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        const zr::event done = once();
        done.wait();
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        s.push_back(device_span_s(done, kCheckLabel));
        double checked = 0;
        for (const auto& pass : done.get_profile().passes)
          if (pass.label == kCheckLabel) checked += static_cast<double>(pass.duration_ns()) * 1e-9;
        check.push_back(checked);
      }
      bool ok = false;
      if (op == "argmax") {
        std::vector<zr::arg_result<T>> got(segments);
        q.copy(arg_results.get(), got.data(), segments).wait();
        ok = argmax_agrees(host, offsets, got);
      } else {
        std::vector<T> got(segments);
        q.copy(results.get(), got.data(), segments).wait();
        ok = op == "norm_l2" ? norm_agrees(host, offsets, got) : agrees(sum, host, offsets, got);
      }
      std::printf("{\"peer\":\"ours\",\"api\":\"%s\",\"op\":\"%s\",\"type\":\"%s\",\"layout\":\"%s\",\"log2\":%d,"
                  "\"n\":%llu,\"segments\":%llu,\"seconds\":%.9g,\"check_seconds\":%.9g,\"wall_seconds\":%.9g,"
                  "\"ok\":%s%s}\n",
                  api, op.c_str(), type, layout, log2, static_cast<unsigned long long>(n),
                  static_cast<unsigned long long>(segments), median(s), median(check), median(wall), ok ? "true" : "false",
                  reproducible ? ",\"reproducible\":true" : "");
      std::fflush(stdout);
    }
  };
  const int upto = o.upto_log2 >= 0 ? std::min(o.upto_log2, o.max_log2) : o.max_log2;
  for (int log2 = o.min_log2; log2 <= upto; log2 += o.step) {
    const auto offsets = zr::bench::equal_offsets(n, std::uint64_t{1} << log2);
    measure("rows", "equal", log2, offsets);
    measure("offsets", "equal", log2, offsets);
  }
  if (upto == o.max_log2) measure("offsets", "power_law", -1, zr::bench::power_law_offsets(n));
}

}  // namespace

int main(int argc, char** argv) try {
  Options o = zr::bench::parse_options(argc, argv);
  if (o.max_log2 == 28 && o.min_log2 == 20) o.min_log2 = 0;  // the segment lengths start at one element
  const zr::device device = zr::bench::device_of(o);
  std::fprintf(stderr, "device: %s\n", device.description().c_str());
  zr::queue q(device, {zr::property::queue::enable_profiling{}});
  if (o.types & 1) bench<float>(q, "f32", o);
  if (o.types & 2) bench<double>(q, "f64", o);
  if (o.types & 4) bench<std::int32_t>(q, "i32", o);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "zr_segmented_bench: %s\n", e.what());
  return 1;
}
