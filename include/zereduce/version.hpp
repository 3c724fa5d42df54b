#pragma once
#include <string_view>

#include "zereduce/export.hpp"

namespace zr {
// The library's version, "major.minor.patch" (the project version in CMakeLists.txt).
ZR_API std::string_view version();
}  // namespace zr
