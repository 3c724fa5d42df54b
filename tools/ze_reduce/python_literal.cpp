#include "python_literal.hpp"

namespace zr::cli {

namespace {

constexpr int kMaxDepth = 32;

class Parser {
 public:
  Parser(std::string_view text, std::string& why) : text_(text), why_(why) {}

  std::optional<PyValue> parse_all() {
    auto value = parse_value(0);
    if (!value) return std::nullopt;
    skip_space();
    if (pos_ != text_.size()) return fail("unexpected text after the literal");
    return value;
  }

 private:
  std::nullopt_t fail(std::string_view problem) {
    why_ = std::string(problem) + " at byte " + std::to_string(pos_);
    return std::nullopt;
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r'))
      ++pos_;
  }

  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

  static bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  std::optional<PyValue> parse_value(int depth) {
    skip_space();
    if (pos_ >= text_.size()) return fail("the text ends where a value was expected");
    const char c = text_[pos_];
    if (c == '\'' || c == '"') return parse_string();
    if (c == '-' || (c >= '0' && c <= '9')) return parse_integer();
    if (c == '(' || c == '[' || c == '{') {
      if (depth >= kMaxDepth) return fail("nesting deeper than 32 levels");
      return c == '{' ? parse_dict(depth + 1) : parse_sequence(depth + 1);
    }
    return parse_word();
  }

  std::optional<PyValue> parse_string() {
    const char quote = text_[pos_++];
    PyValue value;
    value.kind = PyValue::Kind::string;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\n') return fail("a line break inside a string");
      // Only quotes and backslashes are ever escaped in a dtype or a key; keep the escaped character as is.
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      value.text += text_[pos_++];
    }
    if (pos_ >= text_.size()) return fail("a string without its closing quote");
    ++pos_;
    return value;
  }

  std::optional<PyValue> parse_integer() {
    PyValue value;
    value.kind = PyValue::Kind::integer;
    if (at('-')) {
      value.text += '-';
      ++pos_;
      skip_space();  // Python reads "- 3" as -3
    }
    const auto start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') value.text += text_[pos_++];
    if (pos_ == start) return fail("a '-' without digits");
    if (at('L') || at('l')) ++pos_;
    if (pos_ < text_.size() && (is_word_char(text_[pos_]) || text_[pos_] == '.'))
      return fail("a number that is not a whole decimal integer");
    return value;
  }

  std::optional<PyValue> parse_word() {
    const auto start = pos_;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
    const auto word = text_.substr(start, pos_ - start);
    PyValue value;
    if (word == "True" || word == "False") {
      value.kind = PyValue::Kind::boolean;
      value.boolean = word == "True";
    } else if (word == "None") {
      value.kind = PyValue::Kind::none;
    } else {
      pos_ = start;
      return fail(word.empty() ? "an unexpected character" : "an unknown name (only True, False and None are literals)");
    }
    return value;
  }

  // (a, b), (a,), (), [a, b]; "(a)" is just a in parentheses, as in Python.
  std::optional<PyValue> parse_sequence(int depth) {
    const char close = text_[pos_] == '(' ? ')' : ']';
    ++pos_;
    PyValue value;
    value.kind = close == ')' ? PyValue::Kind::tuple : PyValue::Kind::list;
    bool comma = false;
    for (;;) {
      skip_space();
      if (at(close)) break;
      auto item = parse_value(depth);
      if (!item) return std::nullopt;
      value.items.push_back(std::move(*item));
      skip_space();
      if (at(',')) {
        comma = true;
        ++pos_;
        continue;
      }
      if (!at(close)) return fail(close == ')' ? "expected ',' or ')'" : "expected ',' or ']'");
    }
    ++pos_;
    if (close == ')' && value.items.size() == 1 && !comma) return std::move(value.items.front());
    return value;
  }

  std::optional<PyValue> parse_dict(int depth) {
    ++pos_;
    PyValue value;
    value.kind = PyValue::Kind::dict;
    for (;;) {
      skip_space();
      if (at('}')) break;
      auto key = parse_value(depth);
      if (!key) return std::nullopt;
      skip_space();
      if (!at(':')) return fail("expected ':' after a dict key");
      ++pos_;
      auto item = parse_value(depth);
      if (!item) return std::nullopt;
      value.items.push_back(std::move(*key));
      value.items.push_back(std::move(*item));
      skip_space();
      if (at(',')) {
        ++pos_;
        continue;
      }
      if (!at('}')) return fail("expected ',' or '}'");
    }
    ++pos_;
    return value;
  }

  std::string_view text_;
  std::string& why_;
  std::size_t pos_ = 0;
};

}  // namespace

const PyValue* PyValue::find(std::string_view key) const {
  const PyValue* found = nullptr;
  for (std::size_t i = 0; kind == Kind::dict && i + 1 < items.size(); i += 2) {
    if (items[i].kind == Kind::string && items[i].text == key) found = &items[i + 1];
  }
  return found;
}

std::string_view kind_name(PyValue::Kind kind) {
  switch (kind) {
    case PyValue::Kind::string: return "str";
    case PyValue::Kind::integer: return "int";
    case PyValue::Kind::boolean: return "bool";
    case PyValue::Kind::none: return "None";
    case PyValue::Kind::tuple: return "tuple";
    case PyValue::Kind::list: return "list";
    case PyValue::Kind::dict: return "dict";
  }
  return "?";
}

std::optional<PyValue> parse_python_literal(std::string_view text, std::string& why) {
  return Parser(text, why).parse_all();
}

}  // namespace zr::cli
