// Reductions over axes of an N-D array (queue::reduce_axes): each result against a host loop over the whole array
// written here (every element added to the result its kept coordinates name), for the reduced axes last (rows),
// first (columns), in the middle and apart (several passes), none and all; negative axes; empty arrays; host spans
// and device memory; initial values and initialize_to_identity; argmin/argmax and transforms over the last axes,
// and the refusals.
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

// Where element `index` of an array of `shape` lands among the results when `axes` are reduced (C order of the
// kept axes).
std::uint64_t result_index(std::uint64_t index, const std::vector<std::uint64_t>& shape, const std::vector<std::int64_t>& axes) {
  std::vector<bool> reduced(shape.size(), false);
  for (auto a : axes) reduced[static_cast<std::size_t>(a < 0 ? a + static_cast<std::int64_t>(shape.size()) : a)] = true;
  std::uint64_t result = 0, stride = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    const std::uint64_t coordinate = index % shape[k];
    index /= shape[k];
    if (!reduced[k]) {
      result += coordinate * stride;
      stride *= shape[k];
    }
  }
  return result;
}

std::uint64_t count_of(const std::vector<std::uint64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::uint64_t{1}, std::multiplies<>());
}

std::uint64_t results_of(const std::vector<std::uint64_t>& shape, const std::vector<std::int64_t>& axes) {
  std::uint64_t results = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    bool reduced = false;
    for (auto a : axes) reduced |= static_cast<std::size_t>(a < 0 ? a + static_cast<std::int64_t>(shape.size()) : a) == k;
    if (!reduced) results *= shape[k];
  }
  return results;
}

template <typename T, typename Fold>
std::vector<T> host_axes(const std::vector<T>& x, const std::vector<std::uint64_t>& shape,
                         const std::vector<std::int64_t>& axes, std::vector<T> start, Fold fold) {
  for (std::uint64_t i = 0; i < x.size(); ++i) {
    T& r = start[result_index(i, shape, axes)];
    r = fold(r, x[i]);
  }
  return start;
}

struct Case {
  std::vector<std::uint64_t> shape;
  std::vector<std::int64_t> axes;
};

const Case kCases[] = {
    {{4, 5, 6}, {2}},      {{4, 5, 6}, {1, 2}},   {{4, 5, 6}, {0}},     {{4, 5, 6}, {1}},       {{4, 5, 6}, {0, 2}},
    {{4, 5, 6}, {0, 1, 2}}, {{4, 5, 6}, {}},      {{4, 5, 6}, {-1, -3}}, {{3, 1, 7, 2, 5}, {0, 2, 4}},
    {{2, 3, 4, 5, 6}, {1, 3}}, {{300, 70}, {0}}, {{7, 1}, {1}},       {{64, 33, 3}, {1}},
};

std::string text(const Case& c) {
  std::string t = "shape (";
  for (auto e : c.shape) t += std::to_string(e) + ",";
  t += ") axes (";
  for (auto a : c.axes) t += std::to_string(a) + ",";
  return t + ")";
}

TEST(Axes, GivenEveryPatternOfAxesWhenSummingIntegersThenEachResultIsTheHostSumOfItsElements) {
  ZR_REQUIRE_QUEUE(q);
  for (const Case& c : kCases) {
    std::vector<std::int32_t> x(count_of(c.shape));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::int32_t>((i * 2654435761u) % 201) - 100;
    const std::uint64_t results = results_of(c.shape, c.axes);
    std::vector<std::int32_t> initial(results);
    for (std::size_t r = 0; r < results; ++r) initial[r] = static_cast<std::int32_t>(r % 9) - 4;
    for (bool from_identity : {false, true}) {
      std::vector<std::int32_t> got = initial;
      const property_list props = from_identity ? property_list{property::reduction::initialize_to_identity{}} : property_list{};
      q.reduce_axes(std::span<const std::int32_t>(x), std::span<const std::uint64_t>(c.shape),
                    std::span<const std::int64_t>(c.axes), std::span<std::int32_t>(got), plus<>(), props)
          .wait();
      const auto want = host_axes(x, c.shape, c.axes, from_identity ? std::vector<std::int32_t>(results) : initial,
                                  std::plus<std::int32_t>());
      EXPECT_EQ(got, want) << text(c) << (from_identity ? ", from the identity" : ", after initial values");
    }
  }
}

TEST(Axes, GivenDeviceMemoryWhenTakingMaximaOfFloatsThenEachResultIsTheHostMaximum) {
  ZR_REQUIRE_QUEUE(q);
  for (const Case& c : kCases) {
    const std::uint64_t n = count_of(c.shape), results = results_of(c.shape, c.axes);
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 2654435761u) % 1009) * 0.25f - 100.0f;
    auto input = make_device_array<float>(q, n);
    auto out = make_device_array<float>(q, std::max<std::uint64_t>(results, 1));
    q.copy(x.data(), input.get(), n).wait();
    q.reduce_axes(input.get(), std::span<const std::uint64_t>(c.shape), std::span<const std::int64_t>(c.axes), out.get(),
                  maximum<>(), {property::reduction::initialize_to_identity{}})
        .wait();
    std::vector<float> got(results);
    q.copy(out.get(), got.data(), results).wait();
    const auto want = host_axes(x, c.shape, c.axes, std::vector<float>(results, -INFINITY),
                                [](float a, float b) { return std::max(a, b); });
    EXPECT_EQ(got, want) << text(c);
  }
}

// Array reductions of device data past the host path's sizes (every column plan: a single row, few rows, many;
// few columns, many, several chunks of them): a column holding a NaN, of any payload or sign, gives the canonical
// quiet NaN (0x7fc00000), as every other path stores it; the other columns their host sum or maximum.
TEST(Axes, GivenNaNsOfAnyPayloadInSomeColumnsWhenReducingTheFirstAxisThenThoseResultsAreTheCanonicalNaN) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint32_t payloads[] = {0x7fa00001u, 0xffc12345u, 0x7fc00000u, 0xff800001u};
  const std::pair<std::uint64_t, std::uint64_t> shapes[] = {{1, 1'100'000}, {9, 130'000}, {4'000, 300}, {70'000, 16},
                                                            {400'000, 3}};
  for (const auto& [rows, columns] : shapes) {
      const std::uint64_t n = rows * columns;
      std::vector<float> x(n);
      // Small integers: every sum exact in float, whatever the order of its partials.
      for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 2654435761u) % 5) - 2.0f;
      for (std::uint64_t c = 1; c < columns; c += 7) {  // every seventh column gets one NaN, in some row
        float nan;
        std::memcpy(&nan, &payloads[c % 4], sizeof nan);
        x[((c * 31) % rows) * columns + c] = nan;
      }
      auto input = make_device_array<float>(q, n);
      auto out = make_device_array<float>(q, columns);
      q.copy(x.data(), input.get(), n).wait();
      const std::vector<std::uint64_t> shape{rows, columns};
      const std::vector<std::int64_t> axes{0};
      for (const bool maxima : {false, true}) {
        const property_list props{property::reduction::initialize_to_identity{}};
        (maxima ? q.reduce_axes(input.get(), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(axes),
                                out.get(), maximum<>(), props)
                : q.reduce_axes(input.get(), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(axes),
                                out.get(), plus<>(), props))
            .wait();
        std::vector<float> got(columns);
        q.copy(out.get(), got.data(), columns).wait();
        for (std::uint64_t c = 0; c < columns; ++c) {
          std::uint32_t bits;
          std::memcpy(&bits, &got[c], sizeof bits);
          if (c % 7 == 1) {
            EXPECT_EQ(bits, 0x7fc00000u) << rows << " x " << columns << ", column " << c << (maxima ? ", max" : ", sum");
            continue;
          }
          float want = maxima ? -INFINITY : 0.0f;
          for (std::uint64_t r = 0; r < rows; ++r) want = maxima ? std::max(want, x[r * columns + c]) : want + x[r * columns + c];
          EXPECT_EQ(got[c], want) << rows << " x " << columns << ", column " << c << (maxima ? ", max" : ", sum");
        }
      }
    }
}

TEST(Axes, GivenTheLastAxesWhenTakingArgmaxAndNormsThenEachRowIsTheHosts) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<std::uint64_t> shape{6, 4, 10};
  const std::vector<std::int64_t> axes{-1, 1};
  std::vector<float> x(240);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 23) - 11.0f;
  std::vector<arg_result<float>> best(6);
  std::vector<float> norms(6);
  q.reduce_axes(std::span<const float>(x), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(axes),
                std::span<arg_result<float>>(best), argmax<>())
      .wait();
  q.reduce_axes(std::span<const float>(x), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(axes),
                std::span<float>(norms), norm_l2{})
      .wait();
  for (std::size_t r = 0; r < 6; ++r) {
    std::size_t at = 0;
    double squares = 0;
    for (std::size_t k = 0; k < 40; ++k) {
      if (x[r * 40 + k] > x[r * 40 + at]) at = k;
      squares += static_cast<double>(x[r * 40 + k]) * x[r * 40 + k];
    }
    EXPECT_EQ(best[r].index, at) << "row " << r;
    EXPECT_EQ(best[r].value, x[r * 40 + at]) << "row " << r;
    EXPECT_NEAR(norms[r], std::sqrt(squares), 1e-4 * std::sqrt(squares)) << "row " << r;
  }
}

TEST(Axes, GivenEmptyArraysWhenReducingThenResultsOfNoElementOrNone) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<std::uint64_t> reduced_empty{3, 0}, kept_empty{0, 4};
  const std::vector<std::int64_t> last{1};
  std::vector<std::int32_t> got{5, 6, 7};
  q.reduce_axes(std::span<const std::int32_t>(), std::span<const std::uint64_t>(reduced_empty),
                std::span<const std::int64_t>(last), std::span<std::int32_t>(got), plus<>())
      .wait();
  EXPECT_EQ(got, (std::vector<std::int32_t>{5, 6, 7}));  // after their values, nothing added
  q.reduce_axes(std::span<const std::int32_t>(), std::span<const std::uint64_t>(reduced_empty),
                std::span<const std::int64_t>(last), std::span<std::int32_t>(got), plus<>(),
                {property::reduction::initialize_to_identity{}})
      .wait();
  EXPECT_EQ(got, (std::vector<std::int32_t>{0, 0, 0}));
  std::vector<std::int32_t> none;
  q.reduce_axes(std::span<const std::int32_t>(), std::span<const std::uint64_t>(kept_empty),
                std::span<const std::int64_t>(last), std::span<std::int32_t>(none), plus<>())
      .wait();
}

TEST(AxesMisuse, GivenWhatAxesCannotTakeWhenReducingThenTheMessageSaysWhy) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<std::uint64_t> shape{4, 5};
  const std::vector<float> x(20, 1.0f);
  auto message = [&](auto call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::vector<float> five(5), four(4);
  std::vector<arg_result<float>> best(5);
  const std::vector<std::int64_t> first{0}, last{1}, outside{2};
  EXPECT_NE(message([&] {
              q.reduce_axes(std::span<const float>(x), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(first),
                            std::span<arg_result<float>>(best), argmax<>());
            }).find("reduce the last axes only"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.reduce_axes(std::span<const float>(x), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(outside),
                            std::span<float>(five), plus<>());
            }).find("axis 2 is out of range"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.reduce_axes(std::span<const float>(x), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(last),
                            std::span<float>(five), plus<>());
            }).find("the results span holds 5 values"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.reduce_axes(std::span<const float>(x).first(19), std::span<const std::uint64_t>(shape),
                            std::span<const std::int64_t>(last), std::span<float>(four), plus<>());
            }).find("the input span holds 19 values"),
            std::string::npos);
  EXPECT_NE(message([&] {
              q.reduce_axes(std::span<const float>(x), std::span<const std::uint64_t>(shape), std::span<const std::int64_t>(first),
                            std::span<float>(five), plus<>(), {property::reduction::reproducible{}});
            }).find("reproducible sums over axes reduce the last axes only"),
            std::string::npos);
}

}  // namespace
}  // namespace zr::test
