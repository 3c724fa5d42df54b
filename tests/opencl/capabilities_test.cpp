// Errors, discovery, capabilities and the default-device rule of the OpenCL backend.
#include <gtest/gtest.h>

#include <sstream>

#include "opencl/device.hpp"
#include "opencl/error.hpp"
#include "opencl/selection.hpp"
#include "test_support.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {
namespace {

std::string summary(const core::Capabilities& c) {
  std::ostringstream out;
  out << c.device_name << ": " << core::name(c.type) << ", " << c.compute_units << " CUs, max group "
      << c.max_work_group_size << ", local " << c.local_memory_bytes << " B, max alloc " << c.max_allocation_bytes
      << " B, global " << c.global_memory_bytes << " B, sub-groups [";
  for (auto s : c.subgroup_sizes) out << ' ' << s;
  out << " ], wg collectives " << c.work_group_collectives << ", int64 atomics " << c.int64_atomics << ", fp16 "
      << c.fp16 << ", fp64 " << c.fp64 << ", f32 atomics add/minmax " << c.f32_atomics.global_add << '/'
      << c.f32_atomics.global_min_max << ", spirv " << c.accepts_spirv << ", spir1.2 " << c.accepts_spir12
      << ", source " << c.accepts_opencl_c;
  return out.str();
}

// A plausible OpenCL 3.0 GPU, for the pure translation tests.
DeviceInfo gpu_info() {
  DeviceInfo info;
  info.name = "fake gpu";
  info.type = CL_DEVICE_TYPE_GPU;
  info.version = "OpenCL 3.0 fake";
  info.opencl_c_version = "OpenCL C 1.2";
  info.compute_units = 32;
  info.max_work_group_size = 512;
  info.local_memory_bytes = 65536;
  info.max_allocation_bytes = 1u << 30;
  info.global_memory_bytes = 1ull << 32;
  info.compiler_available = true;
  info.linker_available = true;
  return info;
}

TEST(OpenclErrors, GivenKnownAndUnknownCodes_WhenNamingThem_ThenTheHeaderNamesComeBack) {
  EXPECT_EQ(error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
  EXPECT_EQ(error_name(CL_INVALID_VALUE), "CL_INVALID_VALUE");
  EXPECT_EQ(error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(error_name(CL_PLATFORM_NOT_FOUND_KHR), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(error_name(CL_MAX_SIZE_RESTRICTION_EXCEEDED), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
  EXPECT_EQ(error_name(-12345), "CL_UNKNOWN_ERROR");
  // Every code of the core specification has its name (-1 .. -19 and -30 .. -72).
  for (cl_int code = -1; code >= -72; --code) {
    if (code < -19 && code > -30) continue;
    EXPECT_NE(error_name(code), "CL_UNKNOWN_ERROR") << code;
  }
}

TEST(OpenclErrors, GivenAFailedCall_WhenChecked_ThenBackendErrorCarriesCallCodeNameAndDevice) {
  EXPECT_NO_THROW(check(CL_SUCCESS, "clFoo", "dev"));
  try {
    check(CL_INVALID_KERNEL_NAME, "clCreateKernel", "my device", "kernel zr_x");
    FAIL() << "check did not throw";
  } catch (const BackendError& error) {
    EXPECT_EQ(error.backend(), "opencl");
    EXPECT_EQ(error.call(), "clCreateKernel");
    EXPECT_EQ(error.code(), CL_INVALID_KERNEL_NAME);
    EXPECT_EQ(error.code_name(), "CL_INVALID_KERNEL_NAME");
    EXPECT_EQ(error.device(), "my device");
    EXPECT_NE(std::string(error.what()).find("kernel zr_x"), std::string::npos) << error.what();
  }
}

TEST(OpenclErrors, GivenADetailBuiltOnDemand_WhenChecked_ThenItIsBuiltOnlyForAFailure) {
  int built = 0;
  auto detail = [&] {
    ++built;
    return std::string("zr_tree_plus_f32 argument 3");
  };
  EXPECT_NO_THROW(check(CL_SUCCESS, "clSetKernelArg", "dev", detail));
  EXPECT_EQ(built, 0);
  try {
    check(CL_INVALID_ARG_SIZE, "clSetKernelArg", "my device", detail);
    FAIL() << "check did not throw";
  } catch (const BackendError& error) {
    EXPECT_EQ(built, 1);
    EXPECT_EQ(error.code_name(), "CL_INVALID_ARG_SIZE");
    EXPECT_NE(std::string(error.what()).find("zr_tree_plus_f32 argument 3"), std::string::npos) << error.what();
  }
}

TEST(OpenclCapabilities, GivenZeroComputeUnitsOrGroupSize_WhenTranslated_ThenTheErrorNamesTheProperty) {
  DeviceInfo info = gpu_info();
  info.max_work_group_size = 0;
  try {
    make_capabilities(info);
    FAIL() << "no error for a zero work-group size";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find("CL_DEVICE_MAX_WORK_GROUP_SIZE"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("fake gpu"), std::string::npos) << error.what();
  }
  info = gpu_info();
  info.compute_units = 0;
  EXPECT_THROW(
      {
        try {
          make_capabilities(info);
        } catch (const UnsupportedError& error) {
          EXPECT_NE(std::string(error.what()).find("CL_DEVICE_MAX_COMPUTE_UNITS"), std::string::npos);
          throw;
        }
      },
      UnsupportedError);
}

TEST(OpenclCapabilities, GivenIntelLikeAnswers_WhenTranslated_ThenEveryFeatureComesThrough) {
  DeviceInfo info = gpu_info();
  info.extensions =
      "cl_khr_fp16 cl_khr_int64_base_atomics cl_khr_int64_extended_atomics cl_khr_spir "
      "cl_intel_subgroups cl_intel_required_subgroup_size cl_ext_float_atomics";
  info.il_version = "SPIR-V_1.2 ";
  info.intel_subgroup_sizes = {32, 8, 16};
  info.max_num_sub_groups = 64;
  info.work_group_collectives = true;
  info.single_fp_atomics = CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT;
  info.half_fp_atomics = CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT;
  const core::Capabilities caps = make_capabilities(info);
  EXPECT_EQ(caps.backend, "opencl");
  EXPECT_EQ(caps.type, core::DeviceType::gpu);
  EXPECT_EQ(caps.compute_units, 32u);
  EXPECT_EQ(caps.max_work_group_size, 512u);
  EXPECT_EQ(caps.subgroup_sizes, (std::vector<std::uint32_t>{8, 16, 32}));
  EXPECT_TRUE(caps.work_group_collectives);
  EXPECT_TRUE(caps.int64_atomics);
  EXPECT_TRUE(caps.fp16);
  EXPECT_FALSE(caps.fp64);
  EXPECT_TRUE(caps.f32_atomics.global_add);
  EXPECT_TRUE(caps.f32_atomics.global_min_max);
  EXPECT_FALSE(caps.f32_atomics.local_add);
  EXPECT_TRUE(caps.f16_atomics.local_add);
  EXPECT_FALSE(caps.f16_atomics.global_add);
  EXPECT_FALSE(caps.f64_atomics.global_add);
  EXPECT_TRUE(caps.accepts_spirv);
  EXPECT_TRUE(caps.accepts_spir12);
  EXPECT_TRUE(caps.accepts_opencl_c);
}

TEST(OpenclCapabilities, GivenSubgroupsWithoutASizeList_WhenTranslated_ThenTheSimdWidthOrNothingIsReported) {
  DeviceInfo info = gpu_info();
  info.extensions = "cl_khr_subgroups";
  info.simd_width = 32;  // NVIDIA warp size
  EXPECT_EQ(make_capabilities(info).subgroup_sizes, (std::vector<std::uint32_t>{32}));
  info.simd_width.reset();
  EXPECT_TRUE(make_capabilities(info).subgroup_sizes.empty());
  info.extensions.clear();
  info.simd_width = 32;  // a warp size alone does not mean the device exposes sub-groups
  EXPECT_TRUE(make_capabilities(info).subgroup_sizes.empty());
}

TEST(OpenclCapabilities, GivenVersionsAndFpConfigs_WhenTranslated_ThenCollectivesAndFp64FollowTheRules) {
  DeviceInfo info = gpu_info();
  info.version = "OpenCL 2.0 fake";
  EXPECT_TRUE(make_capabilities(info).work_group_collectives);
  info.version = "OpenCL 1.2 fake";
  EXPECT_FALSE(make_capabilities(info).work_group_collectives);
  info.version = "OpenCL 3.0 fake";
  EXPECT_FALSE(make_capabilities(info).work_group_collectives);  // not answered: absent
  info.work_group_collectives = true;
  EXPECT_TRUE(make_capabilities(info).work_group_collectives);
  info.double_fp_config = CL_FP_FMA;
  EXPECT_TRUE(make_capabilities(info).fp64);
  info.compiler_available = false;
  info.linker_available = false;
  info.il_version = "SPIR-V_1.0";
  const auto caps = make_capabilities(info);
  EXPECT_FALSE(caps.accepts_opencl_c);
  EXPECT_FALSE(caps.accepts_spirv);
  EXPECT_EQ(parse_opencl_version("OpenCL 3.0 PoCL HSTR"), 30);
  EXPECT_EQ(parse_opencl_version("OpenCL 1.2 CUDA"), 12);
  EXPECT_EQ(parse_opencl_version("garbage"), 0);
}

TEST(OpenclDiscovery, GivenInstalledPlatforms_WhenListingDevices_ThenEachIsDescribed) {
  const auto devices = list_devices();
  if (devices.empty()) GTEST_SKIP() << "no OpenCL device is installed";
  for (const auto& device : devices) {
    EXPECT_NE(device.id, nullptr);
    EXPECT_NE(device.platform, nullptr);
    EXPECT_FALSE(device.name.empty());
    EXPECT_FALSE(device.platform_name.empty());
    EXPECT_FALSE(device.platform_version.empty());
    EXPECT_FALSE(device.driver_version.empty());
    EXPECT_GE(parse_opencl_version(device.version), 12) << device.version;
    std::cout << "  " << core::name(device.type) << ": " << device.description() << '\n';
  }
}

TEST(OpenclCapabilities, GivenTheTestDevice_WhenQueried_ThenItHasSaneLimitsAndTakesOpenclC) {
  ZR_REQUIRE_TEST_DEVICE();
  const Device device = *test::test_device();
  const auto caps = query_capabilities(device);
  std::cout << "  " << summary(caps) << '\n';
  EXPECT_EQ(caps.type, device.type);
  EXPECT_GT(caps.compute_units, 0u);
  EXPECT_GE(caps.max_work_group_size, 1u);
  EXPECT_GT(caps.local_memory_bytes, 0u);
  EXPECT_TRUE(caps.accepts_opencl_c);
  if (device.platform_name == "Portable Computing Language") {
    EXPECT_TRUE(caps.accepts_spir12);
  }
  EXPECT_GE(caps.global_memory_bytes, caps.max_allocation_bytes);
}

TEST(OpenclSelection, GivenTheTestDevice_WhenProbed_ThenItExecutesAndTheDefaultIsAnExecutingDevice) {
  ZR_REQUIRE_TEST_DEVICE();
  const Device device = *test::test_device();
  EXPECT_TRUE(probe_execution(device));
  EXPECT_EQ(known_execution(device.id), std::optional<bool>(true));
  const auto chosen = default_device();
  ASSERT_TRUE(chosen.has_value());
  EXPECT_TRUE(probe_execution(*chosen));
  std::cout << "  default: " << chosen->description() << '\n';
  // A GPU that executes wins over a CPU; with none, the first executing CPU is the default.
  bool executing_gpu = false;
  for (const auto& other : list_devices()) {
    if (other.type == core::DeviceType::gpu && probe_execution(other)) executing_gpu = true;
  }
  EXPECT_EQ(chosen->type, executing_gpu ? core::DeviceType::gpu : core::DeviceType::cpu);
}

TEST(OpenclSelection, GivenMixedDevices_WhenOrderedByPreference_ThenGpusComeFirstAndOrderIsStable) {
  std::vector<Device> devices(4);
  devices[0].name = "cpu0";
  devices[0].type = core::DeviceType::cpu;
  devices[1].name = "acc";
  devices[1].type = core::DeviceType::accelerator;
  devices[2].name = "gpu0";
  devices[2].type = core::DeviceType::gpu;
  devices[3].name = "gpu1";
  devices[3].type = core::DeviceType::gpu;
  const auto ordered = devices_by_preference(devices);
  ASSERT_EQ(ordered.size(), 4u);
  EXPECT_EQ(ordered[0].name, "gpu0");
  EXPECT_EQ(ordered[1].name, "gpu1");
  EXPECT_EQ(ordered[2].name, "cpu0");
  EXPECT_EQ(ordered[3].name, "acc");
}

}  // namespace
}  // namespace zr::opencl
