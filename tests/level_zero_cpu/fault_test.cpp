// Driver-level faults through the public API, on the Level Zero test driver with two devices (ZRT_DEVICES=2).
// Each ctest entry runs one test in its own process with the ZRT_FAULT that makes device 0 fail
// (tests/level_zero_cpu/CMakeLists.txt). Every scenario checks the documented error,
// that the failing device's later work behaves as documented, and that device 1 keeps computing right results.
// The sanitizer build of the same scenarios (label asan) checks that nothing leaks on these paths.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "zereduce/zereduce.hpp"

namespace {

// The injected fault this process runs with (ZRT_FAULT's kind).
std::string fault_kind() {
  const char* value = std::getenv("ZRT_FAULT");
  const std::string text = value ? value : "";
  return text.substr(0, text.find(','));
}

// The test driver's two devices, as the API lists them.
std::vector<zr::device> test_driver_devices() {
  std::vector<zr::device> found;
  for (const auto& d : zr::get_devices())
    if (d.get_backend() == zr::backend::level_zero && d.name().find("ze-reduce TEST driver") != std::string::npos)
      found.push_back(d);
  return found;
}

// Small integers: every sum is exact in f32 and i32, so results compare with ==.
template <typename T>
std::vector<T> sample(std::size_t n, unsigned salt) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<T>((i * 2654435761u + salt) % 4);
  return values;
}

template <typename T>
T device_sum(zr::queue& q, const std::vector<T>& values) {
  T sum = 0;
  q.reduce(std::span<const T>(values), zr::reduction(&sum, zr::plus<>())).wait();
  return sum;
}

template <typename T>
void expect_right_sum(zr::queue& q, std::size_t n, unsigned salt) {
  const auto values = sample<T>(n, salt);
  EXPECT_EQ(device_sum(q, values), std::accumulate(values.begin(), values.end(), T{0})) << q.get_device().name();
}

class DriverFault : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("ZE_ENABLE_ALT_DRIVERS") == nullptr) GTEST_SKIP() << "needs ZE_ENABLE_ALT_DRIVERS (the test driver)";
    devices_ = test_driver_devices();
    ASSERT_EQ(devices_.size(), 2u) << "ZRT_DEVICES=2 should give two test-driver devices";
  }
  std::vector<zr::device> devices_;
};

TEST_F(DriverFault, GivenADeviceAllocationFailure_ThenTheErrorNamesItAndBothDevicesKeepWorking) {
  ASSERT_EQ(fault_kind(), "alloc_device") << "run with ZRT_FAULT=alloc_device,...";
  zr::queue q0(devices_[0]), q1(devices_[1]);
  const std::string what = zr_test::thrown_message<zr::BackendError>([&] { q0.malloc_device<float>(std::uint64_t{16} << 20); });
  EXPECT_NE(what.find("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"), std::string::npos) << what;
  EXPECT_NE(what.find(devices_[0].name()), std::string::npos) << what;
  expect_right_sum<float>(q0, 1 << 20, 1);  // one failed allocation does not make the device unusable
  expect_right_sum<float>(q1, 1 << 20, 2);
}

TEST_F(DriverFault, GivenAModuleBuildFailure_ThenTheErrorCarriesTheBuildLogAndOtherWorkRuns) {
  ASSERT_EQ(fault_kind(), "module_build") << "run with ZRT_FAULT=module_build,...";
  zr::queue q0(devices_[0]), q1(devices_[1]);
  const auto values = sample<double>(1 << 16, 3);
  const std::string what = zr_test::thrown_message<zr::BackendError>([&] { device_sum(q0, values); });
  EXPECT_NE(what.find("zeModuleCreate"), std::string::npos) << what;
  EXPECT_NE(what.find("ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"), std::string::npos) << what;
  EXPECT_NE(what.find("injected build failure"), std::string::npos) << "the build log is not in the message: " << what;
  expect_right_sum<float>(q0, 1 << 16, 4);   // modules of other types build
  expect_right_sum<double>(q1, 1 << 16, 5);  // and the other device builds the one that failed
}

TEST_F(DriverFault, GivenADeviceLostAtTheFence_ThenDeviceLostErrorAndOnlyThatDeviceRefusesWork) {
  ASSERT_EQ(fault_kind(), "device_lost") << "run with ZRT_FAULT=device_lost,...";
  zr::queue q0(devices_[0]), q1(devices_[1]);
  const auto values = sample<float>(1 << 18, 6);
  const std::string what = zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(q0, values); });
  EXPECT_NE(what.find("ZE_RESULT_ERROR_DEVICE_LOST"), std::string::npos) << what;
  EXPECT_NE(what.find(devices_[0].name()), std::string::npos) << what;
  const auto ints = sample<std::int32_t>(1024, 7);
  zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(q0, ints); });  // refused from now on
  expect_right_sum<float>(q1, 1 << 18, 8);
  expect_right_sum<std::int32_t>(q1, 1 << 18, 9);
}

// The first call to learn of a loss is a module build, not a fence: the library keeps that one error and refuses
// the device's later calls with it (an allocation, a copy, a reduction of another type) before they reach the driver.
TEST_F(DriverFault, GivenADeviceLostAtAModuleBuild_ThenThatOneErrorRefusesEveryLaterCallOnTheDevice) {
  ASSERT_EQ(fault_kind(), "module_lost") << "run with ZRT_FAULT=module_lost,...";
  zr::queue q0(devices_[0]), q1(devices_[1]);
  const auto values = sample<double>(1 << 16, 12);
  const std::string what = zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(q0, values); });
  EXPECT_NE(what.find("zeModuleCreate"), std::string::npos) << what;
  EXPECT_NE(what.find("ZE_RESULT_ERROR_DEVICE_LOST"), std::string::npos) << what;
  EXPECT_NE(what.find(devices_[0].name()), std::string::npos) << what;
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] { q0.malloc_device<float>(1024); }), what);
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(q0, sample<std::int32_t>(1 << 16, 13)); }), what);
  zr::queue again(devices_[0]);
  EXPECT_EQ(zr_test::thrown_message<zr::DeviceLostError>([&] { device_sum(again, sample<float>(1 << 16, 14)); }), what);
  expect_right_sum<double>(q1, 1 << 16, 15);
  expect_right_sum<float>(q1, 1 << 18, 16);
}

TEST_F(DriverFault, GivenAFenceThatNeverSignals_ThenTimeoutErrorAfterTheLimitAndTheOtherDeviceWorks) {
  ASSERT_EQ(fault_kind(), "fence_hang") << "run with ZRT_FAULT=fence_hang,...";
  ASSERT_STREQ(std::getenv("ZE_REDUCE_TIMEOUT_S"), "3");
  zr::queue q0(devices_[0]), q1(devices_[1]);
  const auto values = sample<float>(1 << 18, 10);
  const auto started = std::chrono::steady_clock::now();
  const std::string what = zr_test::thrown_message<zr::TimeoutError>([&] { device_sum(q0, values); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GE(seconds, 2.5);
  EXPECT_LT(seconds, 60.0);
  EXPECT_NE(what.find("ZE_REDUCE_TIMEOUT_S"), std::string::npos) << what;
  EXPECT_NE(what.find(devices_[0].name()), std::string::npos) << what;
  zr_test::thrown_message<zr::TimeoutError>([&] { device_sum(q0, values); });  // no more work on a hung device
  expect_right_sum<float>(q1, 1 << 18, 11);
}

}  // namespace
