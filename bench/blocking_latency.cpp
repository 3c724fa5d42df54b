// zr_blocking_latency: the C++ API's blocking latency for one float32 sum of a host array, the baseline that
// bench/python_bench.py holds zereduce's calling overhead against (issue 23: Python <= 2x C++ at n = 2^10).
// It makes the same call the Python package makes: queue::reduce over a std::span of host memory into a host
// variable, then wait().
//
//   zr_blocking_latency [--device INDEX] [--log2 10] [--runs 2000]   (one JSON line on stdout)
//
// The time is the median over `runs` calls after a warm-up, on the steady clock; beside it, a plain C++ loop's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "zereduce/zereduce.hpp"

int main(int argc, char** argv) {
  long device = -1;
  int log2 = 10;
  int runs = 2000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device")) device = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--log2")) log2 = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: zr_blocking_latency [--device INDEX] [--log2 10] [--runs 2000]\n");
      return 2;
    }
  }
  try {
    zr::queue q = device < 0 ? zr::queue() : zr::queue(zr::get_device(static_cast<std::size_t>(device)));
    std::vector<float> values(std::size_t{1} << log2);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000) / 1000.0f;
    const std::span<const float> input(values);
    auto sum_once = [&] {
      float sum = 0;
      q.reduce(input, zr::reduction(&sum, zr::plus<>(), zr::property::reduction::initialize_to_identity{})).wait();
      return sum;
    };
    const float first = sum_once();  // warm-up: plans and program builds
    std::vector<double> seconds;
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      (void)sum_once();
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
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
    std::printf("{\"device\": \"%s\", \"log2\": %d, \"runs\": %d, \"median_s\": %.9g, \"plain_loop_s\": %.9g, "
                "\"sum\": %.9g}\n",
                q.get_device().name().c_str(), log2, runs, seconds[seconds.size() / 2],
                loop_seconds[loop_seconds.size() / 2], first);
  } catch (const zr::Error& error) {
    std::fprintf(stderr, "zr_blocking_latency: %s\n", error.what());
    return 1;
  }
  return 0;
}
