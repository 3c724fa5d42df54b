#pragma once
// The command line: the suite's own options (CLI11) and GoogleTest's (--gtest_*), which pass through.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "case_generation.hpp"

namespace zr::conformance {

struct Options {
  SuiteMode mode = SuiteMode::full;
  std::vector<std::string> devices;  // empty: all
  std::string report_path;           // empty: no report
  std::uint64_t seed = 1;
  bool list_devices = false;
  bool interop = false;  // the reductions through an application's own objects (application_path.hpp)
  std::vector<std::string> gtest_arguments;  // argv[0] and every --gtest_* argument, for InitGoogleTest
};

// nullopt when the program should exit at once with `exit_code` (--help, or a usage error CLI11 printed).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

}  // namespace zr::conformance
