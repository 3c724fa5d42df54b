#include "test_registration.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "test_naming.hpp"

namespace zr::conformance {

namespace {

class ConformanceTest : public testing::Test {
 public:
  ConformanceTest(RunContext& context, CaseRecord& record) : context_(context), record_(record) {}
  void TestBody() override { run_case(context_, record_); }

 private:
  RunContext& context_;
  CaseRecord& record_;
};

}  // namespace

void register_cases(RunContext& context, const std::vector<ConformanceCase>& cases, std::deque<CaseRecord>& records) {
  for (const ConformanceCase& c : cases) {
    const DeviceUnderTest& dut = context.devices.at(c.device_slot);
    CaseRecord& record = records.emplace_back(CaseRecord{c, test_suite_name(dut, c), test_name(c), {}, {}, false, {}});
    // GoogleTest takes ownership of the raw pointer the factory returns (its API offers no other way).
    testing::RegisterTest(record.suite.c_str(), record.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [&context, &record]() -> testing::Test* {
                            return std::make_unique<ConformanceTest>(context, record).release();
                          });
  }
}

}  // namespace zr::conformance
