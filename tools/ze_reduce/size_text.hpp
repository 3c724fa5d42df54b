#pragma once
// Element counts as people type them on the command line: 1000, 1e9, 2^28, 256M, 1.5K, 4Ki.
//
// The suffixes K, M, G, T and Ki, Mi, Gi, Ti are all powers of 1024 (K = Ki = 2^10, M = Mi = 2^20, G = Gi = 2^30,
// T = Ti = 2^40). These are element counts that size buffers in memory, where the binary meaning is the useful one
// ("256M floats" = exactly 1 GiB); a decimal count is written with an exponent instead (1e9). Letters are case
// insensitive (64k = 64K); the 'i' is optional.
//
// The result must be a whole number that fits in 64 bits, and is computed exactly (no floating point): 1.5K = 1536
// is accepted, 1.5 and 1.0001K are not.
#include <cstdint>
#include <string_view>

namespace zr::cli {

// For the --help text of every option that takes an element count.
inline constexpr std::string_view kElementCountHelp =
    "an element count: 1000, 1e9 or 2.5e6 (powers of ten), 2^28 (a power), or a number with a suffix: "
    "64K, 256M, 1G, 1.5T, 4Ki ... (K M G T and Ki Mi Gi Ti all mean 1024, 1024^2, 1024^3, 1024^4); "
    "the result must be a whole number below 2^64";

// Throws zr::InvalidArgumentError naming `text` and what is accepted when it is empty, negative, not a whole number,
// larger than 2^64 - 1, or not one of the forms above.
std::uint64_t parse_element_count(std::string_view text);

}  // namespace zr::cli
