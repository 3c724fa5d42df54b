// The host path's segmented and column reductions (runtime/core/host_path_segments.hpp, host_path_columns.hpp)
// against the independent host reference, segment by segment and column by column: every (op, type) of the nine
// SYCL ops, segments of every length around the host path's thresholds (its lanes, the vectorised extremes) in
// each layout (rows, 4- and 8-byte offsets, begin/end arrays out of order and overlapping), special floating
// values, initial values; reproducible sums and argmin/argmax against their own references.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "arg_reference.hpp"
#include "binned_sum.hpp"
#include "host_path.hpp"
#include "host_path_columns.hpp"
#include "host_path_segments.hpp"
#include "host_path_test_data.hpp"
#include "host_reference.hpp"
#include "plan.hpp"

using zr::test::make_data;
using zr::test::request_for;

namespace {

const std::vector<std::uint64_t> kLengths = {3, 0, 1, 2, 15, 16, 17, 33, 127, 128, 129, 300, 1};

// Offsets of 4 or 8 bytes, as the segments API takes them.
std::vector<std::byte> offset_bytes(const std::vector<std::uint64_t>& values, std::uint32_t size) {
  std::vector<std::byte> out(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (size == 4) {
      const auto v = static_cast<std::uint32_t>(values[i]);
      std::memcpy(out.data() + 4 * i, &v, 4);
    } else {
      std::memcpy(out.data() + 8 * i, &values[i], 8);
    }
  }
  return out;
}

// One way of laying out segments over an input, with each segment's [begin, end) for the checks.
struct Layout {
  std::string name;
  std::vector<std::uint64_t> begins, ends;
  std::vector<std::byte> first_array, second_array;  // offsets or begins; ends
  zc::HostSegments segments;
};

std::vector<Layout> layouts_over(std::uint64_t n) {
  std::vector<std::uint64_t> offsets = {0};
  for (std::uint64_t length : kLengths) offsets.push_back(offsets.back() + length);
  EXPECT_EQ(offsets.back(), n);
  std::vector<Layout> out;
  for (std::uint32_t size : {4u, 8u}) {
    Layout layout{"offsets of " + std::to_string(size * 8) + " bits", {}, {}, offset_bytes(offsets, size), {}, {}};
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
      layout.begins.push_back(offsets[s]);
      layout.ends.push_back(offsets[s + 1]);
    }
    layout.segments = {kLengths.size(), 0, layout.first_array.data(), nullptr, size};
    out.push_back(std::move(layout));
  }
  // Begin/end arrays: the same segments last first, then the whole input and an overlapping middle part.
  Layout bounds{"begin and end arrays", {}, {}, {}, {}, {}};
  for (std::size_t s = kLengths.size(); s-- > 0;) {
    bounds.begins.push_back(offsets[s]);
    bounds.ends.push_back(offsets[s + 1]);
  }
  bounds.begins.insert(bounds.begins.end(), {0, n / 3});
  bounds.ends.insert(bounds.ends.end(), {n, n / 3 + n / 2});
  bounds.first_array = offset_bytes(bounds.begins, 8);
  bounds.second_array = offset_bytes(bounds.ends, 8);
  bounds.segments = {bounds.begins.size(), 0, bounds.first_array.data(), bounds.second_array.data(), 8};
  out.push_back(std::move(bounds));
  // Rows: the input cut into equal rows of 29 (the last few elements left out of the rows' n), and rows of one
  // element (a map on the host path).
  for (const std::uint64_t length : {std::uint64_t{29}, std::uint64_t{1}}) {
    Layout rows{"rows of " + std::to_string(length), {}, {}, {}, {}, {}};
    for (std::uint64_t r = 0; (r + 1) * length <= n; ++r) {
      rows.begins.push_back(r * length);
      rows.ends.push_back((r + 1) * length);
    }
    rows.segments = {rows.begins.size(), length, nullptr, nullptr, 8};
    out.push_back(std::move(rows));
  }
  return out;
}

std::span<const std::byte> segment_of(const std::vector<std::byte>& data, zc::DataType type, std::uint64_t begin,
                                      std::uint64_t end) {
  const std::size_t size = zc::size_of(type);
  return std::span<const std::byte>(data).subspan(begin * size, (end - begin) * size);
}

}  // namespace

TEST(HostPathSegments, GivenEveryOpTypeAndLayout_WhenReducedOnTheHost_ThenEachSegmentAgreesWithTheHostReference) {
  const std::uint64_t n = std::accumulate(kLengths.begin(), kLengths.end(), std::uint64_t{0});
  const std::vector<Layout> layouts = layouts_over(n);
  int checked = 0;
  for (zc::Op op : zc::kAllOps) {
    for (zc::DataType type : zc::kAllDataTypes) {
      if (!zc::is_supported(op, type)) continue;
      const std::size_t size = zc::size_of(type);
      const auto data = make_data(type, n, static_cast<int>(op) * 7 + static_cast<int>(type), zc::is_floating(type));
      for (const Layout& layout : layouts) {
        for (bool include_initial : {false, true}) {
          const std::uint64_t count = layout.begins.size();
          const auto initial = make_data(type, count, count + 5, false);
          std::vector<std::byte> results = initial;
          auto request = request_for(op, type, n, include_initial);
          zc::host_path_reduce_segments(request, data.data(), layout.segments, results.data());
          std::uint64_t longest = 0;
          for (std::uint64_t s = 0; s < count; ++s) longest = std::max(longest, layout.ends[s] - layout.begins[s]);
          for (std::uint64_t s = 0; s < count; ++s) {
            const std::uint64_t begin = layout.begins[s], length = layout.ends[s] - begin;
            std::optional<zc::Scalar> initial_value;
            if (include_initial) {
              initial_value = zc::Scalar{type, {}};
              std::memcpy(initial_value->bytes.data(), initial.data() + s * size, size);
            }
            const auto reference = zc::host_reference(op, type, segment_of(data, type, begin, begin + length), length,
                                                       request.identity, initial_value,
                                                       zc::host_path_segment_combine_depth(longest));
            zc::Scalar got{type, {}};
            std::memcpy(got.bytes.data(), results.data() + s * size, size);
            std::string why;
            EXPECT_TRUE(zc::agrees(reference, got, &why))
                << zc::name(op) << ' ' << zc::name(type) << ", " << layout.name << ", segment " << s << " of "
                << length << (include_initial ? " with initial" : "") << ": " << why;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(HostPathSegments, GivenReproducibleSums_WhenReducedOnTheHost_ThenEachSegmentHasTheBitsOfItsOneDimensionalSum) {
  const std::uint64_t n = std::accumulate(kLengths.begin(), kLengths.end(), std::uint64_t{0});
  for (zc::DataType type : {zc::DataType::f16, zc::DataType::f32, zc::DataType::f64}) {
    const std::size_t size = zc::size_of(type);
    const auto data = make_data(type, n, 41, false);
    for (const Layout& layout : layouts_over(n)) {
      const auto initial = make_data(type, layout.begins.size(), 43, false);
      std::vector<std::byte> results = initial;
      auto request = request_for(zc::Op::plus, type, n, true);
      request.reproducible = request.deterministic = true;
      ASSERT_TRUE(zc::host_path_serves(request));
      zc::host_path_reduce_segments(request, data.data(), layout.segments, results.data());
      for (std::size_t s = 0; s < layout.begins.size(); ++s) {
        zc::Scalar initial_value{type, {}};
        std::memcpy(initial_value.bytes.data(), initial.data() + s * size, size);
        const std::uint64_t length = layout.ends[s] - layout.begins[s];
        const auto reference = zc::reproducible_sum_reference(
            type, segment_of(data, type, layout.begins[s], layout.ends[s]), length, initial_value);
        EXPECT_EQ(std::memcmp(results.data() + s * size, reference.value.data(), size), 0)
            << zc::name(type) << ", " << layout.name << ", segment " << s << " of " << length;
      }
    }
  }
}

TEST(HostPathSegments, GivenArgReductions_WhenReducedOnTheHost_ThenEachSegmentGivesItsFirstExtremeAndItsIndexInIt) {
  std::vector<std::uint64_t> offsets = {0};
  for (std::uint64_t length : kLengths)
    if (length) offsets.push_back(offsets.back() + length);  // an empty segment has no argmin
  const std::uint64_t n = offsets.back();
  const auto offset_array = offset_bytes(offsets, 8);
  const zc::HostSegments segments{offsets.size() - 1, 0, offset_array.data(), nullptr, 8};
  int checked = 0;
  for (zc::Op op : zc::kArgOps) {
    for (zc::DataType type : zc::kAllDataTypes) {
      if (type == zc::DataType::boolean) continue;
      auto data = make_data(type, n, 17 + static_cast<int>(type), zc::is_floating(type));
      if (!zc::is_floating(type))  // 8-bit values repeat anyway; a repeated extreme in the long segment too
        std::memcpy(data.data() + (offsets[11] - 1) * zc::size_of(type), data.data() + offsets[10] * zc::size_of(type),
                    zc::size_of(type));
      std::vector<std::byte> results((offsets.size() - 1) * zc::kArgResultBytes);
      zc::host_path_reduce_segments(request_for(op, type, n, false), data.data(), segments, results.data());
      for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
        const std::uint64_t length = offsets[s + 1] - offsets[s];
        const auto expected = zc::arg_reference(op, type, segment_of(data, type, offsets[s], offsets[s + 1]), length);
        const auto got = zc::arg_from_bytes(type, results.data() + s * zc::kArgResultBytes);
        EXPECT_EQ(got.index, expected.index) << zc::name(op) << ' ' << zc::name(type) << ", segment " << s;
        EXPECT_TRUE(got.value.bitwise_equal(expected.value)) << zc::name(op) << ' ' << zc::name(type) << ", segment " << s;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// A column's result is the 1-D host path's over that column's elements, bit for bit, and agrees with the host
// reference; the row counts straddle the lanes (a lane per row below 16).
TEST(HostPathColumns, GivenEveryOpTypeAndShape_WhenReducedOnTheHost_ThenEachColumnIsTheOneDimensionalHostPathsResult) {
  int checked = 0;
  for (zc::Op op : zc::kAllOps) {
    for (zc::DataType type : zc::kAllDataTypes) {
      if (!zc::is_supported(op, type)) continue;
      const std::size_t size = zc::size_of(type);
      for (auto [rows, columns] : {std::pair<std::uint64_t, std::uint64_t>{0, 3}, {1, 5}, {3, 4}, {16, 3}, {17, 2},
                                   {40, 7}, {301, 33}}) {
        const std::uint64_t n = rows * columns;
        const auto data = make_data(type, n, rows * 7 + columns + static_cast<int>(op), zc::is_floating(type));
        for (bool include_initial : {false, true}) {
          const auto initial = make_data(type, columns, columns + 11, false);
          std::vector<std::byte> results = initial;
          const auto request = request_for(op, type, n, include_initial);
          ASSERT_TRUE(zc::host_path_serves_columns(request));
          zc::host_path_reduce_columns(request, data.data(), columns, results.data());
          for (std::uint64_t c = 0; c < columns; ++c) {
            std::vector<std::byte> column(rows * size);
            for (std::uint64_t r = 0; r < rows; ++r)
              std::memcpy(column.data() + r * size, data.data() + (r * columns + c) * size, size);
            zc::Scalar initial_value{type, {}};
            std::memcpy(initial_value.bytes.data(), initial.data() + c * size, size);
            zc::Scalar got{type, {}};
            std::memcpy(got.bytes.data(), results.data() + c * size, size);
            const auto one_dimensional = zc::host_path_reduce(request_for(op, type, rows, include_initial), column, initial_value);
            const std::string what = std::string(zc::name(op)) + ' ' + std::string(zc::name(type)) + ", " +
                                     std::to_string(rows) + " x " + std::to_string(columns) + ", column " +
                                     std::to_string(c) + (include_initial ? " with initial" : "");
            EXPECT_TRUE(got.bitwise_equal(one_dimensional)) << what;
            const auto reference = zc::host_reference(op, type, column, rows, request.identity,
                                                      include_initial ? std::optional(initial_value) : std::nullopt,
                                                      zc::host_path_combine_depth(rows));
            std::string why;
            EXPECT_TRUE(zc::agrees(reference, got, &why)) << what << ": " << why;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(HostPathColumns, GivenRequestsItDoesNotServe_WhenAsked_ThenItSaysNo) {
  auto binned = request_for(zc::Op::plus, zc::DataType::f32, 10, true);
  binned.reproducible = true;
  auto arg = request_for(zc::Op::argmax, zc::DataType::f32, 10, false);
  auto transform = request_for(zc::Op::norm_l2, zc::DataType::f32, 10, false);
  for (const auto* request : {&binned, &arg, &transform}) EXPECT_FALSE(zc::host_path_serves_columns(*request));
  auto reproducible_integers = request_for(zc::Op::plus, zc::DataType::i32, 10, true);
  reproducible_integers.reproducible = true;  // order-independent already
  EXPECT_TRUE(zc::host_path_serves_columns(reproducible_integers));
}

TEST(HostPathSegments, GivenTheLongestSegment_WhenAskingTheCombineDepth_ThenShortSegmentsFoldedOneByOneCount) {
  EXPECT_EQ(zc::host_path_segment_combine_depth(0), 1u);
  EXPECT_EQ(zc::host_path_segment_combine_depth(15), 16u);
  // A 15-element segment beside a 16-element one is still 16 combines deep.
  EXPECT_EQ(zc::host_path_segment_combine_depth(16), 16u);
  EXPECT_EQ(zc::host_path_segment_combine_depth(4000), zc::host_path_combine_depth(4000));
}
