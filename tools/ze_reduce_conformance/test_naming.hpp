#pragma once
// Test names: suite "<device tag>_<type>" (Dev1_opencl_cpu_f32), test
// "Given<input>Of<n>_When<Op>By<Strategy><properties>_Then<result>", so that a failure line alone says which
// device, op, type, strategy, size and properties broke.
#include <string>

#include "conformance_case.hpp"
#include "device_selection.hpp"

namespace zr::conformance {

std::string test_suite_name(const DeviceUnderTest& dut, const ConformanceCase& c);
std::string test_name(const ConformanceCase& c);

}  // namespace zr::conformance
