// zr_reduce_bench: one run on one device of everything issue 8 compares (see bench/README.md).
//
//   zr_reduce_bench [--device-type cpu|gpu | --device INDEX] [--min-log2 10] [--max-log2 30] [--step 2]
//                   [--strategies-max-log2 K] [--sdk-max-log2 K] [--min-time S] [--max-iterations K]
//                   [--latency-max-log2 16] [--rounds 1]
//                   [--cpu-peers on|off] [--out FILE.json]
//
// For f32, f64 and i32 and sum (plus), min (minimum) and max (maximum), for n = 2^min .. 2^max:
//   ours            the default strategy, through the public API (zr::queue::reduce into device memory)
//   ours_det        the same with property::reduction::deterministic
//   strategy:<s>    every other strategy the device allows (property::reduction::use_strategy)
//   probe_api       bit_or over the same bytes as u32, through the public API (what ze_reduce --probe does)
//   probe_read      raw OpenCL on the same device: a trivial 16-byte vector-load kernel (cl_peer.cpp)
//   sdk_tree        raw OpenCL on the same device: the OpenCL SDK-style multi-pass tree
//   openmp, std_par_unseq  the host CPU (when the device is a CPU, or --cpu-peers on)
//   interleaved     with the host peers, n >= 2^24: ours, ours_det and openmp called in turn (acceptance ratios)
// Times: "device" = first kernel start to last kernel end (profiling events), "wall" = host clock around a
// blocking call. Each figure is the median over max(3, enough runs to fill --min-time) after a warm-up.
// Small-n latency: wall time of a blocking reduction into a host variable on a queue without profiling (as
// an application writes it) vs the floor: an empty kernel enqueue + blocking 4-byte read in raw OpenCL on the
// same device (a queue without profiling too), and a blocking 4-byte q.memcpy through the API. Throughput
// rows use a queue with profiling (their "device" times are its kernel timestamps).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <execution>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zereduce/zereduce.hpp>

#include "cl_peer.hpp"

namespace {

using json = nlohmann::json;
using clock_type = std::chrono::steady_clock;

struct Options {
  std::string device_type;
  long device_index = -1;
  int min_log2 = 10, max_log2 = 30, step = 2, strategies_max_log2 = 30, latency_max_log2 = 16, sdk_max_log2 = 30;
  double min_time = 0.05;
  int max_iterations = 50;
  int rounds = 1;
  int cpu_peers = -1;  // -1: on for CPU devices
  std::string out;
};

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Where a blocking call's wall time went, from its event's profile (host clock, issue 42's breakdown): before
// execution (argument checks, the plan's lookup), enqueuing, waiting for the device, the rest of the execution
// (results written, the initial value folded in), and outside: the wall time none of these hold (the call into
// the library, completing the event, returning from wait).
struct HostStages {
  std::vector<double> before, enqueue, wait, rest, outside;
  void add(double wall_s, const zr::profile& p) {
    before.push_back(p.host_before_ns * 1e-9);
    enqueue.push_back(p.host_enqueue_ns * 1e-9);
    wait.push_back(p.host_wait_ns * 1e-9);
    rest.push_back((p.host_ns - p.host_enqueue_ns - p.host_wait_ns) * 1e-9);
    outside.push_back(wall_s - (p.host_before_ns + p.host_ns) * 1e-9);
  }
  json medians() const {
    if (before.empty()) return json::object();
    return {{"before_s", median(before)}, {"enqueue_s", median(enqueue)}, {"wait_s", median(wait)},
            {"rest_s", median(rest)}, {"outside_s", median(outside)}};
  }
};

struct Sample {
  double device_s = 0, wall_s = 0;
};

// Runs f (returning a Sample) once to warm up, then until min_time has passed and at least 3 runs, at most
// max_iterations; the medians of each clock.
template <typename F>
Sample measure(const Options& o, F&& f) {
  f();
  std::vector<double> device, wall;
  const auto start = clock_type::now();
  while ((int)wall.size() < o.max_iterations && (wall.size() < 3 || seconds_since(start) < o.min_time)) {
    const Sample s = f();
    device.push_back(s.device_s);
    wall.push_back(s.wall_s);
  }
  return {median(device), median(wall)};
}

double device_span_s(const zr::profile& p) {
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& pass : p.passes) {
    if (pass.what != zr::pass_profile::kind::kernel) continue;
    first = std::min(first, pass.start_ns);
    last = std::max(last, pass.end_ns);
  }
  return last > first ? static_cast<double>(last - first) * 1e-9 : 0.0;
}

std::string read_first_line(const char* path, const char* key = nullptr) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!key || line.rfind(key, 0) == 0) return line;
  return {};
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

const char* type_name(float) { return "f32"; }
const char* type_name(double) { return "f64"; }
const char* type_name(std::int32_t) { return "i32"; }

template <typename T>
T value_at(std::uint64_t i) {
  const std::uint64_t h = (i * 2654435761ull) ^ (i >> 7);
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(h % 1000) / static_cast<T>(7) - static_cast<T>(50);
  else return static_cast<T>(h % 2001) - 1000;
}

// The host peers' reductions; OpenMP with `reduction(op: acc)` over a simd loop.
template <typename T>
T openmp_reduce(const T* d, std::uint64_t n, const std::string& op) {
  if (op == "sum") {
    T acc = 0;
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
    for (std::uint64_t i = 0; i < n; ++i) acc += d[i];
    return acc;
  }
  if (op == "min") {
    T acc = std::numeric_limits<T>::max();
#pragma omp parallel for simd reduction(min : acc) schedule(static)
    for (std::uint64_t i = 0; i < n; ++i) acc = d[i] < acc ? d[i] : acc;
    return acc;
  }
  T acc = std::numeric_limits<T>::lowest();
#pragma omp parallel for simd reduction(max : acc) schedule(static)
  for (std::uint64_t i = 0; i < n; ++i) acc = d[i] > acc ? d[i] : acc;
  return acc;
}

template <typename T>
T std_reduce(const T* d, std::uint64_t n, const std::string& op) {
  if (op == "sum") return std::reduce(std::execution::par_unseq, d, d + n, T{0});
  if (op == "min")
    return std::reduce(std::execution::par_unseq, d, d + n, std::numeric_limits<T>::max(),
                       [](T a, T b) { return b < a ? b : a; });
  return std::reduce(std::execution::par_unseq, d, d + n, std::numeric_limits<T>::lowest(),
                     [](T a, T b) { return a < b ? b : a; });
}

// Integer results and min/max must be exact. Floating sums: ours and the tree-shaped peers within a tight
// bound (|values| <= 100, trees of depth well under 64 x log2 n); the host peers (OpenMP, std::reduce) add
// long runs into one accumulator, so for them the worst-case bound of any order, (n - 1) eps sum|x|.
template <typename T>
bool close_enough(T got, double want, const std::string& op, std::uint64_t n, bool any_order = false) {
  if constexpr (std::is_integral_v<T>) {
    if (op == "sum") return static_cast<std::uint32_t>(got) == static_cast<std::uint32_t>(static_cast<std::int64_t>(want));
    return static_cast<double>(got) == want;
  } else {
    if (op != "sum") return static_cast<double>(got) == want;
    const double eps = std::numeric_limits<T>::epsilon();
    const double bound = any_order ? static_cast<double>(n) * eps * 100.0 * static_cast<double>(n)
                                   : 100.0 * static_cast<double>(n) * eps * 64;
    return std::abs(static_cast<double>(got) - want) <= bound;
  }
}

class Bench {
 public:
  // `profiled`: a queue with profiling (device times of the throughput rows); `plain`: one without, on the
  // same device (the latency rows, as an application's default queue runs them).
  Bench(const Options& o, zr::queue& profiled, zr::queue& plain, bench::ClPeer* peer, json& out)
      : o_(o), q_(profiled), plain_(plain), peer_(peer), out_(out) {}

  // Phase "latency": small-n blocking latency only; phase "throughput": everything else. Latency runs first,
  // before any host peer has started its thread pools (spinning OpenMP/TBB workers disturb a 2-core host).
  template <typename T>
  void run_type(bool latency_phase) {
    const char* tn = type_name(T{});
    const auto& caps = q_.get_device().capabilities();
    if constexpr (std::is_same_v<T, double>) {
      if (!caps.fp64) {
        std::printf("# %s skipped: no fp64\n", tn);
        return;
      }
    }
    // Sizes that fit: the input, once in our allocation and once in the raw-OpenCL peer's (and on the host).
    int max_log2 = latency_phase ? std::min(o_.max_log2, o_.latency_max_log2) : o_.max_log2;
    while (max_log2 > o_.min_log2 &&
           ((1ull << max_log2) * sizeof(T) > caps.max_allocation_bytes ||
            3 * (1ull << max_log2) * sizeof(T) > caps.global_memory_bytes))
      --max_log2;
    const std::uint64_t max_n = 1ull << max_log2;
    std::vector<T> host(max_n);
#pragma omp parallel for schedule(static)
    for (std::uint64_t i = 0; i < max_n; ++i) host[i] = value_at<T>(i);
    T* data = q_.malloc_device<T>(max_n);
    q_.copy(host.data(), data, max_n).wait();
    T* result = q_.malloc_device<T>(1);
    if (latency_phase) {
      for (const char* op : {"sum", "min", "max"})
        for (int log2 = o_.min_log2; log2 <= max_log2; log2 += o_.step) latency<T>(op, data, 1ull << log2, log2);
      q_.free(result);
      q_.free(data);
      return;
    }
    if (peer_ && !(std::is_same_v<T, double> && !peer_->fp64())) peer_->upload(host.data(), max_n * sizeof(T));

    for (const char* op : {"sum", "min", "max"}) {
      for (int log2 = o_.min_log2; log2 <= max_log2; log2 += o_.step) {
        const std::uint64_t n = 1ull << log2;
        double want = 0;
        if (std::string(op) == "sum") {
          if constexpr (std::is_integral_v<T>) {
            std::int64_t s = 0;
            for (std::uint64_t i = 0; i < n; ++i) s += host[i];
            want = static_cast<double>(s);
          } else {
            long double s = 0;
            for (std::uint64_t i = 0; i < n; ++i) s += host[i];
            want = static_cast<double>(s);
          }
        } else {
          want = static_cast<double>(std::string(op) == "min" ? *std::min_element(host.begin(), host.begin() + n)
                                                              : *std::max_element(host.begin(), host.begin() + n));
        }
        // Rounds: every implementation measured in turn, the whole set `rounds` times, so that a slow spell of a
        // shared host hits all of them alike (the report takes the median over rounds).
        for (int round = 0; round < o_.rounds; ++round) dispatch_op<T>(op, data, result, n, log2, want, host.data());
      }
    }
    q_.free(result);
    q_.free(data);
  }

  // Keeps the device busy for about half a second, so that its clocks have left their idle state before the
  // latency phase (an idle H100 reports 345 MHz; the first small reductions then took twice as long).
  void warm_up() {
    const std::uint64_t n = 1u << 24;
    float* data = q_.malloc_device<float>(n);
    float* result = q_.malloc_device<float>(1);
    std::vector<float> ones(n, 1.0f);
    q_.copy(ones.data(), data, n).wait();
    const auto start = clock_type::now();
    while (seconds_since(start) < 0.5)
      q_.reduce(data, n, zr::reduction(result, zr::plus<float>(),
                                       zr::property_list{zr::property::reduction::initialize_to_identity{}}))
          .wait();
    q_.free(result);
    q_.free(data);
  }

  void floors(const char* key) {
    const int k = 200;
    std::vector<double> api, cl_read, cl_finish;
    std::uint32_t value = 0;
    std::uint32_t* small = q_.malloc_device<std::uint32_t>(1);
    q_.memcpy(small, &value, 4).wait();
    for (int i = 0; i < k + 10; ++i) {
      const auto start = clock_type::now();
      q_.memcpy(&value, small, 4).wait();
      if (i >= 10) api.push_back(seconds_since(start));
    }
    q_.free(small);
    json row{{"kind", "floor"}, {"api_memcpy4_s", median(api)}};
    if (peer_) {
      for (int i = 0; i < k + 10; ++i) {
        const double a = peer_->empty_kernel_and_read();
        const double b = peer_->empty_kernel_and_finish();
        if (i >= 10) {
          cl_read.push_back(a);
          cl_finish.push_back(b);
        }
      }
      row["cl_empty_kernel_read4_s"] = median(cl_read);
      row["cl_empty_kernel_finish_s"] = median(cl_finish);
    }
    std::printf("floor: API 4-byte memcpy %.1f us", median(api) * 1e6);
    if (peer_)
      std::printf(" | raw OpenCL empty kernel + 4-byte read %.1f us, empty kernel + finish %.1f us", median(cl_read) * 1e6,
                  median(cl_finish) * 1e6);
    std::printf("\n");
    out_[key] = row;
  }

 private:
  void record(const char* impl, const char* type, const std::string& op, int log2, std::uint64_t bytes, const Sample& s,
              const std::string& strategy = {}, int ok = -1) {
    json row{{"impl", impl},         {"type", type},          {"op", op},
             {"log2", log2},         {"bytes", bytes},        {"device_s", s.device_s},
             {"wall_s", s.wall_s}};
    if (!strategy.empty()) row["strategy"] = strategy;
    if (ok >= 0) row["ok"] = ok == 1;
    out_["results"].push_back(row);
    std::printf("%-5s %-3s 2^%-2d %-22s dev %10.1f us %8.1f GB/s | wall %10.1f us %8.1f GB/s%s\n", type, op.c_str(),
                log2, (std::string(impl) + (strategy.empty() ? "" : "[" + strategy + "]")).c_str(), s.device_s * 1e6,
                s.device_s > 0 ? bytes / s.device_s * 1e-9 : 0.0, s.wall_s * 1e6, bytes / s.wall_s * 1e-9,
                ok == 0 ? "  WRONG RESULT" : "");
    std::fflush(stdout);
  }

  template <typename T>
  void dispatch_op(const std::string& op, T* data, T* result, std::uint64_t n, int log2, double want, const T* host) {
    if (op == "sum") run_op<T>(op, zr::plus<T>(), zr::op_kind::plus, data, result, n, log2, want, host);
    else if (op == "min") run_op<T>(op, zr::minimum<T>(), zr::op_kind::minimum, data, result, n, log2, want, host);
    else run_op<T>(op, zr::maximum<T>(), zr::op_kind::maximum, data, result, n, log2, want, host);
  }

  template <typename T, typename Op>
  void run_op(const std::string& op, Op fn, zr::op_kind kind, T* data, T* result, std::uint64_t n, int log2,
              double want, const T* host) {
    const char* tn = type_name(T{});
    const std::uint64_t bytes = n * sizeof(T);
    const auto& dev = q_.get_device();
    auto ours = [&](const zr::property_list& props, std::string* strategy_used) {
      zr::strategy used{};
      const Sample s = measure(o_, [&] {
        const auto start = clock_type::now();
        auto e = q_.reduce(data, n, zr::reduction(result, fn, props.with(zr::property::reduction::initialize_to_identity{})));
        e.wait();
        const double wall = seconds_since(start);
        const auto& p = e.get_profile();
        used = p.plans.front().strategy;
        return Sample{device_span_s(p), wall};
      });
      T got{};
      q_.copy(result, &got, 1).wait();
      if (strategy_used) *strategy_used = std::string(zr::to_string(used));
      return std::make_pair(s, close_enough(got, want, op, n) ? 1 : 0);
    };
    std::string default_strategy;
    {
      auto [s, ok] = ours({}, &default_strategy);
      record("ours", tn, op, log2, bytes, s, default_strategy, ok);
    }
    std::string det_strategy;
    {
      auto [s, ok] = ours(zr::property_list{zr::property::reduction::deterministic{}}, &det_strategy);
      record("ours_det", tn, op, log2, bytes, s, det_strategy, ok);
    }
    if (log2 <= o_.strategies_max_log2) {
      for (zr::strategy st : dev.strategies(zr::detail::element_type_of<T>(), kind, false)) {
        if (std::string(zr::to_string(st)) == default_strategy) continue;
        auto [s, ok] = ours(zr::property_list{zr::property::reduction::use_strategy{st}}, nullptr);
        record("strategy", tn, op, log2, bytes, s, std::string(zr::to_string(st)), ok);
      }
    }
    // The read probe through the API: bit_or over the same bytes as u32 (computed once per (type, n): it
    // does not depend on the op).
    if (op == "sum") {
      auto* words = reinterpret_cast<std::uint32_t*>(data);
      std::uint32_t* word_result = reinterpret_cast<std::uint32_t*>(result);
      const Sample s = measure(o_, [&] {
        const auto start = clock_type::now();
        auto e = q_.reduce(words, bytes / 4,
                           zr::reduction(word_result, zr::bit_or<std::uint32_t>(),
                                         zr::property_list{zr::property::reduction::initialize_to_identity{}}));
        e.wait();
        return Sample{device_span_s(e.get_profile()), seconds_since(start)};
      });
      record("probe_api", tn, op, log2, bytes, s, "bit_or u32");
      if (peer_ && bytes >= 64 && !(std::is_same_v<T, double> && !peer_->fp64())) {
        const Sample p = measure(o_, [&] {
          const auto t = peer_->read_probe(bytes);
          return Sample{t.device_s, t.wall_s};
        });
        record("probe_read", tn, op, log2, bytes, p);
      }
    } else {
      // Same bytes: reuse the sum rows' probes in the report.
    }
    if (peer_ && log2 <= o_.sdk_max_log2 && !(std::is_same_v<T, double> && !peer_->fp64())) {
      T got{};
      const Sample s = measure(o_, [&] {
        const auto t = peer_->sdk_tree(tn, op, n, &got);
        return Sample{t.device_s, t.wall_s};
      });
      record("sdk_tree", tn, op, log2, bytes, s, {}, close_enough(got, want, op, n) ? 1 : 0);
    }
    if (cpu_peers()) {
      T got{};
      const Sample s = measure(o_, [&] {
        const auto start = clock_type::now();
        got = openmp_reduce(host, n, op);
        const double w = seconds_since(start);
        return Sample{w, w};
      });
      record("openmp", tn, op, log2, bytes, s, {}, close_enough(got, want, op, n, true) ? 1 : 0);
      const Sample r = measure(o_, [&] {
        const auto start = clock_type::now();
        got = std_reduce(host, n, op);
        const double w = seconds_since(start);
        return Sample{w, w};
      });
      record("std_par_unseq", tn, op, log2, bytes, r, {}, close_enough(got, want, op, n, true) ? 1 : 0);
      if (log2 >= kInterleavedMinLog2) interleaved<T>(tn, op, fn, data, result, n, log2, host);
    }
  }

  // The acceptance ratios on a CPU device, where ours and OpenMP share the host's memory bus with whatever
  // else runs there (on the 2-core CI-like machine the read probe moved 28-103 GB/s between runs minutes
  // apart, and a row's ours/OpenMP 0.79-1.53): ours, ours deterministic and OpenMP called in turn, one call
  // each, and each ratio the median of the per-turn ratios. Measured after the implementations' own rows,
  // which keep their separate medians. The order is shuffled each turn: the call right after OpenMP's runs
  // slower while OpenMP's idle threads still spin (a rotating order put ours after OpenMP in 2 turns of 3,
  // and read det/default 1.00-1.20 for what is the same plan; run_pocl.sh also makes those threads sleep).
  template <typename T, typename Op>
  void interleaved(const char* tn, const std::string& op, Op fn, T* data, T* result, std::uint64_t n, int log2,
                   const T* host) {
    const zr::property_list plain{zr::property::reduction::initialize_to_identity{}};
    const zr::property_list det{zr::property::reduction::initialize_to_identity{},
                                zr::property::reduction::deterministic{}};
    volatile double sink = 0;
    const std::function<void()> calls[] = {
        [&] { q_.reduce(data, n, zr::reduction(result, fn, plain)).wait(); },
        [&] { q_.reduce(data, n, zr::reduction(result, fn, det)).wait(); },
        [&] { sink = static_cast<double>(openmp_reduce(host, n, op)); },
    };
    for (const auto& call : calls) call();  // warm-up
    std::vector<double> times[3];
    int order[] = {0, 1, 2};
    std::mt19937 shuffler(static_cast<unsigned>(log2));
    const auto start = clock_type::now();
    for (int turn = 0; turn < kInterleavedMaxTurns &&
                       (turn < kInterleavedMinTurns || seconds_since(start) < kInterleavedMinSeconds);
         ++turn) {
      std::shuffle(std::begin(order), std::end(order), shuffler);
      for (const int which : order) {
        const auto call_start = clock_type::now();
        calls[which]();
        times[which].push_back(seconds_since(call_start));
      }
    }
    (void)sink;
    std::vector<double> ours_over_openmp, det_over_default;
    for (std::size_t i = 0; i < times[0].size(); ++i) {
      ours_over_openmp.push_back(times[2][i] / times[0][i]);  // throughput ratio: the inverse of the times'
      det_over_default.push_back(times[0][i] / times[1][i]);
    }
    const std::uint64_t bytes = n * sizeof(T);
    out_["interleaved"].push_back({{"type", tn},
                                   {"op", op},
                                   {"log2", log2},
                                   {"bytes", bytes},
                                   {"turns", times[0].size()},
                                   {"ours_s", median(times[0])},
                                   {"ours_det_s", median(times[1])},
                                   {"openmp_s", median(times[2])},
                                   {"ours_over_openmp", median(ours_over_openmp)},
                                   {"det_over_default", median(det_over_default)}});
    std::printf("%-5s %-3s 2^%-2d interleaved %zu turns: ours %.1f GB/s, det %.1f, OpenMP %.1f; ours/OpenMP %.3f, "
                "det/default %.3f\n",
                tn, op.c_str(), log2, times[0].size(), bytes / median(times[0]) * 1e-9,
                bytes / median(times[1]) * 1e-9, bytes / median(times[2]) * 1e-9, median(ours_over_openmp),
                median(det_over_default));
    std::fflush(stdout);
  }

  template <typename T>
  void latency(const std::string& op, T* data, std::uint64_t n, int log2) {
    if (op == "sum") latency_op<T>(op, zr::plus<T>(), data, n, log2);
    else if (op == "min") latency_op<T>(op, zr::minimum<T>(), data, n, log2);
    else latency_op<T>(op, zr::maximum<T>(), data, n, log2);
  }

  template <typename T, typename Op>
  void latency_op(const std::string& op, Op fn, T* data, std::uint64_t n, int log2) {
    // As an application writes it: a blocking reduction into a host variable, on a queue without profiling
    // (the default). Timed in blocks of kLatencyBlock calls that alternate with blocks of the raw-OpenCL
    // floor, so that the ratio holds while the machine's speed drifts (on a shared 2-core host the floor
    // moved 27-50 us within one run); the first call of each block is left out: it pays for switching
    // between the two contexts (about 140 us on NVIDIA's OpenCL).
    const zr::property_list props{zr::property::reduction::initialize_to_identity{}};
    std::vector<double> wall, with_initial, floor_read, floor_enqueue, floor_finish;
    HostStages stages;
    for (int block = 0; block <= kLatencyRuns / (kLatencyBlock - 1); ++block) {
      for (int i = 0; i < kLatencyBlock; ++i) {
        T value{};
        const auto start = clock_type::now();
        const zr::event done = plain_.reduce(data, n, zr::reduction(&value, fn, props));
        done.wait();
        const double w = seconds_since(start);
        if (block > 0 && i > 0) {
          wall.push_back(w);
          stages.add(w, done.get_profile());
        }
      }
      // SYCL's default: the variable's value before joins the result.
      for (int i = 0; i < kLatencyBlock; ++i) {
        T value = T(1);
        const auto start = clock_type::now();
        plain_.reduce(data, n, zr::reduction(&value, fn)).wait();
        const double w = seconds_since(start);
        if (block > 0 && i > 0) with_initial.push_back(w);
      }
      if (!peer_) continue;
      for (int i = 0; i < kLatencyBlock; ++i) {
        double enqueue = 0;
        const double read = peer_->empty_kernel_and_read(&enqueue);
        if (block > 0 && i > 0) {
          floor_read.push_back(read);
          floor_enqueue.push_back(enqueue);
        }
      }
      for (int i = 0; i < kLatencyBlock; ++i) {
        const double finish = peer_->empty_kernel_and_finish();
        if (block > 0 && i > 0) floor_finish.push_back(finish);
      }
    }
    // Where the time goes, from the profile of the same call on the profiling queue: the worker (host_ns:
    // from taking the task to its completion), the kernels and the copies (device clock), and the wall
    // time with profiling on.
    std::vector<double> profiled_wall, worker, kernels, copies;
    for (int i = 0; i < kLatencyRuns / 4 + 10; ++i) {
      T value{};
      const auto start = clock_type::now();
      auto e = q_.reduce(data, n, zr::reduction(&value, fn, props));
      e.wait();
      const double w = seconds_since(start);
      if (i < 10) continue;
      const auto& p = e.get_profile();
      profiled_wall.push_back(w);
      worker.push_back(p.host_ns * 1e-9);
      kernels.push_back(p.kernel_ns * 1e-9);
      copies.push_back(p.copy_ns * 1e-9);
    }
    // The same into device memory (no result copy): what the API costs around the kernels.
    std::vector<double> device_result;
    T* result = plain_.malloc_device<T>(1);
    for (int i = 0; i < kLatencyRuns + 10; ++i) {
      const auto start = clock_type::now();
      plain_.reduce(data, n, zr::reduction(result, fn, props)).wait();
      if (i >= 10) device_result.push_back(seconds_since(start));
    }
    plain_.free(result);
    json row{{"kind", "latency"},
             {"type", type_name(T{})},
             {"op", op},
             {"log2", log2},
             {"wall_s", median(wall)},
             {"initial_value_wall_s", median(with_initial)},
             {"profiled_wall_s", median(profiled_wall)},
             {"host_s", median(worker)},
             {"kernel_s", median(kernels)},
             {"copy_s", median(copies)},
             {"device_result_wall_s", median(device_result)},
             {"host_stages", stages.medians()}};
    if (peer_) {
      row["cl_empty_kernel_read4_s"] = median(floor_read);
      row["cl_empty_kernel_enqueue_s"] = median(floor_enqueue);
      row["cl_empty_kernel_finish_s"] = median(floor_finish);
    }
    out_["latency"].push_back(row);
    std::printf("latency %-3s %-3s 2^%-2d blocking reduce into a host variable %6.1f us (floor %.1f us; with its initial "
                "value %6.1f us); into device memory %6.1f us; profiled %6.1f us (worker %.1f, kernels %.1f, copies %.1f)\n",
                type_name(T{}), op.c_str(), log2, median(wall) * 1e6, median(floor_read) * 1e6, median(with_initial) * 1e6,
                median(device_result) * 1e6, median(profiled_wall) * 1e6, median(worker) * 1e6,
                median(kernels) * 1e6, median(copies) * 1e6);
    std::printf("        host stages of the blocking calls (medians): before %.2f, enqueue %.2f, wait %.2f, rest %.2f, "
                "outside %.2f us; floor: enqueue %.2f, read %.2f us\n",
                median(stages.before) * 1e6, median(stages.enqueue) * 1e6, median(stages.wait) * 1e6,
                median(stages.rest) * 1e6, median(stages.outside) * 1e6,
                floor_enqueue.empty() ? 0.0 : median(floor_enqueue) * 1e6,
                floor_read.empty() ? 0.0 : (median(floor_read) - median(floor_enqueue)) * 1e6);
  }

  bool cpu_peers() const {
    return o_.cpu_peers == 1 || (o_.cpu_peers == -1 && q_.get_device().kind() == zr::device_kind::cpu);
  }

  static constexpr int kLatencyRuns = 200, kLatencyBlock = 10;
  // The acceptance sizes (n >= 2^24): at least 9 turns and half a second (2^28 f64 takes ~40 ms a call).
  static constexpr int kInterleavedMinLog2 = 24, kInterleavedMinTurns = 9, kInterleavedMaxTurns = 200;
  static constexpr double kInterleavedMinSeconds = 0.5;

  const Options& o_;
  zr::queue& q_;
  zr::queue& plain_;
  bench::ClPeer* peer_;
  json& out_;
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string command = argv[0];
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--device-type") o.device_type = value;
    else if (key == "--device") o.device_index = std::stol(value);
    else if (key == "--min-log2") o.min_log2 = std::stoi(value);
    else if (key == "--max-log2") o.max_log2 = std::stoi(value);
    else if (key == "--step") o.step = std::max(1, std::stoi(value));
    else if (key == "--strategies-max-log2") o.strategies_max_log2 = std::stoi(value);
    else if (key == "--latency-max-log2") o.latency_max_log2 = std::stoi(value);
    else if (key == "--sdk-max-log2") o.sdk_max_log2 = std::stoi(value);
    else if (key == "--rounds") o.rounds = std::max(1, std::stoi(value));
    else if (key == "--min-time") o.min_time = std::stod(value);
    else if (key == "--max-iterations") o.max_iterations = std::stoi(value);
    else if (key == "--cpu-peers") o.cpu_peers = value == "on" ? 1 : 0;
    else if (key == "--out") o.out = value;
    else {
      std::fprintf(stderr, "zr_reduce_bench: unknown option %s (see the comment at the top of bench/reduce_bench.cpp)\n",
                   key.c_str());
      return 2;
    }
  }
  try {
    std::optional<zr::device> device;
    if (o.device_index >= 0) {
      device = zr::get_device(static_cast<std::size_t>(o.device_index));
    } else if (o.device_type.empty()) {
      device = zr::default_device();
    } else {
      for (const auto& d : zr::get_devices())
        if ((o.device_type == "gpu") == (d.kind() == zr::device_kind::gpu) && d.executes_kernels()) {
          device = d;
          break;
        }
    }
    if (!device) {
      std::fprintf(stderr, "zr_reduce_bench: no device of type '%s' that executes kernels\n", o.device_type.c_str());
      return 3;
    }
    zr::queue q(*device, zr::property::queue::enable_profiling{});
    zr::queue plain(*device);
    std::unique_ptr<bench::ClPeer> peer;
    if (device->get_backend() == zr::backend::opencl) peer = bench::ClPeer::open(device->name());

    json out;
    const std::string load_before = read_first_line("/proc/loadavg");
    out["meta"] = {{"date", utc_now()},
                   {"command", command},
                   {"device", device->description()},
                   {"device_name", device->name()},
                   {"device_kind", std::string(zr::to_string(device->kind()))},
                   {"driver_version", device->driver_version()},
                   {"compute_units", device->capabilities().compute_units},
                   {"zereduce_version", ZR_BENCH_VERSION},
                   {"raw_opencl_peer", peer ? peer->version() : std::string("none")},
                   {"host_cpu", read_first_line("/proc/cpuinfo", "model name")},
                   {"host_threads", omp_get_max_threads()},
                   {"std_par_unseq_backend", ZR_BENCH_PSTL_BACKEND},
                   {"loadavg_start", load_before},
                   {"min_time_s", o.min_time},
                   {"max_iterations", o.max_iterations},
                   {"rounds", o.rounds},
                   {"latency_runs", 200}};
    out["results"] = json::array();
    out["latency"] = json::array();
    std::printf("device: %s\nraw OpenCL peer: %s\n", device->description().c_str(),
                peer ? peer->version().c_str() : "none");
    Bench bench(o, q, plain, peer.get(), out);
    bench.warm_up();
    bench.floors("floor_start");
    if (o.latency_max_log2 >= o.min_log2) {
      bench.run_type<float>(true);
      bench.run_type<double>(true);
      bench.run_type<std::int32_t>(true);
    }
    bench.run_type<float>(false);
    bench.run_type<double>(false);
    bench.run_type<std::int32_t>(false);
    bench.floors("floor_end");  // again at the end: the floor should not have moved
    out["meta"]["loadavg_end"] = read_first_line("/proc/loadavg");
    if (!o.out.empty()) {
      std::ofstream file(o.out);
      file << out.dump(1) << "\n";
      std::printf("wrote %s\n", o.out.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zr_reduce_bench: %s\n", e.what());
    return 1;
  }
}
