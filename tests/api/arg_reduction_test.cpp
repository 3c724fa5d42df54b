// queue::argmin / queue::argmax: the extreme value and the index of its first occurrence, against a host scan
// (arg_test_support.hpp; NumPy's rules: ties to the first index, the first NaN wins), for every numeric type, every
// strategy the default device offers, host and device memory, and the error cases.
#include <cmath>
#include <limits>
#include <random>

#include "arg_test_support.hpp"

namespace zr::test {
namespace {

template <typename T>
class ArgReduction : public ::testing::Test {};
TYPED_TEST_SUITE(ArgReduction, ArithmeticTypes);

TYPED_TEST(ArgReduction, GivenTiedValues_WhenEveryStrategyRuns_ThenTheFirstIndexOfTheExtreme) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  const element_type type = detail::element_type_of<T>();
  for (op_kind op : {op_kind::argmin, op_kind::argmax}) {
    const auto strategies = q.get_device().strategies(type, op);
    if (strategies.empty()) {
      std::printf("[ SKIPPED  ] %s on %s: device '%s' runs no kernel for it\n", std::string(to_string(op)).c_str(),
                  std::string(to_string(type)).c_str(), q.get_device().name().c_str());
      continue;
    }
    for (std::size_t n : {1, 2, 17, 1000, 65537, 1 << 20}) {
      const std::vector<T> data = tied_values<T>(n, static_cast<std::uint32_t>(n));
      const auto expected = scan<T>(data, op == op_kind::argmax);
      for (strategy s : strategies) {
        SCOPED_TRACE(std::string(to_string(op)) + " n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
        const property_list props{property::reduction::use_strategy{s}};
        const auto actual = op == op_kind::argmax ? q.argmax_value(std::span<const T>(data), props)
                                                  : q.argmin_value(std::span<const T>(data), props);
        ZR_EXPECT_ARG(actual, expected);
      }
    }
  }
}

TYPED_TEST(ArgReduction, GivenTheExtremeOnlyAtTheEnds_ThenItsIndexIsFound) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().strategies(detail::element_type_of<T>(), op_kind::argmax).empty()) GTEST_SKIP() << "no kernel for the type";
  for (std::size_t n : {5, 4099, 300001}) {
    std::vector<T> data(n, static_cast<T>(1));
    data.back() = static_cast<T>(9);
    data.front() = static_cast<T>(0);
    EXPECT_EQ(q.argmax_value(std::span<const T>(data)).index, n - 1);
    EXPECT_EQ(q.argmin_value(std::span<const T>(data)).index, 0u);
    std::fill(data.begin(), data.end(), static_cast<T>(3));
    EXPECT_EQ(q.argmax_value(std::span<const T>(data)).index, 0u) << "all equal: the first";
    EXPECT_EQ(q.argmin_value(std::span<const T>(data)).index, 0u) << "all equal: the first";
  }
}

TYPED_TEST(ArgReduction, GivenDeviceMemory_WhenTheResultIsDeviceMemoryToo_ThenItIsWrittenThere) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().strategies(detail::element_type_of<T>(), op_kind::argmin).empty()) GTEST_SKIP() << "no kernel for the type";
  const std::vector<T> data = tied_values<T>(123457, 5);
  auto input = make_device_array<T>(q, data.size());
  q.copy(data.data(), input.get(), data.size()).wait();
  auto result = make_shared_array<arg_result<T>>(q, 1);
  q.argmin(input.get(), data.size(), result.get()).wait();
  ZR_EXPECT_ARG(result[0], scan<T>(data, false));
  arg_result<T> host{};
  q.argmax(input.get(), data.size(), &host).wait();
  ZR_EXPECT_ARG(host, scan<T>(data, true));
}

template <typename T>
class FloatingArgReduction : public ::testing::Test {};
using FloatingTypes = ::testing::Types<half, float, double>;
TYPED_TEST_SUITE(FloatingArgReduction, FloatingTypes);

TYPED_TEST(FloatingArgReduction, GivenNaNs_ThenTheFirstNaNWinsForBothOps) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  const element_type type = detail::element_type_of<T>();
  if (q.get_device().strategies(type, op_kind::argmax).empty()) GTEST_SKIP() << "no kernel for the type";
  const T nan = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
  for (std::size_t n : {12, 1000, 200003}) {
    std::vector<T> data = tied_values<T>(n, 9);
    data[n / 3] = nan;
    data[n - 1] = nan;
    data[n / 2] = static_cast<T>(std::numeric_limits<float>::infinity());
    data[n / 4] = static_cast<T>(-std::numeric_limits<float>::infinity());
    for (op_kind op : {op_kind::argmin, op_kind::argmax})
      for (strategy s : q.get_device().strategies(type, op)) {
        SCOPED_TRACE(std::string(to_string(op)) + " n = " + std::to_string(n) + " strategy " + std::string(to_string(s)));
        const property_list props{property::reduction::use_strategy{s}};
        const auto r = op == op_kind::argmax ? q.argmax_value(std::span<const T>(data), props)
                                             : q.argmin_value(std::span<const T>(data), props);
        EXPECT_EQ(r.index, n / 3);
        EXPECT_TRUE(std::isnan(static_cast<float>(r.value)));
      }
  }
}

TYPED_TEST(FloatingArgReduction, GivenSignedZerosAndInfinities_ThenTheFirstOfEqualValuesWins) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().strategies(detail::element_type_of<T>(), op_kind::argmax).empty()) GTEST_SKIP() << "no kernel for the type";
  const T inf = static_cast<T>(std::numeric_limits<float>::infinity());
  std::vector<T> data(50000, static_cast<T>(-0.0f));
  data[40000] = static_cast<T>(0.0f);
  EXPECT_EQ(q.argmax_value(std::span<const T>(data)).index, 0u) << "-0.0 == +0.0: the first zero";
  EXPECT_EQ(q.argmin_value(std::span<const T>(data)).index, 0u);
  std::fill(data.begin(), data.end(), static_cast<T>(-std::numeric_limits<float>::infinity()));
  EXPECT_EQ(q.argmax_value(std::span<const T>(data)).index, 0u) << "all -inf: argmax is the first, not 'none'";
  std::fill(data.begin(), data.end(), inf);
  data[777] = static_cast<T>(5.0f);
  EXPECT_EQ(q.argmin_value(std::span<const T>(data)).index, 777u);
  EXPECT_EQ(q.argmax_value(std::span<const T>(data)).index, 0u);
}

// The first zero is the result with its own sign, wherever the two zeros fall in a kernel's blocks and lanes
// (the CPU kernel finds a record by the value of a run's best, which either zero may give).
TYPED_TEST(FloatingArgReduction, GivenBothZerosInARun_ThenTheFirstZeroWithItsOwnSign) {
  using T = TypeParam;
  ZR_REQUIRE_QUEUE(q);
  const element_type type = detail::element_type_of<T>();
  if (q.get_device().strategies(type, op_kind::argmax).empty()) GTEST_SKIP() << "no kernel for the type";
  const std::size_t n = 50000;
  for (op_kind op : {op_kind::argmin, op_kind::argmax})
    for (bool negative_first : {true, false})
      for (std::size_t at : {std::size_t{1000}, std::size_t{1000 + 17}, std::size_t{30001}, n - 2})
        for (strategy s : q.get_device().strategies(type, op)) {
          // argmax: every other value -1, argmin: +1, so the zeros are the extreme
          std::vector<T> data(n, static_cast<T>(op == op_kind::argmax ? -1.0f : 1.0f));
          data[at] = static_cast<T>(negative_first ? -0.0f : 0.0f);
          data[at + 1] = static_cast<T>(negative_first ? 0.0f : -0.0f);
          SCOPED_TRACE(std::string(to_string(op)) + " zeros at " + std::to_string(at) + (negative_first ? " (-0 first)" : " (+0 first)") +
                       " strategy " + std::string(to_string(s)));
          const property_list props{property::reduction::use_strategy{s}};
          const auto r = op == op_kind::argmax ? q.argmax_value(std::span<const T>(data), props)
                                               : q.argmin_value(std::span<const T>(data), props);
          EXPECT_EQ(r.index, at);
          EXPECT_EQ(static_cast<float>(r.value), 0.0f);
          EXPECT_EQ(std::signbit(static_cast<float>(r.value)), negative_first) << "the first zero's sign";
        }
}

TEST(ArgReductionErrors, GivenNoElements_ThenRefusedNamingTheOp) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> none;
  arg_result<float> result{};
  try {
    q.argmax(std::span<const float>(none), &result).wait();
    FAIL() << "n = 0 was accepted";
  } catch (const InvalidArgumentError& error) {
    EXPECT_NE(std::string(error.what()).find("argmax of an empty input (n = 0)"), std::string::npos) << error.what();
  }
}

TEST(ArgReductionErrors, GivenANullResultOrAnotherStrategy_ThenClearErrors) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> data(100, 1);
  EXPECT_THROW(q.argmin(std::span<const int>(data), static_cast<arg_result<int>*>(nullptr)), InvalidArgumentError);
  try {
    q.argmin_value(std::span<const int>(data), {property::reduction::use_strategy{strategy::global_atomics}});
    FAIL() << "global_atomics was accepted for argmin";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find("tree, last_group or cpu_chunks"), std::string::npos) << error.what();
  }
}

TEST(ArgReductionHostCombine, GivenPiecesOfOneInput_ThenTheirCombineIsTheWholeInputsResult) {
  const std::vector<float> data = tied_values<float>(1000, 3);
  const auto whole = scan<float>(data, true);
  auto first = scan<float>(std::span<const float>(data).first(400), true);
  auto second = scan<float>(std::span<const float>(data).subspan(400), true);
  second.index += 400;
  EXPECT_EQ(argmax<>{}(first, second), whole);
  EXPECT_EQ(argmax<>{}(second, first), whole);
}

}  // namespace
}  // namespace zr::test
