// Pure parts of the Level Zero backend, without any driver: the result-name table, the translation of device
// properties into capabilities (including nonsense reports), the native-target map and timestamp arithmetic.
#include <gtest/gtest.h>

#include "level_zero/device_info.hpp"
#include "level_zero/result.hpp"

namespace zl = zr::level_zero;

namespace {

// What Intel's driver reports for the pvc profile without hardware (HardwareInfoOverride=1x4x8).
zl::DeviceDescription pvc_like() {
  zl::DeviceDescription d;
  d.name = "Intel(R) Graphics [0x0bd5]";
  d.type = ZE_DEVICE_TYPE_GPU;
  d.vendor_id = 0x8086;
  d.device_id = 0x0bd5;
  d.max_mem_alloc_size = 27487789056ull;
  d.num_threads_per_eu = 8;
  d.physical_eu_simd_width = 16;
  d.num_eus_per_subslice = 8;
  d.num_subslices_per_slice = 4;
  d.num_slices = 1;
  d.timer_resolution = 12000048;
  d.timer_unit = zl::TimerUnit::ticks_per_second;
  d.kernel_timestamp_valid_bits = 32;
  d.max_total_group_size = 1024;
  d.max_group_size_x = 1024;
  d.max_group_count_x = 0xffffffff;
  d.max_shared_local_memory = 131072;
  d.subgroup_sizes = {16, 32};
  d.spirv_version = ZE_MAKE_VERSION(1, 2);
  d.module_flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  d.float_atomics_reported = true;
  d.fp16_atomic_flags = d.fp32_atomic_flags = d.fp64_atomic_flags =
      ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD |
      ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX;
  d.memories = {{"HBM", 27487789056ull, 0, 64}};
  d.compute_queue_ordinal = 0;
  d.max_fill_pattern_size = 128;
  return d;
}

void expect_nonsense(const zl::DeviceDescription& d, const std::string& property) {
  try {
    (void)zl::to_capabilities(d);
    FAIL() << "no error for " << property;
  } catch (const zl::DevicePropertyError& e) {
    EXPECT_EQ(e.property(), property);
    EXPECT_NE(std::string(e.what()).find(property), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Intel(R) Graphics [0x0bd5]"), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(LevelZeroResultNames, GivenEveryNamedCode_WhenNamed_ThenTheHeaderNameComesBack) {
  EXPECT_EQ(zl::result_name(ZE_RESULT_SUCCESS), "ZE_RESULT_SUCCESS");
  EXPECT_EQ(zl::result_name(ZE_RESULT_NOT_READY), "ZE_RESULT_NOT_READY");
  EXPECT_EQ(zl::result_name(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE), "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE");
  EXPECT_EQ(zl::result_name(ZE_RESULT_ERROR_INVALID_NULL_POINTER), "ZE_RESULT_ERROR_INVALID_NULL_POINTER");
  EXPECT_EQ(zl::result_name(ZE_RESULT_ERROR_OVERLAPPING_REGIONS), "ZE_RESULT_ERROR_OVERLAPPING_REGIONS");
  EXPECT_EQ(zl::result_name(ZE_RESULT_ERROR_UNKNOWN), "ZE_RESULT_ERROR_UNKNOWN");
  EXPECT_EQ(zl::result_name(static_cast<ze_result_t>(0x12345)), "ZE_RESULT_UNKNOWN_CODE");
  EXPECT_TRUE(zl::is_validation_result(ZE_RESULT_ERROR_INVALID_NULL_HANDLE));
  EXPECT_FALSE(zl::is_validation_result(ZE_RESULT_ERROR_DEVICE_LOST));
}

TEST(LevelZeroResultNames, GivenAFailingResult_WhenChecked_ThenBackendErrorCarriesCallCodeNameAndDevice) {
  zl::clear_failed_calls();
  try {
    zl::check(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "zeMemAllocDevice", "Some GPU", "4 GiB of scratch");
    FAIL() << "no exception";
  } catch (const zr::BackendError& e) {
    EXPECT_EQ(e.backend(), "level_zero");
    EXPECT_EQ(e.call(), "zeMemAllocDevice");
    EXPECT_EQ(e.code(), 0x70000003);
    EXPECT_EQ(e.code_name(), "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY");
    EXPECT_EQ(e.device(), "Some GPU");
    EXPECT_NE(std::string(e.what()).find("4 GiB of scratch"), std::string::npos);
  }
  EXPECT_EQ(zl::failed_call_count(), 1u);
  EXPECT_TRUE(zl::check_ready(ZE_RESULT_SUCCESS, "zeEventQueryStatus", ""));
  EXPECT_FALSE(zl::check_ready(ZE_RESULT_NOT_READY, "zeEventQueryStatus", ""));
  // DEVICE_LOST from any call (found by the test driver: a module build after a lost fence) is a DeviceLostError.
  EXPECT_THROW(zl::check_ready(ZE_RESULT_ERROR_DEVICE_LOST, "zeEventQueryStatus", ""), zr::DeviceLostError);
  EXPECT_THROW(zl::check(ZE_RESULT_ERROR_DEVICE_LOST, "zeModuleCreate", "Some GPU", "building module m"), zr::DeviceLostError);
  zl::check_in_destructor(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, "zeEventDestroy");
  EXPECT_EQ(zl::failed_call_count(), 4u);
  zl::clear_failed_calls();
}

TEST(LevelZeroCapabilities, GivenThePvcProfileReport_WhenTranslated_ThenCapabilitiesFollowIt) {
  const auto caps = zl::to_capabilities(pvc_like());
  EXPECT_EQ(caps.backend, "level_zero");
  EXPECT_EQ(caps.type, zr::core::DeviceType::gpu);
  EXPECT_EQ(caps.compute_units, 32u);
  EXPECT_EQ(caps.max_work_group_size, 1024u);
  EXPECT_EQ(caps.local_memory_bytes, 131072u);
  EXPECT_EQ(caps.subgroup_sizes, (std::vector<std::uint32_t>{16, 32}));
  EXPECT_TRUE(caps.fp16 && caps.fp64 && caps.int64_atomics && caps.work_group_collectives && caps.accepts_spirv);
  EXPECT_FALSE(caps.accepts_spir12 || caps.accepts_opencl_c);
  EXPECT_TRUE(caps.f32_atomics.global_add && caps.f32_atomics.global_min_max);
  EXPECT_FALSE(caps.f32_atomics.local_add || caps.f32_atomics.local_min_max);
  EXPECT_TRUE(caps.f64_atomics.global_add);
}

TEST(LevelZeroCapabilities, GivenNoFp64Flag_WhenTranslated_ThenFp64AtomicsAreIgnoredToo) {
  auto d = pvc_like();
  d.module_flags = ZE_DEVICE_MODULE_FLAG_FP16;
  const auto caps = zl::to_capabilities(d);
  EXPECT_FALSE(caps.fp64);
  EXPECT_FALSE(caps.int64_atomics);
  EXPECT_FALSE(caps.f64_atomics.global_add);
}

TEST(LevelZeroCapabilities, GivenNonsenseProperties_WhenTranslated_ThenTheErrorNamesTheProperty) {
  auto d = pvc_like();
  d.max_total_group_size = 0;
  expect_nonsense(d, "ze_device_compute_properties_t::maxTotalGroupSize");
  d = pvc_like();
  d.max_shared_local_memory = 0;
  expect_nonsense(d, "ze_device_compute_properties_t::maxSharedLocalMemory");
  d = pvc_like();
  d.subgroup_sizes = {16, 24};
  expect_nonsense(d, "ze_device_compute_properties_t::subGroupSizes[]");
  d = pvc_like();
  d.num_slices = 0;
  expect_nonsense(d, "ze_device_properties_t::numSlices x numSubslicesPerSlice x numEUsPerSubslice");
  d = pvc_like();
  d.max_mem_alloc_size = 0;
  expect_nonsense(d, "ze_device_properties_t::maxMemAllocSize");
  d = pvc_like();
  d.spirv_version = 0;
  expect_nonsense(d, "ze_device_module_properties_t::spirvVersionSupported");
  d = pvc_like();
  d.compute_queue_ordinal.reset();
  expect_nonsense(d, "ze_command_queue_group_properties_t::flags");
}

TEST(LevelZeroNativeTargets, GivenIntelDeviceIds_WhenMapped_ThenOclocTargetsComeBack) {
  auto d = pvc_like();
  EXPECT_EQ(zl::native_target(d), "pvc");
  d.device_id = 0xff20;
  EXPECT_EQ(zl::native_target(d), "tgllp");
  d.device_id = 0x56a0;
  EXPECT_EQ(zl::native_target(d), "dg2-g10");
  d.device_id = 0x5912;
  EXPECT_EQ(zl::native_target(d), "gen9");
  d.device_id = 0;  // the dg2 profile of the driver without hardware reports 0
  EXPECT_EQ(zl::native_target(d), std::nullopt);
  d = pvc_like();
  d.vendor_id = 0x10de;
  EXPECT_EQ(zl::native_target(d), std::nullopt);
}

TEST(LevelZeroTimestamps, GivenBothTimerResolutionUnits_WhenConverting_ThenNanosecondsAgree) {
  auto d = pvc_like();
  d.timer_unit = zl::TimerUnit::ticks_per_second;
  d.timer_resolution = 12'000'000;  // 12 MHz: 83.33 ns per tick
  EXPECT_NEAR(zl::ticks_to_ns(12'000'000, d), 1e9, 1e-3);
  d.timer_unit = zl::TimerUnit::nanoseconds_per_tick;
  d.timer_resolution = 83;
  EXPECT_NEAR(zl::ticks_to_ns(1000, d), 83000.0, 1e-9);
  d.timer_resolution = 0;
  EXPECT_EQ(zl::ticks_to_ns(1000, d), 0.0);
}

TEST(LevelZeroTimestamps, GivenAKernelTimestampThatWrapped_WhenMeasured_ThenTheDurationIsUnwrapped) {
  EXPECT_EQ(zl::kernel_duration_ticks(100, 250, 32), 150u);
  EXPECT_EQ(zl::kernel_duration_ticks(0xFFFFFFF0u, 0x10u, 32), 0x20u);
  // Bits above the valid ones are ignored.
  EXPECT_EQ(zl::kernel_duration_ticks(0xAB00000100ull, 0xCD00000200ull, 32), 0x100u);
  EXPECT_EQ(zl::kernel_duration_ticks(5, 9, 64), 4u);
}
