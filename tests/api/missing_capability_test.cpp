// A reduction the device cannot run fails before any work, naming the device and what it lacks. Runs on
// Intel's Level Zero driver without hardware as Xe-LP (tgllp: no fp64): the refusal comes before any kernel
// would execute, so the driver's capture mode is enough. Also proves the public API lists that device and
// never makes it the default (its kernels do not execute).
#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "zereduce/zereduce.hpp"

namespace zr::test {
namespace {

std::optional<device> level_zero_device() {
  for (const device& d : get_devices())
    if (d.get_backend() == backend::level_zero) return d;
  return std::nullopt;
}

TEST(MissingCapability, GivenXeLpWithoutFp64WhenReducingDoublesThenUnsupportedNamesTheDeviceAndFp64) {
  const auto gpu = level_zero_device();
  if (!gpu) GTEST_SKIP() << "Intel's Level Zero driver did not start (ctest sets its no-hardware mode)";
  ASSERT_FALSE(gpu->capabilities().fp64) << gpu->description();
  EXPECT_TRUE(gpu->why_unsupported(element_type::f64, op_kind::plus).has_value());
  EXPECT_TRUE(gpu->strategies(element_type::f64, op_kind::plus).empty());
  EXPECT_FALSE(gpu->strategies(element_type::f32, op_kind::plus).empty());

  queue q(*gpu);
  double* data = q.malloc_device<double>(64);
  double sum = 0;
  try {
    q.reduce(data, 64, reduction(&sum, plus<>()));
    ADD_FAILURE() << "a double reduction was accepted by a device without fp64";
  } catch (const UnsupportedError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find(gpu->name()), std::string::npos) << text;
    EXPECT_NE(text.find("fp64"), std::string::npos) << text;
  }
  // The same for the blocking convenience over host data: refused, not copied and run.
  const std::vector<double> host(64, 1.0);
  EXPECT_THROW(q.reduce_value(std::span<const double>(host), maximum<>()), UnsupportedError);
  q.free(data);
}

TEST(MissingCapability, GivenTheNoHardwareDriverThenItIsListedButNeverTheDefault) {
  const auto gpu = level_zero_device();
  if (!gpu) GTEST_SKIP() << "Intel's Level Zero driver did not start (ctest sets its no-hardware mode)";
  EXPECT_FALSE(gpu->executes_kernels()) << gpu->description();
  try {
    EXPECT_NE(default_device(), *gpu);
  } catch (const UnsupportedError& error) {
    SUCCEED() << "no device executes kernels here: " << error.what();
  }
}

}  // namespace
}  // namespace zr::test
