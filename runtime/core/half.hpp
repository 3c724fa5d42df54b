#pragma once
// IEEE 754 binary16 <-> binary32 conversion on the host (round to nearest even), so that the core does not
// depend on compiler support for a half type.
#include <cstdint>

namespace zr::core {

float half_bits_to_float(std::uint16_t bits);
std::uint16_t float_to_half_bits(float value);

}  // namespace zr::core
