// Files written by NumPy itself, when the machine has python3 with numpy (the test is skipped otherwise; the
// layout tests build NumPy's exact bytes by hand either way). Each is read and compared with the raw elements
// NumPy wrote alongside, written again by ze-reduce byte for byte as NumPy did, and loaded back by NumPy.
// Big-endian copies (_be) are read into the same host-order elements; ze-reduce writes only little-endian.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "npy.hpp"
#include "raw_input.hpp"
#include "test_streams.hpp"

namespace {

using namespace zr;
using namespace zr::cli;
namespace fs = std::filesystem;

int run(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

std::string quoted(const fs::path& path) {
  std::string text(1, '\'');  // appended, not "'" + ...: GCC 12 warns falsely (-Wrestrict) about the latter
  text += path.string();
  text += '\'';
  return text;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(NumPyInterop, ReadsWhatNumPyWritesAndNumPyReadsOurs) {
  const std::string python = ZR_TEST_PYTHON;
  if (python.empty() || run(python + " -c 'import numpy'") != 0)
    GTEST_SKIP() << "python3 with numpy is not installed (apt-get install python3-numpy)";
  const fs::path folder = fs::path(ZR_TEST_BINARY_DIR) / "numpy_interop";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const std::string script = quoted(ZR_TEST_SOURCE_DIR "/numpy_interop.py");
  ASSERT_EQ(run(python + " " + script + " write " + quoted(folder)), 0);

  std::ifstream manifest(folder / "manifest.txt");
  std::string word, version_text;
  manifest >> word >> version_text;
  int major = 0, minor = 0;
  char dot = 0;
  std::istringstream(version_text) >> major >> dot >> minor;
  // NumPy 1.23 added the growth spaces after the dict; earlier versions lay the header out differently.
  const bool same_layout = major > 1 || (major == 1 && minor >= 23);
  std::string name, shape_text;
  int version = 0, files = 0;
  while (manifest >> name >> version >> shape_text) {
    SCOPED_TRACE(name);
    std::vector<std::uint64_t> shape;
    std::istringstream dims(shape_text == "-" ? "" : shape_text);
    for (std::string dim; std::getline(dims, dim, ',');) shape.push_back(std::stoull(dim));
    std::ifstream npy(folder / (name + ".npy"), std::ios::binary);
    const auto array = read_npy(npy, name + ".npy");
    EXPECT_EQ(array.header.major_version, version);
    EXPECT_EQ(array.header.shape, shape);
    const bool big_endian = name.ends_with("_be");
    EXPECT_EQ(array.header.byte_order, big_endian ? ByteOrder::big : ByteOrder::little);
    const auto base = name.substr(0, std::min(name.find("_v2"), name.find("_be")));
    std::ifstream bin(folder / (base + ".bin"), std::ios::binary);
    const auto raw = read_raw(bin, array.header.type, base + ".bin");
    EXPECT_EQ(array.data, raw.data);
    ++files;
    if (big_endian) continue;

    std::ostringstream ours;
    write_npy(ours, array.header.type, shape, raw.data, version == 1 ? NpyVersion::v1_0 : NpyVersion::v2_0);
    if (same_layout) {
      EXPECT_TRUE(ours.str() == slurp(folder / (name + ".npy"))) << "bytes differ from NumPy's";
    }
    std::ofstream(folder / ("ours_" + name + ".npy"), std::ios::binary) << ours.str();
  }
  EXPECT_EQ(files, 12 * 4 * 2 + 9 * 4);  // 12 types, 4 shapes, 2 versions; big-endian copies of the 9 wider types
  EXPECT_EQ(run(python + " " + script + " check " + quoted(folder)), 0);
}

}  // namespace
