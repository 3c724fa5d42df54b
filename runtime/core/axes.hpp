#pragma once
// Reductions over axes of a C-contiguous N-D array (NumPy's x.sum(axis=(...))), as plain data: the array seen as
// groups of consecutive axes that are all reduced or all kept (axes of extent 1 dropped: they change no address),
// and the passes that reduce it, one reduced group each, from the last: a pass sees its input as
// (outer, extent, inner), C order, and reduces the middle extent. With inner = 1 that is `outer` rows of `extent`
// values (a segmented reduction's rows); otherwise `outer` blocks of `extent` rows of `inner` columns (array
// reductions, one per block). Only a pass of rows keeps an element's index along the axis and a transform's
// meaning, so argmin/argmax, transforms and user operators take one such pass (the reduced axes last).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zr::core {

struct AxisGroup {
  std::uint64_t extent = 1;
  bool reduced = false;
};

struct AxesPass {
  std::uint64_t outer = 1;
  std::uint64_t extent = 1;
  std::uint64_t inner = 1;
  bool rows() const { return inner == 1; }
};

struct AxesReduction {
  std::vector<AxisGroup> groups;  // consecutive axes merged, extents of 1 dropped
  std::uint64_t elements = 1;     // the array's
  std::uint64_t results = 1;      // the product of the kept extents
  std::vector<AxesPass> passes;   // in order; each reads what the one before wrote
  std::string shape_text;         // "(4, 5, 6)", for messages
};

// "(4, 5, 6)", or "(4,)" for one value, as Python writes a tuple: shapes and axes in messages.
template <typename Int>
std::string tuple_text(std::span<const Int> values) {
  std::string text = "(";
  for (std::size_t k = 0; k < values.size(); ++k) text += (k ? ", " : "") + std::to_string(values[k]);
  return text + (values.size() == 1 ? ",)" : ")");
}

// Throws InvalidArgumentError naming the problem: an axis outside [-N, N) (negative ones count from the last), an
// axis given twice, a shape whose element count a 64-bit size cannot hold. No axes reduce nothing: every element is
// its own result (one pass of rows of one).
AxesReduction reduce_axes_of(std::span<const std::uint64_t> shape, std::span<const std::int64_t> axes);

}  // namespace zr::core
