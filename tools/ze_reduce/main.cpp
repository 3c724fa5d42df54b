// ze_reduce: reduce generated data or a file on any ze-reduce device, check it on the host, and measure it.
// Exit codes: 0 success, 1 verification failed, 2 usage or input error, 3 device or runtime error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <string>

#include "arg_options.hpp"
#include "device_listing.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "reduce_run.hpp"
#include "report.hpp"
#include "segment_options.hpp"
#include "segment_run.hpp"
#include "transform_options.hpp"
#include "verification.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace {

using namespace zr::cli;

constexpr int kVerificationFailed = 1;
constexpr int kUsageError = 2;
constexpr int kDeviceError = 3;

std::size_t index_of(const zr::device& device) {
  const auto& devices = zr::get_devices();
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i] == device) return i;
  return 0;
}

void check_pair(zr::core::Op op, zr::core::DataType type) {
  if (zr::core::is_supported(op, type)) return;
  const std::string pair = std::string(zr::core::name(op)) + " is not defined for " + std::string(zr::core::name(type));
  if (zr::core::is_arg_op(op))  // bool is the only type they refuse
    throw zr::InvalidArgumentError(pair +
                                   " (argmin and argmax need an integer or floating-point type); choose another "
                                   "--op or --type");
  if (zr::core::is_transform_op(op) || zr::core::is_moments_op(op))
    throw zr::InvalidArgumentError(pair + " (" + zr::core::transform_type_rule(op) + "); choose another --op or --type");
  const std::string rule = zr::core::is_floating(type) || type == zr::core::DataType::boolean
                               ? "bit_and, bit_or and bit_xor need an integer type"
                               : "logical_and and logical_or need bool";
  throw zr::InvalidArgumentError(pair + " (" +
                                 (zr::core::is_integer(type) ? std::string("logical_and and logical_or need bool")
                                  : type == zr::core::DataType::boolean
                                      ? std::string("bool takes logical_and and logical_or")
                                      : rule) +
                                 "); choose another --op or --type");
}

int run(const Options& given) {
  if (given.modules) {
    print_modules();
    return 0;
  }
  if (given.list) {
    if (given.json) std::printf("%s\n", devices_json().dump(2).c_str());
    else print_devices(given.verbosity > 0);
    return 0;
  }
  if (given.iterations == 0) throw zr::InvalidArgumentError("--iterations must be at least 1");
  check_arg_options(given);  // usage errors before any device is touched
  check_transform_options(given);
  check_segment_options(given);
  if (given.input_path.empty()) check_pair(given.op, given.type.value_or(zr::core::DataType::f32));

  const zr::device device = given.device_index ? zr::get_device(*given.device_index) : zr::default_device();
  Options options = given;
  options.op = resolve_moments_accumulator(given, device);
  if (const auto& probe = device.execution(); probe.state != zr::kernel_execution::status::yes)
    throw zr::UnsupportedError("device '" + device.name() + "' (" + std::string(to_string(device.get_backend())) +
                               ") is not known to execute kernels: its execution probe says " +
                               std::string(to_string(probe.state)) + " (" + probe.detail +
                               "), so its results would be meaningless; choose a device whose --list entry says "
                               "'kernels execute: yes'");
  const MemoryLimits limits{device.name(), device.capabilities().global_memory_bytes, host_memory_bytes()};
  Progress progress(options.verbosity >= 0 && !options.json);
  progress.update("preparing the input");
  Workload workload = load_workload(options, limits);
  const std::optional<Segmentation> segmentation = segment_workload(options, workload);
  check_pair(options.op, workload.type);

  // Profiling on: the report gives each pass its device time.
  zr::queue queue(device, zr::property::queue::enable_profiling{});
  const RunOutcome outcome = segmentation ? run_segmented(queue, options, workload, *segmentation, progress)
                                          : run_reduction(queue, options, workload, progress);
  std::optional<Verification> verification;
  if (options.verify) {
    progress.update("checking on the host");
    verification = segmentation ? verify_segments(options.op, workload, *segmentation, outcome)
                                : verify(options.op, options.columns, options.reproducible, workload, outcome);
  }
  const std::vector<std::uint64_t> result_shape =
      segmentation ? segmentation->result_shape : plain_result_shape(options, workload);
  if (!options.output_path.empty())
    write_results_npy(options.output_path, result_type(options.op, workload.type), result_shape, outcome.results);
  std::optional<std::uint64_t> probe_ns;
  if (options.bandwidth) probe_ns = measure_read_probe_ns(queue, options, workload, progress);

  const Report report{options, device, index_of(device), workload, outcome, verification, probe_ns,
                      segmentation ? std::optional<std::uint64_t>(segmentation->segments) : std::nullopt, result_shape};
  if (options.json) std::printf("%s\n", to_json(report).dump(2).c_str());
  else print_text(report, stdout);
  if (verification && !verification->passed()) {
    std::fprintf(stderr,
                 "ze_reduce: the device's result does not match the host reference (see above); please report it "
                 "with this command line and the output of 'ze_reduce --list'\n");
    return kVerificationFailed;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);  // lets the input reader look at a pipe's first bytes and put them back
  CLI::App app{"ze_reduce: parallel reductions on Intel GPUs (Level Zero) and OpenCL devices, checked and timed"};
  Options options;
  add_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : kUsageError;
  }
  try {
    return run(options);
  } catch (const zr::InvalidArgumentError& error) {
    std::fprintf(stderr, "ze_reduce: %s\n(ze_reduce --help explains every option)\n", error.what());
    return kUsageError;
  } catch (const zr::Error& error) {
    // A lost or hung device's message already says what to do.
    const bool device_gone =
        dynamic_cast<const zr::DeviceLostError*>(&error) || dynamic_cast<const zr::TimeoutError*>(&error);
    std::fprintf(stderr, "ze_reduce: %s\n%s", error.what(),
                 device_gone ? "" : "(ze_reduce --list shows the devices and what each supports)\n");
    return kDeviceError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "ze_reduce: out of host memory; choose a smaller -n or input\n");
    return kDeviceError;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ze_reduce: %s\n", error.what());
    return kDeviceError;
  }
}
