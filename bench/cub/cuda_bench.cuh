#pragma once
// What the CUDA peers share: failing loudly on a CUDA error, the host clock, the median, the device time of a
// launch sequence, and the values of their inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e = (call);                                                               \
    if (e != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));              \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

inline double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Device seconds of f() (CUDA events around it), median of max(3, min_time worth, at most 200) runs after one
// warm-up.
template <typename F>
double timed(F&& f, cudaEvent_t start, cudaEvent_t stop, double min_time) {
  f();
  CHECK(cudaDeviceSynchronize());
  std::vector<double> s;
  const double begin = wall_now();
  while (s.size() < 200 && (s.size() < 3 || wall_now() - begin < min_time)) {
    CHECK(cudaEventRecord(start));
    f();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    s.push_back(ms * 1e-3);
  }
  return median(s);
}

inline const char* type_name(float) { return "f32"; }
inline const char* type_name(double) { return "f64"; }
inline const char* type_name(int) { return "i32"; }

// Element i of every input: small values of both signs, the same on every run.
template <typename T>
T value_at(size_t i) {
  const unsigned long long h = (i * 2654435761ull) ^ (i >> 7);
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(h % 1000) / static_cast<T>(7) - static_cast<T>(50);
  else return static_cast<T>(h % 2001) - 1000;
}
