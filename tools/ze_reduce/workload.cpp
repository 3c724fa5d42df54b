#include "workload.hpp"

#include <unistd.h>

#include <array>
#include <cstring>
#include <fstream>
#include <iostream>

#include "generated_input.hpp"
#include "npy.hpp"
#include "raw_input.hpp"
#include "zereduce/errors.hpp"

namespace zr::cli {

namespace {

constexpr std::string_view kNpyMagic = "\x93NUMPY";

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

void check_fits(std::uint64_t n, core::DataType type, const MemoryLimits& limits, const std::string& what) {
  const std::uint64_t element = core::size_of(type);
  if (n > UINT64_MAX / element)
    throw InvalidArgumentError(what + ": " + std::to_string(n) + " elements of " + std::string(core::name(type)) +
                               " is more bytes than 64 bits can count; choose a smaller -n");
  const std::uint64_t bytes = n * element;
  if (limits.device_bytes && bytes > limits.device_bytes)
    throw UnsupportedError(what + ": " + std::to_string(n) + " x " + std::string(core::name(type)) + " = " +
                           gib(bytes) + " does not fit the memory of device '" + limits.device_name + "' (" +
                           gib(limits.device_bytes) + "); choose a smaller -n or another device (--list)");
  if (limits.host_bytes && bytes > limits.host_bytes / 10 * 9)
    throw UnsupportedError(what + ": " + std::to_string(n) + " x " + std::string(core::name(type)) + " = " +
                           gib(bytes) + " does not fit this host's memory (" + gib(limits.host_bytes) +
                           "), which holds the input first; choose a smaller -n");
}

bool has_npy_magic(std::istream& in) {
  std::array<char, 6> start{};
  in.read(start.data(), start.size());
  const auto got = static_cast<std::size_t>(in.gcount());
  in.clear();
  for (std::size_t i = got; i-- > 0;) in.putback(start[i]);
  if (!in) {  // a stream that cannot take the bytes back (rare): say so rather than misread it
    throw Error("cannot look at the first bytes of the input to tell .npy from raw binary");
  }
  return got == start.size() && std::string_view(start.data(), got) == kNpyMagic;
}

// --columns N reduces the flat elements as rows of N. For an array of 2 or more dimensions that is a reduction
// over its leading axes (numpy.<op>(a.reshape(-1, N), axis=0)) only when N is the product of its last
// dimensions; any other N cuts across the array's rows and gives numbers that answer no question about it.
void check_columns_fit_shape(const Options& options, const NpyHeader& header, const std::string& name) {
  if (options.columns <= 1 || header.shape.size() < 2) return;
  std::string fitting;
  std::uint64_t trailing = 1;
  for (auto extent = header.shape.rbegin(); extent != header.shape.rend(); ++extent) {
    if (__builtin_mul_overflow(trailing, *extent, &trailing)) break;
    if (trailing == options.columns) return;
    fitting += (fitting.empty() ? "" : ", ") + std::to_string(trailing);
  }
  throw InvalidArgumentError(name + ": --columns " + std::to_string(options.columns) + " does not fit the shape " +
                             format_shape(header.shape) + ": rows of " + std::to_string(options.columns) +
                             " values would cut across the array's rows; use a product of its last dimensions (" +
                             fitting + ", as numpy.<op>(a.reshape(-1, N), axis=0)), or save the array flat "
                             "(np.save(path, a.ravel())) to reduce it as rows of any N");
}

Workload from_stream(std::istream& in, const Options& options, const MemoryLimits& limits, Workload workload) {
  const std::string& name = workload.path;
  const bool npy_name = name.size() >= 4 && name.compare(name.size() - 4, 4, ".npy") == 0;
  if (npy_name || has_npy_magic(in)) {
    NpyArray array = read_npy(in, name);
    const NpyHeader& header = array.header;
    if (options.type && *options.type != header.type)
      throw InvalidArgumentError(name + ": the file holds " + std::string(core::name(header.type)) + " ('" +
                                 header.descr + "') but --type says " + std::string(core::name(*options.type)) +
                                 "; leave --type out for .npy files, or convert the file");
    // A contradiction rather than a choice: reading the file in the other order would give other numbers.
    if (options.byte_order && *options.byte_order != header.byte_order && core::size_of(header.type) > 1)
      throw InvalidArgumentError(name + ": the file's header says its " + std::string(core::name(header.type)) +
                                 " elements are " + std::string(byte_order_name(header.byte_order)) +
                                 "-endian ('" + header.descr + "') but --byte-order says " +
                                 std::string(byte_order_name(*options.byte_order)) +
                                 "; leave --byte-order out for .npy files (it is for raw binary input)");
    check_columns_fit_shape(options, header, name);
    check_fits(header.count, header.type, limits, name);
    workload.format = "npy";
    workload.type = header.type;
    workload.n = header.count;
    workload.shape = header.shape;
    workload.byte_order = header.byte_order;
    workload.data = std::move(array.data);
    return workload;
  }
  if (!options.type)
    throw InvalidArgumentError(name + ": raw binary input needs its element type: add --type (i8 ... f64, bool), "
                                      "or give a NumPy .npy file");
  const ByteOrder order = options.byte_order.value_or(ByteOrder::little);
  RawArray array = read_raw(in, *options.type, name, order);
  check_fits(array.count, array.type, limits, name);
  workload.format = "raw";
  workload.type = array.type;
  workload.n = array.count;
  workload.byte_order = order;
  workload.data = std::move(array.data);
  return workload;
}

}  // namespace

std::uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

Workload load_workload(const Options& options, const MemoryLimits& limits) {
  if (options.input_path.empty()) {
    if (options.byte_order)
      throw InvalidArgumentError("--byte-order " + std::string(byte_order_name(*options.byte_order)) +
                                 " describes raw binary --input; generated input is in host order, leave it out");
    Workload workload;
    workload.source = "generated";
    workload.type = options.type.value_or(core::DataType::f32);
    workload.n = options.n;
    check_fits(workload.n, workload.type, limits, "-n " + std::to_string(workload.n));
    workload.data = generate_input(workload.type, options.op, options.fill, options.seed, workload.n);
    return workload;
  }
  if (options.n_given)
    throw InvalidArgumentError("-n and --input both give the input: the file's elements are all reduced; leave -n out");
  Workload workload;
  if (options.input_path == "-") {
    workload.source = "stdin";
    workload.path = "standard input";
    return from_stream(std::cin, options, limits, std::move(workload));
  }
  workload.source = "file";
  workload.path = options.input_path;
  std::ifstream file(options.input_path, std::ios::binary);
  if (!file)
    throw InvalidArgumentError(options.input_path + ": cannot open it (" + std::strerror(errno) +
                               "); check the path given to --input");
  return from_stream(file, options, limits, std::move(workload));
}

}  // namespace zr::cli
