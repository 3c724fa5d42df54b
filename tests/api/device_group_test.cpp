// zr::device_group: one reduction over host data split across devices. Every device here that executes
// kernels takes part (PoCL alone in CI, so the default device appears several times; with the Level Zero test
// driver, Intel's CPU runtime and PoCL, a group of three backends), and results are checked against one
// device's reduction and a host fold.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

std::vector<device> executing_devices() {
  std::vector<device> found;
  for (const device& d : get_devices())
    if (d.executes_kernels()) found.push_back(d);
  return found;
}

// The devices of a group: every executing device, then the default one again until there are `count`.
std::vector<device> members(std::size_t count) {
  std::vector<device> chosen = executing_devices();
  if (chosen.size() > count) chosen.erase(chosen.begin() + static_cast<std::ptrdiff_t>(count), chosen.end());
  while (chosen.size() < count) chosen.push_back(default_device());
  return chosen;
}

#define ZR_REQUIRE_DEVICES()                                                      \
  if (executing_devices().empty()) GTEST_SKIP() << "no device executes kernels here"

std::vector<double> wide_doubles(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::vector<double> values(n);
  for (auto& v : values) v = std::ldexp(mantissa(rng), exponent(rng));
  return values;
}

template <typename T>
bool runs_reproducible(const std::vector<device>& devices) {
  for (const device& d : devices)
    if (d.strategies(detail::element_type_of<T>(), op_kind::plus, true, true).empty()) return false;
  return true;
}

template <typename T>
void expect_split_independent_reproducible_sum() {
  ZR_REQUIRE_DEVICES();
  const std::vector<double> wide = wide_doubles(1000003, 3);
  const std::vector<T> data(wide.begin(), wide.end());
  const std::span<const T> all(data);
  queue single(default_device());
  if (!runs_reproducible<T>({default_device()})) GTEST_SKIP() << "no reproducible sum of this type on the default device";
  const property_list reproducible{property::reduction::reproducible{}};
  const T initial = static_cast<T>(-2.5);
  T expected = initial;
  single.reduce(all, reduction(&expected, plus<>(), reproducible)).wait();

  const std::vector<std::vector<double>> weight_sets{{1}, {1, 1}, {1, 3}, {5, 1, 2}, {0, 1, 1, 7}, {1, 1, 1, 1}};
  for (const auto& weights : weight_sets) {
    const auto devices = members(weights.size());
    if (!runs_reproducible<T>(devices)) continue;
    device_group group(devices, weights);
    T sum = initial;
    group.reduce(all, reduction(&sum, plus<>(), reproducible)).wait();
    EXPECT_EQ(std::bit_cast<std::uint64_t>(static_cast<double>(sum)), std::bit_cast<std::uint64_t>(static_cast<double>(expected)))
        << weights.size() << " members: the split must not change a reproducible sum's bits";
  }
  device_group measured(members(2));
  T sum = initial;
  measured.reduce(all, reduction(&sum, plus<>(), reproducible)).wait();
  EXPECT_EQ(sum, expected) << "with measured weights";
}

TEST(DeviceGroup, GivenAnySplit_WhenReproducibleF32Sum_ThenTheBitsOfOneDevice) { expect_split_independent_reproducible_sum<float>(); }
TEST(DeviceGroup, GivenAnySplit_WhenReproducibleF64Sum_ThenTheBitsOfOneDevice) { expect_split_independent_reproducible_sum<double>(); }

// A device whose sub-devices (tiles) execute kernels: the Level Zero test driver's with ZRT_TILES (ctest
// level_zero_cpu.tiles); a PVC in the COMPOSITE device hierarchy.
std::optional<device> device_with_executing_sub_devices() {
  for (const device& d : get_devices()) {
    const std::vector<device> subs = d.sub_devices();
    if (d.executes_kernels() && !subs.empty() &&
        std::all_of(subs.begin(), subs.end(), [](const device& s) { return s.executes_kernels(); }))
      return d;
  }
  return std::nullopt;
}

TEST(DeviceGroup, GivenTheSubDevicesOfADevice_WhenGrouped_ThenTheRootsReproducibleBitsAndExactIntegers) {
  const std::optional<device> root = device_with_executing_sub_devices();
  if (!root) {
    if (std::getenv("ZR_TEST_REQUIRE_SUB_DEVICES")) FAIL() << "ZR_TEST_REQUIRE_SUB_DEVICES is set, but no device has sub-devices";
    GTEST_SKIP() << "no device here shows sub-devices that execute kernels (ctest level_zero_cpu.tiles runs this "
                    "with the Level Zero test driver's ZRT_TILES=2)";
  }
  const std::vector<device> tiles = root->sub_devices();
  for (const device& tile : tiles) {
    ASSERT_TRUE(tile.parent().has_value()) << tile.name();
    EXPECT_EQ(*tile.parent(), *root) << tile.name();
    EXPECT_TRUE(tile.sub_devices().empty()) << tile.name();
  }
  EXPECT_FALSE(root->parent().has_value());

  const std::vector<double> wide = wide_doubles(1000003, 17);
  for (bool f64 : {false, true}) {
    if (f64 && !root->capabilities().fp64) continue;
    const property_list reproducible{property::reduction::reproducible{}, property::reduction::initialize_to_identity{}};
    auto run = [&](auto tag) {
      using T = decltype(tag);
      const std::vector<T> data(wide.begin(), wide.end());
      T on_root{};
      queue(*root).reduce(std::span<const T>(data), reduction(&on_root, plus<>(), reproducible)).wait();
      for (const device& tile : tiles) {
        T on_tile{};
        queue(tile).reduce(std::span<const T>(data), reduction(&on_tile, plus<>(), reproducible)).wait();
        EXPECT_EQ(on_tile, on_root) << tile.name();
      }
      for (const std::vector<double>& weights : {std::vector<double>{}, std::vector<double>(tiles.size(), 1.0),
                                                 std::vector<double>{3.0, 1.0, 0.5, 2.0}}) {
        std::vector<double> used = weights;
        if (!used.empty()) used.resize(tiles.size(), 1.0);
        T sum{};
        device_group(tiles, used).reduce(std::span<const T>(data), reduction(&sum, plus<>(), reproducible)).wait();
        EXPECT_EQ(std::bit_cast<std::uint64_t>(static_cast<double>(sum)),
                  std::bit_cast<std::uint64_t>(static_cast<double>(on_root)))
            << "the tiles as a group, " << (used.empty() ? "measured" : std::to_string(used.size()) + " given") << " weights";
      }
    };
    if (f64) run(double{});
    else run(float{});
  }

  std::vector<std::int64_t> integers(700001);
  std::mt19937_64 rng(5);
  for (auto& v : integers) v = static_cast<std::int64_t>(rng() >> 20) - (std::int64_t{1} << 43);
  std::int64_t expected = 0;
  for (std::int64_t v : integers) expected += v;
  std::int64_t sum = 0;
  device_group(tiles).reduce(std::span<const std::int64_t>(integers),
                             reduction(&sum, plus<>(), {property::reduction::initialize_to_identity{}})).wait();
  EXPECT_EQ(sum, expected) << "an i64 sum over the tiles against the host's";
}

TEST(DeviceGroup, GivenIntegerAndBoolData_WhenReduced_ThenExactAsTheHostFold) {
  ZR_REQUIRE_DEVICES();
  device_group group(members(3), {2, 1, 1});
  const auto ints = exact_values<std::int32_t>(100003, 9);
  const std::span<const std::int32_t> all(ints);
  std::int32_t sum = 7, max = 0;
  group.reduce(all, reduction(&sum, plus<>())).wait();
  group.reduce(all, reduction(&max, maximum<>(), {property::reduction::initialize_to_identity{}})).wait();
  EXPECT_EQ(sum, host_fold<std::int32_t>(all, 7, plus<std::int32_t>()));
  EXPECT_EQ(max, host_fold<std::int32_t>(all, std::numeric_limits<std::int32_t>::lowest(), maximum<std::int32_t>()));

  const auto flags = exact_values<bool>(5001, 4);
  std::vector<std::uint8_t> bytes(flags.begin(), flags.end());
  const std::span<const bool> bools(reinterpret_cast<const bool*>(bytes.data()), bytes.size());
  bool all_true = true, any_true = false;
  group.reduce(bools, reduction(&all_true, logical_and<>())).wait();
  group.reduce(bools, reduction(&any_true, logical_or<>())).wait();
  EXPECT_EQ(all_true, std::all_of(flags.begin(), flags.end(), [](bool b) { return b; }));
  EXPECT_EQ(any_true, std::any_of(flags.begin(), flags.end(), [](bool b) { return b; }));
}

TEST(DeviceGroup, GivenAPlainFloatSum_WhenSplit_ThenWithinThePlainBound) {
  ZR_REQUIRE_DEVICES();
  const std::vector<double> wide = wide_doubles(200003, 8);
  const std::vector<float> data(wide.begin(), wide.end());
  long double exact = 0, magnitude = 0;
  for (float v : data) {
    exact += v;
    magnitude += std::fabs(v);
  }
  device_group group(members(2), {1, 2});
  float sum = 0;
  group.reduce(std::span<const float>(data), reduction(&sum, plus<>())).wait();
  // gamma(m) * sum|x| with m <= n + 1 (any order): 2^-24 a combine.
  const long double bound = (data.size() + 2) * std::ldexp(1.0L, -24) * magnitude;
  EXPECT_LE(std::fabs(static_cast<long double>(sum) - exact), bound);
}

TEST(DeviceGroup, GivenNoData_WhenReduced_ThenTheInitialValueOrTheIdentity) {
  ZR_REQUIRE_DEVICES();
  device_group group(members(2), {1, 1});
  float sum = 1.5f;
  group.reduce(std::span<const float>(), reduction(&sum, plus<>(), {property::reduction::reproducible{}})).wait();
  EXPECT_EQ(sum, 1.5f);
  std::int64_t product = 99;
  group.reduce(std::span<const std::int64_t>(), reduction(&product, multiplies<>(), {property::reduction::initialize_to_identity{}})).wait();
  EXPECT_EQ(product, 1);
}

TEST(DeviceGroup, GivenAProfile_WhenReduced_ThenEveryMembersPassesAreListedByMember) {
  ZR_REQUIRE_DEVICES();
  device_group group(members(2), {1, 1});
  // Above the inline limit (the members' workers run it) and each member's host path (CPU devices).
  const auto ints = exact_values<std::int32_t>(1 << 23, 2);
  std::int32_t sum = 0;
  const event done = group.reduce(std::span<const std::int32_t>(ints), reduction(&sum, plus<>()));
  const profile& p = done.get_profile();
  EXPECT_EQ(p.plans.size(), 2u);
  bool first = false, second = false;
  for (const auto& pass : p.passes) {
    first = first || pass.label.rfind("member 0: ", 0) == 0;
    second = second || pass.label.rfind("member 1: ", 0) == 0;
  }
  EXPECT_TRUE(first && second);
}

TEST(DeviceGroupErrors, GivenBadGroupsOrVariables_WhenUsed_ThenRefusedWithTheReason) {
  ZR_REQUIRE_DEVICES();
  EXPECT_THROW(device_group({}), InvalidArgumentError);
  EXPECT_THROW(device_group(members(2), {1}), InvalidArgumentError);
  EXPECT_THROW(device_group(members(2), {0, 0}), InvalidArgumentError);
  EXPECT_THROW(device_group(members(2), {1, -1}), InvalidArgumentError);
  device_group group(members(2), {1, 1});
  const std::vector<float> data(100, 1.0f);
  EXPECT_THROW(group.reduce(std::span<const float>(data), reduction(static_cast<float*>(nullptr), plus<>())),
               InvalidArgumentError);
  std::array<float, 4> columns{};
  EXPECT_THROW(group.reduce(std::span<const float>(data), reduction(std::span<float, 4>(columns), plus<>())),
               UnsupportedError);
  queue q(group.devices().front());
  float* on_device = q.malloc_device<float>(1);
  EXPECT_THROW(group.reduce(std::span<const float>(data), reduction(on_device, plus<>())), InvalidArgumentError);
  q.free(on_device);
}

TEST(DeviceGroupErrors, GivenAMemberThatCannotRunTheRequest_WhenReduced_ThenItsErrorNamesTheMember) {
  ZR_REQUIRE_DEVICES();
  // A strategy one member lacks: sub-groups (PoCL 3.1 has none); skipped where every member has them.
  std::vector<device> devices = members(2);
  std::optional<std::size_t> lacking;
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (!lacking && devices[i].capabilities().sub_group_sizes.empty()) lacking = i;
  if (!lacking) GTEST_SKIP() << "every member has sub-groups";
  device_group group(devices, {1, 1});
  const std::vector<float> data(1000, 1.0f);
  float sum = 0;
  try {
    group.reduce(std::span<const float>(data), reduction(&sum, plus<>(), {property::reduction::use_strategy{strategy::subgroup}})).wait();
    FAIL() << "a strategy a member lacks was accepted";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find("device group member " + std::to_string(*lacking)), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace zr::test
