#include "scalar.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "half.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
using zr::InvalidArgumentError;

namespace {
template <typename F>
auto visit_integer(const Scalar& s, F&& f) {
  switch (s.type) {
    case DataType::i8: return f(s.as<std::int8_t>());
    case DataType::i16: return f(s.as<std::int16_t>());
    case DataType::i32: return f(s.as<std::int32_t>());
    case DataType::i64: return f(s.as<std::int64_t>());
    case DataType::u8: return f(s.as<std::uint8_t>());
    case DataType::u16: return f(s.as<std::uint16_t>());
    case DataType::u32: return f(s.as<std::uint32_t>());
    case DataType::u64: return f(s.as<std::uint64_t>());
    default: return f(static_cast<std::uint8_t>(s.as<std::uint8_t>() != 0));  // bool
  }
}

template <typename T>
Scalar parse_integer(DataType type, const std::string& text) {
  std::string_view body = text;
  int base = 10;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    base = 16;
    body.remove_prefix(2);
  }
  // Parse the magnitude as unsigned 64-bit, then range-check against T.
  std::uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), magnitude, base);
  if (!body.empty() && ec == std::errc::result_out_of_range)
    throw InvalidArgumentError("'" + text + "' does not fit in " + std::string(name(type)));
  if (body.empty() || ec != std::errc() || end != body.data() + body.size())
    throw InvalidArgumentError("'" + text + "' is not an integer");
  if constexpr (std::is_signed_v<T>) {
    const std::uint64_t limit = negative ? std::uint64_t(std::numeric_limits<T>::max()) + 1
                                         : std::uint64_t(std::numeric_limits<T>::max());
    if (magnitude > limit) throw InvalidArgumentError("'" + text + "' does not fit in " + std::string(name(type)));
    const T value = negative ? static_cast<T>(0 - magnitude) : static_cast<T>(magnitude);
    return Scalar::from(type, value);
  } else {
    if (negative && magnitude != 0) throw InvalidArgumentError("'" + text + "' is negative, " + std::string(name(type)) + " is unsigned");
    if (magnitude > std::numeric_limits<T>::max())
      throw InvalidArgumentError("'" + text + "' does not fit in " + std::string(name(type)));
    return Scalar::from(type, static_cast<T>(magnitude));
  }
}

double parse_floating(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::out_of_range&) {
    // stod refuses subnormal results and overflow; strtod gives the correctly rounded value (or inf).
    value = std::strtod(text.c_str(), nullptr);
    used = text.size();
  } catch (const std::invalid_argument&) {
    used = 0;
  }
  if (used != text.size() || text.empty()) throw InvalidArgumentError("'" + text + "' is not a number");
  return value;
}

// A number beyond the type's range would become an infinity, another value than the one written: refused (an
// infinity written as such, "inf" or "-infinity", is taken).
Scalar parse_floating_as(DataType type, const std::string& text) {
  const double value = parse_floating(text);
  const Scalar parsed = type == DataType::f16   ? Scalar::from(type, float_to_half_bits(static_cast<float>(value)))
                        : type == DataType::f32 ? Scalar::from(type, static_cast<float>(value))
                                                : Scalar::from(type, value);
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (std::isinf(parsed.to_double()) && lower.find("inf") == std::string::npos) {
    const char* largest = type == DataType::f16 ? "65504" : type == DataType::f32 ? "3.40282347e+38" : "1.7976931348623157e+308";
    throw InvalidArgumentError("'" + text + "' does not fit in " + std::string(name(type)) + " (its largest value is " +
                               largest + ")");
  }
  return parsed;
}
}  // namespace

double Scalar::to_double() const {
  switch (type) {
    case DataType::f16: return half_bits_to_float(as<std::uint16_t>());
    case DataType::f32: return as<float>();
    case DataType::f64: return as<double>();
    default: return visit_integer(*this, [](auto v) { return static_cast<double>(v); });
  }
}

std::string Scalar::to_string() const {
  if (type == DataType::boolean) return as<std::uint8_t>() ? "true" : "false";
  if (is_floating(type)) {
    const double v = to_double();
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    const int digits = type == DataType::f64 ? 17 : type == DataType::f32 ? 9 : 5;
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
  }
  return visit_integer(*this, [](auto v) {
    using V = decltype(v);
    if constexpr (std::is_signed_v<V>) return std::to_string(static_cast<long long>(v));
    else return std::to_string(static_cast<unsigned long long>(v));
  });
}

Scalar to_accumulator(const Scalar& value) {
  if (value.type != DataType::f16) return value;
  return Scalar::from(DataType::f32, half_bits_to_float(value.as<std::uint16_t>()));
}

Scalar from_accumulator(const Scalar& accumulator, DataType element_type) {
  if (element_type != DataType::f16) return accumulator;
  return Scalar::from(DataType::f16, float_to_half_bits(accumulator.as<float>()));
}

Scalar parse_scalar(DataType type, const std::string& text) {
  switch (type) {
    case DataType::i8: return parse_integer<std::int8_t>(type, text);
    case DataType::i16: return parse_integer<std::int16_t>(type, text);
    case DataType::i32: return parse_integer<std::int32_t>(type, text);
    case DataType::i64: return parse_integer<std::int64_t>(type, text);
    case DataType::u8: return parse_integer<std::uint8_t>(type, text);
    case DataType::u16: return parse_integer<std::uint16_t>(type, text);
    case DataType::u32: return parse_integer<std::uint32_t>(type, text);
    case DataType::u64: return parse_integer<std::uint64_t>(type, text);
    case DataType::f16:
    case DataType::f32:
    case DataType::f64: return parse_floating_as(type, text);
    case DataType::boolean:
      if (text == "true" || text == "1") return Scalar::from<std::uint8_t>(type, 1);
      if (text == "false" || text == "0") return Scalar::from<std::uint8_t>(type, 0);
      throw InvalidArgumentError("'" + text + "' is not a bool (use true/false or 1/0)");
  }
  throw InvalidArgumentError("unknown type");
}

}  // namespace zr::core
