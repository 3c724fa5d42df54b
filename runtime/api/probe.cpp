#include "api/probe.hpp"

#include <array>
#include <cstdint>

#include "api/scoped_allocation.hpp"
#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

bool probe_execution(BackendDevice& device) {
  constexpr std::array<std::uint32_t, 4> input{1, 2, 3, 4};
  constexpr std::uint32_t expected = 10;
  constexpr std::uint32_t sentinel = 0xDEADBEEF;
  try {
    ScopedAllocation data(device, memory_kind::device, sizeof(input));
    device.copy(data.get(), input.data(), sizeof(input));
    core::ReductionRequest request;
    request.op = core::Op::plus;
    request.type = core::DataType::u32;
    request.n = input.size();
    request.identity = core::Scalar::from<std::uint32_t>(core::DataType::u32, 0);
    request.include_initial = false;
    request.strategy = core::Strategy::tree;
    const core::Plan plan = device.plan(request);
    // The result goes to host memory the way a blocking reduction's does: staged on the device, copied back.
    std::uint32_t value = sentinel;
    const core::ResultTarget results[] = {{&value, true}};
    device.run(plan, data.get(), results, core::Timestamps::off);
    if (value != expected)
      logger().debug("api: execution probe on '{}' read back {:#x} instead of {}", device.name(), value, expected);
    return value == expected;
  } catch (const Error& error) {
    logger().debug("api: execution probe on '{}' failed: {}", device.name(), error.what());
    return false;
  }
}

}  // namespace zr::api
