// zr_blocking_latency: the C++ API's blocking latency for one float32 sum of a host array, the baseline that
// bench/python_bench.py holds zereduce's calling overhead against (issue 23: Python <= 2x C++ at n = 2^10).
// It makes the same call the Python package makes: queue::reduce over a std::span of host memory into a host
// variable, then wait().
//
//   zr_blocking_latency [--device INDEX] [--log2 10] [--runs 2000] [--memory host|device]   (one JSON line on stdout)
//
// The time is the median over `runs` calls after a warm-up, on the steady clock; beside it, a plain C++ loop's.
// `--memory device` reduces an allocation of the device into another (no copies around the kernels): the host
// path alone, as bench/count_host_path.sh counts its instructions (the calls run in timed_reductions).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "zereduce/zereduce.hpp"

// One blocking float32 sum into *result: of the host span `input`, or (device_input) of the device allocation
// `device_input` into the device allocation `result`.
using SumOnce = void (*)(zr::queue&, std::span<const float>, const float*, float*);

void sum_host(zr::queue& q, std::span<const float> input, const float*, float* result) {
  q.reduce(input, zr::reduction(result, zr::plus<>(), zr::property::reduction::initialize_to_identity{})).wait();
}

void sum_device(zr::queue& q, std::span<const float> input, const float* device_input, float* result) {
  q.reduce(device_input, input.size(),
           zr::reduction(result, zr::plus<>(), zr::property::reduction::initialize_to_identity{}))
      .wait();
}

// The timed calls, in a function of their own that a profiler can name (bench/count_host_path.sh).
__attribute__((noinline)) std::vector<double> timed_reductions(SumOnce sum_once, zr::queue& q, std::span<const float> input,
                                                               const float* device_input, float* result, int runs) {
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(runs));
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    sum_once(q, input, device_input, result);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return seconds;
}

int main(int argc, char** argv) {
  long device = -1;
  int log2 = 10;
  int runs = 2000;
  bool device_memory = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device")) device = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--log2")) log2 = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--memory") && (!std::strcmp(argv[i + 1], "host") || !std::strcmp(argv[i + 1], "device")))
      device_memory = !std::strcmp(argv[i + 1], "device");
    else {
      std::fprintf(stderr, "usage: zr_blocking_latency [--device INDEX] [--log2 10] [--runs 2000] [--memory host|device]\n");
      return 2;
    }
  }
  try {
    zr::queue q = device < 0 ? zr::queue() : zr::queue(zr::get_device(static_cast<std::size_t>(device)));
    std::vector<float> values(std::size_t{1} << log2);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000) / 1000.0f;
    const std::span<const float> input(values);
    float* device_input = nullptr;
    float* result = nullptr;
    float host_result = 0;
    if (device_memory) {
      device_input = q.malloc_device<float>(values.size());
      result = q.malloc_device<float>(1);
      q.copy(values.data(), device_input, values.size()).wait();
    }
    const SumOnce sum_once = device_memory ? sum_device : sum_host;
    float* target = device_memory ? result : &host_result;
    sum_once(q, input, device_input, target);  // warm-up: plans and program builds
    float first = host_result;
    if (device_memory) q.copy(result, &first, 1).wait();
    std::vector<double> seconds = timed_reductions(sum_once, q, input, device_input, target, runs);
    if (device_memory) {
      q.free(device_input);
      q.free(result);
    }
    std::sort(seconds.begin(), seconds.end());
    // The plain C++ loop over the same data (one accumulator in order: what a C++ programmer writes first), for
    // the table of issue 42: the library against no library at all.
    std::vector<double> loop_seconds;
    volatile float sink = 0;
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      float sum = 0;
      for (float v : values) sum += v;
      sink = sum;
      loop_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    (void)sink;
    std::sort(loop_seconds.begin(), loop_seconds.end());
    std::printf("{\"device\": \"%s\", \"log2\": %d, \"runs\": %d, \"memory\": \"%s\", \"median_s\": %.9g, "
                "\"plain_loop_s\": %.9g, \"sum\": %.9g}\n",
                q.get_device().name().c_str(), log2, runs, device_memory ? "device" : "host", seconds[seconds.size() / 2],
                loop_seconds[loop_seconds.size() / 2], first);
  } catch (const zr::Error& error) {
    std::fprintf(stderr, "zr_blocking_latency: %s\n", error.what());
    return 1;
  }
  return 0;
}
