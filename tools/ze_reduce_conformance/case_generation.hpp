#pragma once
// The cases of one device, generated from what the device reports (why_unsupported, strategies): every
// (op, type) the API defines, every strategy, initialize_to_identity and deterministic on and off, the sizes
// and inputs of the mode. What the device cannot run becomes a case that checks the refusal and is then
// skipped with the library's reason; a device that does not execute kernels gets validity cases only.
#include <cstdint>
#include <vector>

#include "conformance_case.hpp"
#include "device_selection.hpp"

namespace zr::conformance {

enum class SuiteMode : std::uint8_t { quick, full };

// The sizes of issue 7 (full mode); quick mode uses a subset of them.
inline constexpr std::uint64_t kFullSizes[] = {0,    1,    2,    3,    31,    32,          33,          255,
                                               256,  257,  4095, 4096, 4097,  65537, (1u << 20) + 7, (1u << 24) + 1};
// The one input above 2^31 elements (full mode, 1-byte type, from a host span).
inline constexpr std::uint64_t kLargeOneByteSize = (1ull << 31) + 11;

// Cases for the device in slot `slot`, grouped by type (one test suite per device and type) and, within a
// type, ordered so that consecutive cases share their input (see dataset_cache.hpp).
std::vector<ConformanceCase> generate_cases(const DeviceUnderTest& dut, std::size_t slot, SuiteMode mode,
                                            std::uint64_t base_seed);

}  // namespace zr::conformance
