#pragma once
// The persistent cache of built device binaries: a module built once from SPIR-V (or SPIR, or source) is kept on
// disk as the driver's native binary, so the next process loads it instead of compiling again (Intel's CPU
// runtime takes seconds per module; Intel GPUs compile SPIR-V in every process).
//
// Where: ZE_REDUCE_CACHE_DIR, else $XDG_CACHE_HOME/zereduce, else $HOME/.cache/zereduce.
// ZE_REDUCE_CACHE=off turns it off; unset, it is on except on platforms with a faster persistent cache of their
// own (PoCL: opencl/program_cache.cpp); ZE_REDUCE_CACHE=on turns it on everywhere. ZE_REDUCE_CACHE_MAX_MB bounds it (default 512): after a
// store the least recently used entries go until the folder fits.
//
// Trust: an entry holds its whole key (backend, device and driver description, build options, module name) and a
// full copy of the compiler's input, and a checksum of all of it; it is used only when all of it matches
// byte for byte. A corrupt entry is deleted; a foreign one (another key under the same name) is left for its
// store to replace. Writes go to a private temporary file renamed into place, so a reader in another process
// sees either no entry or a whole one. The cache never fails a reduction: a folder that cannot be written is
// logged and skipped.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zr::core {

// What a binary was built from and by whom. `builder` must name everything that changes the binary: the
// device (name, ids), the driver and its version, the input format.
struct BinaryCacheKey {
  std::string backend;  // "level_zero", "opencl"
  std::string builder;
  std::string build_options;
  std::string module_name;  // for messages only: linked modules' names differ between processes
  std::span<const std::uint8_t> compiler_input;  // the bytes the driver compiles (SPIR-V, bitcode or source)

  std::string text() const;  // the key without the input and the name, as stored
};

std::span<const std::uint8_t> as_bytes_of(std::span<const std::uint32_t> words);
std::span<const std::uint8_t> as_bytes_of(std::string_view text);

struct BinaryCacheSettings {
  std::filesystem::path folder;  // empty: the cache is off
  std::uint64_t max_bytes = 512ull << 20;
  bool explicitly_on = false;  // ZE_REDUCE_CACHE=on: also where a platform caches on its own (PoCL)

  // From the environment variables above. Throws zr::InvalidArgumentError naming the variable when
  // ZE_REDUCE_CACHE or ZE_REDUCE_CACHE_MAX_MB holds something else than documented.
  static BinaryCacheSettings from_environment();
};

class BinaryCache {
 public:
  explicit BinaryCache(BinaryCacheSettings settings);
  static BinaryCache from_environment() { return BinaryCache(BinaryCacheSettings::from_environment()); }

  bool enabled() const { return !settings_.folder.empty(); }
  const std::filesystem::path& folder() const { return settings_.folder; }
  std::uint64_t max_bytes() const { return settings_.max_bytes; }

  // The stored binary when an entry for exactly this key exists and is whole; nullopt otherwise.
  std::optional<std::vector<std::uint8_t>> load(const BinaryCacheKey& key) const;
  // Keeps `binary` for the key (replacing any entry of that name), then evicts down to max_bytes.
  void store(const BinaryCacheKey& key, std::span<const std::uint8_t> binary) const;
  // Removes the key's entry: the driver refused what load returned (a driver that changed without saying so).
  void discard(const BinaryCacheKey& key) const;

  std::filesystem::path entry_path(const BinaryCacheKey& key) const;

 private:
  void evict_to_bound() const;

  BinaryCacheSettings settings_;
};

}  // namespace zr::core
