#pragma once
// The body of every conformance test: runs one case through the public API and checks it against its
// expectation, recording what happened for the report.
#include <deque>
#include <string>
#include <vector>

#include "conformance_case.hpp"
#include "dataset_cache.hpp"
#include "device_selection.hpp"
#include "reference_memo.hpp"

namespace zr::conformance {

struct CaseRecord {
  ConformanceCase c;
  std::string suite;
  std::string name;
  std::string failure;      // the first failure's message (empty when none)
  std::string skip_reason;  // why it was skipped (empty when it ran)
  bool not_run = false;     // skipped because its device was lost earlier in the run
  // Reproducible cases: the result's bytes in hex (most significant first), for the report's cross-device
  // comparison (the same seeded input must give the same bits on every device, whatever the strategy).
  std::string result_bits;
};

struct RunContext {
  std::vector<DeviceUnderTest>& devices;
  DatasetCache datasets;
  ReferenceMemo references;  // the host references of the current dataset
  bool interop = false;  // --interop: reductions through DeviceUnderTest::application()
};

// Reports failures with ADD_FAILURE and skips with GTEST_SKIP: call it from a test body only. The first lost or
// hung device of a case is one failure ("device lost at case ..."); that device's later cases are skipped as
// not run, with that reason.
void run_case(RunContext& context, CaseRecord& record);

}  // namespace zr::conformance
