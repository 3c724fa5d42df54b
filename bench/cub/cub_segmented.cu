// The NVIDIA peer of the segmented benchmark, in CUDA on the same GPU: CUB DeviceSegmentedReduce Sum and Max on
// f32, f64 and i32 and ArgMax on f32, over equal segments of 2^k elements (k = 0 .. log2 of the total) and over
// power-law sizes (bench/segment_sizes.hpp, the same segments zr_segmented_bench reduces), all with the total
// fixed; and the read probe (read_probe.cuh) over the same input, the bandwidth limit of the ratios.
// Device seconds are the median of CUDA-event-timed runs after a warm-up, temp storage allocated outside them.
// Every result is checked against a host fold of its segment ("ok": max and i32 sums exactly, floating sums
// within 1e-3 relative of a double sum, argmax's value and first index).
// Prints one JSON object per line: {"peer","op","type","layout","log2","n","segments","seconds","ok"}, and
// {"peer":"read_probe","type","n","seconds","gbps"}.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -I bench -o cub_segmented bench/cub/cub_segmented.cu
// Usage: cub_segmented [total_log2=28] [step=2] [min_time_s=0.1] [types=f32,f64,i32]
#include <cub/cub.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_bench.cuh"
#include "read_probe.cuh"
#include "segment_sizes.hpp"

namespace {

int g_total_log2 = 28, g_step = 2;
double g_min_time = 0.1;

template <typename T>
bool sums_ok(const std::vector<T>& host, const std::vector<std::uint32_t>& offsets, const std::vector<T>& got) {
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    double exact = 0, magnitude = 0;
    T wrapped{};
    for (std::uint32_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      exact += static_cast<double>(host[i]);
      magnitude += std::fabs(static_cast<double>(host[i]));
      wrapped = static_cast<T>(wrapped + host[i]);
    }
    if constexpr (std::is_integral_v<T>) {
      if (got[s] != wrapped) return false;
    } else if (std::fabs(static_cast<double>(got[s]) - exact) > 1e-3 * magnitude + 1e-6) {
      return false;
    }
  }
  return true;
}

template <typename T>
bool maxima_ok(const std::vector<T>& host, const std::vector<std::uint32_t>& offsets, const std::vector<T>& got) {
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    T best = std::numeric_limits<T>::lowest();
    for (std::uint32_t i = offsets[s]; i < offsets[s + 1]; ++i) best = std::max(best, host[i]);
    if (got[s] != best) return false;
  }
  return true;
}

void print(const char* op, const char* type, const char* layout, int log2, size_t n, size_t segments, double s, bool ok) {
  std::printf("{\"peer\":\"cub\",\"op\":\"%s\",\"type\":\"%s\",\"layout\":\"%s\",\"log2\":%d,\"n\":%zu,\"segments\":%zu,"
              "\"seconds\":%.9g,\"ok\":%s}\n",
              op, type, layout, log2, n, segments, s, ok ? "true" : "false");
  std::fflush(stdout);
}

template <typename T>
void bench(cudaEvent_t start, cudaEvent_t stop) {
  const size_t n = size_t(1) << g_total_log2;
  std::vector<T> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = value_at<T>(i);
  T *in = nullptr, *out = nullptr;
  std::uint32_t* offsets_device = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(T)));
  CHECK(cudaMalloc(&out, n * sizeof(cub::KeyValuePair<int, T>)));
  CHECK(cudaMalloc(&offsets_device, (n + 1) * sizeof(std::uint32_t)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));

  unsigned* flag = nullptr;
  CHECK(cudaMalloc(&flag, sizeof(unsigned)));
  double probe = 1e30;
  for (int threads : {256, 1024})
    for (int per_sm : {4, 8, 16, 32}) {
      int sms = 0;
      CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
      const int blocks = sms * per_sm * 256 / threads;
      const size_t n4 = n * sizeof(T) / 16;
      probe = std::min(probe, timed([&] { read_kernel<<<blocks, threads>>>(reinterpret_cast<const int4*>(in), n4, flag); },
                                    start, stop, g_min_time));
    }
  std::printf("{\"peer\":\"read_probe\",\"type\":\"%s\",\"n\":%zu,\"seconds\":%.9g,\"gbps\":%.6g}\n", type_name(T{}), n,
              probe, static_cast<double>(n * sizeof(T)) / probe / 1e9);

  auto run = [&](const char* layout, int log2, const std::vector<std::uint32_t>& offsets) {
    const int segments = static_cast<int>(offsets.size() - 1);
    CHECK(cudaMemcpy(offsets_device, offsets.data(), offsets.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    const std::uint32_t* begins = offsets_device;
    const std::uint32_t* ends = offsets_device + 1;
    for (int op = 0; op < 3; ++op) {
      if (op == 2 && !std::is_same_v<T, float>) continue;
      auto call = [&](void* temp, size_t& bytes) {
        if (op == 0) return cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, segments, begins, ends);
        if (op == 1) return cub::DeviceSegmentedReduce::Max(temp, bytes, in, out, segments, begins, ends);
        return cub::DeviceSegmentedReduce::ArgMax(temp, bytes, in, reinterpret_cast<cub::KeyValuePair<int, T>*>(out),
                                                  segments, begins, ends);
      };
      size_t temp_bytes = 0;
      CHECK(call(nullptr, temp_bytes));
      void* temp = nullptr;
      CHECK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
      const double s = timed([&] { CHECK(call(temp, temp_bytes)); }, start, stop, g_min_time);
      bool ok = true;
      if (op < 2) {
        std::vector<T> got(segments);
        CHECK(cudaMemcpy(got.data(), out, segments * sizeof(T), cudaMemcpyDeviceToHost));
        ok = op == 0 ? sums_ok(host, offsets, got) : maxima_ok(host, offsets, got);
      } else {
        std::vector<cub::KeyValuePair<int, T>> got(segments);
        CHECK(cudaMemcpy(got.data(), out, segments * sizeof(got[0]), cudaMemcpyDeviceToHost));
        for (int k = 0; k < segments && ok; ++k) {
          std::uint32_t best = offsets[k];
          for (std::uint32_t i = offsets[k]; i < offsets[k + 1]; ++i)
            if (host[best] < host[i]) best = i;
          ok = offsets[k] == offsets[k + 1] || (got[k].value == host[best] && offsets[k] + got[k].key == best);
        }
      }
      CHECK(cudaFree(temp));
      const char* names[] = {"sum", "max", "argmax"};
      print(names[op], type_name(T{}), layout, log2, n, segments, s, ok);
    }
  };
  for (int log2 = 0; log2 <= g_total_log2; log2 += g_step) run("equal", log2, zr::bench::equal_offsets(n, size_t(1) << log2));
  run("power_law", -1, zr::bench::power_law_offsets(n));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(offsets_device));
  CHECK(cudaFree(flag));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_total_log2 = std::atoi(argv[1]);
  if (argc > 2) g_step = std::atoi(argv[2]);
  if (argc > 3) g_min_time = std::atof(argv[3]);
  const std::string types = argc > 4 ? argv[4] : "f32,f64,i32";
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  if (types.find("f32") != std::string::npos) bench<float>(start, stop);
  if (types.find("f64") != std::string::npos) bench<double>(start, stop);
  if (types.find("i32") != std::string::npos) bench<int>(start, stop);
  return 0;
}
