#include "case_runner.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "device_reduction.hpp"
#include "reference_check.hpp"
#include "segmented_cases.hpp"
#include "kernel_cases.hpp"
#include "user_operator_cases.hpp"

namespace zr::conformance {

namespace {

// Deterministic floating sums and products are run this many times and must agree bit for bit.
constexpr int kDeterministicRuns = 5;

// "0x" and the value's bytes, most significant first (the host is little-endian, as every device is).
std::string hex_bits(const core::Scalar& value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text = "0x";
  for (std::size_t i = value.size(); i-- > 0;) {
    const auto byte = static_cast<unsigned>(value.bytes[i]);
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

std::string where(const DeviceUnderTest& dut, const ConformanceCase& c) {
  return "device '" + dut.get().name() + "' (" + dut.tag() + "): " + describe(c);
}

void fail(CaseRecord& record, const DeviceUnderTest& dut, const std::string& what) {
  const std::string message = where(dut, record.c) + ": " + what;
  if (record.failure.empty()) record.failure = message;
  ADD_FAILURE() << message;
}

// Any library error during a case is a failure; a lost or hung device is the device's last one.
void fail(CaseRecord& record, DeviceUnderTest& dut, const std::string& what, const Error& error) {
  if (!dynamic_cast<const DeviceLostError*>(&error) && !dynamic_cast<const TimeoutError*>(&error)) {
    fail(record, dut, what + error.what());
    return;
  }
  const std::string message = "device lost at case " + describe(record.c) + ": " + error.what();
  dut.mark_lost({record.suite + "." + record.name, message});
  record.failure = "device '" + dut.get().name() + "' (" + dut.tag() + "): " + message;
  ADD_FAILURE() << record.failure << "\n(its remaining cases are not run: the library refuses further work on it)";
}

std::string skip(CaseRecord& record, std::string reason) {
  record.skip_reason = std::move(reason);
  return record.skip_reason;
}

// One reduction of a plain case: through the library's queue, or with --interop through the application's own
// objects (the input's host bytes copied into the application's memory).
DeviceRun reduce_case(RunContext& context, DeviceUnderTest& dut, const ConformanceCase& c, const void* input,
                      std::span<const std::byte> host, const core::Scalar& initial) {
  if (context.interop) return dut.application().reduce(c, host.first(std::min<std::size_t>(host.size(), c.n * core::size_of(static_cast<core::DataType>(c.type)))), initial);
  return reduce_once(dut.get_queue(), c, input, initial);
}

// MemAvailable of /proc/meminfo (free memory plus what the kernel can reclaim, such as the page cache), else
// the free pages sysconf reports.
std::uint64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  const std::string key = "MemAvailable:";
  for (std::string line; std::getline(meminfo, line);)
    if (line.starts_with(key)) return std::stoull(line.substr(key.size())) * 1024;  // "MemAvailable: 123 kB"
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) : 0;
}

// Why the input above 2^31 elements cannot run here, or empty. The host holds the input and the
// reference reads it; the library copies it to the device in chunks of at most one allocation (on a CPU
// device that memory is the host's too).
std::string why_too_large(const DeviceUnderTest& dut, std::uint64_t bytes) {
  const device_capabilities& caps = dut.get().capabilities();
  const std::uint64_t chunk = caps.max_allocation_bytes ? std::min(bytes, caps.max_allocation_bytes) : bytes;
  const std::uint64_t host_needed = bytes + (dut.get().kind() == device_kind::cpu ? chunk : 0) + (1ull << 30);
  if (available_host_bytes() < host_needed)
    return "needs " + std::to_string(host_needed >> 20) + " MiB of free host memory, " +
           std::to_string(available_host_bytes() >> 20) + " MiB are free";
  if (caps.global_memory_bytes && caps.global_memory_bytes < chunk)
    return "the device has " + std::to_string(caps.global_memory_bytes >> 20) + " MiB of memory, a chunk needs " +
           std::to_string(chunk >> 20) + " MiB";
  return {};
}

void expect_refusal(CaseRecord& record, DeviceUnderTest& dut, RunContext& context) {
  ConformanceCase c = record.c;
  c.from_host_span = true;  // refused before any work: nothing needs to reach the device
  const std::vector<std::byte> input(c.n * 8);
  const bool user = c.op == op_kind::user;
  const std::optional<std::string> why = user ? dut.get().why_unsupported(*sample_operator(c.user_operator).source)
                                              : dut.get().why_unsupported(c.type, c.op);
  const std::string listed = record.c.expectation == Expectation::pair_refused
                                 ? "the device cannot run this (op, type): " + why.value_or("(no reason given)")
                                 : std::string("the device does not list this strategy for it");
  try {
    if (user) reduce_user_once(dut.get_queue(), c, input.data());
    else reduce_case(context, dut, c, input.data(), input, initial_value(c.type, c.op, c.seed));
  } catch (const UnsupportedError& error) {
    GTEST_SKIP() << skip(record, record.c.expectation == Expectation::pair_refused ? listed : error.what());
  } catch (const Error& error) {
    fail(record, dut, listed + ", and the library refused it with the wrong kind of error: ", error);
    return;
  }
  fail(record, dut, listed + ", yet the library accepted it");
}

void expect_completion(CaseRecord& record, DeviceUnderTest& dut, RunContext& context) {
  const ConformanceCase& c = record.c;
  try {
    const Dataset& data = context.datasets.get(dut, c);
    const zr::strategy ran =
        c.op == op_kind::user
            ? reduce_user_once(dut.get_queue(), c, data.device_input()).strategy
            : reduce_case(context, dut, c, data.device_input(), data.host, initial_value(c.type, c.op, c.seed)).strategy;
    if (ran != c.strategy)
      fail(record, dut, "ran strategy " + std::string(to_string(ran)) + " instead of the one asked for");
  } catch (const Error& error) {
    fail(record, dut, "the library threw: ", error);
  }
}

// A user-defined operator's case: its host reference, and the same bits from a second run.
void expect_user_reference(CaseRecord& record, DeviceUnderTest& dut, const Dataset& data, const void* input) {
  const ConformanceCase& c = record.c;
  UserRun first;
  try {
    first = reduce_user_once(dut.get_queue(), c, input);
  } catch (const Error& error) {
    fail(record, dut, "the library threw: ", error);
    return;
  }
  if (first.strategy != c.strategy)
    fail(record, dut, "ran strategy " + std::string(to_string(first.strategy)) + " instead of the one asked for");
  if (auto why = user_disagreement(c, data.host, first)) fail(record, dut, *why);
  try {
    if (!same_user_result(c, reduce_user_once(dut.get_queue(), c, input), first))
      fail(record, dut, "a user operator's reduction is deterministic, yet run 2 gave other bits");
  } catch (const Error& error) {
    fail(record, dut, "run 2 threw: ", error);
  }
}

// Every segment against its own host reference; deterministic cases run again and must repeat every bit.
void expect_segments_reference(CaseRecord& record, DeviceUnderTest& dut, const Dataset& data, const void* input) {
  const ConformanceCase& c = record.c;
  const std::uint64_t max_allocation = dut.get().capabilities().max_allocation_bytes;
  if (max_allocation && data.host.size() > max_allocation)
    GTEST_SKIP() << skip(record, "segmented reductions do not run in chunks yet, and the device allocates at most " +
                                     std::to_string(max_allocation) + " bytes at once");
  const CaseSegments segments = case_segments(c);
  const std::vector<std::byte> initial = segment_initial_values(c, segments.count());
  const core::Scalar operand = c.op == op_kind::count_equal ? counted_value(c, data.host) : core::Scalar{};
  SegmentedRun first;
  try {
    first = reduce_segments_once(dut.get_queue(), c, input, segments, initial, operand);
  } catch (const Error& error) {
    fail(record, dut, "the library threw: ", error);
    return;
  }
  if (first.host_path != c.expect_host_path)
    fail(record, dut, std::string(first.host_path ? "took" : "did not take") + " the host path with " +
                          std::to_string(c.n) + " elements" + (c.from_host_span ? " from a host span" : " in device memory") +
                          " (the device's crossover is " + std::to_string(dut.get().host_path_max_segment_bytes()) + " bytes)");
  if (auto why = segments_disagreement(c, data.host, segments, initial, operand, first)) fail(record, dut, *why);
  if (!c.properties.deterministic) return;
  try {
    if (reduce_segments_once(dut.get_queue(), c, input, segments, initial, operand).results != first.results)
      fail(record, dut, "deterministic, yet run 2 gave other bits for some segment");
  } catch (const Error& error) {
    fail(record, dut, "run 2 threw: ", error);
  }
}

void expect_reference(CaseRecord& record, DeviceUnderTest& dut, RunContext& context) {
  const ConformanceCase& c = record.c;
  if (c.from_host_span) {
    if (const std::string why = why_too_large(dut, c.n); !why.empty())
      GTEST_SKIP() << skip(record, "input of " + std::to_string(c.n) + " elements: " + why);
  }
  const Dataset* data = nullptr;
  try {
    data = &context.datasets.get(dut, c);
  } catch (const UnsupportedError& error) {
    GTEST_SKIP() << skip(record, std::string("the device cannot hold the input: ") + error.what());
  } catch (const Error& error) {
    fail(record, dut, "uploading the input failed: ", error);
    return;
  }
  const void* input = c.from_host_span ? static_cast<const void*>(data->host.data()) : data->device_input();
  context.references.use_input(data->contents);
  if (c.segments != SegmentShape::none) {
    expect_segments_reference(record, dut, *data, input);
    return;
  }
  if (c.op == op_kind::user) {
    expect_user_reference(record, dut, *data, input);
    return;
  }
  if (c.kernel != KernelForm::none) {
    try {
      if (auto why = kernel_disagreement(dut.get_queue(), c, input, data->host)) fail(record, dut, *why);
    } catch (const UnsupportedError& error) {
      GTEST_SKIP() << skip(record, std::string("the device cannot run the kernel: ") + error.what());
    } catch (const Error& error) {
      fail(record, dut, "the library threw: ", error);
    }
    return;
  }
  const core::Scalar initial =
      c.op == op_kind::count_equal ? counted_value(c, data->host) : initial_value(c.type, c.op, c.seed);
  DeviceRun first;
  try {
    first = reduce_case(context, dut, c, input, data->host, initial);
  } catch (const UnsupportedError& error) {
    GTEST_SKIP() << skip(record, "the device lists this strategy for the pair but refused it at this size: " +
                                     std::string(error.what()));
  } catch (const Error& error) {
    fail(record, dut, "the library threw: ", error);
    return;
  }
  if (c.library_choice) {
    if (first.host_path != c.expect_host_path)
      fail(record, dut, std::string(first.host_path ? "took" : "did not take") + " the host path with " +
                            std::to_string(c.n) + " elements (the device's crossover is " +
                            std::to_string(dut.get().host_path_max_bytes()) + " bytes)");
  } else if (first.strategy != c.strategy) {
    fail(record, dut, "ran strategy " + std::string(to_string(first.strategy)) + " instead of the one asked for");
  }
  if (is_arg_op(c.op)) {
    if (auto why = arg_disagreement(c, data->host, first.result, first.index, &context.references)) fail(record, dut, *why);
    return;  // the order of combining cannot change an arg-reduction: nothing to repeat
  }
  if (is_moments_op(c.op)) {
    if (auto why = moments_disagreement(c, data->host, first.moments, first.combine_depth, &context.references)) fail(record, dut, *why);
    if (!c.properties.deterministic) return;
    try {
      const core::Moments again = reduce_once(dut.get_queue(), c, input, initial).moments;
      const bool same = again.count == first.moments.count &&
                        ((again.mean == first.moments.mean && again.m2 == first.moments.m2) ||
                         (std::isnan(again.mean) && std::isnan(first.moments.mean)));
      if (!same) fail(record, dut, "deterministic, yet run 2 gave another mean or m2");
    } catch (const Error& error) {
      fail(record, dut, "run 2 threw: ", error);
    }
    return;
  }
  if (auto why = disagreement(c, data->host, initial, first.result, first.combine_depth, &context.references))
    fail(record, dut, *why);
  if (c.properties.reproducible) record.result_bits = hex_bits(first.result);
  if (c.properties.reproducible && c.op == op_kind::plus && checked_within_bound(c.type, c.op)) {
    try {
      const core::Scalar chunked = reduce_in_chunks(dut.get_queue(), c, input, initial);
      if (!chunked.bitwise_equal(first.result))
        fail(record, dut, "reproducible, yet partials of three chunks merged gave " + chunked.to_string() +
                              " where one reduction gave " + first.result.to_string());
    } catch (const Error& error) {
      fail(record, dut, "the partial sums of three chunks threw: ", error);
    }
  }

  if (!c.properties.deterministic || !checked_within_bound(c.type, c.op)) return;
  for (int run = 2; run <= kDeterministicRuns; ++run) {
    try {
      const DeviceRun again = reduce_case(context, dut, c, input, data->host, initial);
      if (!again.result.bitwise_equal(first.result)) {
        fail(record, dut, "deterministic, yet run " + std::to_string(run) + " gave " + again.result.to_string() +
                              " where run 1 gave " + first.result.to_string());
        return;
      }
    } catch (const Error& error) {
      fail(record, dut, "run " + std::to_string(run) + " threw: ", error);
      return;
    }
  }
}

}  // namespace

void run_case(RunContext& context, CaseRecord& record) {
  DeviceUnderTest& dut = context.devices.at(record.c.device_slot);
  if (const auto& loss = dut.lost()) {
    record.not_run = true;
    GTEST_SKIP() << skip(record, "not run: the device was lost at " + loss->test + " (that case's failure says how)");
  }
  if (context.interop) {
    if (const std::string why = ApplicationPath::why_not(record.c); !why.empty())
      GTEST_SKIP() << skip(record, "--interop: " + why + " has no interop call");
  }
  switch (record.c.expectation) {
    case Expectation::pair_refused:
    case Expectation::strategy_refused: expect_refusal(record, dut, context); break;
    case Expectation::validity_only: expect_completion(record, dut, context); break;
    case Expectation::matches_reference: expect_reference(record, dut, context); break;
  }
}

}  // namespace zr::conformance
