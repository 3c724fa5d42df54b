#include "size_text.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "zereduce/errors.hpp"

namespace zr::cli {

namespace {

constexpr std::string_view kAccepted =
    "accepted: 1000, 1e9, 2.5e6, 2^28, 64K, 256M, 1G, 1.5K, 4Ki (K M G T and Ki Mi Gi Ti are powers of 1024)";

[[noreturn]] void fail(std::string_view text, std::string_view problem) {
  throw InvalidArgumentError("invalid element count '" + std::string(text) + "': " + std::string(problem) + "; " +
                             std::string(kAccepted));
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view take_digits(std::string_view& rest) {
  std::size_t n = 0;
  while (n < rest.size() && is_digit(rest[n])) ++n;
  const auto digits = rest.substr(0, n);
  rest.remove_prefix(n);
  return digits;
}

// nullopt when the digits do not fit in 64 bits.
std::optional<std::uint64_t> to_u64(std::string_view digits) {
  std::uint64_t value = 0;
  for (char c : digits) {
    if (__builtin_mul_overflow(value, 10u, &value) || __builtin_add_overflow(value, unsigned(c - '0'), &value))
      return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> checked_power(std::uint64_t base, std::uint64_t exponent) {
  std::uint64_t value = 1;
  // Bases 0 and 1 never overflow, whatever the exponent: stop as soon as the value cannot change any more.
  for (std::uint64_t i = 0; i < exponent; ++i) {
    if (__builtin_mul_overflow(value, base, &value)) return std::nullopt;
    if (value <= 1) break;
  }
  return value;
}

std::uint64_t parse_power(std::string_view text, std::string_view base_text, std::string_view exponent_text) {
  auto rest = base_text;
  const auto base_digits = take_digits(rest);
  if (base_digits.empty() || !rest.empty()) fail(text, "the base of a power must be a whole number, as in 2^28");
  rest = exponent_text;
  const auto exponent_digits = take_digits(rest);
  if (exponent_digits.empty() || !rest.empty())
    fail(text, "the exponent of a power must be a whole number, as in 2^28");
  const auto base = to_u64(base_digits);
  if (!base) fail(text, "it does not fit in 64 bits");
  // An exponent too long for 64 bits still gives 0 or 1 for bases 0 and 1; any larger base overflows.
  const auto exponent = to_u64(exponent_digits).value_or(~std::uint64_t{0});
  const auto value = checked_power(*base, exponent);
  if (!value) fail(text, "it does not fit in 64 bits (the largest count is 2^64 - 1)");
  return *value;
}

// Number of 1024 factors for the suffix at the start of `rest`, which it consumes; 0 when there is none.
unsigned take_suffix(std::string_view& rest) {
  if (rest.empty()) return 0;
  constexpr std::string_view kLetters = "kmgt";
  const char letter = static_cast<char>(rest[0] | 0x20);  // ASCII lower case
  const auto position = kLetters.find(letter);
  if (position == std::string_view::npos) return 0;
  rest.remove_prefix(1);
  if (!rest.empty() && (rest[0] == 'i' || rest[0] == 'I')) rest.remove_prefix(1);
  return static_cast<unsigned>(position) + 1;
}

// mantissa [e exponent] [suffix], evaluated exactly: digits * 10^scale * 2^(10 * suffix).
std::uint64_t parse_decimal(std::string_view text, std::string_view number) {
  auto rest = number;
  const auto whole = take_digits(rest);
  std::string_view fraction;
  if (!rest.empty() && rest[0] == '.') {
    rest.remove_prefix(1);
    fraction = take_digits(rest);
  }
  if (whole.empty() && fraction.empty()) fail(text, "it does not start with a number");

  std::int64_t scale = -static_cast<std::int64_t>(fraction.size());
  if (!rest.empty() && (rest[0] == 'e' || rest[0] == 'E')) {
    rest.remove_prefix(1);
    bool negative = false;
    if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
      negative = rest[0] == '-';
      rest.remove_prefix(1);
    }
    const auto exponent_digits = take_digits(rest);
    if (exponent_digits.empty()) fail(text, "the exponent after 'e' has no digits");
    // Beyond a million, a non-zero mantissa overflows or is fractional anyway; the clamp keeps scale in range.
    const auto exponent =
        static_cast<std::int64_t>(std::min<std::uint64_t>(to_u64(exponent_digits).value_or(1000000), 1000000));
    scale += negative ? -exponent : exponent;
  }
  const unsigned suffix = take_suffix(rest);
  if (!rest.empty()) fail(text, "unexpected '" + std::string(rest) + "'");

  // The significant digits, without leading zeros and with trailing zeros moved into the scale.
  std::string digits = std::string(whole) + std::string(fraction);
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++scale;
  }
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  digits.erase(0, first);
  const auto overflow = [&] { fail(text, "it does not fit in 64 bits (the largest count is 2^64 - 1)"); };
  const auto mantissa = to_u64(digits);
  if (!mantissa) {
    if (scale >= 0) overflow();
    fail(text, "more significant digits than 64 bits hold");
  }
  std::uint64_t value = *mantissa;
  const auto fractional = [&] { fail(text, "it is not a whole number of elements"); };
  if (scale > 0) {
    const auto power = checked_power(10, static_cast<std::uint64_t>(scale));
    if (!power || __builtin_mul_overflow(value, *power, &value)) overflow();
  }
  // Dividing by 10^m = 5^m * 2^m: the fives must come from the digits, the twos from the digits or the suffix.
  std::int64_t twos = 10 * static_cast<std::int64_t>(suffix);
  if (scale < 0) {
    for (std::int64_t i = 0; i < -scale; ++i) {
      if (value % 5 != 0) fractional();
      value /= 5;
    }
    twos += scale;
  }
  if (twos < 0) {
    if (twos <= -64 || value % (std::uint64_t{1} << -twos) != 0) fractional();
    value >>= -twos;
  } else if (twos > 0) {
    if (twos >= 64 || value > (~std::uint64_t{0} >> twos)) overflow();
    value <<= twos;
  }
  return value;
}

}  // namespace

std::uint64_t parse_element_count(std::string_view text) {
  auto trimmed = text;
  while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.remove_prefix(1);
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.remove_suffix(1);
  if (trimmed.empty()) fail(text, "it is empty");
  if (trimmed.front() == '-') fail(text, "a count cannot be negative");
  if (const auto caret = trimmed.find('^'); caret != std::string_view::npos)
    return parse_power(text, trimmed.substr(0, caret), trimmed.substr(caret + 1));
  return parse_decimal(text, trimmed);
}

}  // namespace zr::cli
