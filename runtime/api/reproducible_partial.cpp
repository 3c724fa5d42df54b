// zr::reproducible_partial's exact merge and single rounding: the host model of the binned sum
// (core/binned_sum.hpp), whose layout is the kernels' zr_binned and the partial's 64 bytes.
#include "zereduce/reproducible_partial.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>

#include "binned_sum.hpp"
#include "scalar.hpp"

namespace zr::detail {

namespace {
static_assert(sizeof(partial_words) == sizeof(core::BinnedState));

core::BinnedState state_of(const partial_words& words) { return std::bit_cast<core::BinnedState>(words); }

core::DataType checked_type(element_type type) {
  const auto core_type = static_cast<core::DataType>(type);
  if (!core::is_floating(core_type))
    throw std::logic_error("a reproducible partial holds f16, f32 or f64 values");  // reproducible_partial<T> checks T
  return core_type;
}
}  // namespace

void merge_partial(partial_words& into, const partial_words& other) {
  into = std::bit_cast<partial_words>(core::binned_merge(state_of(into), state_of(other)));
}

void add_to_partial(partial_words& into, element_type type, const void* value) {
  const core::DataType core_type = checked_type(type);
  const auto* bytes = static_cast<const std::byte*>(value);
  into = std::bit_cast<partial_words>(
      core::binned_add_all(state_of(into), std::span(bytes, core::size_of(core_type)), 1, core_type));
}

void round_partial(const partial_words& partial, element_type type, void* value) {
  const core::DataType core_type = checked_type(type);
  const core::Scalar rounded = core::binned_value(state_of(partial), core_type);
  std::memcpy(value, rounded.data(), core::size_of(core_type));
}

}  // namespace zr::detail
