// Misuse gets a clear error of the right type before any work, never a wrong answer.
#include <gtest/gtest.h>

#include "support/expect_error.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "api_test_support.hpp"

namespace zr::test {
namespace {

using zr_test::expect_error;

TEST(Misuse, GivenNullInputWhenReducingThenInvalidArgumentNamesIt) {
  ZR_REQUIRE_QUEUE(q);
  int sum = 0;
  expect_error<InvalidArgumentError>([&] { q.reduce(static_cast<const int*>(nullptr), 10, reduction(&sum, plus<>())); },
                                     "input is nullptr");
  // n == 0 reads nothing: a null input is fine and the result is the initial value.
  sum = 42;
  q.reduce(static_cast<const int*>(nullptr), 0, reduction(&sum, plus<>())).wait();
  EXPECT_EQ(sum, 42);
}

TEST(Misuse, GivenNullVariableWhenReducingThenInvalidArgumentNamesIt) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> values(4, 1);
  expect_error<InvalidArgumentError>(
      [&] { q.reduce(std::span<const int>(values), reduction(static_cast<int*>(nullptr), plus<>())); },
      "reduction variable is nullptr");
}

TEST(Misuse, GivenUserIdentityThatIsNotOneWhenReducingThenInvalidArgumentNamesTheRightOne) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> values{1.5f, 2.0f, -4.0f};
  float sum = 0.0f;
  expect_error<InvalidArgumentError>(
      [&] { q.reduce(std::span<const float>(values), reduction(&sum, 1.0f, plus<>())).wait(); },
      "1 is not an identity of plus on f32");
  EXPECT_EQ(sum, 0.0f) << "a refused reduction must not write its variable";
  // -0 is an identity of a floating sum: accepted, and the result is the plain sum.
  q.reduce(std::span<const float>(values), reduction(&sum, -0.0f, plus<>())).wait();
  EXPECT_EQ(sum, -0.5f);
  const std::vector<int> ints{3, 1, 2};
  int smallest = 0;
  expect_error<InvalidArgumentError>(
      [&] { q.reduce(std::span<const int>(ints), reduction(&smallest, 0, minimum<>())).wait(); },
      "this one is 2147483647");
}

TEST(Misuse, GivenLengthBeyondTheAllocationWhenReducingThenInvalidArgumentGivesTheSizes) {
  ZR_REQUIRE_QUEUE(q);
  int* data = q.malloc_device<int>(100);
  int sum = 0;
  expect_error<InvalidArgumentError>([&] { q.reduce(data, 101, reduction(&sum, plus<>())); },
                                     "runs past the end of its allocation of 400 bytes");
  expect_error<InvalidArgumentError>([&] { q.reduce(data + 50, 51, reduction(&sum, plus<>())); }, "at offset 200");
  q.free(data);
}

// Every entry point refuses an input that starts inside an element, in host and in device memory, for every
// element size: the kernels would read other numbers (or fault), and nothing below the API would say so.
template <typename T>
void expect_misaligned_inputs_refused(queue& q) {
  constexpr std::uint64_t n = 64;
  std::vector<std::byte> host_bytes((n + 1) * sizeof(T));
  const auto* host = reinterpret_cast<const T*>(host_bytes.data() + 1);  // never dereferenced: refused first
  auto* device_bytes = static_cast<std::byte*>(q.malloc_device_bytes((n + 1) * sizeof(T)));
  const auto* device = reinterpret_cast<const T*>(device_bytes + 1);
  const std::string fragment = "is not aligned to its " + std::to_string(sizeof(T)) + "-byte";
  T result{};
  expect_error<InvalidArgumentError>([&] { q.reduce(std::span<const T>(host, n), reduction(&result, plus<>())); }, fragment);
  expect_error<InvalidArgumentError>([&] { q.reduce(device, n, reduction(&result, plus<>())); }, fragment);
  arg_result<T> found;
  expect_error<InvalidArgumentError>([&] { q.argmax(std::span<const T>(host, n), &found); }, fragment);
  expect_error<InvalidArgumentError>([&] { q.argmin(device, n, &found); }, fragment);
  std::uint64_t count = 0;
  expect_error<InvalidArgumentError>([&] { q.transform_reduce(std::span<const T>(host, n), count_nonzero{}, &count); },
                                     fragment);
  moments<double> stats;
  expect_error<InvalidArgumentError>([&] { q.transform_reduce(device, n, mean_variance<double>{}, &stats); }, fragment);
  q.free(device_bytes);
}

TEST(Misuse, GivenAnInputNotAlignedToItsElementsWhenReducingThenInvalidArgumentSaysSo) {
  ZR_REQUIRE_QUEUE(q);
  expect_misaligned_inputs_refused<std::int16_t>(q);
  expect_misaligned_inputs_refused<std::uint32_t>(q);
  expect_misaligned_inputs_refused<std::int64_t>(q);
  expect_misaligned_inputs_refused<half>(q);
  expect_misaligned_inputs_refused<float>(q);
  expect_misaligned_inputs_refused<double>(q);  // refused before the device's fp64 is asked about
}

TEST(Misuse, GivenADeviceVariableNotAlignedToTheResultWhenReducingThenInvalidArgumentSaysSo) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> values(16, 1);
  auto* bytes = static_cast<std::byte*>(q.malloc_device_bytes(64));
  expect_error<InvalidArgumentError>(
      [&] { q.reduce(std::span<const int>(values), reduction(reinterpret_cast<int*>(bytes + 2), plus<>())).wait(); },
      "is not aligned to 4 bytes");
  expect_error<InvalidArgumentError>(
      [&] { q.argmax(std::span<const int>(values), reinterpret_cast<arg_result<int>*>(bytes + 4)).wait(); },
      "is not aligned to 8 bytes");
  q.free(bytes);
}

TEST(Misuse, GivenHostPointerAsDeviceMemoryWhenReducingThenInvalidArgumentSaysWhatToDo) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> host(16, 1);
  int sum = 0;
  expect_error<InvalidArgumentError>([&] { q.reduce(host.data(), host.size(), reduction(&sum, plus<>())); },
                                     "is not memory of device");
  expect_error<InvalidArgumentError>([&] { q.reduce(host.data(), host.size(), reduction(&sum, plus<>())); },
                                     "pass a std::span");
}

TEST(Misuse, GivenSizeWhoseByteCountOverflowsWhenReducingOrAllocatingThenInvalidArgument) {
  ZR_REQUIRE_QUEUE(q);
  int* data = q.malloc_device<int>(4);
  int sum = 0;
  const std::uint64_t huge = std::numeric_limits<std::uint64_t>::max() / 2;
  expect_error<InvalidArgumentError>([&] { q.reduce(data, huge, reduction(&sum, plus<>())); },
                                     "more bytes than a 64-bit size can hold");
  expect_error<InvalidArgumentError>([&] { (void)q.malloc_device<double>(huge); }, "more bytes than a 64-bit size");
  q.free(data);
}

TEST(Misuse, GivenAllocationLargerThanTheDeviceAllowsWhenAllocatingThenErrorNamesTheDevice) {
  ZR_REQUIRE_QUEUE(q);
  const std::uint64_t limit = q.get_device().capabilities().max_allocation_bytes;
  if (q.get_device().get_backend() != backend::opencl || limit == 0) GTEST_SKIP() << "OpenCL devices report the limit";
  try {
    (void)q.malloc_device_bytes(limit + 1);
    ADD_FAILURE() << "no error";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find(q.get_device().name()), std::string::npos) << error.what();
  }
}

TEST(Misuse, GivenRowsThatDoNotDivideTheInputWhenArrayReducingThenInvalidArgument) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> values(10, 1);
  std::array<int, 3> columns{};
  expect_error<InvalidArgumentError>(
      [&] { q.reduce(std::span<const int>(values), reduction(std::span<int, 3>(columns), plus<>())); },
      "is not a multiple of it");
}

TEST(Misuse, GivenStrategyTheDeviceCannotRunWhenAskedForThenUnsupportedBeforeAnyWork) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<float> values(1000, 1.0f);
  // Floating-point atomics are never deterministic: the combination is refused on every device.
  float sum = 7.0f;
  expect_error<UnsupportedError>(
      [&] {
        q.reduce(std::span<const float>(values),
                 reduction(&sum, plus<>(),
                           {property::reduction::deterministic{}, property::reduction::use_strategy{strategy::global_atomics}}));
      },
      "deterministic");
  EXPECT_EQ(sum, 7.0f) << "the variable must be untouched";
  const auto allowed = q.get_device().strategies(element_type::f32, op_kind::plus);
  for (strategy s : {strategy::tree, strategy::subgroup, strategy::work_group, strategy::local_atomics,
                     strategy::cpu_chunks, strategy::last_group, strategy::global_atomics}) {
    const bool is_allowed = std::find(allowed.begin(), allowed.end(), s) != allowed.end();
    float result = 0;
    if (is_allowed) {
      q.reduce(std::span<const float>(values), reduction(&result, plus<>(), property::reduction::use_strategy{s})).wait();
      EXPECT_EQ(result, 1000.0f) << to_string(s);
    } else {
      EXPECT_THROW(
          q.reduce(std::span<const float>(values), reduction(&result, plus<>(), property::reduction::use_strategy{s})),
          UnsupportedError)
          << to_string(s);
    }
  }
}

TEST(Misuse, GivenStrategyForSeveralReductionsWhenNotTreeThenUnsupported) {
  ZR_REQUIRE_QUEUE(q);
  const std::vector<int> values(10, 1);
  int a = 0, b = 0;
  expect_error<UnsupportedError>(
      [&] {
        q.reduce(std::span<const int>(values), reduction(&a, plus<>(), property::reduction::use_strategy{strategy::last_group}),
                 reduction(&b, maximum<>()));
      },
      "one fused pass");
}

TEST(Misuse, GivenDeviceIndexOutOfRangeThenInvalidArgumentCountsTheDevices) {
  expect_error<InvalidArgumentError>([] { (void)get_device(get_devices().size()); }, "out of range");
}

TEST(Misuse, GivenFreeOfAPointerNotAllocatedHereThenInvalidArgument) {
  ZR_REQUIRE_QUEUE(q);
  int local = 0;
  expect_error<InvalidArgumentError>([&] { q.free(&local); }, "not the start of an allocation");
}

}  // namespace
}  // namespace zr::test
