#include "program_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "backing_device.hpp"
#include "log.hpp"

namespace zrt {

namespace {

const char* cache_folder() {
  const char* folder = std::getenv("ZRT_PROGRAM_CACHE");
  return folder && *folder ? folder : nullptr;
}

std::uint64_t fnv1a(std::uint64_t hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  return hash;
}

}  // namespace

std::string program_cache_key(std::span<const std::uint32_t> spirv, const std::string& options, const BackingDevice& device) {
  std::uint64_t hash = 14695981039346656037ull;
  hash = fnv1a(hash, spirv.data(), spirv.size_bytes());
  for (const std::string* text : {&options, &device.platform_name, &device.device_name, &device.driver_version})
    hash = fnv1a(hash, text->data(), text->size() + 1);
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.bin", static_cast<unsigned long long>(hash));
  return name;
}

std::vector<unsigned char> load_program_binary(const std::string& key) {
  const char* folder = cache_folder();
  if (!folder) return {};
  std::ifstream in(std::filesystem::path(folder) / key, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

void store_program_binary(const std::string& key, cl_program program) {
  const char* folder = cache_folder();
  if (!folder) return;
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) != CL_SUCCESS || size == 0) return;
  std::vector<unsigned char> binary(size);
  unsigned char* pointer = binary.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(pointer), &pointer, nullptr) != CL_SUCCESS) return;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  const auto target = std::filesystem::path(folder) / key;
  const auto temporary = target.string() + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    if (!out) {
      logger().warn("could not write {} to the program cache", temporary);
      return;
    }
  }
  std::filesystem::rename(temporary, target, error);
  if (error) std::filesystem::remove(temporary, error);
}

}  // namespace zrt
