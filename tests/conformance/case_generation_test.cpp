// The cases generated for the devices of this machine (PoCL here and in CI): every test name unique, every
// (op, type) the API defines accounted for, the deterministic property never given a strategy the device
// rules out for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "case_generation.hpp"
#include "test_naming.hpp"
#include "user_operator_cases.hpp"
#include "common/type_dispatch.hpp"

namespace zr::conformance {
namespace {

TEST(CaseGeneration, GivenEachDevice_WhenCasesAreGeneratedInBothModes_ThenNamesAreUniqueAndEveryPairIsCovered) {
  std::vector<DeviceUnderTest> devices = select_devices({});
  if (devices.empty()) GTEST_SKIP() << "no device on this machine: nothing to generate cases for";
  for (std::size_t slot = 0; slot < devices.size(); ++slot) {
    const DeviceUnderTest& dut = devices[slot];
    for (SuiteMode mode : {SuiteMode::quick, SuiteMode::full}) {
      std::set<std::string> names;
      std::set<std::pair<element_type, op_kind>> pairs;
      std::set<std::string_view> user_operators;
      for (const ConformanceCase& c : generate_cases(dut, slot, mode, 1)) {
        EXPECT_TRUE(names.insert(test_suite_name(dut, c) + "." + test_name(c)).second) << test_name(c);
        if (c.op == op_kind::user) user_operators.insert(c.user_operator);
        else pairs.insert({c.type, c.op});
        if (c.expectation == Expectation::matches_reference || c.expectation == Expectation::validity_only) {
          const auto allowed = c.op == op_kind::user
                                   ? dut.get().strategies(*sample_operator(c.user_operator).source)
                                   : dut.get().strategies(c.type, c.op, c.properties.deterministic, c.properties.reproducible);
          EXPECT_NE(std::find(allowed.begin(), allowed.end(), c.strategy), allowed.end()) << describe(c);
        }
        if (!dut.executes_kernels()) {
          EXPECT_NE(c.expectation, Expectation::matches_reference) << describe(c);
        }
      }
      EXPECT_EQ(pairs.size(), 167u) << dut.tag() << ": 56 integer, 12 floating and 2 bool (op, type) pairs, argmin/argmax "
                                                   "on 11 types, 54 transform-reduction and 21 mean/variance pairs";
      EXPECT_EQ(user_operators.size(), sample_operators().size()) << dut.tag() << ": every sample user operator";
    }
  }
}

}  // namespace
}  // namespace zr::conformance
