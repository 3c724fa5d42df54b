#pragma once
// ZRT_PROGRAM_CACHE=<folder>: the device binaries of programs built from IL, keyed by a hash of the SPIR-V, the
// build options and the OpenCL device and driver. Intel's CPU compiler takes about 5 s for one of our larger
// modules, and every test process builds them again: the cache is what Intel's own driver does on a GPU. Without
// the variable nothing is cached.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zrt {

struct BackingDevice;

std::string program_cache_key(std::span<const std::uint32_t> spirv, const std::string& options, const BackingDevice& device);
// The cached binary for the key, or empty (no cache, or not cached yet).
std::vector<unsigned char> load_program_binary(const std::string& key);
// Keeps the built program's binary (written to a temporary file and renamed: parallel tests share the folder).
void store_program_binary(const std::string& key, cl_program program);

}  // namespace zrt
