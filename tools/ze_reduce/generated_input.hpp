#pragma once
// The inputs ze_reduce makes up when no file is given (docs/ze_reduce.md, "Generated inputs"):
//   pattern  element i of a fixed sequence chosen per op so that the exact result is representable:
//            integers ((i * 7919) mod 255) - 127 (unsigned: mod 256), floating types the same divided by 8,
//            bool (i mod 7) != 3; for multiplies, floating types 1 and -1 alternating with 2 and 0.5 in
//            place of some of the first 64 (so that no grouping of the factors overflows), integers a cycle
//            of 1, -1, 3, 1 (unsigned 1, 1, 3, 1) whose product wraps exactly.
//   random   seeded (std::mt19937_64): integers over their whole range, floating types uniform in [-1, 1)
//            (for multiplies [0.999, 1.001), so long products neither overflow nor vanish), bool fair coins.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "data_types.hpp"
#include "options.hpp"

namespace zr::cli {

std::vector<std::byte> generate_input(core::DataType type, core::Op op, Fill fill, std::uint64_t seed, std::uint64_t n);

}  // namespace zr::cli
