#include "host_path_segments.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "binned_sum.hpp"
#include "host_fold.hpp"
#include "host_path.hpp"
#include "plan.hpp"

namespace zr::core {

namespace {

std::uint64_t offset_at(const std::byte* offsets, std::uint32_t offset_bytes, std::uint64_t k) {
  if (offset_bytes == 4) {
    std::uint32_t value;  // checked non-negative: a signed one reads the same
    std::memcpy(&value, offsets + 4 * k, 4);
    return value;
  }
  std::uint64_t value;
  std::memcpy(&value, offsets + 8 * k, 8);
  return value;
}

// Calls visit(s, begin, end) for every segment in order.
template <typename Visit>
void for_each_segment(const HostSegments& segments, Visit&& visit) {
  const std::uint32_t bytes = segments.offset_bytes;
  if (!segments.begins) {
    for (std::uint64_t s = 0; s < segments.count; ++s) visit(s, s * segments.length, (s + 1) * segments.length);
  } else if (!segments.ends) {
    std::uint64_t begin = segments.count ? offset_at(segments.begins, bytes, 0) : 0;
    for (std::uint64_t s = 0; s < segments.count; ++s) {
      const std::uint64_t end = offset_at(segments.begins, bytes, s + 1);
      visit(s, begin, end);
      begin = end;
    }
  } else {
    for (std::uint64_t s = 0; s < segments.count; ++s)
      visit(s, offset_at(segments.begins, bytes, s), offset_at(segments.ends, bytes, s));
  }
}

// Segments shorter than the host path's lanes fold one element after another: most segments of a segmented
// reduction are short, and the lanes' set-up and pairwise combine would cost more than their elements.
template <typename Element, typename Acc, Op kOp>
void fold_segments(const ReductionRequest& request, const std::byte* data, const HostSegments& segments,
                   std::byte* results) {
  constexpr Op op = kOp;
  constexpr host_fold::Combine<Acc> combine{op};
  const DataType type = request.type;
  const Acc identity = host_fold::load<Element, Acc>(request.identity.data(), 0);
  if (!segments.begins && segments.length == 1) {
    // Rows of one element (numpy's x.sum(axis=1) of an (n, 1) array) are a map: one loop the compiler vectorises,
    // not a segment visit per element.
    for (std::uint64_t s = 0; s < segments.count; ++s) {
      std::byte* out = results + s * sizeof(Element);
      Acc result = combine(identity, host_fold::load<Element, Acc>(data, s));
      if (request.include_initial) result = combine(host_fold::load<Element, Acc>(out, 0), result);
      host_fold::store<Element, Acc>(type, result, out);
    }
    return;
  }
  // Inlined into each loop of for_each_segment: most segments are a few elements, where a call would dominate.
  for_each_segment(segments, [&](std::uint64_t s, std::uint64_t begin, std::uint64_t end) __attribute__((always_inline)) {
    std::byte* out = results + s * sizeof(Element);
    const std::byte* initial = request.include_initial ? out : nullptr;
    const std::byte* first = data + begin * sizeof(Element);
    const std::uint64_t n = end - begin;
    Acc result = identity;
    if (n < kHostLanes) {
      for (std::uint64_t i = 0; i < n; ++i) result = combine(result, host_fold::load<Element, Acc>(first, i));
    } else if constexpr (std::is_floating_point_v<Element> && (op == Op::minimum || op == Op::maximum)) {
      result = host_fold::reduce_as<Element, Acc>(op, first, n, identity);  // the vectorised extremes
    } else {
      result = host_fold::reduce_lanes<Element, Acc, op>(first, n, identity);  // what reduce_as calls, called here
    }
    if (initial) result = combine(host_fold::load<Element, Acc>(initial, 0), result);
    host_fold::store<Element, Acc>(type, result, out);
  });
}

}  // namespace

void host_path_reduce_segments(const ReductionRequest& request, const std::byte* data, const HostSegments& segments,
                               std::byte* results) {
  const std::size_t element = size_of(request.type);
  if (is_arg_op(request.op)) {
    if (request.type == DataType::boolean) throw Error("host path: argmin and argmax take integer or floating-point values");
    host_fold::with_element_types(request.type, [&]<typename Element, typename Acc>() {
      for_each_segment(segments, [&](std::uint64_t s, std::uint64_t begin, std::uint64_t end) {
        if (end == begin) throw Error("host path: segment " + std::to_string(s) + " is empty and has no " + std::string(name(request.op)));
        arg_to_bytes(host_fold::arg_as<Element, Acc>(request.op, request.type, data + begin * element, end - begin),
                     results + s * kArgResultBytes);
      });
    });
    return;
  }
  if (is_binned_sum(request)) {
    for_each_segment(segments, [&](std::uint64_t s, std::uint64_t begin, std::uint64_t end) {
      std::byte* out = results + s * element;
      BinnedState state = binned_add_all(BinnedState{}, std::span(data + begin * element, (end - begin) * element),
                                         end - begin, request.type);
      if (request.include_initial) state = binned_add_all(state, std::span<const std::byte>(out, element), 1, request.type);
      const Scalar value = binned_value(state, request.type);
      std::memcpy(out, value.data(), element);
    });
    return;
  }
  host_fold::with_element_types(request.type, [&]<typename Element, typename Acc>() {
    host_fold::with_op(request.op, [&]<Op kOp>() { fold_segments<Element, Acc, kOp>(request, data, segments, results); });
  });
}

std::uint64_t host_path_segment_combine_depth(std::uint64_t longest) {
  // A segment one short of the lanes folds its elements one after another: it may be deeper than the longest.
  const std::uint64_t folded_one_by_one = std::min(longest, kHostLanes - 1) + 1;
  return std::max(folded_one_by_one, longest < kHostLanes ? 0 : host_path_combine_depth(longest));
}

}  // namespace zr::core
