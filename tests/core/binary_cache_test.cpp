// The persistent binary cache (runtime/core/binary_cache.hpp) on its own: what it keeps, what it refuses to
// trust, how it stays within its bound, and processes racing on one empty folder.
#include "binary_cache.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "zereduce/errors.hpp"

namespace zc = zr::core;
namespace fs = std::filesystem;

namespace {

class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "zr-binary-cache-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Sets an environment variable for one test and puts the old value back.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedVariable() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::vector<std::uint8_t> bytes_of(std::size_t size, std::uint8_t seed) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(seed + i * 7);
  return bytes;
}

struct KeyFixture {
  std::vector<std::uint8_t> input = bytes_of(1000, 3);
  zc::BinaryCacheKey key() const {
    return {.backend = "opencl",
            .builder = "device=A;driver=1.0",
            .build_options = "-cl-std=CL2.0",
            .module_name = "tree_base",
            .compiler_input = input};
  }
};

zc::BinaryCache cache_in(const fs::path& folder, std::uint64_t max_bytes = 1ull << 30) {
  return zc::BinaryCache(zc::BinaryCacheSettings{folder, max_bytes});
}

std::vector<std::uint8_t> read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

TEST(BinaryCache, GivenAStoredBinary_WhenLoadedWithTheSameKey_ThenTheSameBytesComeBack) {
  TemporaryFolder folder;
  const KeyFixture fixture;
  const auto cache = cache_in(folder.path() / "made-on-first-store");
  const auto binary = bytes_of(5000, 11);
  EXPECT_FALSE(cache.load(fixture.key()).has_value());
  cache.store(fixture.key(), binary);
  const auto loaded = cache.load(fixture.key());
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, binary);
  EXPECT_TRUE(fs::exists(cache.entry_path(fixture.key())));
  EXPECT_EQ(cache.entry_path(fixture.key()).filename().string().rfind("opencl-", 0), 0u);
}

TEST(BinaryCache, GivenAnEntry_WhenAnyPartOfTheKeyDiffers_ThenItIsNotUsed) {
  TemporaryFolder folder;
  const KeyFixture fixture;
  const auto cache = cache_in(folder.path());
  cache.store(fixture.key(), bytes_of(100, 1));

  auto newer_driver = fixture.key();
  newer_driver.builder = "device=A;driver=1.1";
  auto other_options = fixture.key();
  other_options.build_options = "-cl-std=CL3.0";
  auto other_backend = fixture.key();
  other_backend.backend = "level_zero";
  auto changed_input_bytes = fixture.input;
  changed_input_bytes[500] ^= 1;
  auto changed_input = fixture.key();
  changed_input.compiler_input = changed_input_bytes;
  for (const auto* key : {&newer_driver, &other_options, &other_backend, &changed_input})
    EXPECT_FALSE(cache.load(*key).has_value()) << key->text();

  // The module's name is not part of the key: linked modules are numbered per process.
  auto renamed = fixture.key();
  renamed.module_name = "tree_base+my_op#7";
  EXPECT_TRUE(cache.load(renamed).has_value());
}

TEST(BinaryCache, GivenACorruptOrCutEntry_WhenLoading_ThenNothingIsReturnedAndTheEntryIsDeleted) {
  TemporaryFolder folder;
  const KeyFixture fixture;
  const auto cache = cache_in(folder.path());
  const auto binary = bytes_of(4096, 5);
  const fs::path path = cache.entry_path(fixture.key());
  cache.store(fixture.key(), binary);
  const auto whole = read_all(path);

  auto flipped = whole;
  flipped[whole.size() - 100] ^= 0x10;  // inside the payload
  auto cut = whole;
  cut.resize(whole.size() / 2);
  auto grown = whole;
  grown.push_back(0);
  auto wrong_magic = whole;
  wrong_magic[0] = 'X';
  for (const auto* damaged : {&flipped, &cut, &grown, &wrong_magic}) {
    write_all(path, *damaged);
    EXPECT_FALSE(cache.load(fixture.key()).has_value());
    EXPECT_FALSE(fs::exists(path));
  }
  write_all(path, {});
  EXPECT_FALSE(cache.load(fixture.key()).has_value());
}

TEST(BinaryCache, GivenAnotherKeysEntryUnderThisName_WhenLoading_ThenItIsNotUsedAndTheNextStoreReplacesIt) {
  TemporaryFolder folder;
  const KeyFixture fixture;
  const auto cache = cache_in(folder.path());
  auto other = fixture.key();
  other.builder = "device=B";
  cache.store(other, bytes_of(300, 9));
  fs::rename(cache.entry_path(other), cache.entry_path(fixture.key()));  // as a 64-bit name collision would
  EXPECT_FALSE(cache.load(fixture.key()).has_value());
  EXPECT_TRUE(fs::exists(cache.entry_path(fixture.key())));  // whole, just not ours: left alone
  const auto ours = bytes_of(200, 4);
  cache.store(fixture.key(), ours);
  EXPECT_EQ(cache.load(fixture.key()), ours);
}

TEST(BinaryCache, GivenMoreThanTheBound_WhenStoring_ThenTheLeastRecentlyUsedEntriesGo) {
  TemporaryFolder folder;
  const auto cache = cache_in(folder.path(), 3 * 12000);
  std::vector<std::vector<std::uint8_t>> inputs;
  std::vector<zc::BinaryCacheKey> keys;
  for (std::uint8_t i = 0; i < 4; ++i) inputs.push_back(bytes_of(1000, i));
  for (std::uint8_t i = 0; i < 4; ++i)
    keys.push_back({.backend = "opencl", .builder = "b", .build_options = "", .module_name = "m", .compiler_input = inputs[i]});
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) {
    cache.store(keys[i], bytes_of(10000, 1));
    fs::last_write_time(cache.entry_path(keys[i]), old + std::chrono::minutes(i));
  }
  ASSERT_TRUE(cache.load(keys[0]).has_value());  // used now: no longer the oldest
  cache.store(keys[3], bytes_of(10000, 2));       // four entries of about 11 KB in a 36 KB bound
  EXPECT_TRUE(fs::exists(cache.entry_path(keys[0])));
  EXPECT_FALSE(fs::exists(cache.entry_path(keys[1])));
  EXPECT_TRUE(fs::exists(cache.entry_path(keys[2])));
  EXPECT_TRUE(fs::exists(cache.entry_path(keys[3])));

  write_all(folder.path() / "not-ours.txt", bytes_of(100000, 0));  // other files are never touched
  cache.store(keys[1], bytes_of(10000, 3));
  EXPECT_TRUE(fs::exists(folder.path() / "not-ours.txt"));
}

TEST(BinaryCache, GivenAFolderThatCannotBeWritten_WhenStoring_ThenNothingThrowsAndNothingLoads) {
  TemporaryFolder folder;
  const KeyFixture fixture;
  write_all(folder.path() / "a-file", {1, 2, 3});
  const auto cache = cache_in(folder.path() / "a-file" / "below");
  EXPECT_NO_THROW(cache.store(fixture.key(), bytes_of(100, 1)));
  EXPECT_FALSE(cache.load(fixture.key()).has_value());
}

TEST(BinaryCache, GivenTheEnvironment_WhenReadingSettings_ThenTheDocumentedFolderBoundAndSwitchApply) {
  ScopedVariable no_switch("ZE_REDUCE_CACHE", nullptr);
  ScopedVariable no_bound("ZE_REDUCE_CACHE_MAX_MB", nullptr);
  {
    ScopedVariable dir("ZE_REDUCE_CACHE_DIR", "/somewhere/cache");
    ScopedVariable xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(zc::BinaryCacheSettings::from_environment().folder, fs::path("/somewhere/cache"));
  }
  ScopedVariable dir("ZE_REDUCE_CACHE_DIR", nullptr);
  {
    ScopedVariable xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(zc::BinaryCacheSettings::from_environment().folder, fs::path("/xdg/zereduce"));
  }
  {
    ScopedVariable xdg("XDG_CACHE_HOME", "relative/ignored");
    ScopedVariable home("HOME", "/home/user");
    EXPECT_EQ(zc::BinaryCacheSettings::from_environment().folder, fs::path("/home/user/.cache/zereduce"));
    EXPECT_EQ(zc::BinaryCacheSettings::from_environment().max_bytes, 512ull << 20);
    EXPECT_FALSE(zc::BinaryCacheSettings::from_environment().explicitly_on);
    {
      ScopedVariable off("ZE_REDUCE_CACHE", "off");
      EXPECT_TRUE(zc::BinaryCacheSettings::from_environment().folder.empty());
      EXPECT_FALSE(zc::BinaryCache::from_environment().enabled());
    }
    {
      ScopedVariable on("ZE_REDUCE_CACHE", "on");
      EXPECT_TRUE(zc::BinaryCacheSettings::from_environment().explicitly_on);
    }
    {
      ScopedVariable bound("ZE_REDUCE_CACHE_MAX_MB", "64");
      EXPECT_EQ(zc::BinaryCacheSettings::from_environment().max_bytes, 64ull << 20);
    }
  }
  for (const char* wrong : {"maybe", "2", "OFF "}) {
    ScopedVariable bad("ZE_REDUCE_CACHE", wrong);
    zr_test::expect_error<zr::InvalidArgumentError>([] { (void)zc::BinaryCacheSettings::from_environment(); },
                                                    std::string("ZE_REDUCE_CACHE=") + wrong + " is not one of");
  }
  for (const char* wrong : {"0", "-1", "12MB", "lots"}) {
    ScopedVariable bad("ZE_REDUCE_CACHE_MAX_MB", wrong);
    zr_test::expect_error<zr::InvalidArgumentError>([] { (void)zc::BinaryCacheSettings::from_environment(); },
                                                    std::string("ZE_REDUCE_CACHE_MAX_MB=") + wrong + " is not");
  }
}

// Writers in several processes store the same key over and over (each its own payload, as two driver versions
// racing would) while readers load it: a reader sees no entry or one writer's whole payload, never a mix or a
// torn file, and no temporary file is left behind.
TEST(BinaryCache, GivenProcessesRacingOnAnEmptyFolder_WhenStoringAndLoadingOneKey_ThenEveryLoadIsOneWholeBinary) {
  TemporaryFolder folder;
  const KeyFixture fixture;
  constexpr int kWriters = 3, kReaders = 2, kRounds = 60;
  auto payload_of = [](int writer) { return std::vector<std::uint8_t>(200000 + 1000 * writer, static_cast<std::uint8_t>(writer + 1)); };
  std::vector<pid_t> children;
  for (int p = 0; p < kWriters + kReaders; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const auto cache = cache_in(folder.path());
      if (p < kWriters) {
        for (int round = 0; round < kRounds; ++round) cache.store(fixture.key(), payload_of(p));
        _exit(0);
      }
      // A reader keeps loading until it has seen kRounds entries (or 10 s passed: then it says so).
      int bad = 0, seen = 0;
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (seen < kRounds && std::chrono::steady_clock::now() < give_up) {
        if (const auto loaded = cache.load(fixture.key())) {
          ++seen;
          const int writer = (*loaded)[0] - 1;
          if (writer < 0 || writer >= kWriters || *loaded != payload_of(writer)) ++bad;
        }
      }
      _exit(bad != 0 ? 1 : seen == 0 ? 2 : 0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_NE(WEXITSTATUS(status), 1) << "a reader saw a torn or mixed entry";
    EXPECT_NE(WEXITSTATUS(status), 2) << "a reader never saw an entry in 10 s";
  }
  const auto loaded = cache_in(folder.path()).load(fixture.key());
  ASSERT_TRUE(loaded.has_value());
  const int writer = (*loaded)[0] - 1;
  ASSERT_TRUE(writer >= 0 && writer < kWriters);
  EXPECT_EQ(*loaded, payload_of(writer));
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(folder.path())) {
    ++files;
    EXPECT_EQ(entry.path().extension(), ".zrbin") << entry.path();
  }
  EXPECT_EQ(files, 1u);
}
