// A device whose driver context is gone, learnt from a call that is not a wait (NVIDIA's OpenCL returns -9999 from
// a flush or a module build once a kernel has faulted): through the public API, one zr::DeviceLostError, and every
// later call on that device (another op, type or strategy, a segmented reduction, an allocation, a new queue)
// refused with that same error, while the other device computes right results.
// Run by ctest with ZE_REDUCE_FAULT_INJECTION=lost_call:tree@pthread (tests/api/CMakeLists.txt): PoCL 3's device
// is the one lost; Intel's OpenCL CPU runtime, when installed, is the other device. On the lent GPU machine
// (bench/run_h100_gpu_fault.sh) PoCL 5's device ("cpu-...") is lost and NVIDIA's GPU goes on.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "zereduce/zereduce.hpp"

namespace {

// The first OpenCL device whose name has (or, with has = false, lacks) the text.
std::optional<zr::device> opencl_device(const std::string& text, bool has = true) {
  for (const auto& d : zr::get_devices())
    if (d.get_backend() == zr::backend::opencl && (d.name().find(text) != std::string::npos) == has) return d;
  return std::nullopt;
}

// Small integers: the sums are exact, so results compare with ==.
std::vector<std::int32_t> sample(std::size_t n, unsigned salt) {
  std::vector<std::int32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::int32_t>((i * 2654435761u + salt) % 7);
  return values;
}

std::int32_t device_sum(zr::queue& q, const std::vector<std::int32_t>& values, zr::strategy s) {
  std::int32_t sum = 0;
  q.reduce(std::span<const std::int32_t>(values), zr::reduction(&sum, zr::plus<>(),
                                                                zr::property_list{zr::property::reduction::use_strategy{s}}))
      .wait();
  return sum;
}

TEST(LostCall, GivenACallThatFindsTheContextGone_ThenOneDeviceLostErrorRefusesEveryLaterCallOnThatDevice) {
  const char* injected = std::getenv("ZE_REDUCE_FAULT_INJECTION");
  const std::string prefix = "lost_call:tree@";
  ASSERT_TRUE(injected && std::string(injected).rfind(prefix, 0) == 0)
      << "run with ZE_REDUCE_FAULT_INJECTION=lost_call:tree@<text of the lost device's name> (ctest does)";
  const std::string lost_text = std::string(injected).substr(prefix.size());
  const auto pocl = opencl_device(lost_text);
  if (!pocl) GTEST_SKIP() << "skipped: no OpenCL device named '" << lost_text << "' (PoCL: apt-get install pocl-opencl-icd)";
  zr::queue lost(*pocl);
  const auto values = sample(1 << 20, 1);

  // A strategy the fault does not name runs as usual first: the device is healthy until the loss.
  EXPECT_EQ(device_sum(lost, values, zr::strategy::last_group), std::accumulate(values.begin(), values.end(), 0));

  const std::string what = zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(lost, values, zr::strategy::tree); });
  for (const std::string& part : {std::string("clFlush"), std::string("-9999"), pocl->name(),
                                 std::string("refuses further work on this device")})
    EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' is missing from: " << what;

  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(lost, values, zr::strategy::last_group); }), what);
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] { lost.malloc_device<float>(1 << 20); }), what);
  std::vector<std::int32_t> sums(2);
  const std::vector<std::uint64_t> offsets = {0, 1000, values.size()};
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] {
              lost.reduce_segments(std::span<const std::int32_t>(values), std::span<const std::uint64_t>(offsets),
                                   std::span<std::int32_t>(sums), zr::plus<>())
                  .wait();
            }),
            what);
  zr::queue again(*pocl);
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(again, values, zr::strategy::last_group); }), what);

  const auto other = opencl_device(lost_text, false);
  if (!other) {
    std::cout << "the other device's part is skipped: no Intel OpenCL CPU runtime (scripts/install-intel-opencl-cpu.sh)\n";
    return;
  }
  zr::queue healthy(*other);
  const auto more = sample(1 << 20, 2);
  EXPECT_EQ(device_sum(healthy, more, zr::strategy::tree), std::accumulate(more.begin(), more.end(), 0));
}

}  // namespace
