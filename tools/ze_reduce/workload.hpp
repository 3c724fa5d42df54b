#pragma once
// The elements ze_reduce reduces, in host memory: read from a file or standard input (.npy or raw binary), or
// generated (generated_input.hpp). Sizes are checked against the device before anything large is allocated.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data_types.hpp"
#include "options.hpp"

namespace zr::cli {

struct Workload {
  core::DataType type = core::DataType::f32;
  std::uint64_t n = 0;
  std::vector<std::byte> data;  // n elements of type, packed
  // Where the elements came from: "generated", "file" or "stdin"; the format ("npy", "raw") for inputs.
  std::string source;
  std::string format;
  std::string path;
  std::vector<std::uint64_t> shape;  // a .npy file's shape
  // How the input stored its elements (data is in host order whatever it says): a .npy file's byte order or
  // --byte-order's; little for generated input.
  ByteOrder byte_order = ByteOrder::little;
};

// Room the elements may take: a device holds them in one allocation or in chunks of its global memory, and
// the host holds them once.
struct MemoryLimits {
  std::string device_name;
  std::uint64_t device_bytes = 0;  // global memory; 0: unknown
  std::uint64_t host_bytes = 0;    // physical memory; 0: unknown
};

// zr::InvalidArgumentError for bad input (the message names the file and what to do), zr::UnsupportedError
// when the elements cannot fit the device or the host.
Workload load_workload(const Options& options, const MemoryLimits& limits);

// Physical memory of this host (0 when unknown).
std::uint64_t host_memory_bytes();

}  // namespace zr::cli
