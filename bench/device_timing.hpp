#pragma once
// What the side-by-side benches (zr_arg_bench, zr_transform_bench) share: their options, the median, a
// reduction's device span and the JSON line of one measurement.
#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <zereduce/zereduce.hpp>

namespace zr::bench {

struct Options {
  long device = -1;
  int min_log2 = 20, max_log2 = 28, step = 2, runs = 21;
  int cold_l2 = 0;  // --cold-l2 1: the benches that take it evict the GPU's L2 before every timed run
  int plans = 0;    // --plans 1: the benches that take it print each op's plan to standard error
  int sorted = 0;   // --sorted 1: zr_arg_bench sorts its values ascending (a new best in every stretch of the
                    // input: the CPU arg kernel's worst case)
  int upto_log2 = -1;  // --upto-log2 K: zr_segmented_bench's segments of at most 2^K elements (default: the total)
  int types = 7;       // --types MASK: zr_segmented_bench's types, 1 f32 + 2 f64 + 4 i32
};

// [--device INDEX] [--min-log2 20] [--max-log2 28] [--step 2] [--runs 21]
inline Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const long value = std::stol(argv[i + 1]);
    if (flag == "--device") o.device = value;
    else if (flag == "--min-log2") o.min_log2 = static_cast<int>(value);
    else if (flag == "--max-log2") o.max_log2 = static_cast<int>(value);
    else if (flag == "--step") o.step = static_cast<int>(value);
    else if (flag == "--runs") o.runs = static_cast<int>(value);
    else if (flag == "--cold-l2") o.cold_l2 = static_cast<int>(value);
    else if (flag == "--plans") o.plans = static_cast<int>(value);
    else if (flag == "--sorted") o.sorted = static_cast<int>(value);
    else if (flag == "--upto-log2") o.upto_log2 = static_cast<int>(value);
    else if (flag == "--types") o.types = static_cast<int>(value);
    else throw std::runtime_error("unknown option " + flag);
  }
  return o;
}

inline zr::device device_of(const Options& o) {
  return o.device >= 0 ? zr::get_device(static_cast<std::size_t>(o.device)) : zr::default_device();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The first kernel's start to the last one's end, as CUDA events around a CUB launch measure it; passes labelled
// `leave_out` are not counted (a segmented reduction's check of device offsets, which CUB does not make).
inline double device_span_s(const zr::event& e, std::string_view leave_out = {}) {
  e.wait();
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& pass : e.get_profile().passes) {
    if (pass.what != zr::pass_profile::kind::kernel || (!leave_out.empty() && pass.label == leave_out)) continue;
    first = std::min(first, pass.start_ns);
    last = std::max(last, pass.end_ns);
  }
  return last > first ? static_cast<double>(last - first) * 1e-9 : 0.0;
}

// {"peer":"ours","op","type","log2","n","seconds","gbps","ok"}; gbps counts the input's bytes.
inline void print_row(const char* op, const char* type, int log2, std::uint64_t n, std::size_t bytes, double s, bool ok) {
  std::printf("{\"peer\":\"ours\",\"op\":\"%s\",\"type\":\"%s\",\"log2\":%d,\"n\":%" PRIu64
              ",\"seconds\":%.9g,\"gbps\":%.6g,\"ok\":%s}\n",
              op, type, log2, n, s, static_cast<double>(n) * static_cast<double>(bytes) / s / 1e9, ok ? "true" : "false");
  std::fflush(stdout);
}

}  // namespace zr::bench
