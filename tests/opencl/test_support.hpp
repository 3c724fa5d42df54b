#pragma once
// Shared helpers of the OpenCL backend tests: the device to run on, and one Context per process (so modules
// are built once per test executable run, as they would be in an application).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "half.hpp"
#include "host_reference.hpp"
#include "identity.hpp"
#include "opencl/context.hpp"
#include "opencl/device.hpp"
#include "opencl/executor.hpp"
#include "opencl/program_cache.hpp"
#include "opencl/selection.hpp"
#include "plan.hpp"
#include "strategy.hpp"

namespace zr::opencl::test {

// The device the tests run on: the first CPU device (PoCL here and in CI), or with ZR_TEST_OPENCL_DEVICE=gpu
// the first GPU that executes kernels (NVIDIA on the H100 machine), or nullopt.
inline std::optional<Device> test_device() {
  static const std::optional<Device> chosen = []() -> std::optional<Device> {
    const char* wanted = std::getenv("ZR_TEST_OPENCL_DEVICE");
    const auto type = wanted && std::string_view(wanted) == "gpu" ? core::DeviceType::gpu : core::DeviceType::cpu;
    for (auto& device : list_devices()) {
      if (device.type == type && (type == core::DeviceType::cpu || probe_execution(device))) return device;
    }
    return std::nullopt;
  }();
  return chosen;
}

// A Context on the test device per forced ingestion (nullopt: the device's best), created on first use.
inline Context* shared_context(std::optional<Ingestion> ingestion = std::nullopt) {
  static std::map<int, std::unique_ptr<Context>> contexts;
  const int key = ingestion ? static_cast<int>(*ingestion) : -1;
  auto& slot = contexts[key];
  if (!slot) {
    auto device = test_device();
    if (!device) return nullptr;
    slot = std::make_unique<Context>(*device, ContextOptions{ingestion});
  }
  return slot.get();
}

// The executor of shared_context(ingestion).
inline Executor* shared_executor(std::optional<Ingestion> ingestion = std::nullopt) {
  static std::map<int, std::unique_ptr<Executor>> executors;
  const int key = ingestion ? static_cast<int>(*ingestion) : -1;
  auto& slot = executors[key];
  if (!slot) {
    Context* context = shared_context(ingestion);
    if (!context) return nullptr;
    slot = std::make_unique<Executor>(*context);
  }
  return slot.get();
}

// n elements of `type` as packed bytes, from a fixed seed: full-range integers, floating values in [-1, 1),
// bool bytes that are any non-zero value (true) with one zero (false) in the middle when n is odd.
inline std::vector<std::byte> make_data(core::DataType type, std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const std::size_t size = core::size_of(type);
  std::vector<std::byte> data(n * size);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::byte* out = data.data() + i * size;
    const std::uint64_t bits = random();
    switch (type) {
      case core::DataType::f16: {
        const std::uint16_t h = core::float_to_half_bits(static_cast<float>(unit(random)));
        std::memcpy(out, &h, 2);
        break;
      }
      case core::DataType::f32: {
        const float f = static_cast<float>(unit(random));
        std::memcpy(out, &f, 4);
        break;
      }
      case core::DataType::f64: {
        const double d = unit(random);
        std::memcpy(out, &d, 8);
        break;
      }
      case core::DataType::boolean: {
        const auto b = static_cast<std::uint8_t>(bits % 255 + 1);
        std::memcpy(out, &b, 1);
        break;
      }
      default: std::memcpy(out, &bits, size); break;
    }
  }
  if (type == core::DataType::boolean && n % 2 == 1) data[n / 2] = std::byte{0};
  return data;
}

struct Outcome {
  core::Plan plan;
  core::Scalar result;
  core::HostReference reference;
  core::RunProfile profile;
};

// Plans (core's choose_strategy + make_plan, for `strategy` or the device's choice), runs it on the executor
// and computes the host reference. The initial value is one more generated element.
inline Outcome reduce(Executor& executor, core::Op op, core::DataType type, std::uint64_t n,
                      std::optional<core::Strategy> strategy, bool include_initial = true, std::uint64_t seed = 1) {
  const auto& caps = executor.context().capabilities();
  core::ReductionRequest request;
  request.op = op;
  request.type = type;
  request.n = n;
  request.identity = core::known_identity(op, type);
  request.include_initial = include_initial;
  request.strategy = strategy;
  const auto choice = core::choose_strategy(caps, request);
  Outcome outcome;
  outcome.plan = core::make_plan(caps, request, choice);
  const auto data = make_data(type, n, seed);
  const auto initial_bytes = make_data(type, 1, seed + 1000);
  core::Scalar initial{type, {}};
  std::memcpy(initial.bytes.data(), initial_bytes.data(), initial_bytes.size());
  outcome.result = executor.run(outcome.plan, data, initial, &outcome.profile);
  outcome.reference = core::host_reference(op, type, data, n, request.identity,
                                           include_initial ? std::optional<core::Scalar>(initial) : std::nullopt,
                                           core::combine_depth(outcome.plan));
  return outcome;
}

#define ZR_REQUIRE_TEST_DEVICE()          \
  if (!::zr::opencl::test::test_device()) \
  GTEST_SKIP() << "no OpenCL device to test on (PoCL, or a GPU with ZR_TEST_OPENCL_DEVICE=gpu)"

}  // namespace zr::opencl::test
