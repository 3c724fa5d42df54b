#pragma once
// Everything the command line can ask for, parsed and checked, with the names users type (the SYCL op names
// and their short aliases, the element type names, counts such as 2^28 or 256M).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "data_types.hpp"
#include "input_stream.hpp"
#include "zereduce/properties.hpp"

namespace zr::cli {

enum class Fill { pattern, random };

struct Options {
  // what to reduce
  core::Op op = core::Op::plus;
  std::optional<core::DataType> type;  // unset: f32, or the .npy file's dtype
  std::uint64_t n = std::uint64_t{1} << 24;
  bool n_given = false;
  std::string input_path;  // empty: generated input; "-": standard input
  // Raw input's byte order (unset: little, the host's); a .npy file's header gives its own.
  std::optional<ByteOrder> byte_order;
  Fill fill = Fill::pattern;
  std::uint64_t seed = 1;
  std::uint64_t columns = 1;
  std::optional<std::int64_t> axis;  // --axis: numpy's axis of an N-D .npy input (segment_options.hpp)
  std::string segments_path;         // --segments: a .npy of segment offsets
  std::string output_path;           // --output: the results as a .npy file
  std::optional<std::string> identity;  // text, parsed for the element type
  std::optional<std::string> initial;   // the reduction variable's value before; default: the identity
  bool initialize_to_identity = false;
  std::optional<std::string> equal_to;  // count_equal's value, text parsed for the element type
  std::optional<std::uint64_t> ddof;    // mean_var: the variance divides m2 by count - ddof (default 0)
  // -o mean_var names no accumulator: f64 where the device has fp64, else f32 (resolve_moments_accumulator).
  bool moments_accumulator_named = true;
  bool deterministic = false;
  bool reproducible = false;
  std::optional<zr::strategy> strategy;
  // where and how often
  std::optional<std::size_t> device_index;
  std::uint64_t iterations = 5;
  std::uint64_t warmup = 1;
  bool verify = false;
  bool bandwidth = false;
  // what to print
  bool list = false;
  bool modules = false;
  bool json = false;
  int verbosity = 0;  // -1 quiet, 0 normal, 1 verbose
};

// Adds every option to `app`, writing into `options`; the values are converted by CLI11 callbacks, so a bad
// value fails CLI11's parse with a message naming the option and what it accepts.
void add_options(CLI::App& app, Options& options);

// "plus" ... "logical_or", "argmin", "argmax", the transform-reductions (sum_squares ... sum_f64) and means
// and variances (mean_var_f32, mean_var_f64), and the aliases sum, prod, min, max, and, or, xor, land, lor,
// sumsq, norm, asum, nnz. ("mean_var", whose accumulator depends on the device, is handled by --op itself.)
std::optional<core::Op> parse_op_name(std::string_view text);

}  // namespace zr::cli
