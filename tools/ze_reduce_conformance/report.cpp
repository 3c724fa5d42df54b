#include "report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "common/capabilities_json.hpp"

namespace zr::conformance {

namespace {

// Failures listed in full; the rest are only counted (a broken strategy fails thousands of cases).
constexpr std::size_t kFailuresListed = 50;

enum class Status { passed, failed, skipped };

// "Suite.Name" -> outcome, for every test that ran.
std::unordered_map<std::string, Status> outcomes() {
  std::unordered_map<std::string, Status> found;
  const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const testing::TestInfo& info = *suite.GetTestInfo(t);
      if (!info.should_run()) continue;
      const testing::TestResult& result = *info.result();
      const Status status = result.Failed() ? Status::failed : result.Skipped() ? Status::skipped : Status::passed;
      found.emplace(std::string(info.test_suite_name()) + "." + info.name(), status);
    }
  }
  return found;
}


nlohmann::json device_json(const DeviceUnderTest& dut) {
  const device& dev = dut.get();
  const bool runs = dut.executes_kernels();
  return {{"index", dut.index()},
          {"tag", dut.tag()},
          {"name", dev.name()},
          {"description", dev.description()},
          {"backend", std::string(to_string(dev.get_backend()))},
          {"kind", std::string(to_string(dev.kind()))},
          {"driver_version", dev.driver_version()},
          {"kernels_execute", runs},
          {"checks", runs ? "results" : "validity_only"},
          {"note", runs ? "results compared with the host reference"
                        : "a one-kernel probe found that kernels do not execute on this device (such as Intel's "
                          "driver without hardware): only validity checks ran (refusals before any work, "
                          "submissions accepted and completed); no result was checked"},
          {"capabilities", tools::capabilities_json(dev.capabilities())}};
}

nlohmann::json failure_json(const CaseRecord& record, const std::vector<DeviceUnderTest>& devices) {
  const ConformanceCase& c = record.c;
  return {{"test", record.suite + "." + record.name},
          {"device", devices.at(c.device_slot).tag()},
          {"op", op_label(c)},
          {"type", std::string(to_string(c.type))},
          {"strategy", std::string(to_string(c.strategy))},
          {"n", c.n},
          {"input", std::string(name(c.input))},
          {"seed", c.seed},
          {"initialize_to_identity", c.properties.initialize_to_identity},
          {"deterministic", c.properties.deterministic},
          {"reproducible", c.properties.reproducible},
          {"message", record.failure.empty() ? "failed (see the test output)" : record.failure}};
}

// The library's test-only switch that breaks a strategy on purpose: a report made with it set must say so.
nlohmann::json fault_injection() {
  const char* broken = std::getenv("ZE_REDUCE_FAULT_INJECTION");
  return broken && *broken ? nlohmann::json(broken) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json make_report(const Options& options, const std::vector<DeviceUnderTest>& devices,
                           const std::deque<CaseRecord>& records, const RunSummary& summary) {
  const auto found = outcomes();
  struct Bucket {
    std::size_t passed = 0, failed = 0, skipped = 0, not_run = 0;
    std::vector<std::string> skip_reasons;
  };
  using BucketKey = std::tuple<std::size_t, element_type, std::string, strategy>;
  std::map<BucketKey, Bucket> buckets;
  std::size_t passed = 0, failed = 0, skipped = 0, not_run = 0;
  nlohmann::json failures = nlohmann::json::array();
  for (const CaseRecord& record : records) {
    const auto outcome = found.find(record.suite + "." + record.name);
    if (outcome == found.end()) continue;  // filtered out
    const ConformanceCase& c = record.c;
    Bucket& bucket = buckets[{c.device_slot, c.type, op_label(c), c.strategy}];
    switch (outcome->second) {
      case Status::passed: ++bucket.passed, ++passed; break;
      case Status::skipped: {
        if (record.not_run) {  // the device's loss says why, once
          ++bucket.not_run, ++not_run;
          break;
        }
        ++bucket.skipped, ++skipped;
        const std::string reason = record.skip_reason.empty() ? "skipped (see the test output)" : record.skip_reason;
        if (std::find(bucket.skip_reasons.begin(), bucket.skip_reasons.end(), reason) == bucket.skip_reasons.end())
          bucket.skip_reasons.push_back(reason);
        break;
      }
      case Status::failed:
        ++bucket.failed, ++failed;
        if (failures.size() < kFailuresListed) failures.push_back(failure_json(record, devices));
        break;
    }
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& [key, bucket] : buckets) {
    const auto& [slot, type, op, s] = key;
    results.push_back({{"device", devices.at(slot).tag()},
                       {"op", op},
                       {"type", std::string(to_string(type))},
                       {"strategy", std::string(to_string(s))},
                       {"passed", bucket.passed},
                       {"failed", bucket.failed},
                       {"skipped", bucket.skipped},
                       {"not_run", bucket.not_run},
                       {"skip_reasons", bucket.skip_reasons}});
  }
  // What kind of check each device's cases that ran were: on a device whose kernels do not execute, no
  // result may have been compared.
  std::vector<std::array<std::size_t, 3>> kinds(devices.size());
  for (const CaseRecord& record : records) {
    if (record.not_run || !found.contains(record.suite + "." + record.name)) continue;
    const Expectation e = record.c.expectation;
    ++kinds.at(record.c.device_slot)[e == Expectation::matches_reference ? 0 : e == Expectation::validity_only ? 1 : 2];
  }
  // One entry per (device, reproducible input): what every strategy that passed gave (the same bits, or the
  // case failed). Reports of two machines compare by `case`: tests/reports/compare_reproducible.py.
  nlohmann::json reproducible = nlohmann::json::array();
  std::set<std::pair<std::size_t, std::string>> reproducible_seen;
  for (const CaseRecord& record : records) {
    const auto outcome = found.find(record.suite + "." + record.name);
    if (record.result_bits.empty() || outcome == found.end() || outcome->second != Status::passed) continue;
    const ConformanceCase& c = record.c;
    const std::string key = std::string(to_string(c.type)) + " " + std::string(name(c.input)) + " n=" +
                            std::to_string(c.n) + " seed=" + std::to_string(c.seed) +
                            (c.properties.initialize_to_identity ? " from the identity" : " with its initial value");
    if (!reproducible_seen.insert({c.device_slot, key}).second) continue;
    reproducible.push_back({{"device", devices.at(c.device_slot).tag()}, {"case", key}, {"bits", record.result_bits}});
  }
  nlohmann::json device_list = nlohmann::json::array();
  for (std::size_t slot = 0; slot < devices.size(); ++slot) {
    nlohmann::json entry = device_json(devices[slot]);
    entry["cases"] = {{"compared_with_reference", kinds[slot][0]},
                      {"validity_only", kinds[slot][1]},
                      {"refusal", kinds[slot][2]}};
    const auto& loss = devices[slot].lost();
    entry["lost"] = loss ? nlohmann::json{{"test", loss->test}, {"message", loss->message}} : nlohmann::json(nullptr);
    device_list.push_back(entry);
  }
  return {{"schema_version", 1},
          {"tool", "ze_reduce_conformance"},
          {"library_version", std::string(version())},
          {"mode", options.mode == SuiteMode::quick ? "quick" : "full"},
          {"interop", options.interop},
          {"seed", options.seed},
          {"gtest_filter", summary.gtest_filter},
          {"fault_injection", fault_injection()},
          {"started_utc", summary.started_utc},
          {"duration_seconds", summary.duration_seconds},
          {"devices", device_list},
          {"totals", {{"passed", passed}, {"failed", failed}, {"skipped", skipped}, {"not_run", not_run}}},
          {"results", results},
          {"failures", failures},
          {"failures_not_listed", failed - failures.size()},
          {"reproducible_results", reproducible}};
}

void check_report_writable(const std::string& path) {
  if (!std::ofstream(path)) throw InvalidArgumentError("cannot open the report file '" + path + "' for writing");
}

void write_report(const nlohmann::json& report, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InvalidArgumentError("cannot open the report file '" + path + "' for writing");
  out << report.dump(2) << "\n";
  if (!out) throw Error("writing the report file '" + path + "' failed");
}

}  // namespace zr::conformance
