// Applications' kernels with reducers (zereduce/kernel.hpp, reducer_cl.h): the seed pages' examples of
// tools/kernels/seed_examples.cl launched with queue::parallel_for on the default device, against host loops
// written here: sums and maxima of the same values in one kernel, a histogram with a span reducer, pi with no
// input array, a fused residual norm with and without storing the vector; ranges and nd_ranges, initial values,
// host and device variables, empty ranges; and the errors a wrong call gets.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "api_test_support.hpp"
#include "seed_examples.hpp"
#include "seed_examples_reference.hpp"

namespace zr::test {
namespace {

const kernel kSumAndMax(zr_kernels::seed_examples, "sum_and_max");
const kernel kHistogram(zr_kernels::seed_examples, "histogram");
const kernel kPi(zr_kernels::seed_examples, "pi_midpoint");
const kernel kAxpyNorm(zr_kernels::seed_examples, "axpy_norm");
const kernel kAxpyStoreNorm(zr_kernels::seed_examples, "axpy_store_norm");
const kernel kExtentAndSum(zr_kernels::seed_examples, "extent_and_sum");

using zr_kernels::reference::extent;
using zr_kernels::reference::kNoExtent;
using zr_kernels::reference::widen;

extent host_extent(const std::vector<float>& x, extent e) {
  for (std::size_t i = 0; i < x.size(); ++i) e = widen(e, extent{x[i], x[i], i, i});
  return e;
}
void expect_same_extent(const extent& got, const extent& want, const std::string& where) {
  EXPECT_EQ(got.lo, want.lo) << where;
  EXPECT_EQ(got.hi, want.hi) << where;
  EXPECT_EQ(got.lo_index, want.lo_index) << where;
  EXPECT_EQ(got.hi_index, want.hi_index) << where;
}

std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> x(n);
  for (auto& v : x) v = dist(rng);
  return x;
}

template <typename T>
usm_ptr<T> on_device(queue& q, const std::vector<T>& values) {
  auto p = make_device_array<T>(q, std::max<std::size_t>(values.size(), 1));
  if (!values.empty()) q.copy(values.data(), p.get(), values.size()).wait();
  return p;
}

// |sum - reference| within n ulps of the sum of magnitudes: any order of float additions stays inside it.
void expect_close_sum(double got, double want, double magnitudes, std::size_t n, const std::string& where) {
  const double bound = (static_cast<double>(n) + 1) * std::numeric_limits<float>::epsilon() * magnitudes;
  EXPECT_LE(std::abs(got - want), bound) << where << ": got " << got << ", want " << want;
}

TEST(KernelReducers, SumAndMaximumOfTheSameValuesInOneKernel) {
  ZR_REQUIRE_QUEUE(q);
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{(1 << 20) + 7}}) {
    const auto x = random_floats(n, 7 + static_cast<std::uint32_t>(n));
    auto dx = on_device(q, x);
    float sum = 0, peak = 0;
    q.parallel_for(range{n}, kSumAndMax, static_cast<const float*>(dx.get()),
                   reduction(&sum, plus<>(), property::reduction::initialize_to_identity{}),
                   reduction(&peak, maximum<>(), property::reduction::initialize_to_identity{}))
        .wait();
    double want = 0, magnitudes = 0;
    for (float v : x) want += v, magnitudes += std::abs(v);
    expect_close_sum(sum, want, magnitudes, n, "n = " + std::to_string(n));
    EXPECT_EQ(peak, *std::max_element(x.begin(), x.end())) << "n = " << n;
  }
}

TEST(KernelReducers, InitialValuesAreFoldedInUnlessInitializeToIdentity) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> x{1.0f, 2.0f, 3.0f, -4.0f};
  auto dx = on_device(q, x);
  float sum = 10.0f, peak = 100.0f;
  q.parallel_for(range{x.size()}, kSumAndMax, static_cast<const float*>(dx.get()), reduction(&sum, plus<>()),
                 reduction(&peak, maximum<>()))
      .wait();
  EXPECT_EQ(sum, 12.0f);
  EXPECT_EQ(peak, 100.0f);
  // Variables in device memory too.
  auto vars = make_device_array<float>(q, 2);
  const float initial[2] = {0.5f, -100.0f};
  q.copy(initial, vars.get(), 2).wait();
  q.parallel_for(range{x.size()}, kSumAndMax, static_cast<const float*>(dx.get()), reduction(vars.get(), plus<>()),
                 reduction(vars.get() + 1, maximum<>()))
      .wait();
  float out[2] = {};
  q.copy(vars.get(), out, 2).wait();
  EXPECT_EQ(out[0], 2.5f);
  EXPECT_EQ(out[1], 3.0f);
}

TEST(KernelReducers, AnEmptyRangeLeavesTheVariableOrGivesTheIdentity) {
  ZR_REQUIRE_QUEUE(q);
  auto dx = on_device(q, std::vector<float>{});
  float sum = 3.0f, peak = 7.0f;
  q.parallel_for(range{0}, kSumAndMax, static_cast<const float*>(dx.get()), reduction(&sum, plus<>()),
                 reduction(&peak, maximum<>(), property::reduction::initialize_to_identity{}))
      .wait();
  EXPECT_EQ(sum, 3.0f);
  EXPECT_EQ(peak, -std::numeric_limits<float>::infinity());
}

TEST(KernelReducers, HistogramWithASpanReducer) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint32_t bins = 37;
  for (std::size_t n : {std::size_t{5}, std::size_t{100000}}) {
    std::mt19937 rng(11);
    std::vector<std::uint32_t> values(n);
    for (auto& v : values) v = rng();
    auto dv = on_device(q, values);
    std::vector<std::uint32_t> counts(bins, 2), want(bins, 2);
    for (auto v : values) ++want[v % bins];
    q.parallel_for(range{n}, kHistogram, static_cast<const std::uint32_t*>(dv.get()), bins,
                   reduction(std::span<std::uint32_t>(counts), plus<>()))
        .wait();
    EXPECT_EQ(counts, want) << "n = " << n << ", counts starting at 2";
    std::fill(want.begin(), want.end(), 0u);
    for (auto v : values) ++want[v % bins];
    q.parallel_for(range{n}, kHistogram, static_cast<const std::uint32_t*>(dv.get()), bins,
                   reduction(std::span<std::uint32_t>(counts), plus<>(), property::reduction::initialize_to_identity{}))
        .wait();
    EXPECT_EQ(counts, want) << "n = " << n << ", initialize_to_identity";
  }
}

TEST(KernelReducers, PiWithNoInputArray) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t steps = 1 << 20;
  const float step = 1.0f / static_cast<float>(steps);
  float pi = 0;
  q.parallel_for(range{steps}, kPi, step, reduction(&pi, plus<>(), property::reduction::initialize_to_identity{})).wait();
  double want = 0;
  for (std::size_t i = 0; i < steps; ++i) {
    const float x = (static_cast<float>(i) + 0.5f) * step;
    want += static_cast<double>(4.0f / (1.0f + x * x) * step);
  }
  expect_close_sum(pi, want, want, steps, "pi");
  EXPECT_NEAR(pi, 3.14159265, 1e-3);
}

TEST(KernelReducers, FusedResidualNormWithAndWithoutStoringTheVector) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = 64 * 4688;  // whole groups of 64 for the nd_range below
  const float a = 1.5f;
  const auto x = random_floats(n, 1), y = random_floats(n, 2);
  auto dx = on_device(q, x), dy = on_device(q, y);
  auto out = make_shared_array<float>(q, n);
  double want = 0;
  float largest = 0;
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = a * x[i] + y[i];
    want += static_cast<double>(v[i]) * v[i];
    largest = std::max(largest, std::abs(v[i]));
  }
  const float* px = dx.get();
  const float* py = dy.get();
  float sum_squares = 0, peak = 0, stored_sum = 0;
  q.parallel_for(range{n}, kAxpyNorm, px, py, a,
                 reduction(&sum_squares, plus<>(), property::reduction::initialize_to_identity{}),
                 reduction(&peak, maximum<>(), property::reduction::initialize_to_identity{}))
      .wait();
  expect_close_sum(sum_squares, want, want, n, "axpy_norm");
  // a x + y may round differently where the device fuses the multiply-add: within an ulp of |a x| + |y|.
  auto fused_tolerance = [&](std::size_t i) {
    return (std::abs(a * x[i]) + std::abs(y[i])) * 2 * std::numeric_limits<float>::epsilon();
  };
  const std::size_t at = static_cast<std::size_t>(
      std::max_element(v.begin(), v.end(), [](float p, float q) { return std::abs(p) < std::abs(q); }) - v.begin());
  EXPECT_NEAR(peak, largest, 2 * fused_tolerance(at));
  q.parallel_for(nd_range{n, 64}, kAxpyStoreNorm, px, py, out.get(), a,
                 reduction(&stored_sum, plus<>(), property::reduction::initialize_to_identity{}))
      .wait();
  expect_close_sum(stored_sum, want, want, n, "axpy_store_norm");
  // The stored vector: a x + y, fused or not.
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(out.get()[i], v[i], fused_tolerance(i)) << i;
}

TEST(KernelReducers, NdRangeRunsEachWorkItemOnce) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = 64 * 100;
  const auto x = random_floats(n, 5);
  auto dx = on_device(q, x);
  float sum = 0, peak = 0;
  q.parallel_for(nd_range{n, 64}, kSumAndMax, static_cast<const float*>(dx.get()),
                 reduction(&sum, plus<>(), property::reduction::initialize_to_identity{}),
                 reduction(&peak, maximum<>(), property::reduction::initialize_to_identity{}))
      .wait();
  double want = 0, magnitudes = 0;
  for (float v : x) want += v, magnitudes += std::abs(v);
  expect_close_sum(sum, want, magnitudes, n, "nd_range");
  EXPECT_EQ(peak, *std::max_element(x.begin(), x.end()));
}

TEST(KernelReducers, DeterministicForTheSameLaunch) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = (1 << 20) + 5;
  const auto x = random_floats(n, 9);
  auto dx = on_device(q, x);
  float first = 0, again = 0, peak = 0;
  const auto props = property_list{property::reduction::deterministic{}, property::reduction::initialize_to_identity{}};
  q.parallel_for(range{n}, kSumAndMax, static_cast<const float*>(dx.get()), reduction(&first, plus<>(), props),
                 reduction(&peak, maximum<>(), props))
      .wait();
  for (int i = 0; i < 3; ++i) {
    q.parallel_for(range{n}, kSumAndMax, static_cast<const float*>(dx.get()), reduction(&again, plus<>(), props),
                   reduction(&peak, maximum<>(), props))
        .wait();
    EXPECT_EQ(std::memcmp(&first, &again, sizeof first), 0) << first << " then " << again;
  }
}

TEST(KernelReducers, AReducerOfTheKernelsOwnBesideABuiltInOne) {
  ZR_REQUIRE_QUEUE(q);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{(1 << 20) + 3}}) {
    std::vector<float> x = random_floats(n, 21);
    for (std::size_t i = 0; i < n; i += 7) x[i] = std::round(x[i]);  // ties: the first index must win
    auto dx = on_device(q, x);
    extent bounds{};
    float sum = 0;
    q.parallel_for(range{n}, kExtentAndSum, static_cast<const float*>(dx.get()),
                   user_reduction(&bounds, property::reduction::initialize_to_identity{}),
                   reduction(&sum, plus<>(), property::reduction::initialize_to_identity{}))
        .wait();
    expect_same_extent(bounds, host_extent(x, kNoExtent), "n = " + std::to_string(n));
    // From an initial value, in device memory.
    auto var = make_device_array<extent>(q, 1);
    const extent initial{-0.5f, 0.5f, 7, 9};
    q.copy(&initial, var.get(), 1).wait();
    q.parallel_for(range{n}, kExtentAndSum, static_cast<const float*>(dx.get()), user_reduction(var.get()),
                   reduction(&sum, plus<>()))
        .wait();
    extent got{};
    q.copy(var.get(), &got, 1).wait();
    // The initial value combined with the kernel's reduction.
    const extent want = widen(initial, host_extent(x, kNoExtent));
    expect_same_extent(got, want, "with an initial value, n = " + std::to_string(n));
  }
  // reproducible: ze-reduce cannot tell whether the kernel's combine depends on the order.
  extent bounds{};
  auto dy = on_device(q, random_floats(4, 2));
  EXPECT_THROW(q.parallel_for(range{4}, kExtentAndSum, static_cast<const float*>(dy.get()),
                              user_reduction(&bounds, property::reduction::reproducible{}), reduction(&bounds.lo, plus<>())),
               UnsupportedError);
  // A variable of another size than the kernel's accumulator is refused, naming both.
  double wrong = 0;
  float sum = 0;
  auto dx = on_device(q, random_floats(4, 1));
  try {
    q.parallel_for(range{4}, kExtentAndSum, static_cast<const float*>(dx.get()), user_reduction(&wrong),
                   reduction(&sum, plus<>()));
    ADD_FAILURE() << "an 8-byte variable for a 24-byte reducer was accepted";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("(8-byte values)) does not match reducer 0"), std::string::npos) << e.what();
  }
}

TEST(KernelReducers, WrongCallsAreRefusedWithTheProblemNamed) {
  ZR_REQUIRE_QUEUE(q);
  auto dx = on_device(q, random_floats(16, 3));
  const float* px = dx.get();
  float sum = 0, peak = 0;
  double wide = 0;
  auto message = [&](auto&& call) -> std::string {
    try {
      call();
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(message([&] { q.parallel_for(range{16}, kSumAndMax, px, reduction(&sum, plus<>())); })
                .find("has 2 reducer(s), 1 reduction(s) given"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.parallel_for(range{16}, kSumAndMax, px, reduction(&peak, maximum<>()), reduction(&sum, plus<>()));
            }).find("does not match reducer 0"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.parallel_for(range{16}, kSumAndMax, px, reduction(&wide, plus<>()), reduction(&peak, maximum<>()));
            }).find("plus of f64"),
            std::string::npos);
  EXPECT_NE(message([&] { q.parallel_for(range{16}, kSumAndMax, reduction(&sum, plus<>()), reduction(&peak, maximum<>())); })
                .find("takes 1 argument(s) of its own, 0 given"),
            std::string::npos);
  std::vector<float> host(16);
  EXPECT_NE(message([&] {
              q.parallel_for(range{16}, kSumAndMax, static_cast<const float*>(host.data()), reduction(&sum, plus<>()),
                             reduction(&peak, maximum<>()));
            }).find("is not an allocation of device"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.parallel_for(range{16}, kernel(zr_kernels::seed_examples, "no_such_kernel"), px, reduction(&sum, plus<>()));
            }).find("the module has no such kernel"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.parallel_for(nd_range{100, 64}, kSumAndMax, px, reduction(&sum, plus<>()), reduction(&peak, maximum<>()));
            }).find("not a positive multiple of the local size 64"),
            std::string::npos);
  std::vector<float> bins(4);
  EXPECT_NE(message([&] {
              q.parallel_for(range{16}, kHistogram, static_cast<const std::uint32_t*>(nullptr), 4u,
                             reduction(std::span<float>(bins), plus<>()));
            }).find("span plus of f32"),
            std::string::npos);
}

}  // namespace
}  // namespace zr::test
