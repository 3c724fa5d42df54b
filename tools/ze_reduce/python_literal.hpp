#pragma once
// The subset of Python literal syntax a .npy header dict is written in (what NumPy reads with ast.literal_eval):
// strings in single or double quotes, integers, True, False, None, tuples, lists and dicts, with any spacing and
// trailing commas. Python 2 long integers ("3L") are accepted, as old NumPy wrote them into shapes.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zr::cli {

struct PyValue {
  enum class Kind { string, integer, boolean, none, tuple, list, dict };
  Kind kind = Kind::none;
  std::string text;            // a string's contents, or an integer's digits with an optional leading '-'
  bool boolean = false;
  std::vector<PyValue> items;  // tuple and list elements; for a dict: key, value, key, value...

  // The value of the last `key` of a dict (Python keeps the last duplicate), or nullptr.
  const PyValue* find(std::string_view key) const;
};

std::string_view kind_name(PyValue::Kind kind);  // "str", "int", "tuple"... as Python names them

// The one literal `text` holds (surrounding whitespace allowed), or nullopt with `why` set to the problem and
// where it is (byte offset). Nesting deeper than 32 levels is refused, so hostile input cannot exhaust the stack.
std::optional<PyValue> parse_python_literal(std::string_view text, std::string& why);

}  // namespace zr::cli
