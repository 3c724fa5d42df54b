// Sum throughput on one OpenCL device, side by side with an OpenMP reduction(+) over the same data on the
// host, in the same run. Usage: zr_sum_bench [--device-type cpu|gpu] [--max-log2 N] [--iterations K]
// Prints one line per (type, n): our strategy, median time, GB/s, and the ratio to OpenMP.
// Our time is the device time of the reduction (first pass start to last pass end, from profiling events);
// "wall" is enqueue-to-completion on the host, as an application sees it.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "identity.hpp"
#include "opencl/context.hpp"
#include "opencl/executor.hpp"
#include "opencl/selection.hpp"
#include "plan.hpp"

namespace {
using namespace zr;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T>
T openmp_sum(const T* data, std::uint64_t n) {
  T acc = 0;
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
  for (std::uint64_t i = 0; i < n; ++i) acc += data[i];
  return acc;
}

template <typename T>
void bench_type(opencl::Context& context, core::DataType type, int max_log2, int iterations) {
  opencl::Executor executor(context);
  const std::uint64_t max_n = 1ull << max_log2;
  std::vector<T> host(max_n);
  std::mt19937 rng(42);
  for (auto& x : host) x = static_cast<T>(rng() % 1000) / static_cast<T>(7);
  const auto input = context.create_buffer(max_n * sizeof(T));
  context.write(input.get(), std::as_bytes(std::span(host)));
  const auto result = context.create_buffer(8);
  const bool cpu = context.capabilities().type == core::DeviceType::cpu;

  for (int log2 = 20; log2 <= max_log2; log2 += 2) {
    const std::uint64_t n = 1ull << log2;
    core::ReductionRequest request;
    request.op = core::Op::plus;
    request.type = type;
    request.n = n;
    request.identity = core::known_identity(core::Op::plus, type);
    request.include_initial = false;
    const auto choice = core::choose_strategy(context.capabilities(), request);
    const auto plan = core::make_plan(context.capabilities(), request, choice);

    std::vector<double> device_s, wall_s, omp_s;
    for (int i = 0; i < iterations + 3; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const auto profile = executor.run(plan, input.get(), result.get());
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (i >= 3) {
        device_s.push_back(profile.total_ns() * 1e-9);
        wall_s.push_back(wall);
      }
    }
    volatile T sink = 0;
    if (cpu) {
      for (int i = 0; i < iterations + 3; ++i) {
        const auto start = std::chrono::steady_clock::now();
        sink = openmp_sum(host.data(), n);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (i >= 3) omp_s.push_back(t);
      }
    }
    (void)sink;
    const double bytes = static_cast<double>(n * sizeof(T));
    const double ours = median(device_s), wall = median(wall_s);
    std::printf("%-4s n=2^%-2d %-14s device %9.1f us %8.1f GB/s | wall %9.1f us %8.1f GB/s",
                std::string(core::name(type)).c_str(), log2, std::string(core::name(choice.strategy)).c_str(),
                ours * 1e6, bytes / ours * 1e-9, wall * 1e6, bytes / wall * 1e-9);
    if (cpu) {
      const double omp = median(omp_s);
      std::printf(" | OpenMP(%d threads) %9.1f us %8.1f GB/s | ours/OpenMP (wall) %.2fx", omp_get_max_threads(),
                  omp * 1e6, bytes / omp * 1e-9, omp / wall);
    }
    std::printf("\n");
  }
}
}  // namespace

int main(int argc, char** argv) {
  std::string device_type;
  int max_log2 = 26, iterations = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device-type")) device_type = argv[i + 1];
    else if (!std::strcmp(argv[i], "--max-log2")) max_log2 = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--iterations")) iterations = std::atoi(argv[i + 1]);
  }
  std::optional<opencl::Device> device;
  if (device_type.empty()) {
    device = opencl::default_device();
  } else {
    for (const auto& d : opencl::devices_by_preference(opencl::list_devices()))
      if ((device_type == "gpu") == (d.type == core::DeviceType::gpu) && opencl::probe_execution(d)) {
        device = d;
        break;
      }
  }
  if (!device) {
    std::fprintf(stderr, "zr_sum_bench: no OpenCL device that executes kernels\n");
    return 3;
  }
  opencl::Context context(*device);
  std::printf("device: %s\n", device->description().c_str());
  bench_type<float>(context, core::DataType::f32, max_log2, iterations);
  bench_type<std::int32_t>(context, core::DataType::i32, max_log2, iterations);
}
