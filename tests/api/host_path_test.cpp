// The host path of segmented, row, column and axis reductions through the public API (core/host_path_segments.hpp,
// host_path_columns.hpp): on a CPU device, small host input is reduced on the calling thread, and the profile says
// so; each result against a host fold written here; device memory and input past the crossover keep the device's
// kernels, with the same results. Skipped where the default device is no CPU device.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

// Requires a default device that has a host path, and names it `q`.
#define ZR_REQUIRE_HOST_PATH(q)                                                                           \
  ZR_REQUIRE_QUEUE(q);                                                                                    \
  if (q.get_device().host_path_max_bytes() == 0)                                                          \
  GTEST_SKIP() << "the default device (" << q.get_device().name() << ") is not a CPU device: no host path"

// Per segment from its begin to its end, folded after `initial` (small integers: exact in any order).
std::vector<float> folded_segments(const std::vector<float>& data, const std::vector<std::uint64_t>& begins,
                                   const std::vector<std::uint64_t>& ends, const std::vector<float>& initial, bool max) {
  std::vector<float> out(begins.size());
  for (std::size_t s = 0; s < begins.size(); ++s) {
    float acc = initial[s];
    for (std::uint64_t i = begins[s]; i < ends[s]; ++i) acc = max ? std::max(acc, data[i]) : acc + data[i];
    out[s] = acc;
  }
  return out;
}

TEST(HostPathSegments, GivenSmallHostInputOnACpuDevice_WhenReducingSegmentsRowsAndBounds_ThenTheCallingThreadReducesThem) {
  ZR_REQUIRE_HOST_PATH(q);
  const std::vector<float> data = exact_values<float>(10'000, 3);
  const std::vector<std::uint64_t> offsets = {0, 0, 1, 17, 400, 401, 9'000, 10'000};
  const std::vector<std::uint64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  std::vector<float> initial(begins.size());
  std::iota(initial.begin(), initial.end(), 1.0f);

  std::vector<float> sums = initial;
  const event by_offsets = q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(offsets),
                                             std::span<float>(sums), plus<>());
  by_offsets.wait();
  EXPECT_TRUE(by_offsets.get_profile().plans.at(0).host_path);
  EXPECT_EQ(sums, folded_segments(data, begins, ends, initial, false));

  // Begins and ends out of order and overlapping, 32-bit, from the identity.
  const std::vector<std::int32_t> begins32 = {9'000, 0, 5, 5}, ends32 = {10'000, 10'000, 5, 9'999};
  std::vector<float> maxima(4, 123.0f);
  const event by_bounds = q.reduce_segments(std::span<const float>(data), std::span<const std::int32_t>(begins32),
                                            std::span<const std::int32_t>(ends32), std::span<float>(maxima),
                                            maximum<>(), property_list{property::reduction::initialize_to_identity{}});
  by_bounds.wait();
  EXPECT_TRUE(by_bounds.get_profile().plans.at(0).host_path);
  const std::vector<std::uint64_t> b(begins32.begin(), begins32.end()), e(ends32.begin(), ends32.end());
  EXPECT_EQ(maxima, folded_segments(data, b, e, std::vector<float>(4, -std::numeric_limits<float>::infinity()), true));

  std::vector<float> rows(1'000, 0.5f);
  const event by_rows = q.reduce_rows(std::span<const float>(data), 10, std::span<float>(rows), plus<>());
  by_rows.wait();
  EXPECT_TRUE(by_rows.get_profile().plans.at(0).host_path);
  std::vector<std::uint64_t> row_begins(1'000), row_ends(1'000);
  for (std::uint64_t r = 0; r < 1'000; ++r) row_begins[r] = 10 * r, row_ends[r] = 10 * r + 10;
  EXPECT_EQ(rows, folded_segments(data, row_begins, row_ends, std::vector<float>(1'000, 0.5f), false));

  // argmax per segment: the first largest value's index within its segment.
  std::vector<arg_result<float>> largest(3);
  const std::vector<std::uint64_t> arg_offsets = {0, 1, 400, 10'000};
  const event by_arg = q.reduce_segments(std::span<const float>(data), std::span<const std::uint64_t>(arg_offsets),
                                         std::span<arg_result<float>>(largest), argmax<>());
  by_arg.wait();
  EXPECT_TRUE(by_arg.get_profile().plans.at(0).host_path);
  for (std::size_t s = 0; s < 3; ++s) {
    const auto first = data.begin() + static_cast<std::ptrdiff_t>(arg_offsets[s]);
    const auto found = std::max_element(first, data.begin() + static_cast<std::ptrdiff_t>(arg_offsets[s + 1]));
    EXPECT_EQ(largest[s].value, *found) << "segment " << s;
    EXPECT_EQ(largest[s].index, static_cast<std::uint64_t>(found - first)) << "segment " << s;
  }
}

TEST(HostPathSegments, GivenDeviceMemoryOrInputPastTheCrossover_WhenReducingSegments_ThenTheKernelsRunAndAgree) {
  ZR_REQUIRE_HOST_PATH(q);
  const std::vector<float> data = exact_values<float>(5'000, 4);
  const std::vector<std::uint64_t> offsets = {0, 7, 4'000, 5'000};
  const std::vector<std::uint64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  const std::vector<float> zeros(3, 0.0f);

  // The pointer form over device memory: input, offsets and results where the kernels read them.
  auto device_input = make_device_array<float>(q, data.size());
  auto device_offsets = make_device_array<std::uint64_t>(q, offsets.size());
  auto device_results = make_device_array<float>(q, 3);
  q.copy(data.data(), device_input.get(), data.size()).wait();
  q.copy(offsets.data(), device_offsets.get(), offsets.size()).wait();
  q.copy(zeros.data(), device_results.get(), 3).wait();
  const event on_device =
      q.reduce_segments(device_input.get(), data.size(), device_offsets.get(), 3, device_results.get(), plus<>());
  on_device.wait();
  EXPECT_FALSE(on_device.get_profile().plans.at(0).host_path) << "device memory";
  std::vector<float> sums(3);
  q.copy(device_results.get(), sums.data(), 3).wait();
  EXPECT_EQ(sums, folded_segments(data, begins, ends, zeros, false));

  const std::size_t past = q.get_device().host_path_max_segment_bytes() / sizeof(float) + 1;
  const std::vector<float> large = exact_values<float>(past, 5);
  const std::vector<std::uint64_t> large_offsets = {0, 3, past};
  std::vector<float> large_sums(2, 0.0f);
  const event above = q.reduce_segments(std::span<const float>(large), std::span<const std::uint64_t>(large_offsets),
                                        std::span<float>(large_sums), plus<>());
  above.wait();
  EXPECT_FALSE(above.get_profile().plans.at(0).host_path) << past * sizeof(float) << " bytes: past the crossover";
  EXPECT_EQ(large_sums, folded_segments(large, {0, 3}, {3, past}, {0.0f, 0.0f}, false));
}

TEST(HostPathColumns, GivenSmallHostInputOnACpuDevice_WhenReducingColumnsAndAxes_ThenTheCallingThreadReducesThem) {
  ZR_REQUIRE_HOST_PATH(q);
  constexpr std::size_t kRows = 301, kColumns = 5;
  const std::vector<float> data = exact_values<float>(kRows * kColumns, 6);
  std::array<float, kColumns> expected_sums{}, expected_minima{};
  expected_minima.fill(std::numeric_limits<float>::infinity());
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t c = 0; c < kColumns; ++c) {
      expected_sums[c] += data[r * kColumns + c];
      expected_minima[c] = std::min(expected_minima[c], data[r * kColumns + c]);
    }

  // An array reduction into host memory, after initial values, and into device memory from the identity.
  std::array<float, kColumns> sums{1, 2, 3, 4, 5};
  const event into_host = q.reduce(std::span<const float>(data), reduction(std::span<float, kColumns>(sums), plus<>()));
  into_host.wait();
  EXPECT_TRUE(into_host.get_profile().plans.at(0).host_path);
  for (std::size_t c = 0; c < kColumns; ++c) EXPECT_EQ(sums[c], expected_sums[c] + static_cast<float>(c + 1)) << c;
  auto device_minima = make_device_array<float>(q, kColumns);
  const event into_device = q.reduce(
      std::span<const float>(data),
      reduction(std::span<float, kColumns>(device_minima.get(), kColumns), minimum<>(),
                property_list{property::reduction::initialize_to_identity{}}));
  into_device.wait();
  EXPECT_TRUE(into_device.get_profile().plans.at(0).host_path);
  std::array<float, kColumns> minima{};
  q.copy(device_minima.get(), minima.data(), kColumns).wait();
  EXPECT_EQ(minima, expected_minima);

  // numpy.sum(a, axis=0) and axis=1 of the same rows x columns array.
  const std::array<std::uint64_t, 2> shape{kRows, kColumns};
  const std::array<std::int64_t, 1> axis0{0}, axis1{1};
  std::array<float, kColumns> by_axis0{};
  const event first_axis = q.reduce_axes(std::span<const float>(data), shape, axis0, std::span<float>(by_axis0), plus<>(),
                                         property_list{property::reduction::initialize_to_identity{}});
  first_axis.wait();
  EXPECT_TRUE(first_axis.get_profile().plans.at(0).host_path);
  EXPECT_EQ(by_axis0, expected_sums);
  std::vector<float> by_axis1(kRows);
  const event last_axis = q.reduce_axes(std::span<const float>(data), shape, axis1, std::span<float>(by_axis1), plus<>(),
                                        property_list{property::reduction::initialize_to_identity{}});
  last_axis.wait();
  EXPECT_TRUE(last_axis.get_profile().plans.at(0).host_path);
  for (std::size_t r = 0; r < kRows; ++r)
    EXPECT_EQ(by_axis1[r], std::accumulate(data.begin() + r * kColumns, data.begin() + (r + 1) * kColumns, 0.0f)) << r;
}

}  // namespace
}  // namespace zr::test
