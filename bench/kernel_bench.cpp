// zr_kernel_bench: kernels with reducers (docs/kernels.md) against the two-step way and against the same kernel
// without reducers, side by side in one run on one device (issue 43's speed targets):
//   fused        axpy_sum_squares: ||a x + y||^2 in the kernel that computes a x + y (reads x and y: 8 bytes)
//   two-step     axpy_store (a x + y stored: 12 bytes), then queue::transform_reduce(sum_squares) of it (4 bytes)
//   fused+store  axpy_store_sum_squares: the vector stored and its norm reduced in one kernel (12 bytes)
//   plain store  the same store as a plain OpenCL kernel of the same driver, no reducers (ClPeer::axpy_store)
// Ratios: two-step / fused (limit 16/8 = 2), two-step / fused+store (limit 16/12), plain store / fused+store
// (the cost of the reducers: 1 at best). Times are device spans (kernel timestamps), median of --runs runs,
// called in turn; every sum is checked against a host sum in double.
//
//   zr_kernel_bench [--device INDEX] [--max-log2 28] [--runs 11]
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "axpy.hpp"
#include "cl_peer.hpp"
#include "device_timing.hpp"

namespace {

using zr::bench::device_span_s;
using zr::bench::median;

const zr::kernel kFused(zr_kernels::axpy, "axpy_sum_squares");
const zr::kernel kFusedStore(zr_kernels::axpy, "axpy_store_sum_squares");
const zr::kernel kStore(zr_kernels::axpy, "axpy_store");

}  // namespace

int main(int argc, char** argv) {
  try {
    zr::bench::Options o = zr::bench::parse_options(argc, argv);
    if (argc < 3) o.runs = 11;
    const int log2 = o.max_log2;
    const std::uint64_t n = std::uint64_t{1} << log2;
    const float a = 1.5f;
    zr::queue q(zr::bench::device_of(o), zr::property_list{zr::property::queue::enable_profiling{}});
    auto peer = bench::ClPeer::open(q.get_device().name());
    if (!peer) throw std::runtime_error("no OpenCL device named '" + q.get_device().name() + "' for the plain kernel");

    std::vector<float> xy(2 * n);
    std::mt19937 rng(43);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& v : xy) v = dist(rng);
    double want = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(a) * xy[i] + xy[n + i];
      want += v * v;
    }
    auto x = zr::make_device_array<float>(q, n), y = zr::make_device_array<float>(q, n), out = zr::make_device_array<float>(q, n);
    q.copy(xy.data(), x.get(), n).wait();
    q.copy(xy.data() + n, y.get(), n).wait();
    peer->upload(xy.data(), 2 * n * sizeof(float));
    const float* px = x.get();
    const float* py = y.get();
    const zr::property_list from_identity{zr::property::reduction::initialize_to_identity{}};

    std::vector<double> fused, store, reduce, fused_store, plain;
    float fused_sum = 0, two_step_sum = 0, fused_store_sum = 0;
    std::uint32_t unused = 0;
    for (int run = 0; run < o.runs + 1; ++run) {  // the first run of each builds and is not counted
      const double f = device_span_s(q.parallel_for(zr::range{n}, kFused, px, py, a, zr::reduction(&fused_sum, zr::plus<>(), from_identity)));
      const double s = device_span_s(q.parallel_for(zr::range{n}, kStore, px, py, out.get(), a, zr::reduction(&unused, zr::plus<>(), from_identity)));
      const double r = device_span_s(q.transform_reduce(static_cast<const float*>(out.get()), n, zr::sum_of_squares{}, &two_step_sum, from_identity));
      const double fs = device_span_s(q.parallel_for(zr::range{n}, kFusedStore, px, py, out.get(), a,
                                                     zr::reduction(&fused_store_sum, zr::plus<>(), from_identity)));
      const double p = peer->axpy_store(n, a).device_s;
      if (run == 0) continue;
      fused.push_back(f), store.push_back(s), reduce.push_back(r), fused_store.push_back(fs), plain.push_back(p);
    }
    auto close = [&](float got) { return std::abs(got - want) <= 1e-4 * want; };
    const double t_fused = median(fused), t_store = median(store), t_reduce = median(reduce),
                 t_fused_store = median(fused_store), t_plain = median(plain);
    const double two_step = t_store + t_reduce;
    const double gb = static_cast<double>(n) / 1e9;  // per byte of each element
    std::printf("# Kernels with reducers, %s, n = 2^%d f32, median of %d runs (device spans)\n\n",
                q.get_device().name().c_str(), log2, o.runs);
    std::printf("| measurement | bytes/element | time (us) | GB/s | sum agrees (1e-4 of a double sum) |\n|---|---|---|---|---|\n");
    std::printf("| fused: axpy_sum_squares | 8 | %.1f | %.0f | %s |\n", t_fused * 1e6, 8 * gb / t_fused, close(fused_sum) ? "yes" : "NO");
    std::printf("| two-step: axpy_store | 12 | %.1f | %.0f | - |\n", t_store * 1e6, 12 * gb / t_store);
    std::printf("| two-step: transform_reduce(sum_squares) | 4 | %.1f | %.0f | %s |\n", t_reduce * 1e6, 4 * gb / t_reduce,
                close(two_step_sum) ? "yes" : "NO");
    std::printf("| fused+store: axpy_store_sum_squares | 12 | %.1f | %.0f | %s |\n", t_fused_store * 1e6, 12 * gb / t_fused_store,
                close(fused_store_sum) ? "yes" : "NO");
    std::printf("| plain OpenCL store, no reducers | 12 | %.1f | %.0f | - |\n\n", t_plain * 1e6, 12 * gb / t_plain);
    std::printf("| ratio | measured | target | limit |\n|---|---|---|---|\n");
    std::printf("| two-step / fused | %.3f | 1.8 | 2 |\n", two_step / t_fused);
    std::printf("| two-step / fused+store | %.3f | 1.28 | 1.333 |\n", two_step / t_fused_store);
    std::printf("| plain store / fused+store (reducers' cost) | %.3f | 0.95 | 1 |\n", t_plain / t_fused_store);
    std::printf("| plain store / axpy_store (an unused reducer's cost) | %.3f | - | 1 |\n", t_plain / t_store);
    std::printf("\nsums: fused %.9g, two-step %.9g, fused+store %.9g, host (double) %.9g\n", fused_sum, two_step_sum,
                fused_store_sum, want);
    return close(fused_sum) && close(two_step_sum) && close(fused_store_sum) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zr_kernel_bench: %s\n", e.what());
    return 2;
  }
}
