#pragma once
// The JSON report a user attaches to a bug (docs/conformance.md; schema docs/conformance.schema.json):
// the library version, each device with its backend, driver and capabilities and whether its kernels
// execute, passed/failed/skipped counts per (device, op, type, strategy) with the skip reasons, and the
// first failures with their seeds.
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_runner.hpp"
#include "options.hpp"

namespace zr::conformance {

struct RunSummary {
  std::string started_utc;
  double duration_seconds = 0.0;
  std::string gtest_filter;
};

// Reads each case's outcome from GoogleTest's results (call after RUN_ALL_TESTS); cases the filter left out
// are not counted.
nlohmann::json make_report(const Options& options, const std::vector<DeviceUnderTest>& devices,
                           const std::deque<CaseRecord>& records, const RunSummary& summary);

// Fails early (zr::InvalidArgumentError naming the file) when the report could not be written, before an hour
// of tests runs for nothing; leaves an empty file.
void check_report_writable(const std::string& path);

// Writes the report; zr::Error naming the file when it cannot.
void write_report(const nlohmann::json& report, const std::string& path);

}  // namespace zr::conformance
