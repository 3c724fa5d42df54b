// The host path (runtime/core/host_path.hpp) against the independent host reference: every (op, type) the nine
// SYCL ops allow, sizes around its lane count, special floating values (NaN, both zeros, infinities), integer
// wrap, the initial value, and reproducible sums bit for bit against the binned host model.
#include "host_path.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "arg_reference.hpp"
#include "host_fold.hpp"
#include "host_path_test_data.hpp"
#include "host_reference.hpp"
#include "identity.hpp"

using zr::test::make_data;
using zr::test::request_for;

TEST(HostPath, GivenEveryOpAndType_WhenReducedOnTheHost_ThenTheResultAgreesWithTheHostReference) {
  int checked = 0;
  for (zc::Op op : zc::kAllOps) {
    for (zc::DataType type : zc::kAllDataTypes) {
      if (!zc::is_supported(op, type)) continue;
      for (std::uint64_t n : {0ull, 1ull, 15ull, 16ull, 17ull, 33ull, 1000ull, 4099ull}) {
        for (bool specials : {false, true}) {
          if (specials && !zc::is_floating(type)) continue;
          for (bool include_initial : {false, true}) {
            const auto data = make_data(type, n, n * 31 + static_cast<int>(op) * 7 + static_cast<int>(type), specials);
            const auto initial_bytes = make_data(type, 1, n + 5, false);
            zc::Scalar initial{type, {}};
            std::memcpy(initial.bytes.data(), initial_bytes.data(), initial_bytes.size());
            const auto request = request_for(op, type, n, include_initial);
            ASSERT_TRUE(zc::host_path_serves(request));
            const zc::Scalar result = zc::host_path_reduce(request, data, initial);
            const auto reference = zc::host_reference(op, type, data, n, request.identity,
                                                      include_initial ? std::optional<zc::Scalar>(initial) : std::nullopt,
                                                      zc::host_path_combine_depth(n));
            std::string why;
            EXPECT_TRUE(zc::agrees(reference, result, &why))
                << zc::name(op) << ' ' << zc::name(type) << " n=" << n << (specials ? " with specials" : "")
                << (include_initial ? " with initial" : "") << ": " << why;
            // The same input gives the same bits (the deterministic property).
            EXPECT_TRUE(zc::host_path_reduce(request, data, initial).bitwise_equal(result));
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(HostPath, GivenZerosOfBothSignsAndNaN_WhenTakingMinimumAndMaximum_ThenTheKernelsRulesHold) {
  const float values[] = {0.0f, -0.0f, 1.0f};
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(values), sizeof values);
  const zc::Scalar none{zc::DataType::f32, {}};
  auto reduce = [&](zc::Op op, std::span<const std::byte> data, std::uint64_t n) {
    return zc::host_path_reduce(request_for(op, zc::DataType::f32, n, false), data, none).as<std::uint32_t>();
  };
  EXPECT_EQ(reduce(zc::Op::minimum, bytes.first(8), 2), 0x80000000u);  // -0.0 is below +0.0
  EXPECT_EQ(reduce(zc::Op::maximum, bytes.first(8), 2), 0x00000000u);
  const float with_nan[] = {1.0f, std::numeric_limits<float>::signaling_NaN(), -3.0f};
  const std::span<const std::byte> nan_bytes(reinterpret_cast<const std::byte*>(with_nan), sizeof with_nan);
  EXPECT_EQ(reduce(zc::Op::minimum, nan_bytes, 3), 0x7fc00000u);  // the canonical quiet NaN
  EXPECT_EQ(reduce(zc::Op::plus, nan_bytes, 3), 0x7fc00000u);
}

// The vectorised minimum/maximum (whole vectors, then the tail): zeros of both signs and NaN anywhere, infinities
// without NaN, at sizes past one step of 8 vectors.
template <typename T, typename Bits>
void check_extremes_of_long_inputs() {
  const zc::DataType type = sizeof(T) == 4 ? zc::DataType::f32 : zc::DataType::f64;
  auto reduce = [&](zc::Op op, const std::vector<T>& values) {
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(values.data()), values.size() * sizeof(T));
    return zc::host_path_reduce(request_for(op, type, values.size(), false), bytes, zc::Scalar{type, {}}).template as<Bits>();
  };
  auto bits_of = [](T value) {
    Bits bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  };
  const T inf = std::numeric_limits<T>::infinity();
  for (std::size_t n : {std::size_t{100}, std::size_t{1000}, std::size_t{1003}}) {
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<T> positive(n, T{3});
      positive[at] = T{-0.0};
      positive[(at + 7) % n] = T{0.0};
      EXPECT_EQ(reduce(zc::Op::minimum, positive), bits_of(T{-0.0})) << n << " " << at;
      std::vector<T> negative(n, T{-3});
      negative[at] = T{0.0};
      negative[(at + 7) % n] = T{-0.0};
      EXPECT_EQ(reduce(zc::Op::maximum, negative), bits_of(T{0.0})) << n << " " << at;
      std::fill(negative.begin(), negative.end(), T{-0.0});
      EXPECT_EQ(reduce(zc::Op::maximum, negative), bits_of(T{-0.0})) << n << " " << at;
      std::vector<T> with_nan(n, T{1});
      with_nan[at] = std::numeric_limits<T>::quiet_NaN();
      EXPECT_EQ(reduce(zc::Op::minimum, with_nan), bits_of(std::numeric_limits<T>::quiet_NaN())) << n << " " << at;
      EXPECT_EQ(reduce(zc::Op::maximum, with_nan), bits_of(std::numeric_limits<T>::quiet_NaN())) << n << " " << at;
      std::vector<T> with_inf(n, T{1});
      with_inf[at] = inf;
      with_inf[(at + 3) % n] = -inf;
      EXPECT_EQ(reduce(zc::Op::maximum, with_inf), bits_of(inf)) << n << " " << at;
      EXPECT_EQ(reduce(zc::Op::minimum, with_inf), bits_of(-inf)) << n << " " << at;
    }
  }
}

TEST(HostPath, GivenLongInputsWithSpecialValuesAnywhere_WhenTakingMinimumAndMaximum_ThenTheKernelsRulesHold) {
  check_extremes_of_long_inputs<float, std::uint32_t>();
  check_extremes_of_long_inputs<double, std::uint64_t>();
}

TEST(HostPath, GivenReproducibleSums_WhenReducedOnTheHost_ThenTheBitsAreTheBinnedModels) {
  for (zc::DataType type : {zc::DataType::f16, zc::DataType::f32, zc::DataType::f64}) {
    for (std::uint64_t n : {0ull, 1ull, 17ull, 5000ull}) {
      const auto data = make_data(type, n, n + 3, false);
      const auto initial_bytes = make_data(type, 1, 99, false);
      zc::Scalar initial{type, {}};
      std::memcpy(initial.bytes.data(), initial_bytes.data(), initial_bytes.size());
      auto request = request_for(zc::Op::plus, type, n, true);
      request.reproducible = request.deterministic = true;
      ASSERT_TRUE(zc::host_path_serves(request));
      const auto reference = zc::reproducible_sum_reference(type, data, n, initial);
      EXPECT_TRUE(zc::host_path_reduce(request, data, initial).bitwise_equal(reference.value))
          << zc::name(type) << " n=" << n;
    }
  }
}

TEST(HostPath, GivenArgReductions_WhenReducedOnTheHost_ThenTheHostReferencesValueAndFirstIndexComeBack) {
  int checked = 0;
  for (zc::Op op : zc::kArgOps) {
    for (zc::DataType type : zc::kAllDataTypes) {
      if (type == zc::DataType::boolean) continue;
      for (std::uint64_t n : {1ull, 17ull, 129ull, 1000ull, 4099ull}) {
        for (bool specials : {false, true}) {
          if (specials && !zc::is_floating(type)) continue;
          auto data = make_data(type, n, n * 13 + static_cast<int>(type), specials);
          if (!zc::is_floating(type) && n > 100) {  // repeated extremes: the first one must win
            std::memcpy(data.data() + (n / 3) * zc::size_of(type), data.data() + (n / 2) * zc::size_of(type),
                        zc::size_of(type));
          }
          auto request = request_for(op, type, n, false);
          ASSERT_TRUE(zc::host_path_serves(request));
          const auto got = zc::host_path_arg_reduce(request, data);
          const auto expected = zc::arg_reference(op, type, data, n);
          EXPECT_EQ(got.index, expected.index) << zc::name(op) << ' ' << zc::name(type) << " n=" << n;
          EXPECT_TRUE(got.value.bitwise_equal(expected.value)) << zc::name(op) << ' ' << zc::name(type) << " n=" << n;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// The host path finds an arg-reduction's extreme in one pass over blocks of kArgBlockBytes (host_fold.hpp): the
// extreme repeated in several blocks, at their first and last elements, in a short last block, after a NaN and
// before one, and zeros of both signs as the extreme, in different blocks.
TEST(HostPath, GivenInputsOfSeveralBlocks_WhenArgReducedOnTheHost_ThenTheFirstExtremeOfAnyBlockWins) {
  int checked = 0;
  for (zc::DataType type : zc::kAllDataTypes) {
    if (type == zc::DataType::boolean) continue;
    const std::size_t size = zc::size_of(type);
    const std::uint64_t block = zc::host_fold::kArgBlockBytes / size;
    const std::uint64_t n = 3 * block + 7;
    const auto put = [&](std::vector<std::byte>& data, std::uint64_t at, std::uint64_t bits) {
      std::memcpy(data.data() + at * size, &bits, size);  // little-endian: the low bytes
    };
    for (zc::Op op : zc::kArgOps) {
      for (int variant = 0; variant < 6; ++variant) {
        auto data = make_data(type, n, variant * 101 + static_cast<int>(type), false);
        auto request = request_for(op, type, n, false);
        const auto first = zc::arg_reference(op, type, data, n);
        std::vector<std::byte> extreme(size);
        std::memcpy(extreme.data(), data.data() + first.index * size, size);
        const auto copy_extreme_to = [&](std::uint64_t at) {
          std::memcpy(data.data() + at * size, extreme.data(), size);
        };
        const bool floating = zc::is_floating(type);
        const std::uint64_t nan = type == zc::DataType::f16   ? 0x7e00
                                  : type == zc::DataType::f32 ? 0x7fc00000
                                                              : 0x7ff8000000000000;
        const std::uint64_t sign = std::uint64_t{1} << (size * 8 - 1);
        if (variant == 0) {  // ties at block edges: the earliest must win
          copy_extreme_to(2 * block);
          copy_extreme_to(block - 1);
          copy_extreme_to(n - 1);
        } else if (variant == 1) {  // the extreme only in the short last block: everything else the other extreme
          const auto other = zc::arg_reference(op == zc::Op::argmax ? zc::Op::argmin : zc::Op::argmax, type, data, n);
          std::vector<std::byte> low(size);
          std::memcpy(low.data(), data.data() + other.index * size, size);
          for (std::uint64_t i = 0; i < n; ++i) std::memcpy(data.data() + i * size, low.data(), size);
          copy_extreme_to(n - 3);
          copy_extreme_to(n - 1);
        } else if (variant == 2) {  // the extreme at the first element of block 1, ties later
          copy_extreme_to(block);
          copy_extreme_to(block + 1);
          copy_extreme_to(3 * block);
        } else if (variant == 3 && floating) {  // a NaN after the extreme's block, and one later still
          copy_extreme_to(3);
          put(data, 2 * block + 5, nan);
          put(data, n - 2, nan);
        } else if (variant == 4 && floating) {  // a NaN at a block's first element
          put(data, block, nan);
        } else if (variant == 5 && floating) {  // zeros of both signs as the extreme (below or above the rest)
          const bool maximum = op == zc::Op::argmax;
          for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t bits = 0;
            std::memcpy(&bits, data.data() + i * size, size);
            bits = maximum ? (bits | sign) : (bits & ~sign);  // every value at or below zero (argmax), at or above
            put(data, i, bits);
          }
          put(data, 2 * block + 9, 0);  // +0.0
          put(data, block + 17, sign);  // -0.0, earlier: the first zero of either sign wins, with its sign
          put(data, 3 * block + 1, 0);
        } else {
          continue;
        }
        request.n = n;
        const auto got = zc::host_path_arg_reduce(request, data);
        const auto expected = zc::arg_reference(op, type, data, n);
        EXPECT_EQ(got.index, expected.index) << zc::name(op) << ' ' << zc::name(type) << " variant " << variant;
        EXPECT_TRUE(got.value.bitwise_equal(expected.value))
            << zc::name(op) << ' ' << zc::name(type) << " variant " << variant;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 80);
}

TEST(HostPath, GivenRequestsItDoesNotServe_WhenAsked_ThenItSaysNo) {
  auto explicit_strategy = request_for(zc::Op::plus, zc::DataType::f32, 10, true);
  explicit_strategy.strategy = zc::Strategy::tree;
  auto reproducible_product = request_for(zc::Op::multiplies, zc::DataType::f32, 10, true);
  reproducible_product.reproducible = true;
  auto partial_state = request_for(zc::Op::plus, zc::DataType::f32, 10, false);
  partial_state.reproducible = true;
  partial_state.binned_state_output = true;
  auto empty_arg = request_for(zc::Op::plus, zc::DataType::f32, 0, true);
  empty_arg.op = zc::Op::argmax;
  auto transform = request_for(zc::Op::plus, zc::DataType::f32, 10, true);
  transform.op = zc::Op::norm_l2;
  for (const auto* request : {&explicit_strategy, &reproducible_product, &partial_state, &empty_arg, &transform})
    EXPECT_FALSE(zc::host_path_serves(*request)) << zc::name(request->op);
}

TEST(HostPath, GivenDevicesOfEachKind_WhenAskingTheCrossover_ThenOnlyCpuDevicesHaveOne) {
  zc::Capabilities cpu;
  cpu.type = zc::DeviceType::cpu;
  cpu.compute_units = 2;
  zc::Capabilities gpu;
  gpu.type = zc::DeviceType::gpu;
  if (std::getenv("ZE_REDUCE_HOST_PATH_MAX_BYTES")) GTEST_SKIP() << "ZE_REDUCE_HOST_PATH_MAX_BYTES is set";
  EXPECT_GT(zc::host_path_max_bytes(cpu), 0u);
  EXPECT_EQ(zc::host_path_max_bytes(gpu), 0u);
  zc::Capabilities many_cores = cpu;
  many_cores.compute_units = 16;
  EXPECT_LT(zc::host_path_max_bytes(many_cores), zc::host_path_max_bytes(cpu));
}

// Every vector width this CPU runs (16 and 32 bytes where it has AVX2) scans to the same lanes'
// result and the same verdict on NaNs, on random values with zeros, infinities and NaNs placed across the blocks.
template <typename T>
void check_every_vector_width_scans_alike() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<T> value(-1000, 1000);
  for (std::uint64_t n : {std::uint64_t{127}, std::uint64_t{128}, std::uint64_t{1000}, std::uint64_t{4099}}) {
    for (int special = 0; special < 4; ++special) {
      std::vector<T> data(n);
      for (T& x : data) x = value(rng);
      const std::uint64_t at = rng() % n;
      if (special == 1) data[at] = std::numeric_limits<T>::quiet_NaN();
      if (special == 2) data[at] = std::numeric_limits<T>::infinity();
      if (special == 3) data[at] = T{-0.0};
      const auto* bytes = reinterpret_cast<const std::byte*>(data.data());
      for (const bool minimum : {true, false}) {
        const T identity = minimum ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
        const auto narrow = zc::host_fold::scan_extremes_in(16, bytes, n, identity, minimum);
        for (unsigned width : {32u}) {
          if (width > zc::host_fold::extreme_vector_bytes()) continue;
          const auto wide = zc::host_fold::scan_extremes_in(width, bytes, n, identity, minimum);
          // The blocks differ (8 vectors of the width): compare what each leaves once its tail is folded.
          auto finish = [&](zc::host_fold::ExtremeScan<T> scan) {
            if (minimum) zc::host_fold::fold_extremes<T, true>(bytes, scan.end, n, scan.result, scan.poisoned);
            else zc::host_fold::fold_extremes<T, false>(bytes, scan.end, n, scan.result, scan.poisoned);
            return scan;
          };
          const auto narrow_done = finish(narrow), wide_done = finish(wide);
          const T narrow_result = narrow_done.result, narrow_poisoned = narrow_done.poisoned;
          const T wide_result = wide_done.result, wide_poisoned = wide_done.poisoned;
          EXPECT_EQ(wide_result, narrow_result) << width << " bytes, n " << n << ", special " << special;
          EXPECT_EQ(wide_poisoned != wide_poisoned, narrow_poisoned != narrow_poisoned) << width << " bytes, n " << n;
          // Poisoned by a NaN alone: an infinity is an ordinary extreme (it used to send the scan to look again).
          EXPECT_EQ(wide_poisoned != wide_poisoned, special == 1) << width << " bytes, n " << n;
        }
      }
    }
  }
  EXPECT_THROW(zc::host_fold::scan_extremes_in(24, nullptr, 0, T{0}, true), zr::InvalidArgumentError);
}

TEST(HostPath, GivenEveryVectorWidthOfThisCpu_WhenScanningForExtremes_ThenEachGivesTheSameResult) {
  check_every_vector_width_scans_alike<float>();
  check_every_vector_width_scans_alike<double>();
  std::cout << "[ info ] host extremes run in " << zc::host_fold::extreme_vector_bytes() << "-byte vectors here\n";
}
