// The peer: CUB DeviceReduce::Sum on f32 and i32, timed with CUDA events (median of K runs after warm-up),
// for n = 2^20 .. 2^max. Build: nvcc -O3 -arch=sm_90 -o cub_sum cub_sum.cu
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e = (call);                                                               \
    if (e != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));              \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

template <typename T>
void bench(const char* name, int max_log2, int iterations) {
  const size_t max_n = size_t(1) << max_log2;
  std::vector<T> host(max_n);
  for (size_t i = 0; i < max_n; ++i) host[i] = static_cast<T>((i * 2654435761u) % 1000) / static_cast<T>(7);
  T *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, max_n * sizeof(T)));
  CHECK(cudaMalloc(&out, sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), max_n * sizeof(T), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int log2 = 20; log2 <= max_log2; log2 += 2) {
    const size_t n = size_t(1) << log2;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, temp_bytes));
    std::vector<float> ms;
    for (int i = 0; i < iterations + 3; ++i) {
      CHECK(cudaEventRecord(start));
      CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n));
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (i >= 3) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const double s = ms[ms.size() / 2] * 1e-3;
    std::printf("CUB %-4s n=2^%-2d %9.1f us %8.1f GB/s\n", name, log2, s * 1e6, n * sizeof(T) / s * 1e-9);
    CHECK(cudaFree(temp));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

int main(int argc, char** argv) {
  const int max_log2 = argc > 1 ? std::atoi(argv[1]) : 28;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 30;
  bench<float>("f32", max_log2, iterations);
  bench<int>("i32", max_log2, iterations);
}
