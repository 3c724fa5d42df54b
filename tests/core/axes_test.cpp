// Reductions over axes of an N-D array (core/axes.hpp): the groups the axes merge into and the passes, as plain
// data, against shapes worked out by hand; and the errors.
#include <gtest/gtest.h>

#include <vector>

#include "axes.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

struct Expected {
  std::uint64_t outer, extent, inner;
};

void expect_passes(const AxesReduction& r, const std::vector<Expected>& want) {
  ASSERT_EQ(r.passes.size(), want.size()) << r.shape_text;
  for (std::size_t p = 0; p < want.size(); ++p) {
    EXPECT_EQ(r.passes[p].outer, want[p].outer) << r.shape_text << " pass " << p;
    EXPECT_EQ(r.passes[p].extent, want[p].extent) << r.shape_text << " pass " << p;
    EXPECT_EQ(r.passes[p].inner, want[p].inner) << r.shape_text << " pass " << p;
  }
}

TEST(Axes, GivenTheLastAxesWhenReducedThenOnePassOfRowsTakesThemAll) {
  const std::vector<std::uint64_t> shape{4, 5, 6};
  const auto r = reduce_axes_of(shape, std::vector<std::int64_t>{1, -1});
  EXPECT_EQ(r.elements, 120u);
  EXPECT_EQ(r.results, 4u);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[1].extent, 30u);
  expect_passes(r, {{4, 30, 1}});
  EXPECT_TRUE(r.passes[0].rows());
}

TEST(Axes, GivenTheFirstAxisWhenReducedThenOnePassOfColumns) {
  const auto r = reduce_axes_of(std::vector<std::uint64_t>{7, 3, 2}, std::vector<std::int64_t>{0});
  EXPECT_EQ(r.results, 6u);
  expect_passes(r, {{1, 7, 6}});
  EXPECT_FALSE(r.passes[0].rows());
}

TEST(Axes, GivenAMiddleAxisWhenReducedThenBlocksOfColumns) {
  expect_passes(reduce_axes_of(std::vector<std::uint64_t>{2, 3, 4, 5}, std::vector<std::int64_t>{1}), {{2, 3, 20}});
}

TEST(Axes, GivenAxesApartWhenReducedThenTheLastGroupGoesFirstAndTheOthersSeeItGone) {
  // (2, 3, 4, 5, 6) over axes 0, 2, 3: groups 2R 3K 20R 6K; first 20 over (6 outer, 20, 6 inner), then 2 over (1, 2, 18).
  const auto r = reduce_axes_of(std::vector<std::uint64_t>{2, 3, 4, 5, 6}, std::vector<std::int64_t>{0, 2, 3});
  ASSERT_EQ(r.groups.size(), 4u);
  EXPECT_EQ(r.results, 18u);
  expect_passes(r, {{6, 20, 6}, {1, 2, 18}});
}

TEST(Axes, GivenExtentsOfOneWhenMergingThenTheyChangeNothing) {
  // Axis 1 (extent 1) between two reduced axes: they merge into one group, one pass of rows.
  expect_passes(reduce_axes_of(std::vector<std::uint64_t>{3, 4, 1, 5}, std::vector<std::int64_t>{1, 3}), {{3, 20, 1}});
  // Reducing only extents of 1: each element is its own result.
  expect_passes(reduce_axes_of(std::vector<std::uint64_t>{3, 1}, std::vector<std::int64_t>{1}), {{3, 1, 1}});
  // No axes at all: likewise.
  expect_passes(reduce_axes_of(std::vector<std::uint64_t>{3, 4}, std::vector<std::int64_t>{}), {{12, 1, 1}});
}

TEST(Axes, GivenEmptyArraysWhenReducedThenResultsOfNoElementOrNoResults) {
  // A reduced extent of 0: every result reduces nothing (rows of none).
  const auto none_reduced = reduce_axes_of(std::vector<std::uint64_t>{3, 0}, std::vector<std::int64_t>{1});
  EXPECT_EQ(none_reduced.elements, 0u);
  expect_passes(none_reduced, {{3, 0, 1}});
  // A kept extent of 0: no results, nothing to run.
  const auto no_results = reduce_axes_of(std::vector<std::uint64_t>{0, 4}, std::vector<std::int64_t>{1});
  EXPECT_EQ(no_results.results, 0u);
  EXPECT_TRUE(no_results.passes.empty());
}

TEST(AxesMisuse, GivenBadAxesOrAnOverflowingShapeWhenDescribedThenTheMessageNamesThem) {
  const std::vector<std::uint64_t> shape{4, 5};
  auto message = [&](std::vector<std::uint64_t> s, std::vector<std::int64_t> axes) {
    try {
      reduce_axes_of(s, axes);
    } catch (const InvalidArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(shape, {2}).find("axis 2 is out of range for an array of shape (4, 5)"), std::string::npos);
  EXPECT_NE(message(shape, {-3}).find("axis -3 is out of range"), std::string::npos);
  EXPECT_NE(message(shape, {1, -1}).find("axis 1 is given twice"), std::string::npos);
  EXPECT_NE(message({1ull << 40, 1ull << 30, 0}, {0}).find("more elements than a 64-bit size"), std::string::npos);
}

}  // namespace
}  // namespace zr::core
