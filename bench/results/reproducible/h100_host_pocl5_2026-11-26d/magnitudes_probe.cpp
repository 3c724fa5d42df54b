#include <zereduce/zereduce.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
// Reproducible f32 sum of uniform(-1,1) * 2^k: device time (median of 15), for magnitudes inside and outside
// the tops whose constants rchunks keeps unscaled.
int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 24;
  const std::size_t n = std::size_t{1} << log2n;
  zr::queue q(zr::default_device(), {zr::property::queue::enable_profiling{}});
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> base(n);
  for (auto& v : base) v = u(rng);
  auto d = zr::make_device_array<float>(q, n);
  auto out = zr::make_device_array<float>(q, 1);
  for (int k : {0, 100, 110, 120, -100, -110}) {
    std::vector<float> data(n);
    for (std::size_t i = 0; i < n; ++i) data[i] = std::ldexp(base[i], k);
    q.copy(data.data(), d.get(), n).wait();
    std::vector<double> t;
    for (int r = 0; r < 41; ++r) {
      auto e = q.reduce(d.get(), n, zr::reduction(out.get(), zr::plus<float>(), {zr::property::reduction::reproducible{}, zr::property::reduction::initialize_to_identity{}}));
      e.wait();
      t.push_back(e.get_profile().kernel_ns * 1e-3);
    }
    std::sort(t.begin(), t.end());
    std::printf("2^%d x 2^%4d: %8.1f us  %6.1f GB/s\n", log2n, k, t[0], n * 4.0 / t[0] / 1e3);
  }
}
