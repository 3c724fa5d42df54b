// ze_reduce_conformance: the conformance suite a user runs on their own devices (docs/conformance.md).
// Parses its own options, asks the library which devices there are and what each supports, registers one
// GoogleTest test per case, runs them, and writes the JSON report.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <iostream>
#include <memory>

#include "case_generation.hpp"
#include "case_runner.hpp"
#include "device_selection.hpp"
#include "options.hpp"
#include "report.hpp"
#include "test_registration.hpp"

namespace zr::conformance {
namespace {

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

void print_plan(const Options& options, const std::vector<DeviceUnderTest>& devices, std::size_t case_count) {
  std::cout << "ze_reduce_conformance " << version() << ", " << (options.mode == SuiteMode::quick ? "quick" : "full")
            << " mode" << (options.interop ? " through the application's objects (--interop)" : "") << ", seed " << options.seed << ", " << case_count << " cases\n";
  if (const char* broken = std::getenv("ZE_REDUCE_FAULT_INJECTION"); broken && *broken)
    std::cout << "  ZE_REDUCE_FAULT_INJECTION=" << broken
              << " is set: the library deliberately breaks every result of that strategy (a test-only switch)\n";
  for (const DeviceUnderTest& dut : devices)
    std::cout << "  " << dut.tag() << ": " << dut.get().description() << "\n    "
              << (dut.executes_kernels() ? "kernels execute: results are checked against the host reference"
                                         : "kernels do NOT execute (one-kernel probe): validity checks only")
              << "\n";
  std::cout << std::flush;
}

class NoDeviceTest : public testing::Test {
 public:
  void TestBody() override {
    GTEST_SKIP() << "no device was found: ze-reduce lists Level Zero GPUs and OpenCL devices (install an OpenCL "
                    "driver such as pocl-opencl-icd, or Intel's compute runtime)";
  }
};

int run(Options& options) {
  if (options.list_devices) {
    std::cout << list_devices();
    return 0;
  }
  if (!options.report_path.empty()) check_report_writable(options.report_path);
  std::vector<DeviceUnderTest> devices = select_devices(options.devices);

  std::vector<char*> gtest_argv;
  for (std::string& argument : options.gtest_arguments) gtest_argv.push_back(argument.data());
  int gtest_argc = static_cast<int>(gtest_argv.size());
  testing::InitGoogleTest(&gtest_argc, gtest_argv.data());

  RunContext context{devices, {}, {}, options.interop};
  std::deque<CaseRecord> records;
  for (std::size_t slot = 0; slot < devices.size(); ++slot)
    register_cases(context, generate_cases(devices[slot], slot, options.mode, options.seed), records);
  if (devices.empty())
    testing::RegisterTest("NoDevice", "GivenThisMachine_WhenListingDevices_ThenThereIsNoneToCertify", nullptr, nullptr,
                          __FILE__, __LINE__, []() -> testing::Test* {
                            // GoogleTest takes ownership of the raw pointer (its API offers no other way).
                            return std::make_unique<NoDeviceTest>().release();
                          });
  print_plan(options, devices, records.size());

  RunSummary summary{utc_now(), 0.0, GTEST_FLAG_GET(filter)};
  const auto start = std::chrono::steady_clock::now();
  const int status = RUN_ALL_TESTS();
  summary.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t slot = 0; slot < devices.size(); ++slot)
    if (const auto& loss = devices[slot].lost()) {
      const auto not_run = std::count_if(records.begin(), records.end(), [&](const CaseRecord& r) {
        return r.not_run && r.c.device_slot == slot;
      });
      std::cout << devices[slot].tag() << ": " << loss->message << "\n  at " << loss->test << "; " << not_run
                << " later cases of this device were not run\n";
    }

  if (!options.report_path.empty()) {
    write_report(make_report(options, devices, records, summary), options.report_path);
    std::cout << "report written to " << options.report_path << "\n";
  }
  return status;
}

}  // namespace
}  // namespace zr::conformance

int main(int argc, char** argv) {
  int exit_code = 0;
  auto options = zr::conformance::parse_options(argc, argv, exit_code);
  if (!options) return exit_code;
  try {
    return zr::conformance::run(*options);
  } catch (const zr::Error& error) {
    std::cerr << "ze_reduce_conformance: " << error.what() << "\n";
    return 2;
  }
}
