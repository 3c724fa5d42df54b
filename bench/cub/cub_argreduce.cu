// The NVIDIA peer for the arg-reduction benchmark, in CUDA on the same GPU: CUB DeviceReduce ArgMax and ArgMin on
// f32 and i32 (first index of the extremum), next to CUB DeviceReduce Max on the same inputs (the plain reduction
// baseline). Device seconds are the median of CUDA-event-timed runs after a warm-up; temp storage is allocated once
// per size outside the timed region. After timing, the CUB result is copied back and checked against a host scan of
// the same data ("ok"). With CCCL >= 2.8 the two-output ArgMin/ArgMax overload (int64_t index) is used
// ("index_bits":64); older CUB gets cub::KeyValuePair<int, T> ("index_bits":32).
// Prints one JSON object per line: {"peer","op","type","log2","n","seconds","gbps","ok","index_bits"}.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cub_argreduce cub_argreduce.cu
// Usage: cub_argreduce [min_log2=20] [max_log2=28] [step=2] [min_time_s=0.1]
#include <cub/cub.cuh>

#include "cuda_bench.cuh"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>


#if CUB_VERSION >= 200800
#define ZR_ARG_INDEX_BITS 64
#else
#define ZR_ARG_INDEX_BITS 32
#endif

namespace {

int g_min_log2 = 20, g_max_log2 = 28, g_step = 2;
double g_min_time = 0.1;


const char* type_name(float) { return "f32"; }
const char* type_name(int) { return "i32"; }

// Deterministic pseudo-random values (splitmix64 of the index), spread so that ties at the extremum are rare:
// i32 takes all 32 bits; f32 takes a random sign, a 23-bit mantissa and one of 64 exponents (finite, no NaN).
template <typename T>
T value_at(uint64_t i) {
  uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  const uint32_t h = uint32_t(z ^ (z >> 31));
  if constexpr (std::is_floating_point_v<T>) {
    const uint32_t bits = (h & 0x80000000u) | ((((h >> 23) & 0x3fu) + 96u) << 23) | (h & 0x7fffffu);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  } else {
    int v;
    std::memcpy(&v, &h, sizeof v);
    return v;
  }
}

enum Op { kArgMax = 0, kArgMin = 1, kMax = 2 };
const char* kOps[] = {"argmax", "argmin", "max"};

#if ZR_ARG_INDEX_BITS == 64
// Device outputs: the extremum (value) and ext, the 64-bit index (two-output overload) or a
// cub::KeyValuePair<int, T> (key = index, older CUB) for the arg ops.
using Index = int64_t;
template <typename T>
using Ext = Index;
#else
using Index = int;
template <typename T>
using Ext = cub::KeyValuePair<int, T>;
#endif
template <typename T>
struct Out {
  T* value;
  Ext<T>* ext;
};

template <typename T>
cudaError_t cub_op(int op, void* temp, size_t& temp_bytes, const T* in, Out<T> out, size_t n) {
#if ZR_ARG_INDEX_BITS == 64
  if (op == kArgMax) return cub::DeviceReduce::ArgMax(temp, temp_bytes, in, out.value, out.ext, int64_t(n));
  if (op == kArgMin) return cub::DeviceReduce::ArgMin(temp, temp_bytes, in, out.value, out.ext, int64_t(n));
#else
  if (op == kArgMax) return cub::DeviceReduce::ArgMax(temp, temp_bytes, in, out.ext, int(n));
  if (op == kArgMin) return cub::DeviceReduce::ArgMin(temp, temp_bytes, in, out.ext, int(n));
#endif
  return cub::DeviceReduce::Max(temp, temp_bytes, in, out.value, n);
}

// The arg result (extremum, index) back on the host.
template <typename T>
void read_back(Out<T> out, T& value, Index& index) {
#if ZR_ARG_INDEX_BITS == 64
  CHECK(cudaMemcpy(&value, out.value, sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&index, out.ext, sizeof(Index), cudaMemcpyDeviceToHost));
#else
  Ext<T> kv;
  CHECK(cudaMemcpy(&kv, out.ext, sizeof kv, cudaMemcpyDeviceToHost));
  value = kv.value;
  index = kv.key;
#endif
}

template <typename T>
void bench(cudaEvent_t start, cudaEvent_t stop) {
  const size_t max_n = size_t(1) << g_max_log2;
  std::vector<T> host(max_n);
  for (size_t i = 0; i < max_n; ++i) host[i] = value_at<T>(i);
  T* in = nullptr;
  CHECK(cudaMalloc(&in, max_n * sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), max_n * sizeof(T), cudaMemcpyHostToDevice));
  Out<T> out{};
  CHECK(cudaMalloc(&out.value, sizeof(T)));
  CHECK(cudaMalloc(&out.ext, sizeof(Ext<T>)));
  for (int log2 = g_min_log2; log2 <= g_max_log2; log2 += g_step) {
    const size_t n = size_t(1) << log2;
    const size_t bytes = n * sizeof(T);
    // Host reference: first index of the maximum and of the minimum.
    size_t imax = 0, imin = 0;
    for (size_t i = 1; i < n; ++i) {
      if (host[i] > host[imax]) imax = i;
      if (host[i] < host[imin]) imin = i;
    }
    size_t temp_bytes = 0;
    for (int op = 0; op < 3; ++op) {
      size_t b = 0;
      CHECK(cub_op<T>(op, nullptr, b, in, out, n));
      temp_bytes = std::max(temp_bytes, b);
    }
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, std::max<size_t>(temp_bytes, 1)));
    for (int op = 0; op < 3; ++op) {
      size_t tb = temp_bytes;
      const double s = timed([&] { CHECK(cub_op<T>(op, temp, tb, in, out, n)); }, start, stop, g_min_time);
      CHECK(cudaDeviceSynchronize());
      T value{};
      Index index = -1;
      bool ok;
      if (op == kMax) {
        CHECK(cudaMemcpy(&value, out.value, sizeof(T), cudaMemcpyDeviceToHost));
        ok = value == host[imax];
      } else {
        read_back(out, value, index);
        const size_t want = op == kArgMax ? imax : imin;
        ok = index == Index(want) && value == host[want];
      }
      std::printf("{\"peer\":\"cub\",\"op\":\"%s\",\"type\":\"%s\",\"log2\":%d,\"n\":%zu,\"seconds\":%.9g,\"gbps\":%.6g,"
                  "\"ok\":%s,\"index_bits\":%d}\n",
                  kOps[op], type_name(T{}), log2, n, s, double(bytes) / s / 1e9, ok ? "true" : "false",
                  ZR_ARG_INDEX_BITS);
      std::fflush(stdout);
    }
    CHECK(cudaFree(temp));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out.value));
  CHECK(cudaFree(out.ext));
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
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // Context on stderr, so that stdout holds only the result lines.
  std::fprintf(stderr, "cub_argreduce: gpu %s, CUB_VERSION %d, index_bits %d\n", prop.name, CUB_VERSION,
               ZR_ARG_INDEX_BITS);
  bench<float>(start, stop);
  bench<int>(start, stop);
}
