// ze_reduce: reduce a sample workload on the default device and check it against the host reference.
// (The full command-line tool grows from here: see issue "The ze_reduce command-line tool".)
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "host_reference.hpp"
#include "identity.hpp"
#include "kernel_catalog.hpp"
#include "level_zero/device.hpp"
#include "opencl/context.hpp"
#include "opencl/executor.hpp"
#include "opencl/selection.hpp"
#include "plan.hpp"
#include "zereduce/errors.hpp"

namespace {
using namespace zr;

void list_modules() {
  std::size_t kernels = 0;
  for (const auto& m : core::embedded_modules()) {
    std::printf("%-22s requires %-28s SPIR-V %7zu B  SPIR %7zu B  source %7zu B  %3zu kernels\n",
                std::string(m.name).c_str(), core::to_string(m.required).c_str(), m.spirv.size_bytes(),
                m.spir12_bitcode.size(), m.opencl_c_source.size(), m.kernels.size());
    kernels += m.kernels.size();
  }
  std::printf("%zu modules, %zu kernels\n", core::embedded_modules().size(), kernels);
}

std::string join_sizes(const std::vector<std::uint32_t>& sizes) {
  std::string out;
  for (auto s : sizes) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out.empty() ? "none" : out;
}

void print_device(std::size_t index, const std::string& description, const core::Capabilities& caps) {
  std::printf("[%zu] %s %s: %s\n", index, caps.backend.c_str(), std::string(core::name(caps.type)).c_str(),
              description.c_str());
  std::printf("      compute units %u, max work-group %llu, local memory %llu KiB, sub-groups %s, features: %s\n",
              caps.compute_units, static_cast<unsigned long long>(caps.max_work_group_size),
              static_cast<unsigned long long>(caps.local_memory_bytes >> 10), join_sizes(caps.subgroup_sizes).c_str(),
              core::to_string(caps.features()).c_str());
  for (const auto& [op, type] : {std::pair{core::Op::plus, core::DataType::f32}, std::pair{core::Op::plus, core::DataType::i32}}) {
    core::ReductionRequest request;
    request.op = op;
    request.type = type;
    request.identity = core::known_identity(op, type);
    std::string allowed;
    for (core::Strategy s : core::kAllStrategies)
      if (!core::why_unavailable(s, caps, request)) allowed += " " + std::string(core::name(s));
    std::printf("      strategies for %s %s:%s (default %s)\n", std::string(core::name(op)).c_str(),
                std::string(core::name(type)).c_str(), allowed.c_str(),
                std::string(core::name(core::choose_strategy(caps, request).strategy)).c_str());
  }
}

// Level Zero devices first, then OpenCL devices (ZE_AFFINITY_MASK applies to Level Zero, as the driver does it).
void list_devices() {
  std::size_t index = 0;
  for (const auto& device : level_zero::devices()) {
    if (!device->usable()) {
      std::printf("[%zu] level_zero: %s: unusable: %s\n", index++, device->name().c_str(), device->problem().c_str());
      continue;
    }
    print_device(index++, device->name(), device->capabilities());
  }
  if (level_zero::devices().empty())
    std::printf("(no Level Zero device: %s)\n", std::string(level_zero::unavailable_reason()).c_str());
  for (const auto& device : opencl::devices_by_preference(opencl::list_devices())) {
    try {
      print_device(index++, device.description(), opencl::query_capabilities(device));
    } catch (const std::exception& e) {
      std::printf("[%zu] opencl: %s: unusable: %s\n", index - 1, device.description().c_str(), e.what());
    }
  }
}

// Seeded values that exercise the op: small integers (sums stay exact in f32), or 0/1 for bool.
std::vector<std::byte> sample_input(core::DataType type, std::uint64_t n, std::uint32_t seed) {
  std::vector<std::byte> bytes(n * core::size_of(type));
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto text = std::to_string(type == core::DataType::boolean ? rng() % 2 : rng() % 100);
    const auto value = core::parse_scalar(type, text);
    std::memcpy(bytes.data() + i * value.size(), value.data(), value.size());
  }
  return bytes;
}

int run(int argc, char** argv) {
  CLI::App app{"ze_reduce: parallel reductions on Intel GPUs (Level Zero) and OpenCL devices"};
  std::string op_name = "plus", type_name = "f32";
  std::uint64_t n = 1u << 22;
  std::uint32_t seed = 1;
  bool modules = false, list = false;
  app.add_option("-o,--op", op_name, "operation: plus multiplies minimum maximum bit_and bit_or bit_xor logical_and logical_or");
  app.add_option("-t,--type", type_name, "element type: i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 bool");
  app.add_option("-n,--size", n, "number of elements (example: -n 16777216)");
  app.add_option("--seed", seed, "seed of the generated input");
  app.add_flag("--modules", modules, "list the embedded kernel modules and exit");
  app.add_flag("--list", list, "list every device (Level Zero, then OpenCL) with its capabilities and strategies");
  CLI11_PARSE(app, argc, argv);
  if (modules) {
    list_modules();
    return 0;
  }
  if (list) {
    list_devices();
    return 0;
  }
  const auto op = core::parse_op(op_name);
  const auto type = core::parse_data_type(type_name);
  if (!op || !type) {
    std::fprintf(stderr, "ze_reduce: unknown %s '%s' (see --help)\n", op ? "type" : "op", (op ? type_name : op_name).c_str());
    return 2;
  }

  const auto device = opencl::default_device();
  if (!device) {
    std::fprintf(stderr, "ze_reduce: no device that executes kernels was found; install pocl-opencl-icd (CPU) or a GPU driver\n");
    return 3;
  }
  opencl::Context context(*device);
  opencl::Executor executor(context);

  core::ReductionRequest request;
  request.op = *op;
  request.type = *type;
  request.n = n;
  request.identity = core::known_identity(*op, *type);
  request.include_initial = false;
  const auto choice = core::choose_strategy(context.capabilities(), request);
  const auto plan = core::make_plan(context.capabilities(), request, choice);
  const auto input = sample_input(*type, n, seed);

  core::RunProfile profile;
  executor.run(plan, input, request.identity, &profile);  // warm-up: builds the modules
  const auto result = executor.run(plan, input, request.identity, &profile);
  const auto reference = core::host_reference(*op, *type, input, n, request.identity, std::nullopt);
  std::string why;
  const bool ok = core::agrees(reference, result, &why);

  std::printf("device   : %s\n", device->description().c_str());
  std::printf("reduce   : %s over %llu x %s (seeded values, seed %u)\n", op_name.c_str(), static_cast<unsigned long long>(n),
              type_name.c_str(), seed);
  std::printf("strategy : %s: %s\n", std::string(core::name(choice.strategy)).c_str(), choice.reason.c_str());
  for (const auto& pass : profile.passes)
    std::printf("  pass %-12s %-28s %10.1f us\n", pass.label.c_str(), pass.kernel.c_str(), pass.duration_ns() * 1e-3);
  const double seconds = profile.total_ns() * 1e-9;
  if (seconds > 0)
    std::printf("time     : %.1f us on the device, %.2f GB/s\n", seconds * 1e6, n * core::size_of(*type) / seconds * 1e-9);
  std::printf("result   : %s\n", result.to_string().c_str());
  std::printf("host     : %s (%s)\n", reference.value.to_string().c_str(), ok ? "verified" : ("MISMATCH: " + why).c_str());
  return ok ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const zr::InvalidArgumentError& e) {
    std::fprintf(stderr, "ze_reduce: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ze_reduce: %s\n", e.what());
    return 3;
  }
}
