#pragma once
// Registers one GoogleTest test per case (testing::RegisterTest: the cases are known only after the
// devices are queried, so they cannot be static TEST()s).
#include <deque>
#include <vector>

#include "case_runner.hpp"

namespace zr::conformance {

// Adds a record per case to `records` (whose addresses must stay put: a std::deque) and a test that runs it.
void register_cases(RunContext& context, const std::vector<ConformanceCase>& cases, std::deque<CaseRecord>& records);

}  // namespace zr::conformance
