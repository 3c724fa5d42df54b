// A device lost before the library's first use of it: the library's own context for it cannot be made
// (clCreateContext answers -9999). Through the public API, one zr::DeviceLostError naming that call, and every later
// call on that device (a reduction, an allocation, a new queue) refused with that same error, without trying the
// driver again; the other device computes right results.
// Run by ctest with ZE_REDUCE_FAULT_INJECTION=lost_context@pthread (tests/api/CMakeLists.txt), which refuses only the
// first context: a library that tried again would get a working device and fail this test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "zereduce/zereduce.hpp"

namespace {

std::optional<zr::device> opencl_device(const std::string& text, bool has = true) {
  for (const auto& d : zr::get_devices())
    if (d.get_backend() == zr::backend::opencl && (d.name().find(text) != std::string::npos) == has) return d;
  return std::nullopt;
}

std::int32_t device_sum(zr::queue& q, const std::vector<std::int32_t>& values) {
  std::int32_t sum = 0;
  q.reduce(std::span<const std::int32_t>(values), zr::reduction(&sum, zr::plus<>())).wait();
  return sum;
}

TEST(LostContext, GivenADeviceWhoseContextCannotBeMade_ThenOneDeviceLostErrorRefusesEveryLaterCallWithoutRetrying) {
  const char* injected = std::getenv("ZE_REDUCE_FAULT_INJECTION");
  const std::string prefix = "lost_context@";
  ASSERT_TRUE(injected && std::string(injected).rfind(prefix, 0) == 0)
      << "run with ZE_REDUCE_FAULT_INJECTION=lost_context@<text of the lost device's name> (ctest does)";
  const std::string lost_text = std::string(injected).substr(prefix.size());
  const auto lost_device = opencl_device(lost_text);
  if (!lost_device)
    GTEST_SKIP() << "skipped: no OpenCL device named '" << lost_text << "' (PoCL: apt-get install pocl-opencl-icd)";
  std::vector<std::int32_t> values(1 << 20);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i % 7);

  const std::string what = zr_test::thrown_message<zr::DeviceLostError>([&] {
    zr::queue q(*lost_device);
    device_sum(q, values);
  });
  for (const std::string& part : {std::string("clCreateContext"), std::string("-9999"), lost_device->name()})
    EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' is missing from: " << what;

  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] {
              zr::queue q(*lost_device);
              device_sum(q, values);
            }),
            what);
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] {
              zr::queue q(*lost_device);
              q.malloc_device<float>(1 << 20);
            }),
            what);

  const auto other = opencl_device(lost_text, false);
  if (!other) {
    std::cout << "the other device's part is skipped: no Intel OpenCL CPU runtime (scripts/install-intel-opencl-cpu.sh)\n";
    return;
  }
  zr::queue healthy(*other);
  EXPECT_EQ(device_sum(healthy, values), std::accumulate(values.begin(), values.end(), 0));
}

}  // namespace
