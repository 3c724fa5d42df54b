// queue::reduce_segments and queue::reduce_rows: every segment against a host fold written here, for the
// nine ops over integer, bool and floating types (values whose results are exact in any order), segment size
// distributions that pick each plan family (tiny, medium, few huge, power-law, empty segments, one huge among
// many tiny), 32- and 64-bit offsets, device and host memory for input, offsets and results, initial values,
// and the error cases.
#include "support/expect_error.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

using zr_test::expect_error;

// Segment sizes that exercise one regime each.
std::vector<std::uint64_t> sizes_of(const std::string& shape, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint64_t> sizes;
  if (shape == "tiny") sizes.assign(3000, 0), std::generate(sizes.begin(), sizes.end(), [&] { return rng() % 6; });
  if (shape == "medium") sizes.assign(300, 0), std::generate(sizes.begin(), sizes.end(), [&] { return 20 + rng() % 700; });
  if (shape == "few huge") sizes = {70001, 0, 123457};
  if (shape == "power law") {
    for (int i = 0; i < 400; ++i) {
      const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
      sizes.push_back(static_cast<std::uint64_t>(std::pow(1.0 - u, -1.0 / 0.8)) - 1);  // Pareto, heavy tail
    }
    for (auto& s : sizes) s = std::min<std::uint64_t>(s, 200000);
  }
  if (shape == "one huge among tiny") {
    sizes.assign(2000, 1);
    sizes[1234] = 150000;
    sizes[7] = 0;
  }
  if (shape == "empty") sizes.assign(17, 0);
  return sizes;
}

template <typename Offset>
std::vector<Offset> offsets_of(const std::vector<std::uint64_t>& sizes, std::uint64_t first) {
  std::vector<Offset> offsets{static_cast<Offset>(first)};
  for (auto s : sizes) offsets.push_back(static_cast<Offset>(offsets.back() + s));
  return offsets;
}

// Contiguous values of any element type (std::vector<bool> has no data()).
template <typename T>
class Values {
 public:
  explicit Values(std::size_t n) : values_(std::make_unique<T[]>(std::max<std::size_t>(n, 1))), size_(n) {}
  template <typename V>
  explicit Values(const std::vector<V>& from, std::size_t n) : Values(n) {
    for (std::size_t i = 0; i < n; ++i) values_[i] = static_cast<T>(from[i]);
  }
  T* data() { return values_.get(); }
  const T* data() const { return values_.get(); }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return values_[i]; }
  const T& operator[](std::size_t i) const { return values_[i]; }

 private:
  std::unique_ptr<T[]> values_;
  std::size_t size_;
};

template <typename T>
T plain_op(op_kind op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    if (op == op_kind::logical_and) return logical_and<T>()(a, b);
    if (op == op_kind::logical_or) return logical_or<T>()(a, b);
  } else {
    switch (op) {
      case op_kind::plus: return plus<T>()(a, b);
      case op_kind::multiplies: return multiplies<T>()(a, b);
      case op_kind::minimum: return minimum<T>()(a, b);
      case op_kind::maximum: return maximum<T>()(a, b);
      default: break;
    }
    if constexpr (std::is_integral_v<T>) {
      if (op == op_kind::bit_and) return bit_and<T>()(a, b);
      if (op == op_kind::bit_or) return bit_or<T>()(a, b);
      if (op == op_kind::bit_xor) return bit_xor<T>()(a, b);
    }
  }
  ADD_FAILURE() << "no host op for " << to_string(op);
  return a;
}

// Calls f with the function object of `op` for T.
template <typename T, typename F>
void with_op(op_kind op, F&& f) {
  if constexpr (std::is_same_v<T, bool>) {
    if (op == op_kind::logical_and) return f(logical_and<T>());
    if (op == op_kind::logical_or) return f(logical_or<T>());
  } else {
    switch (op) {
      case op_kind::plus: return f(plus<T>());
      case op_kind::multiplies: return f(multiplies<T>());
      case op_kind::minimum: return f(minimum<T>());
      case op_kind::maximum: return f(maximum<T>());
      default: break;
    }
    if constexpr (std::is_integral_v<T>) {
      if (op == op_kind::bit_and) return f(bit_and<T>());
      if (op == op_kind::bit_or) return f(bit_or<T>());
      if (op == op_kind::bit_xor) return f(bit_xor<T>());
    }
  }
  ADD_FAILURE() << "no function object for " << to_string(op);
}

template <typename T>
T identity_of(op_kind op) {
  T result{};
  with_op<T>(op, [&](auto fn) { result = known_identity_v<decltype(fn), T>; });
  return result;
}

enum class Where { device, host };

struct Case {
  std::string shape;
  Where input = Where::device, offsets = Where::device, results = Where::device;
  bool wide_offsets = true;
  bool initialize = true;
  std::uint64_t first = 0;  // elements before the first segment, in no segment
};

template <typename T>
void check_segments(queue& q, op_kind op, const Case& c, std::uint32_t seed) {
  SCOPED_TRACE(c.shape + " " + std::string(to_string(op)) + " " + std::string(to_string(detail::element_type_of<T>())));
  const auto sizes = sizes_of(c.shape, seed);
  const std::uint64_t segments = sizes.size();
  const std::uint64_t n = c.first + std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0}) + 5;  // 5 after the last
  const Values<T> data(exact_values<T>(n, seed, op == op_kind::multiplies), n);
  const Values<T> initial(exact_values<T>(segments, seed + 1, op == op_kind::multiplies), segments);

  Values<T> expected(segments);
  std::uint64_t begin = c.first;
  for (std::uint64_t s = 0; s < segments; ++s) {
    T acc = c.initialize ? identity_of<T>(op) : initial[s];
    for (std::uint64_t i = begin; i < begin + sizes[s]; ++i) acc = plain_op(op, acc, data[i]);
    expected[s] = acc;
    begin += sizes[s];
  }

  auto device_input = make_device_array<T>(q, n);
  q.copy(data.data(), device_input.get(), n).wait();
  auto device_results = make_device_array<T>(q, segments);
  Values<T> results(segments);
  std::copy(initial.data(), initial.data() + segments, results.data());
  if (c.results == Where::device && segments > 0) q.copy(initial.data(), device_results.get(), segments).wait();
  T* result_pointer = c.results == Where::device ? device_results.get() : results.data();
  const property_list props = c.initialize ? property_list{property::reduction::initialize_to_identity{}} : property_list{};

  auto run = [&](const auto* offsets) {
    using Offset = std::remove_cv_t<std::remove_pointer_t<decltype(offsets)>>;
    auto device_offsets = make_device_array<Offset>(q, segments + 1);
    q.copy(offsets, device_offsets.get(), segments + 1).wait();
    const Offset* offset_pointer = c.offsets == Where::device ? device_offsets.get() : offsets;
    with_op<T>(op, [&](auto fn) {
      if (c.input == Where::device) {
        q.reduce_segments(device_input.get(), n, offset_pointer, segments, result_pointer, fn, props).wait();
      } else {
        ASSERT_EQ(c.offsets, Where::host) << "the span form takes host offsets";
        ASSERT_EQ(c.results, Where::host) << "the span form takes host results";
        q.reduce_segments(std::span<const T>(data.data(), n), std::span<const Offset>(offsets, segments + 1),
                          std::span<T>(results.data(), segments), fn, props)
            .wait();
      }
    });
  };
  if (c.wide_offsets) {
    const auto offsets = offsets_of<std::uint64_t>(sizes, c.first);
    run(offsets.data());
  } else {
    const auto offsets = offsets_of<std::int32_t>(sizes, c.first);
    run(offsets.data());
  }
  if (c.results == Where::device && segments > 0) q.copy(device_results.get(), results.data(), segments).wait();
  std::uint64_t wrong = 0;
  for (std::uint64_t s = 0; s < segments; ++s)
    if (!(results[s] == expected[s]) && wrong++ < 5)
      ADD_FAILURE() << "segment " << s << " of " << sizes[s] << " elements: got " << +results[s] << ", expected "
                    << +expected[s];
  EXPECT_EQ(wrong, 0u);
}

template <typename T>
std::vector<op_kind> ops_of() {
  if constexpr (std::is_same_v<T, bool>) return {op_kind::logical_and, op_kind::logical_or};
  else if constexpr (std::is_floating_point_v<T>) return {op_kind::plus, op_kind::multiplies, op_kind::minimum, op_kind::maximum};
  else
    return {op_kind::plus,    op_kind::multiplies, op_kind::minimum, op_kind::maximum,
            op_kind::bit_and, op_kind::bit_or,     op_kind::bit_xor};
}

const std::vector<std::string> kShapes = {"tiny", "medium", "few huge", "power law", "one huge among tiny", "empty"};

template <typename T>
void check_type(queue& q) {
  const auto why = q.get_device().why_unsupported(detail::element_type_of<T>(), ops_of<T>().front());
  if (why) GTEST_SKIP() << q.get_device().name() << ": " << *why;
  std::uint32_t seed = 1;
  for (op_kind op : ops_of<T>())
    for (const auto& shape : kShapes) check_segments<T>(q, op, Case{shape}, seed++);
}

template <typename T>
class SegmentsOfType : public ::testing::Test {};
using SegmentTypes = ::testing::Types<std::int32_t, std::uint8_t, std::int64_t, bool, float, double>;
TYPED_TEST_SUITE(SegmentsOfType, SegmentTypes);

TYPED_TEST(SegmentsOfType, GivenEveryShapeWhenReducingSegmentsThenEachMatchesTheHostFold) {
  ZR_REQUIRE_QUEUE(q);
  check_type<TypeParam>(q);
}

TEST(Segments, GivenHostMemoryAndNarrowOffsetsAndInitialValuesWhenReducingThenEachMatchesTheHostFold) {
  ZR_REQUIRE_QUEUE(q);
  std::uint32_t seed = 100;
  for (const auto& shape : {std::string("tiny"), std::string("medium"), std::string("one huge among tiny")}) {
    check_segments<std::int32_t>(q, op_kind::plus, {shape, Where::host, Where::host, Where::host, false, false, 3}, seed++);
    check_segments<float>(q, op_kind::maximum, {shape, Where::device, Where::host, Where::host, true, false, 0}, seed++);
    check_segments<std::int64_t>(q, op_kind::bit_xor, {shape, Where::device, Where::device, Where::host, false, true, 11}, seed++);
    check_segments<double>(q, op_kind::plus, {shape, Where::device, Where::host, Where::device, false, false, 1}, seed++);
  }
}

// The plan families must run here: a work-item per segment and slices folded by the column passes on every
// device, a work-item per contiguous piece (segcpu) in one pass on CPUs, several work-items per segment on GPUs
// (plans/segmented.hpp;
// GPUs take a group per segment for many long segments, which the H100 bench checks: a test here would need
// hundreds of megabytes).
TEST(Segments, GivenSegmentsOfEverySizeWhenReducingThenEveryPlanFamilyRuns) {
  ZR_REQUIRE_QUEUE(q);
  // Device memory: host spans this small would take a CPU device's host path (host_path_test.cpp), no kernel.
  auto kernels_of = [&](const std::vector<std::uint64_t>& sizes) {
    const auto offsets = offsets_of<std::uint64_t>(sizes, 0);
    const std::vector<float> data(offsets.back(), 1.0f);
    auto device_data = make_device_array<float>(q, data.size());
    auto device_offsets = make_device_array<std::uint64_t>(q, offsets.size());
    auto device_sums = make_device_array<float>(q, sizes.size());
    q.copy(data.data(), device_data.get(), data.size()).wait();
    q.copy(offsets.data(), device_offsets.get(), offsets.size()).wait();
    const event done = q.reduce_segments(device_data.get(), data.size(), device_offsets.get(), sizes.size(),
                                         device_sums.get(), plus<>(), {property::reduction::initialize_to_identity{}});
    std::vector<float> sums(sizes.size());
    q.copy(device_sums.get(), sums.data(), sums.size()).wait();
    const std::string kernels = reduction_kernels(done);
    for (std::size_t s = 0; s < sizes.size(); ++s) EXPECT_EQ(sums[s], static_cast<float>(sizes[s])) << "segment " << s;
    return kernels;
  };
  // CPU devices read short segments a block per work-item (segitemcpu) and long ones a piece per work-item
  // (segcpu); GPUs a segment per work-item (segitem) and a group per piece (seggroup).
  const bool cpu = q.get_device().kind() == device_kind::cpu;
  const std::string items = cpu ? "zr_segitemcpu_plus_f32 " : "zr_segitem_plus_f32 ";
  const std::string pieces = cpu ? "zr_segcpu_plus_f32 " : "zr_seggroup_plus_f32 ";
  bool per_item = false, per_group = false, sliced = false, lanes = false;
  for (const auto& sizes : {sizes_of("tiny", 1), sizes_of("medium", 1), std::vector<std::uint64_t>(64, 20000),
                            std::vector<std::uint64_t>{3, std::uint64_t{1} << 22}}) {
    const std::string kernels = kernels_of(sizes);
    per_item = per_item || kernels == items;
    per_group = per_group || kernels == pieces;
    lanes = lanes || kernels == "zr_segsub_plus_f32 ";
    sliced = sliced || (kernels.starts_with(pieces) && kernels.ends_with("zr_columnsfinal_plus_f32 "));
  }
  EXPECT_TRUE(per_item);
  EXPECT_TRUE(sliced);
  if (cpu) EXPECT_TRUE(per_group);
  else EXPECT_TRUE(lanes);
}

// Offsets of equal segments from 0 to n are planned as rows (core::equal_offsets_as_rows): the same kernels as
// reduce_rows, the reason says so, and every segment still matches the host fold; a sum and argmax, with offsets in
// device and in host memory, 32- and 64-bit. Offsets whose last segment is one element short stay offsets.
TEST(Segments, GivenOffsetsOfEqualSegmentsWhenReducingThenTheyRunAsRowsAndEachMatchesTheHostFold) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint64_t segments = 3000, length = 12, n = segments * length;
  const Values<std::int32_t> data(exact_values<std::int32_t>(n, 7, false), n);
  auto device_data = make_device_array<std::int32_t>(q, n);
  q.copy(data.data(), device_data.get(), n).wait();
  auto kernels_of = [](const event& done) { return reduction_kernels(done); };
  auto expect_sums = [&](const std::vector<std::int32_t>& sums, const auto& offsets) {
    for (std::uint64_t s = 0; s + 1 < offsets.size(); ++s) {
      std::int32_t expected = 0;
      for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i)
        expected = static_cast<std::int32_t>(static_cast<std::uint32_t>(expected) + static_cast<std::uint32_t>(data[i]));
      if (sums[s] != expected) {
        ADD_FAILURE() << "segment " << s << ": got " << sums[s] << ", expected " << expected;
        return;
      }
    }
  };
  auto device_sums = make_device_array<std::int32_t>(q, segments);
  std::vector<std::int32_t> sums(segments);
  const event rows = q.reduce_rows(device_data.get(), segments, length, device_sums.get(), plus<>(),
                                   {property::reduction::initialize_to_identity{}});
  rows.wait();
  const std::string row_kernels = kernels_of(rows);
  auto offsets_run = [&](const auto& offsets, Where where) {
    using Offset = typename std::decay_t<decltype(offsets)>::value_type;
    auto device_offsets = make_device_array<Offset>(q, offsets.size());
    q.copy(offsets.data(), device_offsets.get(), offsets.size()).wait();
    const Offset* pointer = where == Where::device ? device_offsets.get() : offsets.data();
    const event done = q.reduce_segments(device_data.get(), n, pointer, segments, device_sums.get(), plus<>(),
                                         {property::reduction::initialize_to_identity{}});
    done.wait();
    q.copy(device_sums.get(), sums.data(), segments).wait();
    expect_sums(sums, offsets);
    return done;
  };
  std::vector<std::uint64_t> wide(segments + 1);
  std::vector<std::uint32_t> narrow(segments + 1);
  for (std::uint64_t s = 0; s <= segments; ++s) wide[s] = narrow[s] = static_cast<std::uint32_t>(s * length);
  for (Where where : {Where::device, Where::host}) {
    for (const event& done : {offsets_run(wide, where), offsets_run(narrow, where)}) {
      EXPECT_EQ(kernels_of(done), row_kernels);
      EXPECT_NE(done.get_profile().plans.at(0).reason.find("planned as rows"), std::string::npos)
          << done.get_profile().plans.at(0).reason;
    }
  }
  // The last segment one element short: offsets, as given.
  narrow.back() -= 1;
  const event short_last = offsets_run(narrow, Where::device);
  EXPECT_EQ(short_last.get_profile().plans.at(0).reason.find("planned as rows"), std::string::npos);

  // argmax through the same offsets as rows: its result type differs, its plan family too.
  narrow.back() += 1;
  auto device_offsets = make_device_array<std::uint32_t>(q, narrow.size());
  q.copy(narrow.data(), device_offsets.get(), narrow.size()).wait();
  auto device_args = make_device_array<arg_result<std::int32_t>>(q, segments);
  const event arg = q.reduce_segments(device_data.get(), n, device_offsets.get(), segments, device_args.get(), argmax<>());
  arg.wait();
  EXPECT_NE(arg.get_profile().plans.at(0).reason.find("planned as rows"), std::string::npos);
  std::vector<arg_result<std::int32_t>> args(segments);
  q.copy(device_args.get(), args.data(), segments).wait();
  for (std::uint64_t s = 0; s < segments; ++s) {
    const auto* begin = data.data() + s * length;
    const auto best = std::max_element(begin, begin + length) - begin;  // the first of the largest
    ASSERT_EQ(args[s].index, static_cast<std::uint64_t>(best)) << "segment " << s;
    ASSERT_EQ(args[s].value, begin[best]) << "segment " << s;
  }
}

TEST(Segments, GivenHalfValuesWhenReducingSegmentsThenEachMatchesTheHostFold) {
  ZR_REQUIRE_QUEUE(q);
  if (q.get_device().why_unsupported(element_type::f16, op_kind::plus))
    GTEST_SKIP() << q.get_device().name() << ": " << *q.get_device().why_unsupported(element_type::f16, op_kind::plus);
  const std::vector<std::uint64_t> offsets = {0, 0, 1, 9, 10, 600, 601, 5000};
  std::vector<half> data(offsets.back());
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = half(static_cast<float>(static_cast<int>(i % 7) - 3));
  std::vector<half> results(offsets.size() - 1);
  q.reduce_segments(std::span<const half>(data), std::span<const std::uint64_t>(offsets), std::span<half>(results), plus<>(),
                    {property::reduction::initialize_to_identity{}})
      .wait();
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    float expected = 0;
    for (auto i = offsets[s]; i < offsets[s + 1]; ++i) expected += static_cast<float>(data[i]);
    EXPECT_EQ(static_cast<float>(results[s]), expected) << "segment " << s;
  }
}

TEST(Rows, GivenEveryRowLengthWhenReducingRowsThenEachMatchesTheHostFold) {
  ZR_REQUIRE_QUEUE(q);
  for (std::uint64_t columns : {1u, 2u, 3u, 8u, 9u, 31u, 256u, 1000u, 70000u}) {
    const std::uint64_t rows = std::max<std::uint64_t>(1, 300000 / columns);
    const auto data = exact_values<std::int32_t>(rows * columns, static_cast<std::uint32_t>(columns));
    auto input = make_device_array<std::int32_t>(q, data.size());
    q.copy(data.data(), input.get(), data.size()).wait();
    std::vector<std::int32_t> sums(rows, 7), maxima(rows, 0);
    q.reduce_rows(input.get(), rows, columns, sums.data(), plus<>()).wait();  // folded after the 7s
    q.reduce_rows(std::span<const std::int32_t>(data), columns, std::span<std::int32_t>(maxima), maximum<>(),
                  {property::reduction::initialize_to_identity{}})
        .wait();
    for (std::uint64_t r = 0; r < rows; ++r) {
      const std::span<const std::int32_t> row(data.data() + r * columns, columns);
      ASSERT_EQ(sums[r], host_fold(row, 7, std::plus<>())) << "row " << r << " of " << columns;
      ASSERT_EQ(maxima[r], host_fold(row, std::numeric_limits<std::int32_t>::lowest(),
                                     [](std::int32_t a, std::int32_t b) { return std::max(a, b); }))
          << "row " << r << " of " << columns;
    }
  }
}

TEST(Rows, GivenNoRowsOrEmptyRowsWhenReducingThenResultsAreIdentitiesOrUntouched) {
  ZR_REQUIRE_QUEUE(q);
  std::vector<float> none;
  q.reduce_rows(std::span<const float>(none), 4, std::span<float>(none), plus<>()).wait();
  std::vector<float> minima(5, 1.0f);
  q.reduce_rows(std::span<const float>(none), 0, std::span<float>(minima), minimum<>(),
                {property::reduction::initialize_to_identity{}})
      .wait();
  for (float m : minima) EXPECT_EQ(m, std::numeric_limits<float>::infinity());
}

TEST(SegmentsMisuse, GivenBadOffsetsWhenReducingThenInvalidArgumentNamesThem) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> data(100, 1);
  std::vector<int> results(3);
  auto reduce = [&](std::vector<std::int64_t> offsets) {
    q.reduce_segments(std::span<const int>(data), std::span<const std::int64_t>(offsets), std::span<int>(results), plus<>())
        .wait();
  };
  expect_error<InvalidArgumentError>([&] { reduce({0, 50, 40, 100}); }, "must not decrease, but offset 1 is 50 and offset 2 is 40");
  expect_error<InvalidArgumentError>([&] { reduce({0, 50, 60, 101}); }, "offset 3 is 101, past the end of the input (n = 100)");
  expect_error<InvalidArgumentError>([&] { reduce({-1, 50, 60, 100}); }, "segment offset 0 is negative (-1)");
  expect_error<InvalidArgumentError>([&] { reduce({0, 50, 100}); }, "the results span holds 3 values but there are 2 segments");
  expect_error<InvalidArgumentError>([&] { reduce({}); }, "give segments + 1 of them");

  // Device offsets are read in queue order: the error comes from the event.
  auto input = make_device_array<int>(q, 100);
  q.copy(data.data(), input.get(), 100).wait();
  const std::vector<std::uint32_t> decreasing = {0, 10, 5, 100};
  auto offsets = make_device_array<std::uint32_t>(q, 4);
  q.copy(decreasing.data(), offsets.get(), 4).wait();
  expect_error<InvalidArgumentError>([&] { q.reduce_segments(input.get(), 100, offsets.get(), 3, results.data(), plus<>()).wait(); },
                                     "offset 1 is 10 and offset 2 is 5");
  expect_error<InvalidArgumentError>(
      [&] { q.reduce_segments(input.get(), 100, offsets.get() + 1, 3, results.data(), plus<>()).wait(); },
      "runs past the end of its allocation");
  expect_error<InvalidArgumentError>(
      [&] { q.reduce_segments(input.get(), 100, static_cast<const std::uint32_t*>(nullptr), 3, results.data(), plus<>()); },
      "segment offsets are nullptr");
  expect_error<InvalidArgumentError>(
      [&] { q.reduce_segments(input.get(), 100, offsets.get(), 3, static_cast<int*>(nullptr), plus<>()); },
      "results are nullptr");
  expect_error<InvalidArgumentError>([&] { q.reduce_segments(input.get(), 101, offsets.get(), 3, results.data(), plus<>()); },
                                     "runs past the end of its allocation of 400 bytes");
}

TEST(SegmentsMisuse, GivenRaggedRowsOrUnofferedPropertiesWhenReducingThenTheErrorSaysWhy) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> data(10, 1.0f);
  std::vector<float> results(3);
  expect_error<InvalidArgumentError>(
      [&] { q.reduce_rows(std::span<const float>(data), 3, std::span<float>(results), plus<>()); },
      "n must be a multiple of the row length");
  std::vector<float> two(2);
  expect_error<UnsupportedError>(
      [&] {
        q.reduce_rows(std::span<const float>(data), 5, std::span<float>(two), plus<>(),
                      {property::reduction::use_strategy{strategy::global_atomics}});
      },
      "cannot be asked for");
  auto input = make_device_array<float>(q, 10);
  expect_error<InvalidArgumentError>([&] { q.reduce_rows(input.get(), 4, 3, results.data(), plus<>()); },
                                     "runs past the end of its allocation");
}

}  // namespace
}  // namespace zr::test
