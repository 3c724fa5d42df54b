#include "axes.hpp"

#include <algorithm>

#include "zereduce/errors.hpp"

namespace zr::core {

namespace {

std::uint64_t product(std::span<const AxisGroup> groups) {
  std::uint64_t p = 1;
  for (const AxisGroup& g : groups) p *= g.extent;  // no overflow: at most the element count
  return p;
}

}  // namespace

AxesReduction reduce_axes_of(std::span<const std::uint64_t> shape, std::span<const std::int64_t> axes) {
  AxesReduction r;
  r.shape_text = tuple_text(shape);
  const auto dims = static_cast<std::int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  for (const std::int64_t axis : axes) {
    if (axis < -dims || axis >= dims)
      throw InvalidArgumentError("axis " + std::to_string(axis) + " is out of range for an array of shape " + r.shape_text +
                                 " (" + std::to_string(dims) + " axes: give 0 to " + std::to_string(dims - 1) +
                                 ", or -1 to -" + std::to_string(dims) + " from the last)");
    const auto k = static_cast<std::size_t>(axis < 0 ? axis + dims : axis);
    if (reduced[k]) throw InvalidArgumentError("axis " + std::to_string(k) + " is given twice for shape " + r.shape_text);
    reduced[k] = true;
  }
  // The element count, refusing an overflow even where another extent is 0.
  std::uint64_t nonzero = 1;
  for (const std::uint64_t extent : shape) {
    if (extent == 0) continue;
    if (nonzero > UINT64_MAX / extent)
      throw InvalidArgumentError("an array of shape " + r.shape_text + " has more elements than a 64-bit size can hold");
    nonzero *= extent;
  }
  r.elements = std::find(shape.begin(), shape.end(), std::uint64_t{0}) != shape.end() ? 0 : nonzero;
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (!reduced[k]) r.results = shape[k] == 0 ? 0 : r.results * shape[k];
  if (r.elements == 0) {
    // An empty array: every result (if any) reduces no element, as rows of none.
    if (r.results > 0) r.passes.push_back({r.results, 0, 1});
    return r;
  }
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1) continue;  // changes no address
    if (!r.groups.empty() && r.groups.back().reduced == reduced[k]) r.groups.back().extent *= shape[k];
    else r.groups.push_back({shape[k], reduced[k]});
  }
  // The last reduced group first: the groups after it are all kept, so it is the middle of (outer, extent, inner).
  std::vector<AxisGroup> left = r.groups;
  for (;;) {
    const auto last = std::find_if(left.rbegin(), left.rend(), [](const AxisGroup& g) { return g.reduced; });
    if (last == left.rend()) break;
    const auto at = static_cast<std::size_t>(left.rend() - last - 1);
    r.passes.push_back({product(std::span(left).first(at)), left[at].extent, product(std::span(left).subspan(at + 1))});
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(at));
  }
  // Nothing to reduce (no axes, or only axes of extent 1): each element is its own result, rows of one.
  if (r.passes.empty()) r.passes.push_back({r.results, 1, 1});
  return r;
}

}  // namespace zr::core
