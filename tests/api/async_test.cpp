// Events, profiles, several reductions in flight, a queue shared by threads, and every kind of memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

TEST(Events, GivenManyReductionsInFlightWhenWaitedOutOfOrderThenEachResultIsRight) {
  ZR_REQUIRE_QUEUE(q);
  constexpr int kReductions = 16;
  std::vector<std::vector<std::int64_t>> inputs;
  for (int i = 0; i < kReductions; ++i) {
    inputs.emplace_back(10'000 + i * 1000);
    std::iota(inputs.back().begin(), inputs.back().end(), std::int64_t{i});
  }
  std::vector<std::int64_t> sums(kReductions, 0);
  std::vector<event> events;
  for (int i = 0; i < kReductions; ++i)
    events.push_back(q.reduce(std::span<const std::int64_t>(inputs[i]), reduction(&sums[i], plus<>())));
  for (int i = kReductions - 1; i >= 0; --i) {
    events[i].wait();
    EXPECT_TRUE(events[i].is_complete());
    EXPECT_EQ(sums[i], std::accumulate(inputs[i].begin(), inputs[i].end(), std::int64_t{0})) << "reduction " << i;
  }
}

TEST(Events, GivenAProfilingQueueThenAReductionsProfileTimesItsKernelPassesAndCopies) {
  ZR_REQUIRE_QUEUE(shared);
  queue q(shared.get_device(), property::queue::enable_profiling{});
  EXPECT_TRUE(q.is_profiling());
  // Above the host path (a CPU device reduces smaller host input on the calling thread, without kernels).
  const std::size_t n = std::max<std::size_t>(1 << 16, q.get_device().host_path_max_bytes() / sizeof(float) + 1);
  const std::vector<float> values(n, 1.0f);
  float sum = 0;
  const event done = q.reduce(std::span<const float>(values), reduction(&sum, plus<>()));
  const profile& p = done.get_profile();
  EXPECT_EQ(sum, static_cast<float>(n));
  EXPECT_FALSE(p.plans.at(0).host_path);
  ASSERT_EQ(p.plans.size(), 1u);
  EXPECT_FALSE(p.plans[0].reason.empty());
  EXPECT_TRUE(p.timestamps_valid) << "the shared queue's device executes kernels, so it writes timestamps";
  std::size_t kernels = 0, copies = 0;
  for (const auto& pass : p.passes) {
    if (pass.what == pass_profile::kind::kernel) {
      ++kernels;
      EXPECT_FALSE(pass.kernel.empty());
      EXPECT_GE(pass.end_ns, pass.start_ns);
    } else {
      ++copies;
    }
  }
  EXPECT_GE(kernels, 1u);
  // (The variable's initial value is folded in on the host, after the kernels: no copy in.)
  EXPECT_GE(copies, 1u) << "the result is copied back (and the host span copied in where the device reads it elsewhere)";
  EXPECT_GT(p.host_ns, 0u);
  EXPECT_GT(p.kernel_ns, 0u);
}

// The host stages are kept without profiling too: an application's queue is what the latency bench breaks down.
TEST(Events, GivenAQueueWithoutProfilingThenAReductionsProfileSaysWhereItsHostTimeWent) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t device_n = std::max<std::size_t>(1 << 16, q.get_device().host_path_max_bytes() / sizeof(float) + 1);
  const std::vector<float> values(device_n, 1.0f);
  float sum = 0;
  const profile device_run = q.reduce(std::span<const float>(values), reduction(&sum, plus<>())).get_profile();
  EXPECT_EQ(sum, static_cast<float>(device_n));
  ASSERT_FALSE(device_run.plans.at(0).host_path);
  EXPECT_GT(device_run.host_before_ns, 0u) << "the call's checks and plan lookup come before execution";
  EXPECT_GT(device_run.host_enqueue_ns, 0u) << "kernels were enqueued";
  EXPECT_GT(device_run.host_enqueue_ns + device_run.host_wait_ns, device_run.host_enqueue_ns)
      << "the host waited for the device";
  EXPECT_LE(device_run.host_enqueue_ns + device_run.host_wait_ns, device_run.host_ns)
      << "enqueuing and waiting are parts of the execution";
}

TEST(Events, GivenASmallInputOnTheHostPathThenItsProfileHasNoEnqueueAndNoWait) {
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().host_path_max_bytes() < 64) GTEST_SKIP() << "this device has no host path for small inputs";
  const std::vector<float> values(16, 1.0f);
  float sum = 0;
  const profile host_run = q.reduce(std::span<const float>(values), reduction(&sum, plus<>())).get_profile();
  EXPECT_EQ(sum, 16.0f);
  ASSERT_TRUE(host_run.plans.at(0).host_path);
  EXPECT_EQ(host_run.host_enqueue_ns, 0u) << "the calling thread reduced it: nothing was enqueued";
  EXPECT_EQ(host_run.host_wait_ns, 0u);
  EXPECT_GT(host_run.host_ns, 0u);
  EXPECT_GT(host_run.host_before_ns, 0u);
}

// The staged read of a host result is the last command of a profiled run: it must have landed (and be
// timed) when reduce returns, or the device writes into host memory the caller has moved on from. Found as
// a rare heap corruption of ze_reduce (which always profiles) under load.
TEST(Events, GivenAProfilingQueueWhenReducingIntoHostMemoryRepeatedlyThenEveryReadHasLandedOnReturn) {
  ZR_REQUIRE_QUEUE(shared);
  queue q(shared.get_device(), property::queue::enable_profiling{});
  const std::vector<std::int32_t> values(4096, 3);
  auto* input = q.malloc_device<std::int32_t>(values.size());
  q.copy(values.data(), input, values.size()).wait();
  for (std::int32_t run = 0; run < 100; ++run) {
    std::int32_t sum = run;
    const event done = q.reduce(input, values.size(), reduction(&sum, plus<>()));
    ASSERT_EQ(sum, run + 3 * 4096) << "run " << run;
    const profile& p = done.get_profile();
    ASSERT_TRUE(p.timestamps_valid);
    for (const auto& pass : p.passes)
      if (pass.what != pass_profile::kind::kernel) {
        ASSERT_GT(pass.start_ns, 0u) << "run " << run << ": " << pass.label << " was not complete";
        ASSERT_GE(pass.end_ns, pass.start_ns) << "run " << run << ": " << pass.label;
      }
  }
  q.free(input);
}

TEST(Events, GivenOnlyAPropertyListThenTheQueueIsOnTheDefaultDeviceWithThoseProperties) {
  ZR_REQUIRE_QUEUE(shared);
  queue q(property::queue::enable_profiling{});
  EXPECT_TRUE(q.is_profiling());
  EXPECT_EQ(q.get_device().name(), shared.get_device().name()) << "the shared queue is on the default device";
  EXPECT_FALSE(queue(default_device()).is_profiling());
}

TEST(Events, GivenAQueueWithoutProfilingThenAReductionsProfileListsItsPassesAndTheResultIsRight) {
  ZR_REQUIRE_QUEUE(q);
  ASSERT_FALSE(q.is_profiling()) << "profiling is off unless asked for, as in SYCL";
  const std::vector<std::int64_t> values = {5, -7, 11, 13, -2, 40};
  auto* input = q.malloc_device<std::int64_t>(values.size());
  q.copy(values.data(), input, values.size()).wait();
  std::int64_t sum = 100;  // the initial value is read: the staged copy in must happen untimed too
  const event done = q.reduce(input, values.size(), reduction(&sum, plus<>()));
  const profile& p = done.get_profile();
  EXPECT_EQ(sum, std::accumulate(values.begin(), values.end(), std::int64_t{100}));
  ASSERT_EQ(p.plans.size(), 1u);
  EXPECT_GE(std::count_if(p.passes.begin(), p.passes.end(),
                          [](const pass_profile& pass) { return pass.what == pass_profile::kind::kernel; }),
            1);
  if (q.get_device().get_backend() == backend::opencl) {
    EXPECT_FALSE(p.timestamps_valid) << "an OpenCL queue without profiling launches untimed kernels";
    EXPECT_EQ(p.kernel_ns, 0u);
  }
  q.free(input);
}

TEST(Events, GivenOneQueueWhenFourThreadsReduceAtOnceThenEveryResultIsRight) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&q, &failures, t] {
      std::vector<std::int32_t> values(5000 + t);
      std::iota(values.begin(), values.end(), t);
      for (int round = 0; round < 10; ++round) {
        std::int32_t sum = 0;
        std::int32_t max = 0;
        q.reduce(std::span<const std::int32_t>(values), reduction(&sum, plus<>()), reduction(&max, maximum<>())).wait();
        const auto expected = std::accumulate(values.begin(), values.end(), std::int32_t{0});
        if (sum != expected || max != values.back()) ++failures[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

TEST(Events, GivenAnIdleQueueWhenASmallReductionIsSubmittedThenItsEventIsCompleteOnReturn) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<std::int32_t> values(1000);
  std::iota(values.begin(), values.end(), -300);
  std::int32_t* data = q.malloc_device<std::int32_t>(values.size());
  q.copy(values.data(), data, values.size()).wait();
  q.wait();
  std::int32_t sum = 5;
  const event done = q.reduce(data, values.size(), reduction(&sum, plus<>()));
  EXPECT_TRUE(done.is_complete()) << "small work on an idle queue runs on the calling thread";
  EXPECT_EQ(sum, std::accumulate(values.begin(), values.end(), std::int32_t{5}));
  q.free(data);
}

TEST(Events, GivenALargeReductionQueuedWhenASmallOneFoldsInTheSameVariableThenTheSmallOneRunsSecond) {
  ZR_REQUIRE_QUEUE(q);
  // The large one goes to the worker; the small one must queue behind it, not run at once on this thread.
  const std::vector<std::int64_t> large(1 << 22, 3);
  const std::vector<std::int64_t> small(100, 2);
  for (int round = 0; round < 5; ++round) {
    std::int64_t total = -1;
    const event first = q.reduce(std::span<const std::int64_t>(large),
                                 reduction(&total, plus<>(), property::reduction::initialize_to_identity{}));
    const event second = q.reduce(std::span<const std::int64_t>(small), reduction(&total, plus<>()));
    second.wait();
    EXPECT_TRUE(first.is_complete());
    EXPECT_EQ(total, 3 * (std::int64_t{1} << 22) + 200) << "round " << round;
  }
}

TEST(Events, GivenWorkInFlightWhenWaitedForInShortSlicesThenTheLastSliceSeesItDoneWithItsResult) {
  ZR_REQUIRE_QUEUE(q);
  EXPECT_TRUE(event().wait_for(std::chrono::nanoseconds(0))) << "a default event is complete";
  const std::vector<std::int64_t> large(1 << 22, 3);
  std::int64_t total = 0;
  const event running = q.reduce(std::span<const std::int64_t>(large), reduction(&total, plus<>()));
  int slices = 0;
  while (!running.wait_for(std::chrono::milliseconds(1))) ASSERT_LT(++slices, 600'000) << "no completion in 10 min";
  EXPECT_TRUE(running.is_complete());
  EXPECT_EQ(total, 3 * (std::int64_t{1} << 22));
  EXPECT_TRUE(running.wait_for(std::chrono::nanoseconds(0))) << "once done, it stays done";
}

TEST(Memory, GivenAHostSpanAtEveryByteOffsetThenTheSumIsRightAndCpuDevicesReadItWithoutACopy) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<std::int8_t> values(3 << 20);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int8_t>(i * 2654435761u >> 24);
  const bool cpu = q.get_device().kind() == device_kind::cpu;
  for (std::size_t offset : {0, 1, 2, 3, 5, 63}) {
    const std::span<const std::int8_t> view(values.data() + offset, values.size() - offset);
    std::int8_t sum = 0;
    const event done = q.reduce(view, reduction(&sum, plus<>()));
    done.wait();
    std::uint8_t expected = 0;  // wraps as the device's int8 sum does, without signed overflow
    for (std::int8_t v : view) expected = static_cast<std::uint8_t>(expected + static_cast<std::uint8_t>(v));
    EXPECT_EQ(static_cast<std::uint8_t>(sum), expected) << "offset " << offset;
    const auto& passes = done.get_profile().passes;
    const bool copied = std::any_of(passes.begin(), passes.end(), [](const pass_profile& p) {
      return p.what == pass_profile::kind::copy && p.label.find("input") != std::string::npos;
    });
    EXPECT_EQ(copied, !cpu) << "offset " << offset << " on " << q.get_device().name()
                            << ": CPU devices read host spans in place, others copy them first";
  }
}

TEST(Memory, GivenEveryKindOfAllocationWhenReducedInPlaceThenResultsAgree) {
  ZR_REQUIRE_QUEUE(q);
  const std::size_t n = 12'345;
  std::vector<std::uint16_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::uint16_t>(i * 7919u);
  const std::uint16_t expected = *std::max_element(values.begin(), values.end());
  auto device_data = make_device_array<std::uint16_t>(q, n);
  auto host_data = make_host_array<std::uint16_t>(q, n);
  auto shared_data = make_shared_array<std::uint16_t>(q, n);
  EXPECT_EQ(q.pointer_kind(device_data.get()), memory_kind::device);
  EXPECT_EQ(q.pointer_kind(host_data.get()), memory_kind::host);
  EXPECT_EQ(q.pointer_kind(shared_data.get()), memory_kind::shared);
  EXPECT_EQ(q.pointer_kind(values.data()), memory_kind::unknown);
  q.copy(values.data(), device_data.get(), n).wait();
  std::copy(values.begin(), values.end(), host_data.get());
  std::copy(values.begin(), values.end(), shared_data.get());
  auto shared_result = make_shared_array<std::uint16_t>(q, 1);
  for (const std::uint16_t* data : {device_data.get(), host_data.get(), shared_data.get()}) {
    shared_result[0] = 0;
    q.reduce(data, n, reduction(shared_result.get(), maximum<>())).wait();
    EXPECT_EQ(shared_result[0], expected) << "input kind " << to_string(q.pointer_kind(data));
  }
  // An offset into an allocation: elements [3, n) only, at an offset no device aligns buffers to.
  std::uint16_t tail_max = 0;
  q.reduce(device_data.get() + 3, n - 3, reduction(&tail_max, maximum<>())).wait();
  EXPECT_EQ(tail_max, *std::max_element(values.begin() + 3, values.end()));
}

TEST(Memory, GivenArrayVariableInsideADeviceAllocationAtAnOffsetWhenReducedThenOnlyThoseElementsChange) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<std::int32_t> values(3 * 100);
  std::iota(values.begin(), values.end(), 0);
  auto vars = make_device_array<std::int32_t>(q, 5);
  const std::int32_t initial[5] = {-1, 10, 20, 30, -2};
  q.copy(initial, vars.get(), 5).wait();
  q.reduce(std::span<const std::int32_t>(values), reduction(std::span<std::int32_t, 3>(vars.get() + 1, 3), plus<>()))
      .wait();
  std::int32_t result[5] = {};
  q.copy(vars.get(), result, 5).wait();
  EXPECT_EQ(result[0], -1);
  EXPECT_EQ(result[4], -2);
  for (int j = 0; j < 3; ++j) {
    std::int32_t expected = initial[j + 1];
    for (int r = 0; r < 100; ++r) expected += values[r * 3 + j];
    EXPECT_EQ(result[j + 1], expected) << "column " << j;
  }
}

TEST(Memory, GivenBlockingConvenienceWhenReducingThenValueStartsFromTheIdentity) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<double> values{1.5, -2.0, 8.25};
  EXPECT_EQ(q.reduce_value(std::span<const double>(values), plus<>()), 7.75);
  EXPECT_EQ(q.reduce_value(std::span<const double>(values), minimum<>()), -2.0);
}

}  // namespace
}  // namespace zr::test
