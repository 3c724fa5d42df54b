// split_by_weights: how zr::device_group splits one input across devices.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "shares.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

std::vector<std::uint64_t> counts(std::uint64_t n, std::vector<double> weights) {
  const auto parts = split_by_weights(n, weights);
  std::vector<std::uint64_t> out;
  std::uint64_t expected_first = 0;
  for (const auto& part : parts) {
    EXPECT_EQ(part.first, expected_first) << "parts are contiguous, in device order";
    expected_first += part.count;
    out.push_back(part.count);
  }
  EXPECT_EQ(expected_first, n) << "the parts cover the input exactly";
  return out;
}

TEST(SplitByWeights, GivenWeights_WhenSplit_ThenPartsFollowThemAndCoverTheInput) {
  EXPECT_EQ(counts(100, {1, 1}), (std::vector<std::uint64_t>{50, 50}));
  EXPECT_EQ(counts(100, {1, 3}), (std::vector<std::uint64_t>{25, 75}));
  EXPECT_EQ(counts(10, {1, 1, 1}), (std::vector<std::uint64_t>{4, 3, 3}));  // the earlier device on a tie
  EXPECT_EQ(counts(7, {2, 0, 5}), (std::vector<std::uint64_t>{2, 0, 5}));
  EXPECT_EQ(counts(0, {1, 2}), (std::vector<std::uint64_t>{0, 0}));
  EXPECT_EQ(counts(1, {1, 1, 1, 1}), (std::vector<std::uint64_t>{1, 0, 0, 0}));
  // 1000003 * 84.5 / 3098.5 = 27271.35 and 972731.65: the one leftover element goes to the larger remainder.
  EXPECT_EQ(counts(1000003, {3014.0, 84.5}), (std::vector<std::uint64_t>{972732, 27271}));
}

TEST(SplitByWeights, GivenSizesBeyond32Bits_WhenSplit_ThenNothingIsTruncated) {
  const std::uint64_t n = (std::uint64_t{1} << 40) + 3;
  const auto parts = counts(n, {1, 1});
  EXPECT_EQ(parts[0], (std::uint64_t{1} << 39) + 2);
  EXPECT_EQ(parts[1], (std::uint64_t{1} << 39) + 1);
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  const auto all = counts(most, {1, 2, 3});
  EXPECT_EQ(all[0] + all[1] + all[2], most);
}

TEST(SplitByWeights, GivenBadWeights_WhenSplit_ThenRefusedWithTheReason) {
  EXPECT_THROW(split_by_weights(10, std::vector<double>{}), InvalidArgumentError);
  EXPECT_THROW(split_by_weights(10, std::vector<double>{0, 0}), InvalidArgumentError);
  EXPECT_THROW(split_by_weights(10, std::vector<double>{1, -1}), InvalidArgumentError);
  EXPECT_THROW(split_by_weights(10, std::vector<double>{1, std::numeric_limits<double>::quiet_NaN()}),
               InvalidArgumentError);
  try {
    split_by_weights(10, std::vector<double>{1, -2});
    FAIL() << "a negative weight was accepted";
  } catch (const InvalidArgumentError& error) {
    EXPECT_NE(std::string(error.what()).find("weight 1"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace zr::core
