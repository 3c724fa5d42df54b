#include "binary_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>

#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'Z', 'R', 'B', 'I', 'N', '0', '0', '1'};
constexpr const char* kExtension = ".zrbin";
constexpr const char* kTemporaryMarker = ".tmp-";
// A temporary file this old belongs to a writer that died: eviction removes it.
constexpr auto kAbandonedAfter = std::chrono::minutes(10);

std::uint64_t fnv1a(std::uint64_t hash, std::span<const std::uint8_t> bytes) {
  for (std::uint8_t b : bytes) hash = (hash ^ b) * 1099511628211ull;
  return hash;
}
constexpr std::uint64_t kFnvBasis = 14695981039346656037ull;

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void put_block(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> bytes) {
  put_u64(out, bytes.size());
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// Reads the fields of an entry in order; any read past the end marks it broken.
class EntryReader {
 public:
  explicit EntryReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint64_t u64() {
    if (bytes_.size() - at_ < 8) return broken();
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value |= std::uint64_t{bytes_[at_ + i]} << (8 * i);
    at_ += 8;
    return value;
  }
  std::span<const std::uint8_t> block() {
    const std::uint64_t size = u64();
    if (!ok_ || size > bytes_.size() - at_) {
      broken();
      return {};
    }
    auto block = bytes_.subspan(at_, size);
    at_ += size;
    return block;
  }
  bool ok() const { return ok_; }
  std::size_t position() const { return at_; }

 private:
  std::uint64_t broken() {
    ok_ = false;
    at_ = bytes_.size();
    return 0;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

std::optional<std::vector<std::uint8_t>> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return bytes;
}

std::string unique_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  return std::string(kTemporaryMarker) + std::to_string(getpid()) + "-" +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 1000000) + "-" +
         std::to_string(counter++);
}

void warn_once(const std::string& message) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) logger().warn("{} (further cache problems are logged at debug level)", message);
  else logger().debug("{}", message);
}

// The switch's value: nullopt when unset.
std::optional<bool> switch_value(const char* variable) {
  const char* text = std::getenv(variable);
  if (!text || !*text) return std::nullopt;
  const std::string_view value(text);
  if (value == "off" || value == "0" || value == "false") return false;
  if (value == "on" || value == "1" || value == "true") return true;
  throw InvalidArgumentError(std::string(variable) + "=" + text + " is not one of on, off, 1, 0, true, false");
}

std::uint64_t megabytes_from(const char* variable, std::uint64_t fallback) {
  const char* text = std::getenv(variable);
  if (!text || !*text) return fallback;
  std::uint64_t megabytes = 0;
  const auto [end, error] = std::from_chars(text, text + std::strlen(text), megabytes);
  if (error != std::errc() || *end != '\0' || megabytes == 0 || megabytes > (1ull << 40))
    throw InvalidArgumentError(std::string(variable) + "=" + text + " is not a whole number of megabytes from 1 up");
  return megabytes << 20;
}

}  // namespace

std::string BinaryCacheKey::text() const {
  return "backend=" + backend + "\nbuilder=" + builder + "\noptions=" + build_options + "\n";
}

std::span<const std::uint8_t> as_bytes_of(std::span<const std::uint32_t> words) {
  return {reinterpret_cast<const std::uint8_t*>(words.data()), words.size_bytes()};
}

std::span<const std::uint8_t> as_bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

BinaryCacheSettings BinaryCacheSettings::from_environment() {
  BinaryCacheSettings settings;
  settings.max_bytes = megabytes_from("ZE_REDUCE_CACHE_MAX_MB", settings.max_bytes);
  const auto switched = switch_value("ZE_REDUCE_CACHE");
  if (switched == false) return settings;
  settings.explicitly_on = switched == true;
  if (const char* dir = std::getenv("ZE_REDUCE_CACHE_DIR"); dir && *dir) {
    settings.folder = dir;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    settings.folder = fs::path(xdg) / "zereduce";  // the XDG rule: a relative value is ignored
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    settings.folder = fs::path(home) / ".cache" / "zereduce";
  }
  return settings;
}

BinaryCache::BinaryCache(BinaryCacheSettings settings) : settings_(std::move(settings)) {}

fs::path BinaryCache::entry_path(const BinaryCacheKey& key) const {
  const std::string text = key.text();
  const std::uint64_t hash = fnv1a(fnv1a(kFnvBasis, as_bytes_of(text)), key.compiler_input);
  char name[24];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(hash));
  return settings_.folder / (key.backend + "-" + name + kExtension);
}

std::optional<std::vector<std::uint8_t>> BinaryCache::load(const BinaryCacheKey& key) const {
  if (!enabled()) return std::nullopt;
  const fs::path path = entry_path(key);
  auto bytes = read_file(path);
  if (!bytes) return std::nullopt;
  std::error_code error;

  const std::span<const std::uint8_t> all(*bytes);
  const bool framed = all.size() >= sizeof kMagic + 8 && std::memcmp(all.data(), kMagic, sizeof kMagic) == 0;
  EntryReader reader(all.subspan(framed ? sizeof kMagic : all.size()));
  const auto text = reader.block();
  const auto input = reader.block();
  const auto payload = reader.block();
  const std::size_t checked = sizeof kMagic + reader.position();
  const std::uint64_t checksum = reader.u64();
  if (!framed || !reader.ok() || checked + 8 != all.size() ||
      checksum != fnv1a(kFnvBasis, all.first(checked)) || payload.empty()) {
    logger().debug("binary cache: {} is corrupt (wrong frame, size or checksum): deleted, the module is rebuilt",
                   path.string());
    fs::remove(path, error);
    return std::nullopt;
  }
  const std::string expected = key.text();
  if (!std::equal(text.begin(), text.end(), as_bytes_of(expected).begin(), as_bytes_of(expected).end()) ||
      !std::equal(input.begin(), input.end(), key.compiler_input.begin(), key.compiler_input.end())) {
    logger().debug("binary cache: {} holds another key or another input: not used", path.string());
    return std::nullopt;
  }
  fs::last_write_time(path, fs::file_time_type::clock::now(), error);  // recently used: evicted last
  return std::vector<std::uint8_t>(payload.begin(), payload.end());
}

void BinaryCache::store(const BinaryCacheKey& key, std::span<const std::uint8_t> binary) const {
  if (!enabled() || binary.empty()) return;
  std::vector<std::uint8_t> entry(kMagic, kMagic + sizeof kMagic);
  entry.reserve(sizeof kMagic + 32 + key.compiler_input.size() + binary.size() + 256);
  put_block(entry, as_bytes_of(key.text()));
  put_block(entry, key.compiler_input);
  put_block(entry, binary);
  put_u64(entry, fnv1a(kFnvBasis, entry));

  std::error_code error;
  fs::create_directories(settings_.folder, error);
  const fs::path path = entry_path(key);
  const fs::path temporary = path.string() + unique_suffix();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(entry.data()), static_cast<std::streamsize>(entry.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      warn_once("binary cache: could not write " + temporary.string() + "; modules are built in every process");
      return;
    }
  }
  fs::rename(temporary, path, error);  // atomic: readers see the old entry or the new one, never a part
  if (error) {
    fs::remove(temporary, error);
    warn_once("binary cache: could not rename an entry into " + path.string());
    return;
  }
  logger().debug("binary cache: stored module {} ({} bytes) in {}", key.module_name, binary.size(), path.string());
  evict_to_bound();
}

void BinaryCache::discard(const BinaryCacheKey& key) const {
  if (!enabled()) return;
  std::error_code error;
  fs::remove(entry_path(key), error);
}

void BinaryCache::evict_to_bound() const {
  struct Entry {
    fs::path path;
    std::uint64_t bytes;
    fs::file_time_type used;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  std::error_code error;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(settings_.folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::error_code stat_error;
    const auto used = it->last_write_time(stat_error);
    const auto bytes = it->file_size(stat_error);
    if (stat_error) continue;  // removed by another process meanwhile
    if (name.find(kTemporaryMarker) != std::string::npos) {
      if (now - used > kAbandonedAfter) fs::remove(it->path(), stat_error);
      continue;
    }
    if (!name.ends_with(kExtension)) continue;  // not ours: never touched
    entries.push_back({it->path(), bytes, used});
    total += bytes;
  }
  if (total <= settings_.max_bytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& entry : entries) {
    if (total <= settings_.max_bytes) break;
    fs::remove(entry.path, error);
    total -= entry.bytes;
    logger().debug("binary cache: evicted {} ({} bytes) to stay within {} bytes", entry.path.string(), entry.bytes,
                   settings_.max_bytes);
  }
}

}  // namespace zr::core
