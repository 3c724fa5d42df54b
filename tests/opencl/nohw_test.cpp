// Intel's OpenCL driver without hardware (its AUB capture mode): it lists a DG2 GPU, builds our SPIR-V with
// Intel's real compiler (IGC) and completes commands, but never executes kernels. This executable sets the
// driver's variables in main, before the first OpenCL call, and runs in a temporary directory because the
// driver writes .aub capture files into the current directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "identity.hpp"
#include "kernel_catalog.hpp"
#include "opencl/context.hpp"
#include "opencl/device.hpp"
#include "opencl/executor.hpp"
#include "opencl/selection.hpp"
#include "plan.hpp"
#include "strategy.hpp"

namespace zr::opencl {
namespace {

std::optional<Device> intel_gpu() {
  for (auto& device : list_devices()) {
    if (device.type == core::DeviceType::gpu && device.platform_name.find("Intel") != std::string::npos) return device;
  }
  return std::nullopt;
}

#define ZR_REQUIRE_INTEL_GPU()    \
  const auto intel = intel_gpu(); \
  if (!intel) GTEST_SKIP() << "Intel's OpenCL driver (intel-opencl-icd) shows no GPU in no-hardware mode"

TEST(OpenclIntelNoHardware, GivenTheCaptureMode_WhenListingDevices_ThenTheDg2GpuIsListedWithItsRealProperties) {
  ZR_REQUIRE_INTEL_GPU();
  std::cout << "  " << intel->description() << '\n';
  const auto caps = query_capabilities(*intel);
  EXPECT_EQ(caps.type, core::DeviceType::gpu);
  EXPECT_TRUE(caps.accepts_spirv);
  EXPECT_EQ(caps.subgroup_sizes, (std::vector<std::uint32_t>{8, 16, 32}));
  EXPECT_EQ(caps.max_work_group_size, 512u);
  EXPECT_TRUE(caps.work_group_collectives);
  EXPECT_TRUE(caps.int64_atomics);
  EXPECT_TRUE(caps.fp16);
  EXPECT_FALSE(caps.fp64);  // DG2 has no fp64
}

// IGC takes 0.3-4.5 s per module on 2 cores, so CI loads the modules of the tree strategy (tree_*, final_*);
// ZR_TEST_NOHW_ALL_MODULES=1 loads every module the device can load (about 15 s here). Every module is also
// compiled by ocloc for the Intel targets at build time when ZR_EMBED_NATIVE_BINARIES is on.
TEST(OpenclIntelNoHardware, GivenTheIntelGpu_WhenLoadingTheModules_ThenEachBuildsAsSpirvWithIgc) {
  ZR_REQUIRE_INTEL_GPU();
  Context context(*intel);
  ASSERT_EQ(context.programs().ingestion(), Ingestion::spirv);
  const char* all = std::getenv("ZR_TEST_NOHW_ALL_MODULES");
  const bool every_module = all && std::string_view(all) == "1";
  std::size_t built = 0;
  for (const auto& module : core::embedded_modules()) {
    if (!every_module && module.variant != "tree" && module.variant != "final") continue;
    if (!context.capabilities().can_load(module)) {
      std::cout << "  skipped " << module.name << " (needs " << core::to_string(module.required) << ")\n";
      continue;
    }
    const auto started = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(context.programs().program(module)) << module.name;
    for (const auto& kernel : module.kernels) EXPECT_NO_THROW(context.programs().kernel(module, kernel.entry_point));
    std::cout << "  " << module.name << ": "
              << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count()
              << " ms\n";
    ++built;
  }
  EXPECT_GT(built, 0u);
}

TEST(OpenclIntelNoHardware, GivenTheIntelGpu_WhenProbed_ThenItDoesNotExecuteAndIsNeverTheDefault) {
  ZR_REQUIRE_INTEL_GPU();
  EXPECT_FALSE(probe_execution(*intel));
  EXPECT_EQ(known_execution(intel->id), std::optional<bool>(false));
  const auto chosen = default_device();
  if (chosen) {
    EXPECT_NE(chosen->id, intel->id);
    EXPECT_TRUE(probe_execution(*chosen));
    std::cout << "  default: " << chosen->description() << '\n';
  }
}

TEST(OpenclIntelNoHardware, GivenTheIntelGpu_WhenAPlanRuns_ThenItCompletesWithTimestampsMarkedInvalid) {
  ZR_REQUIRE_INTEL_GPU();
  ASSERT_FALSE(probe_execution(*intel));
  Context context(*intel);
  Executor executor(context);
  core::ReductionRequest request;
  request.op = core::Op::plus;
  request.type = core::DataType::f16;  // the fp16 modules are the quickest for IGC to build
  request.n = 100000;
  request.identity = core::known_identity(request.op, request.type);
  request.strategy = core::Strategy::tree;
  const auto plan =
      core::make_plan(context.capabilities(), request, core::choose_strategy(context.capabilities(), request));
  Buffer input = context.create_buffer(request.n * sizeof(std::uint16_t));
  Buffer result = context.create_buffer(sizeof(std::uint16_t));
  const core::RunProfile profile = executor.run(plan, input.get(), result.get());
  EXPECT_EQ(profile.passes.size(), plan.passes.size());
  EXPECT_FALSE(profile.timestamps_valid);
}

}  // namespace
}  // namespace zr::opencl

int main(int argc, char** argv) {
  // Before anything touches OpenCL: the ICD loader loads Intel's driver, which reads these, at the first call.
  ::setenv("NEOReadDebugKeys", "1", 1);
  ::setenv("SetCommandStreamReceiver", "1", 1);
  ::setenv("ProductFamilyOverride", "dg2", 1);
  ::setenv("HardwareInfoOverride", "1x4x8", 1);
  testing::InitGoogleTest(&argc, argv);

  namespace fs = std::filesystem;
  const fs::path original = fs::current_path();
  std::string pattern = (fs::temp_directory_path() / "zr_opencl_nohw_XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    std::cerr << "cannot make a temporary directory from " << pattern << '\n';
    return 1;
  }
  const fs::path scratch = pattern;
  fs::current_path(scratch);
  const int status = RUN_ALL_TESTS();
  fs::current_path(original);
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  return status;
}
