#include "kernel_catalog.hpp"

namespace zr::core {

std::string kernel_entry_point(std::string_view variant, Op op, DataType type) {
  std::string entry = "zr_";
  entry += variant;
  entry += '_';
  entry += name(op);
  entry += '_';
  entry += name(type);
  return entry;
}

std::string kernel_entry_point(std::string_view variant, DataType type) {
  std::string entry = "zr_";
  entry += variant;
  entry += '_';
  entry += name(type);
  return entry;
}

}  // namespace zr::core
