// zr_transform_bench: our transform-reductions (queue::transform_reduce) and user-defined operators linked at
// run time (tools/operators) against our plain sum of the same data, side by side in one run on one device:
// what a norm, a count, a widening sum or a user operator costs over the plain read (issue 21's targets: L2
// norm, L1 norm and count_nonzero of f32, and a user operator computing the plain f32 sum, at >= 0.97x the
// built-in f32 sum).
//
//   zr_transform_bench [--device INDEX] [--min-log2 20] [--max-log2 28] [--step 2] [--runs 21] [--cold-l2 0|1]
//                      [--plans 0|1]
//
// --plans 1: each op's plan (strategy, passes, launch shapes) on standard error, once per size.
//
// --cold-l2 1: before every timed run, an untimed sum of a 256 MiB buffer evicts what the previous run left in
// the GPU's L2 (nvbench's default), so that every op reads its input from memory: near the L2's size (2^24
// f32 is 64 MiB, the H100's L2 50 MiB) what a back-to-back run finds there depends on its read order.
//
// Prints one JSON object per line, as zr_arg_bench (device_timing.hpp): ops "sum", "norm_l2", "norm_l1",
// "sum_squares", "count_nonzero", "sum_f64", "mean_var_f32", "mean_var_f64", "user_sum" (tools/operators/
// f32_sum.cl), "user_bounds" (bounds.cl: min and max with first indices, and a count; 32 bytes) on f32 data; "sum", "sum_i64", "count_nonzero" on i32 data.
// seconds: the median device span of --runs runs, the ops called in turn (each run starting one op later) on
// device-resident input, results in device memory. ok: the result agrees with a host loop (counts and integer sums exactly; floating results
// within 1e-4 relative, far above their rounding here, far below any wrong answer).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "device_timing.hpp"
#include "sample_operators.hpp"

namespace {

using zr::bench::device_span_s;
using zr::bench::median;
using zr::bench::Options;
using bounds = zr_operators::bounds_acc;

// One value in eight is zero (so counts are neither 0 nor n); f32 in [-1, 1), i32 over a range whose sums
// overflow 32 bits.
template <typename T>
std::vector<T> values(std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    if (r % 8 == 0) x = 0;
    else if constexpr (std::is_same_v<T, float>) x = static_cast<float>(static_cast<double>(r >> 11) * 0x1p-52 - 1.0);
    else x = static_cast<T>(static_cast<std::int32_t>(r >> 32));
  }
  return v;
}

bool close(double actual, double expected) { return std::fabs(actual - expected) <= 1e-4 * std::fabs(expected); }

struct Measured {
  const char* op;
  std::function<zr::event()> submit;
  std::function<bool()> check;  // after a run: the result agrees with the host
  std::vector<double> seconds;
};

void measure(std::vector<Measured>& ops, const char* type, int log2, std::uint64_t n, std::size_t bytes, int runs,
             const std::function<void()>& before_each, bool print_plans) {
  for (auto& m : ops) {
    const zr::event warm_up = m.submit();  // module builds, plans
    device_span_s(warm_up);
    if (!print_plans) continue;
    for (const auto& plan : warm_up.get_profile().plans)
      std::fprintf(stderr, "%s %s 2^%d: %s\n%s\n", m.op, type, log2, plan.reason.c_str(), plan.description.c_str());
  }
  // Each run starts with the next op (rotated), so that no op always follows the same one: an op right after
  // another read of the same input can find part of it still in the GPU's L2.
  for (int run = 0; run < runs; ++run)
    for (std::size_t k = 0; k < ops.size(); ++k) {
      auto& m = ops[(k + static_cast<std::size_t>(run)) % ops.size()];
      before_each();
      m.seconds.push_back(device_span_s(m.submit()));
    }
  for (auto& m : ops) {
    m.submit().wait();  // the ops share result variables: each is checked right after its own run
    zr::bench::print_row(m.op, type, log2, n, bytes, median(m.seconds), m.check());
  }
}

// What runs untimed before every timed run: nothing, or with --cold-l2 1 a sum of a 256 MiB buffer.
std::function<void()> l2_eviction(zr::queue& q, const Options& o) {
  if (!o.cold_l2) return [] {};
  constexpr std::uint64_t n = std::uint64_t{1} << 26;
  auto buffer = std::make_shared<zr::usm_ptr<float>>(zr::make_device_array<float>(q, n));
  const std::vector<float> ones(n, 1.0f);
  q.copy(ones.data(), buffer->get(), n).wait();
  auto sum = std::make_shared<zr::usm_ptr<float>>(zr::make_device_array<float>(q, 1));
  return [&q, buffer, sum] {
    q.reduce(buffer->get(), n, zr::reduction(sum->get(), zr::plus<float>(),
                                             {zr::property::reduction::initialize_to_identity{}})).wait();
  };
}

void f32_rows(zr::queue& q, const Options& o, bool fp64) {
  const zr::property_list from_identity{zr::property::reduction::initialize_to_identity{}};
  for (int log2 = o.min_log2; log2 <= o.max_log2; log2 += o.step) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    const std::vector<float> host = values<float>(n, static_cast<std::uint64_t>(log2));
    double sum = 0, squares = 0, absolutes = 0;
    std::uint64_t nonzero = 0;
    for (float x : host) {
      sum += x;
      squares += static_cast<double>(x) * x;
      absolutes += std::fabs(x);
      nonzero += x != 0;
    }
    auto input = zr::make_device_array<float>(q, n);
    q.copy(host.data(), input.get(), n).wait();
    auto f = zr::make_shared_array<float>(q, 1);
    auto d = zr::make_shared_array<double>(q, 1);
    auto count = zr::make_shared_array<std::uint64_t>(q, 1);
    std::vector<Measured> ops;
    ops.push_back({"sum", [&] { return q.reduce(input.get(), n, zr::reduction(f.get(), zr::plus<float>(), from_identity)); },
                   [&] { return std::fabs(f[0] - sum) <= 1e-5 * absolutes; }, {}});
    ops.push_back({"norm_l2", [&] { return q.transform_reduce(input.get(), n, zr::norm_l2{}, f.get()); },
                   [&] { return close(f[0], std::sqrt(squares)); }, {}});
    ops.push_back({"norm_l1", [&] { return q.transform_reduce(input.get(), n, zr::norm_l1{}, f.get()); },
                   [&] { return close(f[0], absolutes); }, {}});
    ops.push_back({"sum_squares", [&] { return q.transform_reduce(input.get(), n, zr::sum_of_squares{}, f.get()); },
                   [&] { return close(f[0], squares); }, {}});
    ops.push_back({"count_nonzero", [&] { return q.transform_reduce(input.get(), n, zr::count_nonzero{}, count.get()); },
                   [&] { return count[0] == nonzero; }, {}});
    if (fp64)
      ops.push_back({"sum_f64", [&] { return q.transform_reduce(input.get(), n, zr::sum_as<double>{}, d.get()); },
                     [&] { return std::fabs(d[0] - sum) <= 1e-9 * absolutes; }, {}});
    const double mean = sum / static_cast<double>(n), variance = squares / static_cast<double>(n) - mean * mean;
    auto moments_f = zr::make_shared_array<zr::moments<float>>(q, 1);
    auto moments_d = zr::make_shared_array<zr::moments<double>>(q, 1);
    ops.push_back({"mean_var_f32", [&] { return q.transform_reduce(input.get(), n, zr::mean_variance<float>{}, moments_f.get()); },
                   [&] { return moments_f[0].count == n && close(moments_f[0].variance(), variance); }, {}});
    if (fp64)
      ops.push_back({"mean_var_f64", [&] { return q.transform_reduce(input.get(), n, zr::mean_variance<double>{}, moments_d.get()); },
                     [&] { return moments_d[0].count == n && close(moments_d[0].variance(), variance); }, {}});
    const zr::user_operator<float, float> user_sum(zr_operators::f32_sum);
    ops.push_back({"user_sum", [&] { return q.reduce(input.get(), n, user_sum, f.get(), from_identity); },
                   [&] { return std::fabs(f[0] - sum) <= 1e-5 * absolutes; }, {}});
    const zr::user_operator<float, bounds> user_bounds(zr_operators::bounds);
    auto b = zr::make_shared_array<bounds>(q, 1);
    // The first occurrences, as the operator keeps them (std::minmax_element would give the last largest).
    const auto lo = std::min_element(host.begin(), host.end());
    const auto hi = std::max_element(host.begin(), host.end());
    ops.push_back({"user_bounds", [&] { return q.reduce(input.get(), n, user_bounds, b.get(), from_identity); },
                   [&] {
                     return b[0].lo == *lo && b[0].hi == *hi && b[0].count == n &&
                            b[0].lo_index == static_cast<std::uint64_t>(lo - host.begin()) &&
                            b[0].hi_index == static_cast<std::uint64_t>(hi - host.begin());
                   },
                   {}});
    measure(ops, "f32", log2, n, sizeof(float), o.runs, l2_eviction(q, o), o.plans != 0);
  }
}

void i32_rows(zr::queue& q, const Options& o) {
  const zr::property_list from_identity{zr::property::reduction::initialize_to_identity{}};
  for (int log2 = o.min_log2; log2 <= o.max_log2; log2 += o.step) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    const std::vector<std::int32_t> host = values<std::int32_t>(n, static_cast<std::uint64_t>(log2) + 100);
    std::int64_t wide = 0;
    std::uint64_t nonzero = 0;
    for (std::int32_t x : host) {
      wide += x;
      nonzero += x != 0;
    }
    auto input = zr::make_device_array<std::int32_t>(q, n);
    q.copy(host.data(), input.get(), n).wait();
    auto narrow = zr::make_shared_array<std::int32_t>(q, 1);
    auto sum64 = zr::make_shared_array<std::int64_t>(q, 1);
    auto count = zr::make_shared_array<std::uint64_t>(q, 1);
    std::vector<Measured> ops;
    ops.push_back({"sum", [&] { return q.reduce(input.get(), n, zr::reduction(narrow.get(), zr::plus<std::int32_t>(), from_identity)); },
                   [&] { return narrow[0] == static_cast<std::int32_t>(static_cast<std::uint32_t>(wide)); }, {}});
    ops.push_back({"sum_i64", [&] { return q.transform_reduce(input.get(), n, zr::sum_as<std::int64_t>{}, sum64.get()); },
                   [&] { return sum64[0] == wide; }, {}});
    ops.push_back({"count_nonzero", [&] { return q.transform_reduce(input.get(), n, zr::count_nonzero{}, count.get()); },
                   [&] { return count[0] == nonzero; }, {}});
    measure(ops, "i32", log2, n, sizeof(std::int32_t), o.runs, l2_eviction(q, o), o.plans != 0);
  }
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = zr::bench::parse_options(argc, argv);
  const zr::device device = zr::bench::device_of(o);
  std::fprintf(stderr, "device: %s\n", device.description().c_str());
  zr::queue q(device, {zr::property::queue::enable_profiling{}});
  f32_rows(q, o, !device.strategies(zr::element_type::f32, zr::op_kind::sum_f64).empty());
  i32_rows(q, o);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "zr_transform_bench: %s\n", e.what());
  return 1;
}
