#include "options.hpp"

#include <array>
#include <utility>

#include "size_text.hpp"
#include "zereduce/errors.hpp"

namespace zr::cli {

namespace {

constexpr std::array<std::pair<std::string_view, core::Op>, 13> kOpAliases{{{"sum", core::Op::plus},
                                                                            {"prod", core::Op::multiplies},
                                                                            {"min", core::Op::minimum},
                                                                            {"max", core::Op::maximum},
                                                                            {"and", core::Op::bit_and},
                                                                            {"or", core::Op::bit_or},
                                                                            {"xor", core::Op::bit_xor},
                                                                            {"land", core::Op::logical_and},
                                                                            {"lor", core::Op::logical_or},
                                                                            {"sumsq", core::Op::sum_squares},
                                                                            {"norm", core::Op::norm_l2},
                                                                            {"asum", core::Op::norm_l1},
                                                                            {"nnz", core::Op::count_nonzero}}};

constexpr std::array<zr::strategy, 7> kStrategies{zr::strategy::tree,          zr::strategy::subgroup,
                                                  zr::strategy::work_group,    zr::strategy::local_atomics,
                                                  zr::strategy::cpu_chunks,    zr::strategy::last_group,
                                                  zr::strategy::global_atomics};

std::string strategy_names() {
  std::string names;
  for (auto s : kStrategies) {
    if (!names.empty()) names += ", ";
    names += to_string(s);
  }
  return names;
}

std::uint64_t count_option(const std::string& text) {
  try {
    return parse_element_count(text);
  } catch (const InvalidArgumentError& error) {
    throw CLI::ValidationError(error.what());
  }
}

}  // namespace

std::optional<core::Op> parse_op_name(std::string_view text) {
  if (auto op = core::parse_op(text)) return op;
  for (const auto& [alias, op] : kOpAliases)
    if (alias == text) return op;
  return std::nullopt;
}

void add_options(CLI::App& app, Options& o) {
  app.footer(
      "Examples:\n"
      "  ze_reduce                                   sum of 2^24 generated floats on the default device\n"
      "  ze_reduce --list                            devices, their capabilities and strategies\n"
      "  ze_reduce -o max -t i32 -n 256M --verify    maximum of 2^28 ints, checked on the host\n"
      "  ze_reduce --input x.npy -o min --json       minimum of a NumPy array, as one JSON document\n"
      "  ze_reduce --input x.npy -o argmax           largest value of a NumPy array and its first index\n"
      "  ze_reduce -o norm_l2 -n 2^26 --verify       L2 norm (square root of the sum of squares), one read\n"
      "  ze_reduce -t i16 --input s.bin -o mean_var  mean and variance of 16-bit samples\n"
      "  ze_reduce -t u8 -o sum_u64 --input img.raw  bytes summed into a 64-bit total\n"
      "  ze_reduce -t u8 --input data.bin -o xor     raw binary file of bytes\n"
      "  ze_reduce -t f64 --input be.bin --byte-order big   raw big-endian doubles (a.astype('>f8').tofile)\n"
      "  ze_reduce -n 2^28 -i 20 --bandwidth         throughput against the device's read bandwidth\n"
      "Exit codes: 0 success, 1 verification failed, 2 usage or input error, 3 device or runtime error.\n"
      "Logging: ZE_REDUCE_LOG=debug (trace, info, warn, error) shows the runtime's log on standard error.");

  app.add_option_function<std::string>(
         "-o,--op",
         [&o](const std::string& text) {
           o.moments_accumulator_named = text != "mean_var";
           const auto op = o.moments_accumulator_named ? parse_op_name(text) : std::optional(core::Op::mean_var_f64);
           if (!op)
             throw CLI::ValidationError(
                 "--op", "'" + text +
                             "' is not an operation: use plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, "
                             "logical_and, logical_or, argmin, argmax, sum_squares, norm_l2, norm_l1, count_nonzero, "
                             "count_equal, sum_i64, sum_u64, sum_f32, sum_f64, mean_var, mean_var_f32, mean_var_f64 "
                             "or sum, prod, min, max, and, or, xor, land, lor, sumsq, norm, asum, nnz");
           o.op = *op;
         },
         "operation, by its SYCL name or short alias: plus|sum, multiplies|prod, minimum|min, maximum|max, "
         "bit_and|and, bit_or|or, bit_xor|xor (integers), logical_and|land, logical_or|lor (bool); argmin, argmax "
         "(the extreme value and the index of its first occurrence; numbers only); transform-reductions, one read "
         "of the input: sum_squares|sumsq, norm_l2|norm, norm_l1|asum (floating types), count_nonzero|nnz, "
         "count_equal (with --equal-to), sum_i64, sum_u64 (integers and bool summed into 64 bits), sum_f32 (f16), "
         "sum_f64 (f16, f32); mean_var (count, mean and variance, in f64 where the device has fp64, else f32; "
         "mean_var_f32 and mean_var_f64 name it). Example: -o max")
      ->default_str("plus");
  app.add_option_function<std::string>(
         "-t,--type",
         [&o](const std::string& text) {
           const auto type = core::parse_data_type(text);
           if (!type)
             throw CLI::ValidationError("--type", "'" + text +
                                                      "' is not an element type: use i8 i16 i32 i64 u8 u16 u32 u64 "
                                                      "f16 f32 f64 bool");
           o.type = *type;
         },
         "element type: i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 bool (default f32, or the .npy file's dtype). "
         "Example: -t i64");
  app.add_option_function<std::string>(
         "-n,--size",
         [&o](const std::string& text) {
           o.n = count_option(text);
           o.n_given = true;
         },
         "number of generated elements: " + std::string(kElementCountHelp) + ". Example: -n 2^28")
      ->default_str("2^24");
  app.add_option("--input", o.input_path,
                 "reduce the elements of FILE instead of generated ones: a NumPy .npy file (dtype, byte order and "
                 "shape from its header; little- and big-endian) or raw binary (needs --type; little-endian unless "
                 "--byte-order big); '-' reads standard input. Example: --input x.npy")
      ->type_name("FILE");
  app.add_option_function<std::string>(
         "--byte-order",
         [&o](const std::string& text) {
           if (text == "little" || text == "native") o.byte_order = ByteOrder::little;
           else if (text == "big") o.byte_order = ByteOrder::big;
           else throw CLI::ValidationError("--byte-order", "'" + text + "': use little (or native) or big");
         },
         "raw binary --input: the order of each element's bytes, 'little' (this host's order; 'native' says the "
         "same) or 'big' (swapped as it is read). A .npy file's header gives its own order. Example: --byte-order big")
      ->type_name("ORDER")
      ->default_str("little");
  app.add_option_function<std::string>(
         "--fill",
         [&o](const std::string& text) {
           if (text == "pattern") o.fill = Fill::pattern;
           else if (text == "random") o.fill = Fill::random;
           else throw CLI::ValidationError("--fill", "'" + text + "': use pattern or random");
         },
         "generated input: 'pattern' (a fixed sequence whose result is exact for the op; see docs/ze_reduce.md) "
         "or 'random' (seeded, see --seed). Example: --fill random")
      ->default_str("pattern");
  app.add_option("--seed", o.seed, "seed of --fill random. Example: --seed 42")->default_str("1");
  app.add_option_function<std::string>(
         "--columns", [&o](const std::string& text) { o.columns = count_option(text); },
         "array reduction: view the input as rows of N values and reduce each column (for a 2-D .npy file with "
         "N = its last dimension this is numpy.<op>(a, axis=0)); N must divide the element count, and for a .npy "
         "file of 2 or more dimensions be a product of its last dimensions. Example: --columns 3")
      ->type_name("N")
      ->default_str("1");
  app.add_option("--axis", o.axis,
                 "reduce one axis of an N-D .npy --input, as numpy.<op>(a, axis=K) (negative counts from the last): "
                 "the results have the array's shape without that axis (see --output). Example: --axis 1")
      ->type_name("K");
  app.add_option("--segments", o.segments_path,
                 "reduce segments of the flat input: a 1-D .npy of m+1 non-decreasing offsets (int32, uint32, int64 "
                 "or uint64), segment s being elements [offsets[s], offsets[s+1]); m results, an empty segment giving "
                 "the identity. Example: --segments offsets.npy")
      ->type_name("FILE");
  app.add_option("--output", o.output_path,
                 "also write the results to FILE as a .npy array of their shape: () for one result, (N,) for "
                 "--columns N, the array's shape without the axis for --axis, (m,) for --segments. Example: --output r.npy")
      ->type_name("FILE");
  app.add_option("--identity", o.identity,
                 "a user identity for the op (initialises the temporaries; must be an identity of the op, as in "
                 "SYCL). Example: --identity 0")
      ->type_name("VALUE");
  app.add_option("--initial", o.initial,
                 "the reduction variable's value before the reduction; it is combined into the result (SYCL's "
                 "default) unless --init-to-identity. Default: the op's identity. Example: --initial 100")
      ->type_name("VALUE");
  app.add_option("--equal-to", o.equal_to,
                 "count_equal: the value to count, of the element type (a NaN equals nothing). Example: --equal-to 0")
      ->type_name("VALUE");
  app.add_option("--ddof", o.ddof,
                 "mean_var: the variance printed divides the sum of squared deviations by count - DDOF, as NumPy's "
                 "var(ddof=...): 0 the population variance, 1 the sample variance. Example: --ddof 1")
      ->type_name("DDOF")
      ->default_str("0");
  app.add_flag("--init-to-identity", o.initialize_to_identity,
               "the initialize_to_identity property: the variable's value before is not combined into the result");
  app.add_flag("--deterministic", o.deterministic,
               "the deterministic property: the same device, launch configuration and input give a bitwise-identical "
               "result (no floating-point atomics, no order-dependent steps)");
  app.add_flag("--reproducible", o.reproducible,
               "the reproducible property (implies --deterministic): the same input values give a bitwise-identical "
               "result on every device, strategy and launch shape; floating-point sums run as binned sums, rounded "
               "once");
  app.add_option_function<std::string>(
         "--strategy",
         [&o](const std::string& text) {
           for (auto s : kStrategies)
             if (to_string(s) == text) {
               o.strategy = s;
               return;
             }
           throw CLI::ValidationError("--strategy", "'" + text + "' is not a strategy: use " + strategy_names());
         },
         "run exactly this strategy (refused when the device cannot): " + strategy_names() +
             ". --list shows the ones each device allows. Example: --strategy tree");
  app.add_option_function<std::size_t>(
         "-d,--device", [&o](std::size_t index) { o.device_index = index; },
         "device index from --list (default: ZE_REDUCE_DEVICE, else the first device whose kernels run). "
         "Example: -d 1");
  app.add_option("-i,--iterations", o.iterations, "timed runs (median, min and max are reported). Example: -i 20")
      ->default_str("5")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 32));
  app.add_option("-w,--warmup", o.warmup, "untimed runs first (the first builds the kernels). Example: -w 2")
      ->default_str("1");
  app.add_flag("--verify", o.verify,
               "check the result against the host reference (exact for integers, bool, min and max; within a "
               "documented error bound for floating sums and products); exit code 1 on a mismatch");
  app.add_flag("--bandwidth", o.bandwidth,
               "also measure the device's read bandwidth on the same data (docs/ze_reduce.md: the read probe) and "
               "report the reduction's throughput as a ratio of it");
  app.add_flag("--list", o.list, "list every device (Level Zero GPUs, then OpenCL GPUs, then CPUs) with its "
                                 "capabilities and allowed strategies; honours ZE_AFFINITY_MASK");
  app.add_flag("--modules", o.modules, "list the embedded kernel modules and exit");
  app.add_flag("--json", o.json, "print one JSON document (schema: docs/ze_reduce.schema.json) instead of text");
  app.add_flag_function("-v,--verbose", [&o](std::int64_t) { o.verbosity = 1; },
                        "also print the plan's passes and buffers and the times of every timed run");
  app.add_flag_function("-q,--quiet", [&o](std::int64_t) { o.verbosity = -1; },
                        "print only the result (and errors); no progress line");
}

}  // namespace zr::cli
