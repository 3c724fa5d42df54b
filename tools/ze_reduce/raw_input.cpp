#include "raw_input.hpp"

#include <string>

#include "input_stream.hpp"
#include "zereduce/errors.hpp"

namespace zr::cli {

RawArray read_raw(std::istream& in, core::DataType type, std::string_view source_name, ByteOrder order) {
  RawArray array;
  array.type = type;
  const auto size = core::size_of(type);
  array.data = read_bytes(in, ~std::uint64_t{0}, source_name, order, size);
  if (const auto extra = array.data.size() % size; extra != 0)
    throw InvalidArgumentError(std::string(source_name) + ": " + std::to_string(array.data.size()) +
                               " bytes of raw input is not a whole number of " + std::string(core::name(type)) +
                               " elements of " + std::to_string(size) + " bytes each (" + std::to_string(extra) +
                               " bytes left over); check the type (--type) or the file");
  array.count = array.data.size() / size;
  return array;
}

}  // namespace zr::cli
