// The program cache: every loadable module builds, once; each ingestion path PoCL supports works; forced
// ingestion the device lacks and broken sources give clear errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kernel_catalog.hpp"
#include "opencl/vendor_build_options.hpp"
#include "test_support.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {
namespace {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(OpenclProgramCache, GivenTheTestDevice_WhenBuildingEveryLoadableModule_ThenEachBuildsOnceWithAllItsKernels) {
  ZR_REQUIRE_TEST_DEVICE();
  Context& context = *test::shared_context();
  ProgramCache& programs = context.programs();
  std::size_t loadable = 0, built = 0;
  for (const auto& module : core::embedded_modules()) {
    if (!context.capabilities().can_load(module)) {
      std::cout << "  skipped " << module.name << " (needs " << core::to_string(module.required) << ")\n";
      continue;
    }
    ++loadable;
    SCOPED_TRACE(std::string(module.name));
    try {  // report every module that fails, not only the first
      const cl_program first = programs.program(module);
      ASSERT_NE(first, nullptr);
      EXPECT_EQ(programs.program(module), first) << "built twice";
      for (const auto& kernel : module.kernels) {
        const cl_kernel made = programs.kernel(module, kernel.entry_point);
        ASSERT_NE(made, nullptr) << kernel.entry_point;
        EXPECT_EQ(programs.kernel(module, kernel.entry_point), made);
      }
      ++built;
    } catch (const Error& error) {
      ADD_FAILURE() << error.what();
    }
  }
  EXPECT_GT(loadable, 0u);
  EXPECT_GE(programs.built_count(), built);
  std::cout << "  " << built << " of " << loadable << " loadable modules built as " << name(programs.ingestion())
            << '\n';
}

TEST(OpenclProgramCache, GivenADeviceWithoutSpirvIl_WhenSpirvIsForced_ThenTheErrorSaysSo) {
  ZR_REQUIRE_TEST_DEVICE();
  const Device device = *test::test_device();
  if (query_capabilities(device).accepts_spirv) GTEST_SKIP() << device.name << " accepts SPIR-V IL";
  try {
    Context context(device, ContextOptions{Ingestion::spirv});
    FAIL() << "forcing SPIR-V IL did not fail";
  } catch (const UnsupportedError& error) {
    EXPECT_TRUE(contains(error.what(), "does not accept SPIR-V IL")) << error.what();
    EXPECT_TRUE(contains(error.what(), device.name)) << error.what();
  }
}

TEST(OpenclProgramCache, GivenTheIngestionVariable_WhenAContextIsMade_ThenItIsObeyedAndBadValuesAreRejected) {
  ZR_REQUIRE_TEST_DEVICE();
  const Device device = *test::test_device();
  {
    ScopedEnv env("ZE_REDUCE_OPENCL_INGESTION", "source");
    Context context(device);
    EXPECT_EQ(context.programs().ingestion(), Ingestion::source);
  }
  {
    ScopedEnv env("ZE_REDUCE_OPENCL_INGESTION", "llvm");
    EXPECT_THROW(Context context(device), InvalidArgumentError);
  }
  EXPECT_EQ(parse_ingestion("spir"), Ingestion::spir12);
  EXPECT_EQ(parse_ingestion("spirv"), Ingestion::spirv);
  EXPECT_EQ(parse_ingestion("source"), Ingestion::source);
  EXPECT_FALSE(parse_ingestion("binary").has_value());
}

TEST(OpenclProgramCache, GivenTheDumpVariable_WhenAModuleIsBuilt_ThenItsDeviceBinaryIsWrittenUnderAPlainName) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "zr_program_dump_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const core::EmbeddedModule* module = nullptr;
  Context plain(*test::test_device());
  for (const auto& candidate : core::embedded_modules())
    if (candidate.name == std::string_view("final_base") && plain.capabilities().can_load(candidate)) module = &candidate;
  ASSERT_NE(module, nullptr) << "final_base is not embedded or not loadable";
  {
    ScopedEnv env("ZE_REDUCE_OPENCL_DUMP_DIR", dir.c_str());
    Context context(*test::test_device());  // a fresh cache: this build is its first
    context.programs().program(*module);
  }
  const std::filesystem::path written = dir / "final_base.bin";
  ASSERT_TRUE(std::filesystem::exists(written)) << written;
  EXPECT_GT(std::filesystem::file_size(written), 0u);
  std::filesystem::remove_all(dir);
}

TEST(OpenclProgramCache, GivenExtraBuildOptions_WhenAModuleIsBuilt_ThenTheCompilerGetsThemAndABadOneIsNamed) {
  ZR_REQUIRE_TEST_DEVICE();
  const core::EmbeddedModule* module = nullptr;
  Context plain(*test::test_device());
  for (const auto& candidate : core::embedded_modules())
    if (candidate.name == std::string_view("final_base") && plain.capabilities().can_load(candidate)) module = &candidate;
  ASSERT_NE(module, nullptr) << "final_base is not embedded or not loadable";
  ScopedEnv no_cache("ZE_REDUCE_CACHE", "off");  // a kept binary would skip the compiler
  {
    ScopedEnv env("ZE_REDUCE_OPENCL_BUILD_OPTIONS", "-cl-mad-enable");  // valid everywhere: the build succeeds
    Context context(*test::test_device());
    EXPECT_NE(context.programs().program(*module), nullptr);
  }
  ScopedEnv env("ZE_REDUCE_OPENCL_BUILD_OPTIONS", "--no-such-option-zr");
  Context context(*test::test_device());
  try {
    context.programs().program(*module);
    FAIL() << "a build with an unknown option succeeded";
  } catch (const std::exception& e) {
    EXPECT_TRUE(contains(e.what(), "--no-such-option-zr")) << e.what();
    EXPECT_TRUE(contains(e.what(), "final_base")) << e.what();
  }
}

TEST(OpenclVendorBuildOptions, GivenAnNvidiaGpu_WhenAMeasuredModuleIsBuilt_ThenItsRegistersAreCappedAndOnlyThere) {
  core::Capabilities nvidia;
  nvidia.type = core::DeviceType::gpu;
  nvidia.backend = "opencl";
  nvidia.device_name = "NVIDIA H200";
  EXPECT_EQ(vendor_build_options(nvidia, true, "segt_base"), "-cl-nv-maxrregcount=32");
  EXPECT_EQ(vendor_build_options(nvidia, true, "segspan_base"), "");  // slower capped
  EXPECT_EQ(vendor_build_options(nvidia, true, "segspan_fp64"), "");  // measured on a kernel that did not land
  EXPECT_EQ(vendor_build_options(nvidia, true, "segarg_base"), "");   // slower capped at small segments
  EXPECT_EQ(vendor_build_options(nvidia, true, "segt_fp64"), "");     // not measured
  EXPECT_EQ(vendor_build_options(nvidia, true, "segargjoin_base"), "");
  // A device with NVIDIA's name on another platform (PoCL's CUDA devices): its compiler lacks NVIDIA's options.
  EXPECT_EQ(vendor_build_options(nvidia, false, "segt_base"), "");
  core::Capabilities other = nvidia;
  other.device_name = "Intel(R) Data Center GPU Max 1550";
  EXPECT_EQ(vendor_build_options(other, true, "segt_base"), "");
  other = nvidia;
  other.type = core::DeviceType::cpu;
  EXPECT_EQ(vendor_build_options(other, true, "segt_base"), "");
}

// The persistent binary cache through the program cache: a fresh context loads what an earlier one kept (as a
// second process would), the reductions it runs match the host, and a damaged entry is rebuilt and replaced.
TEST(OpenclProgramCache, GivenAnEmptyBinaryCache_WhenAContextBuildsThenAnotherStarts_ThenTheSecondLoadsTheKeptBinaries) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("zr_binary_cache_test_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ScopedEnv folder("ZE_REDUCE_CACHE_DIR", dir.c_str());
  ScopedEnv on("ZE_REDUCE_CACHE", "on");  // PoCL too, which is skipped by default (its own cache is faster)
  // The device's own way in (SPIR on PoCL, SPIR-V on Intel's runtime; on PoCL a cold first export of a program's
  // binary compiles every kernel, tens of seconds on 2 cores, so one way in is what this test can afford).
  {
    const Ingestion ingestion = choose_ingestion(query_capabilities(*test::test_device()), std::nullopt);
    SCOPED_TRACE(std::string(name(ingestion)));
    std::filesystem::remove_all(dir);
    // f64 where the device has it: its modules hold 4 kernels, not 62 (PoCL compiles all of a module's kernels
    // when it exports the binary: about 50 s for the base modules on 2 cores).
    const auto caps = query_capabilities(*test::test_device());
    const core::DataType type = caps.fp64 ? core::DataType::f64 : core::DataType::i32;
    auto run_tree = [&](Context& context) {
      Executor executor(context);
      const auto outcome = test::reduce(executor, core::Op::plus, type, 100003, core::Strategy::tree);
      std::string why;
      EXPECT_TRUE(core::agrees(outcome.reference, outcome.result, &why)) << why;
    };
    {
      Context first(*test::test_device(), ContextOptions{ingestion});
      run_tree(first);
      EXPECT_EQ(first.programs().loaded_from_binary_cache_count(), 0u);
    }
    std::vector<std::filesystem::path> entries;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) entries.push_back(entry.path());
    ASSERT_FALSE(entries.empty()) << "nothing was kept in " << dir;
    {
      Context second(*test::test_device(), ContextOptions{ingestion});
      run_tree(second);
      EXPECT_EQ(second.programs().loaded_from_binary_cache_count(), second.programs().built_count());
      EXPECT_GT(second.programs().built_count(), 0u);
    }
    // Damage every entry: the next context builds from its input again (no launch here: PoCL compiles kernels at
    // their first launch, seconds each on 2 cores) and keeps whole entries once more.
    for (const auto& path : entries) {
      std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
      file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
      file.put('\x5a').put('\xa5');
    }
    const auto tree = core::find_kernel("tree", core::Op::plus, type);
    ASSERT_TRUE(tree.has_value());
    for (std::size_t expected_loads : {0u, 1u}) {
      Context context(*test::test_device(), ContextOptions{ingestion});
      (void)context.programs().kernel(*tree->module, tree->kernel->entry_point);
      EXPECT_EQ(context.programs().loaded_from_binary_cache_count(), expected_loads);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(OpenclProgramCache, GivenTheCacheSwitchedOff_WhenContextsBuild_ThenNothingIsKeptOrLoaded) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("zr_binary_cache_off_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ScopedEnv folder("ZE_REDUCE_CACHE_DIR", dir.c_str());
  ScopedEnv off("ZE_REDUCE_CACHE", "off");
  for (int i = 0; i < 2; ++i) {
    Context context(*test::test_device());
    Executor executor(context);
    (void)test::reduce(executor, core::Op::plus, core::DataType::i32, 1000, core::Strategy::tree);
    EXPECT_EQ(context.programs().loaded_from_binary_cache_count(), 0u);
  }
  EXPECT_FALSE(std::filesystem::exists(dir));
}

}  // namespace

void PrintTo(Ingestion ingestion, std::ostream* out) { *out << name(ingestion); }

namespace {

// Each way in that the device supports runs a real reduction (tree strategy, two passes).
class OpenclIngestion : public testing::TestWithParam<Ingestion> {};

TEST_P(OpenclIngestion, GivenAForcedIngestion_WhenRunningATreeReduction_ThenTheResultMatchesTheHost) {
  ZR_REQUIRE_TEST_DEVICE();
  const Ingestion ingestion = GetParam();
  const auto caps = query_capabilities(*test::test_device());
  const bool accepted = ingestion == Ingestion::spirv    ? caps.accepts_spirv
                        : ingestion == Ingestion::spir12 ? caps.accepts_spir12
                                                         : caps.accepts_opencl_c;
  if (!accepted) GTEST_SKIP() << caps.device_name << " does not accept " << name(ingestion);
  Executor& executor = *test::shared_executor(ingestion);
  EXPECT_EQ(executor.context().programs().ingestion(), ingestion);
  for (auto [op, type] : {std::pair{core::Op::plus, core::DataType::i32}, {core::Op::maximum, core::DataType::f32}}) {
    const auto outcome = test::reduce(executor, op, type, 100003, core::Strategy::tree);
    std::string why;
    EXPECT_TRUE(core::agrees(outcome.reference, outcome.result, &why))
        << core::name(op) << ' ' << core::name(type) << ": " << why << '\n'
        << core::describe(outcome.plan);
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, OpenclIngestion,
                         testing::Values(Ingestion::spirv, Ingestion::spir12, Ingestion::source),
                         [](const auto& info) { return std::string(name(info.param)); });

TEST(OpenclProgramCache, GivenABrokenSource_WhenBuilt_ThenTheErrorHoldsTheBuildLog) {
  ZR_REQUIRE_TEST_DEVICE();
  static constexpr std::string_view kBroken =
      "kernel void zr_broken(global int* out) { out[0] = zr_no_such_function(1); }\n";
  core::EmbeddedModule broken{};
  broken.name = "broken_test";
  broken.variant = "broken";
  broken.type_class = "base";
  broken.cl_std = "CL1.2";
  broken.opencl_c_source = kBroken;
  Context& context = *test::shared_context(Ingestion::source);
  try {
    context.programs().program(broken);
    FAIL() << "a broken source built";
  } catch (const BackendError& error) {
    const std::string text = error.what();
    EXPECT_EQ(error.call(), "clBuildProgram");
    EXPECT_EQ(error.code_name(), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_TRUE(contains(text, "broken_test")) << text;
    EXPECT_TRUE(contains(text, "build log")) << text;
    EXPECT_TRUE(contains(text, "zr_no_such_function")) << text;  // the compiler's own words
  }
  // A failed build is not cached: asking again fails again rather than handing out a broken program.
  EXPECT_THROW(context.programs().program(broken), BackendError);
}

}  // namespace
}  // namespace zr::opencl
