#include "options.hpp"

#include <CLI/CLI.hpp>

#include <string_view>

namespace zr::conformance {

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options options;
  std::vector<std::string> own{argv[0]};
  options.gtest_arguments.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    (argument.starts_with("--gtest_") ? options.gtest_arguments : own).emplace_back(argument);
  }

  CLI::App app{
      "ze_reduce_conformance: certifies ze-reduce on this machine's devices. Every (op, type) each device "
      "supports, every strategy it allows, initialize_to_identity and deterministic on and off, at edge sizes "
      "and on structured, random and special inputs, compared with an independent host reference. GoogleTest "
      "options (--gtest_filter=..., --gtest_list_tests, ...) pass through.",
      "ze_reduce_conformance"};
  bool quick = false;
  bool full = false;
  auto* quick_flag = app.add_flag("--quick", quick, "smoke run for CI: fewer sizes and inputs");
  app.add_flag("--full", full, "every size and input of the suite (the default)")->excludes(quick_flag);
  app.add_option("--device", options.devices,
                 "device to certify: an index of ze_reduce --list, or text in its description or backend "
                 "(level_zero, opencl, gpu, cpu); repeat or separate with commas; default: every device")
      ->delimiter(',');
  app.add_option("--report", options.report_path, "write a JSON report (docs/conformance.schema.json) to this file");
  app.add_option("--seed", options.seed, "base seed of every generated input (default 1); failures print theirs");
  app.add_flag("--interop", options.interop,
               "run the reductions through an application's own objects (zereduce/opencl.hpp, level_zero.hpp): "
               "a context, queue and memory of the tool's own on each device; cases without an interop call "
               "(arg-reductions, transforms, user operators, host spans) are skipped");
  app.add_flag("--list-devices", options.list_devices, "list the devices and exit");

  std::vector<std::string> reversed(own.rbegin(), own.rend() - 1);  // CLI11 takes the arguments last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& error) {
    exit_code = app.exit(error);
    return std::nullopt;
  }
  options.mode = quick ? SuiteMode::quick : SuiteMode::full;
  return options;
}

}  // namespace zr::conformance
