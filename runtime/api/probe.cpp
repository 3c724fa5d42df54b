#include "api/probe.hpp"

#include <array>
#include <cstdint>

#include "api/scoped_allocation.hpp"
#include "log.hpp"
#include "wait_limit.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

kernel_execution probe_execution(BackendDevice& device) {
  constexpr std::array<std::uint32_t, 4> input{1, 2, 3, 4};
  constexpr std::uint32_t expected = 10;
  constexpr std::uint32_t sentinel = 0xDEADBEEF;
  using status = kernel_execution::status;
  const auto limit = core::probe_wait_limit();
  const core::ScopedWaitLimit bounded(limit);
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
    if (value == expected) return {status::yes, {}};
    logger().debug("api: execution probe on '{}' read back {:#x} instead of {}", device.name(), value, expected);
    return {status::no, "the driver accepts work but does not run kernels"};
  } catch (const TimeoutError& error) {
    logger().debug("api: execution probe on '{}' timed out: {}", device.name(), error.what());
    return {status::unknown, "probe did not finish in " + core::seconds_text(limit)};
  } catch (const Error& error) {
    logger().debug("api: execution probe on '{}' failed: {}", device.name(), error.what());
    return {status::no, error.what()};
  }
}

}  // namespace zr::api
