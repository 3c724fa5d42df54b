// The NVIDIA peers, in CUDA on the same GPU: CUB DeviceReduce Sum/Min/Max on f32, f64 and i32, a CUDA
// read-bandwidth kernel (16-byte loads, grid-stride, best of a few block and grid sizes), and the CUDA latency floor
// (empty kernel + 4-byte cudaMemcpy to the host) with CUB's own end-to-end small-n latency.
// Prints one JSON object per line (bench/report.py reads them next to zr_reduce_bench's JSON).
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cub_reduce cub_reduce.cu
// Usage: cub_reduce [min_log2=10] [max_log2=30] [step=2] [min_time_s=0.05]
#include <cub/cub.cuh>

#include "cuda_bench.cuh"

#include "read_probe.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>


namespace {

int g_min_log2 = 10, g_max_log2 = 30, g_step = 2;
double g_min_time = 0.05;


__global__ void empty_kernel() {}

template <typename T>
cudaError_t cub_op(int op, void* temp, size_t& temp_bytes, const T* in, T* out, size_t n) {
  if (op == 0) return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n);
  if (op == 1) return cub::DeviceReduce::Min(temp, temp_bytes, in, out, n);
  return cub::DeviceReduce::Max(temp, temp_bytes, in, out, n);
}

const char* kOps[] = {"sum", "min", "max"};

template <typename T>
void bench(cudaEvent_t start, cudaEvent_t stop, unsigned* flag) {
  const size_t max_n = size_t(1) << g_max_log2;
  std::vector<T> host(max_n);
  for (size_t i = 0; i < max_n; ++i) host[i] = value_at<T>(i);
  T *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, max_n * sizeof(T)));
  CHECK(cudaMalloc(&out, sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), max_n * sizeof(T), cudaMemcpyHostToDevice));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int log2 = g_min_log2; log2 <= g_max_log2; log2 += g_step) {
    const size_t n = size_t(1) << log2;
    const size_t bytes = n * sizeof(T);
    for (int op = 0; op < 3; ++op) {
      size_t temp_bytes = 0;
      CHECK(cub_op<T>(op, nullptr, temp_bytes, in, out, n));
      void* temp = nullptr;
      CHECK(cudaMalloc(&temp, temp_bytes));
      const double s = timed([&] { CHECK(cub_op<T>(op, temp, temp_bytes, in, out, n)); }, start, stop, g_min_time);
      std::printf("{\"impl\":\"cub\",\"type\":\"%s\",\"op\":\"%s\",\"log2\":%d,\"bytes\":%zu,\"device_s\":%.9g}\n",
                  type_name(T{}), kOps[op], log2, bytes, s);
      if (log2 <= 16) {
        // End-to-end: CUB's reduction plus the 4-byte copy of the result to the host, host clock.
        T value{};
        std::vector<double> w;
        for (int i = 0; i < 210; ++i) {
          const double t0 = wall_now();
          CHECK(cub_op<T>(op, temp, temp_bytes, in, out, n));
          CHECK(cudaMemcpy(&value, out, sizeof(T), cudaMemcpyDeviceToHost));
          if (i >= 10) w.push_back(wall_now() - t0);
        }
        std::printf("{\"kind\":\"latency\",\"impl\":\"cub\",\"type\":\"%s\",\"op\":\"%s\",\"log2\":%d,\"wall_s\":%.9g}\n",
                    type_name(T{}), kOps[op], log2, median(w));
      }
      CHECK(cudaFree(temp));
    }
    if (bytes >= 16) {
      // The read probe: the best of a few grid sizes (256 threads per block).
      double best = 1e30;
      int best_blocks = 0, best_threads = 0;
      for (int threads : {256, 1024})
        for (int per_sm : {4, 8, 16, 32, 64}) {
          const size_t n4 = bytes / 16;
          const int blocks = int(std::max<size_t>(1, std::min<size_t>(size_t(sms) * per_sm, (n4 + 4 * threads - 1) / (4 * threads))));
          const double s = timed([&] { read_kernel<<<blocks, threads>>>(reinterpret_cast<const int4*>(in), n4, flag); }, start, stop, g_min_time);
          if (s < best) {
            best = s;
            best_blocks = blocks;
            best_threads = threads;
          }
        }
      std::printf("{\"impl\":\"cuda_read\",\"type\":\"%s\",\"op\":\"sum\",\"log2\":%d,\"bytes\":%zu,\"device_s\":%.9g,\"blocks\":%d,\"threads\":%d}\n",
                  type_name(T{}), log2, bytes, best, best_blocks, best_threads);
    }
    std::fflush(stdout);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_min_log2 = std::atoi(argv[1]);
  if (argc > 2) g_max_log2 = std::atoi(argv[2]);
  if (argc > 3) g_step = std::max(1, std::atoi(argv[3]));
  if (argc > 4) g_min_time = std::atof(argv[4]);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  unsigned* flag = nullptr;
  CHECK(cudaMalloc(&flag, 64));
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"kind\":\"meta\",\"impl\":\"cub\",\"gpu\":\"%s\",\"cuda_driver\":%d,\"cuda_runtime\":%d,\"cub\":%d}\n", prop.name,
              driver, runtime, CUB_VERSION);
  // The floor: an empty kernel + a 4-byte copy to the host, host clock; and an empty kernel + synchronize.
  std::vector<double> read4, sync;
  unsigned value = 0;
  for (int i = 0; i < 210; ++i) {
    double t0 = wall_now();
    empty_kernel<<<1, 1>>>();
    CHECK(cudaMemcpy(&value, flag, 4, cudaMemcpyDeviceToHost));
    const double a = wall_now() - t0;
    t0 = wall_now();
    empty_kernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    const double b = wall_now() - t0;
    if (i >= 10) {
      read4.push_back(a);
      sync.push_back(b);
    }
  }
  std::printf("{\"kind\":\"floor\",\"impl\":\"cuda\",\"empty_kernel_read4_s\":%.9g,\"empty_kernel_sync_s\":%.9g}\n",
              median(read4), median(sync));
  bench<float>(start, stop, flag);
  bench<double>(start, stop, flag);
  bench<int>(start, stop, flag);
}
