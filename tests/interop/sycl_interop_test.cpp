// A SYCL application (issue 41) with ze-reduce's reductions in its own queues (include/zereduce/sycl.hpp): its
// in-order and out-of-order queues, its device, host and shared USM, its commands before and after each
// reduction (the queue's copies and fills: no SYCL compiler exists here, so the application has no kernels of
// its own), and no host wait between them. Every result is compared with a host fold of the same data. Runs on
// SYCL's OpenCL backend over Intel's OpenCL CPU runtime (tests/interop/CMakeLists.txt).
#include <gtest/gtest.h>

#include "support/expect_error.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "zereduce/errors.hpp"
#include "zereduce/functional.hpp"
#include "zereduce/sycl.hpp"

namespace {

using zr_test::expect_error;

// A device whose SYCL backend the reducer takes and that has USM (SYCL's OpenCL backend needs the device's
// cl_intel_unified_shared_memory for it).
std::optional<sycl::device> usm_device() {
  for (const sycl::device& device : sycl::device::get_devices()) {
    const auto backend = device.get_backend();
    if ((backend == sycl::backend::opencl || backend == sycl::backend::ext_oneapi_level_zero) &&
        device.has(sycl::aspect::usm_device_allocations) && device.has(sycl::aspect::usm_shared_allocations))
      return device;
  }
  return std::nullopt;
}

class SyclInterop : public ::testing::TestWithParam<bool> {  // the parameter: an in-order queue
 protected:
  void SetUp() override {
    device_ = usm_device();
    if (!device_) {
      if (std::getenv("ZR_REQUIRE_SYCL_DEVICE")) FAIL() << "no SYCL device with USM on OpenCL or Level Zero";
      GTEST_SKIP() << "no SYCL device with USM on OpenCL or Level Zero";
    }
    queue_ = GetParam() ? sycl::queue(*device_, sycl::property::queue::in_order{}) : sycl::queue(*device_);
  }
  bool in_order() const { return GetParam(); }

  std::optional<sycl::device> device_;
  sycl::queue queue_;
};

template <typename T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(n);
  for (T& value : values) {
    if constexpr (std::is_floating_point_v<T>) value = static_cast<T>(std::uniform_int_distribution<int>(-512, 512)(random)) / 8;
    else value = static_cast<T>(random() % 2001) - static_cast<T>(1000 * std::is_signed_v<T>);
  }
  return values;
}

// The application copies its data in, ze-reduce reduces it into a value the application set before, the
// application copies the result out: one chain of commands, ordered by the queue (in-order) or by events.
template <typename T, typename Op, typename Fold>
void expect_chain(sycl::queue& queue, bool in_order, std::size_t n, sycl::usm::alloc kind, Op op, Fold fold, T start,
                  const zr::property_list& properties = {}, std::optional<T> identity = std::nullopt) {
  SCOPED_TRACE(std::to_string(n) + " elements, " + (in_order ? "in-order" : "out-of-order") + " queue, USM kind " +
               std::to_string(static_cast<int>(kind)));
  const std::vector<T> host = random_values<T>(n, static_cast<unsigned>(n + 7));
  T* data = sycl::malloc<T>(std::max<std::size_t>(n, 1), queue, kind);
  T* result = sycl::malloc<T>(2, queue, kind);
  ASSERT_TRUE(data && result);
  zr::sycl_interop::reducer reducer(queue);
  const T before[2] = {start, start};
  T after[2] = {};
  // An in-order queue orders the chain by itself; an out-of-order one by the events.
  sycl::event copied = queue.memcpy(data, host.data(), n * sizeof(T));
  sycl::event initial = queue.memcpy(result, before, sizeof before);
  const std::vector<sycl::event> inputs_ready = in_order ? std::vector<sycl::event>{} : std::vector<sycl::event>{copied, initial};
  sycl::event reduced = reducer.reduce(data, n, result + 1, op, properties, inputs_ready);
  (in_order ? queue.memcpy(after, result, sizeof after) : queue.memcpy(after, result, sizeof after, reduced)).wait();
  // With initialize_to_identity (`identity` given) the value before the reduction is not part of it.
  T expected = identity ? *identity : start;
  for (T value : host) expected = fold(expected, value);
  EXPECT_EQ(after[0], start) << "the element before the result";
  EXPECT_EQ(after[1], expected);
  sycl::free(data, queue);
  sycl::free(result, queue);
}

TEST_P(SyclInterop, GivenTheApplicationsCommandsAroundIt_WhenReduced_ThenEveryTypeAndOpMatchesTheHostFold) {
  const std::size_t n = 1 << 20;
  const auto kind = sycl::usm::alloc::device;
  expect_chain<std::int32_t>(queue_, in_order(), n, kind, zr::plus<>(), std::plus<>(), 5);
  expect_chain<std::int32_t>(queue_, in_order(), n, kind, zr::maximum<>(), [](auto a, auto b) { return std::max(a, b); }, 999);
  expect_chain<std::uint64_t>(queue_, in_order(), n + 3, kind, zr::bit_xor<>(), std::bit_xor<>(), 0xF0F0u);
  expect_chain<std::int64_t>(queue_, in_order(), n - 1, kind, zr::minimum<>(), [](auto a, auto b) { return std::min(a, b); }, -7);
  // Floats whose every partial sum is exact (eighths, well under 2^24 in magnitude): any order gives the same sum.
  expect_chain<float>(queue_, in_order(), 100003, kind, zr::plus<>(), std::plus<>(), 0.5f);
  expect_chain<double>(queue_, in_order(), n, kind, zr::plus<>(), std::plus<>(), 0.25,
                       {zr::property::reduction::initialize_to_identity{}, zr::property::reduction::deterministic{}}, 0.0);
}

TEST_P(SyclInterop, GivenEveryUsmKind_WhenReduced_ThenItIsReadAndWrittenInPlace) {
  for (const auto kind : {sycl::usm::alloc::device, sycl::usm::alloc::host, sycl::usm::alloc::shared})
    expect_chain<std::int32_t>(queue_, in_order(), 300007, kind, zr::plus<>(), std::plus<>(), 11);
}

TEST_P(SyclInterop, GivenNoElements_WhenReduced_ThenTheResultKeepsItsValueOrBecomesTheIdentity) {
  expect_chain<std::int32_t>(queue_, in_order(), 0, sycl::usm::alloc::device, zr::plus<>(), std::plus<>(), 42);
  expect_chain<std::int32_t>(queue_, in_order(), 0, sycl::usm::alloc::shared, zr::minimum<>(),
                             [](auto a, auto b) { return std::min(a, b); }, 42,
                             {zr::property::reduction::initialize_to_identity{}}, std::numeric_limits<std::int32_t>::max());
}

TEST_P(SyclInterop, GivenReductionsBackToBack_WhenNothingWaitsBetween_ThenEachSeesItsOwnData) {
  // Five rounds that reuse one input and one result: the queue's order (or the events) must keep each round's
  // fill, reduction and copy-out together.
  const std::size_t n = 1 << 18;
  std::int32_t* data = sycl::malloc_device<std::int32_t>(n, queue_);
  std::int32_t* result = sycl::malloc_device<std::int32_t>(1, queue_);
  zr::sycl_interop::reducer reducer(queue_);
  std::vector<std::int32_t> sums(5, -1);
  sycl::event last;
  for (int round = 0; round < 5; ++round) {
    sycl::event filled = queue_.fill(data, round + 1, n, last);
    sycl::event reduced = reducer.reduce(data, n, result, zr::plus<>(), {zr::property::reduction::initialize_to_identity{}},
                                         {filled});
    last = queue_.memcpy(&sums[round], result, sizeof(std::int32_t), reduced);
  }
  queue_.wait();
  for (int round = 0; round < 5; ++round) EXPECT_EQ(sums[round], static_cast<std::int32_t>((round + 1) * n)) << round;
  sycl::free(data, queue_);
  sycl::free(result, queue_);
}

TEST_P(SyclInterop, GivenMemoryThatIsNotTheQueuesUsm_WhenReduced_ThenTheErrorNamesIt) {
  zr::sycl_interop::reducer reducer(queue_);
  std::int32_t* result = sycl::malloc_shared<std::int32_t>(1, queue_);
  std::int32_t* data = sycl::malloc_device<std::int32_t>(64, queue_);
  std::vector<std::int32_t> plain(64, 1);
  expect_error<zr::InvalidArgumentError>([&] { reducer.reduce(plain.data(), plain.size(), result, zr::plus<>()); },
                                         "input is not USM of the queue's context");
  expect_error<zr::InvalidArgumentError>([&] { reducer.reduce(data, 64, &plain[0], zr::plus<>()); },
                                         "result is not USM of the queue's context");
  expect_error<zr::InvalidArgumentError>(
      [&] { reducer.reduce(reinterpret_cast<const std::int32_t*>(reinterpret_cast<const char*>(data) + 2), 8, result, zr::plus<>()); },
      "not aligned");
  expect_error<zr::InvalidArgumentError>([&] { reducer.reduce(data + 8, 64, result, zr::plus<>()); }, "runs past its end");
  // USM of another context of the same device.
  sycl::context other(*device_);
  std::int32_t* foreign = sycl::malloc_device<std::int32_t>(64, *device_, other);
  expect_error<zr::InvalidArgumentError>([&] { reducer.reduce(foreign, 64, result, zr::plus<>()); },
                                         "input is not USM of the queue's context");
  sycl::free(foreign, other);
  sycl::free(data, queue_);
  sycl::free(result, queue_);
}

TEST_P(SyclInterop, GivenAReduction_WhenDescribed_ThenItNamesAStrategyAndItsCombineDepth) {
  zr::sycl_interop::reducer reducer(queue_);
  const zr::plan_summary summary = reducer.describe<float>(1 << 24, zr::plus<>());
  EXPECT_FALSE(summary.description.empty());
  EXPECT_GT(summary.combine_depth, 1u);
  EXPECT_EQ(reducer.queue(), queue_);
}

INSTANTIATE_TEST_SUITE_P(Queues, SyclInterop, ::testing::Values(true, false),
                         [](const auto& info) { return std::string(info.param ? "InOrder" : "OutOfOrder"); });

}  // namespace
