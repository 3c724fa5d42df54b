// A raw Level Zero application (issue 41): its own context, USM allocations, module, command queue, command
// lists (regular and immediate) and events. ze-reduce's reduction is appended between the application's kernels:
// the one before writes the data, the one after reads the result, and the application adds no barrier of its
// own. Runs through the test driver (tests/level_zero_cpu), which runs the commands between two barriers in
// reverse order and faults on pointers outside the context's allocations: a missing barrier or a foreign
// pointer fails here. Every result is compared with a host fold of the same data; misuse is named.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "zereduce/errors.hpp"
#include "zereduce/functional.hpp"
#include "zereduce/level_zero.hpp"
#include "zereduce/queue.hpp"
#include "seed_examples.hpp"  // tools/kernels: the sample kernels with reducers

namespace {

using zr_test::expect_error;

#define ASSERT_ZE(call) ASSERT_EQ((call), ZE_RESULT_SUCCESS) << #call
#define EXPECT_ZE(call) EXPECT_EQ((call), ZE_RESULT_SUCCESS) << #call

constexpr std::uint64_t kWaitNs = 300'000'000'000;  // 5 minutes: a hang fails instead of blocking CI

std::vector<int> host_fill(std::size_t n, int seed) {
  std::vector<int> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = static_cast<int>(((static_cast<std::uint32_t>(i) * 2654435761u + static_cast<std::uint32_t>(seed)) >> 9) % 2001) - 1000;
  return x;
}

float host_fill_float(std::size_t i) { return static_cast<float>(static_cast<int>(i % 13) - 6) * 0.25f; }

enum class Memory { device, shared, host };

// What a Level Zero application holds: the driver and device it chose, a context of its own, its module and
// kernels, a command queue (which orders nothing: barriers and events do) and an event pool.
class Application {
 public:
  Application() {
    ok_ = zeInit(0) == ZE_RESULT_SUCCESS;
    if (!ok_) return;
    std::uint32_t count = 1;
    zeDriverGet(&count, &driver);
    count = 0;
    zeDeviceGet(driver, &count, nullptr);
    devices.resize(count);
    zeDeviceGet(driver, &count, devices.data());
    device = devices.at(0);
    ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    zeContextCreate(driver, &context_desc, &context);
    std::ifstream file(ZR_APPLICATION_KERNELS_SPV, std::ios::binary);
    const std::vector<char> spirv((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ze_module_desc_t module_desc{};
    module_desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
    module_desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    module_desc.inputSize = spirv.size();
    module_desc.pInputModule = reinterpret_cast<const std::uint8_t*>(spirv.data());
    ok_ = !spirv.empty() && zeModuleCreate(context, device, &module_desc, &module, nullptr) == ZE_RESULT_SUCCESS;
    for (const char* name : {"fill", "fill_float", "twice", "twice_float"}) {
      ze_kernel_desc_t kernel_desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
      ze_kernel_handle_t kernel = nullptr;
      ok_ = ok_ && zeKernelCreate(module, &kernel_desc, &kernel) == ZE_RESULT_SUCCESS;
      kernels.push_back(kernel);
    }
    ze_command_queue_desc_t queue_desc{};
    queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    ok_ = ok_ && zeCommandQueueCreate(context, device, &queue_desc, &queue) == ZE_RESULT_SUCCESS;
    ze_event_pool_desc_t pool_desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, kEvents};
    ok_ = ok_ && zeEventPoolCreate(context, &pool_desc, 1, &device, &pool) == ZE_RESULT_SUCCESS;
    for (std::uint32_t i = 0; i < kEvents && ok_; ++i) {
      ze_event_desc_t event_desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
      ze_event_handle_t event = nullptr;
      ok_ = zeEventCreate(pool, &event_desc, &event) == ZE_RESULT_SUCCESS;
      events.push_back(event);
    }
  }
  ~Application() {
    for (void* p : allocations_) zeMemFree(context, p);
    for (auto e : events) zeEventDestroy(e);
    if (pool) zeEventPoolDestroy(pool);
    if (queue) zeCommandQueueDestroy(queue);
    for (auto k : kernels) if (k) zeKernelDestroy(k);
    if (module) zeModuleDestroy(module);
    if (context) zeContextDestroy(context);
  }
  bool ok() const { return ok_; }

  template <typename T>
  T* allocate(std::size_t n, Memory kind = Memory::shared) {
    void* p = nullptr;
    ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
    ze_result_t made = ZE_RESULT_ERROR_UNKNOWN;
    switch (kind) {
      case Memory::device: made = zeMemAllocDevice(context, &device_desc, bytes, 64, device, &p); break;
      case Memory::shared: made = zeMemAllocShared(context, &device_desc, &host_desc, bytes, 64, device, &p); break;
      case Memory::host: made = zeMemAllocHost(context, &host_desc, bytes, 64, &p); break;
    }
    EXPECT_EQ(made, ZE_RESULT_SUCCESS);
    allocations_.push_back(p);
    return static_cast<T*>(p);
  }

  ze_command_list_handle_t list() {
    ze_command_list_desc_t desc{};
    desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
    ze_command_list_handle_t made = nullptr;
    EXPECT_ZE(zeCommandListCreate(context, device, &desc, &made));
    return made;
  }
  ze_command_list_handle_t immediate_list() {
    ze_command_queue_desc_t desc{};
    desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    ze_command_list_handle_t made = nullptr;
    EXPECT_ZE(zeCommandListCreateImmediate(context, device, &desc, &made));
    return made;
  }
  // Closes the lists, runs them on the application's queue and waits for them.
  void run(std::vector<ze_command_list_handle_t> lists) {
    for (auto l : lists) EXPECT_ZE(zeCommandListClose(l));
    ze_fence_desc_t fence_desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
    ze_fence_handle_t fence = nullptr;
    ASSERT_ZE(zeFenceCreate(queue, &fence_desc, &fence));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, static_cast<std::uint32_t>(lists.size()), lists.data(), fence));
    EXPECT_ZE(zeFenceHostSynchronize(fence, kWaitNs));
    zeFenceDestroy(fence);
    for (auto l : lists) zeCommandListDestroy(l);
  }

  // The application's kernels, appended with no barrier: ordering is the reducer's job (and the events').
  void fill(ze_command_list_handle_t l, int* x, std::uint32_t n, int seed, ze_event_handle_t signal = nullptr) {
    launch(l, kernels[0], n, signal, {}, x, n, seed);
  }
  void fill_float(ze_command_list_handle_t l, float* x, std::uint32_t n) { launch(l, kernels[1], n, nullptr, {}, x, n); }
  void twice(ze_command_list_handle_t l, int* r, std::vector<ze_event_handle_t> waits = {}, ze_event_handle_t signal = nullptr) {
    launch(l, kernels[2], 1, signal, waits, r);
  }
  void twice_float(ze_command_list_handle_t l, float* r, ze_event_handle_t signal = nullptr) {
    launch(l, kernels[3], 1, signal, {}, r);
  }

  static constexpr std::uint32_t kEvents = 8;
  ze_driver_handle_t driver = nullptr;
  std::vector<ze_device_handle_t> devices;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  ze_module_handle_t module = nullptr;
  std::vector<ze_kernel_handle_t> kernels;
  ze_command_queue_handle_t queue = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  std::vector<ze_event_handle_t> events;

 private:
  template <typename... Args>
  void launch(ze_command_list_handle_t l, ze_kernel_handle_t kernel, std::uint32_t n, ze_event_handle_t signal,
              std::vector<ze_event_handle_t> waits, Args... args) {
    const std::uint32_t group = n == 1 ? 1 : 64;
    EXPECT_ZE(zeKernelSetGroupSize(kernel, group, 1, 1));
    std::uint32_t index = 0;
    const auto set = [&](const auto& arg) { EXPECT_ZE(zeKernelSetArgumentValue(kernel, index++, sizeof(arg), &arg)); };
    (set(args), ...);
    const ze_group_count_t groups{(n + group - 1) / group, 1, 1};
    EXPECT_ZE(zeCommandListAppendLaunchKernel(l, kernel, &groups, signal, static_cast<std::uint32_t>(waits.size()),
                                              waits.empty() ? nullptr : waits.data()));
  }
  bool ok_ = false;
  std::vector<void*> allocations_;
};

// One application for the whole program: ze-reduce builds its modules once for its context.
Application& app() {
  static Application instance;
  return instance;
}

class LevelZeroInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("ZE_ENABLE_ALT_DRIVERS") == nullptr)
      GTEST_SKIP() << "skipped: needs the Level Zero test driver (ZE_ENABLE_ALT_DRIVERS; ctest sets it)";
    ASSERT_TRUE(app().ok()) << "the application could not set itself up through the test driver";
  }
  zr::level_zero_interop::reducer& reducer() {
    static zr::level_zero_interop::reducer instance(app().driver, app().context, app().device);
    return instance;
  }
};

class KernelsAroundIt : public LevelZeroInterop, public ::testing::WithParamInterface<Memory> {};

TEST_P(KernelsAroundIt, GivenOneRegularList_WhenTheReductionIsAppendedBetweenTheApplicationsKernels_ThenTheNextKernelSeesIt) {
  const std::uint32_t n = 100'003;
  int* x = app().allocate<int>(n, GetParam());
  int* result = app().allocate<int>(1);
  auto list = app().list();
  app().fill(list, x, n, 7);
  reducer().append_reduce(list, x, n, result, zr::plus<>(), zr::property_list{zr::property::reduction::initialize_to_identity{}});
  app().twice(list, result);
  app().run({list});
  const auto values = host_fill(n, 7);
  EXPECT_EQ(*result, 2 * std::accumulate(values.begin(), values.end(), 0));
}

INSTANTIATE_TEST_SUITE_P(InputMemory, KernelsAroundIt, ::testing::Values(Memory::device, Memory::shared, Memory::host),
                         [](const auto& info) {
                           return std::string(info.param == Memory::device ? "device" : info.param == Memory::shared ? "shared" : "host");
                         });

TEST_F(LevelZeroInterop, GivenEveryStrategyTheDeviceAllows_WhenAppended_ThenEachResultIsTheHostFold) {
  const std::uint32_t n = 65'537;
  int* x = app().allocate<int>(n, Memory::device);
  const auto values = host_fill(n, 3);
  const int sum = std::accumulate(values.begin(), values.end(), 0);
  const int largest = *std::max_element(values.begin(), values.end());
  const zr::device device = reducer().device();
  for (auto [op, expected] : {std::pair{zr::op_kind::plus, sum}, std::pair{zr::op_kind::maximum, largest}}) {
    for (zr::strategy strategy : device.strategies(zr::element_type::i32, op)) {
      SCOPED_TRACE(std::string(zr::to_string(strategy)));
      int* result = app().allocate<int>(1);
      *result = 5;  // included: the result combines it
      auto list = app().list();
      app().fill(list, x, n, 3);
      const zr::property_list props{zr::property::reduction::use_strategy{strategy}};
      if (op == zr::op_kind::plus) reducer().append_reduce(list, x, n, result, zr::plus<>(), props);
      else reducer().append_reduce(list, x, n, result, zr::maximum<>(), props);
      app().run({list});
      EXPECT_EQ(*result, op == zr::op_kind::plus ? expected + 5 : std::max(expected, 5));
    }
  }
}

TEST_F(LevelZeroInterop, GivenAnImmediateList_WhenTheReductionIsAppendedBetweenKernels_ThenTheEventSaysWhenTheResultIsThere) {
  const std::uint32_t n = 50'000;
  float* x = app().allocate<float>(n, Memory::device);
  float* result = app().allocate<float>(1);
  auto list = app().immediate_list();
  ze_event_handle_t reduced = app().events[0], doubled = app().events[1];
  ASSERT_ZE(zeEventHostReset(reduced));
  ASSERT_ZE(zeEventHostReset(doubled));
  app().fill_float(list, x, n);
  reducer().append_reduce(list, x, n, result, zr::maximum<>(),
                          zr::property_list{zr::property::reduction::initialize_to_identity{}}, reduced);
  app().twice_float(list, result, doubled);
  EXPECT_ZE(zeEventHostSynchronize(doubled, kWaitNs));
  EXPECT_ZE(zeEventQueryStatus(reduced));
  float largest = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, host_fill_float(i));
  EXPECT_EQ(*result, 2.0f * largest);
  zeCommandListDestroy(list);
}

TEST_F(LevelZeroInterop, GivenTheApplicationsEvents_WhenTheReductionWaitsAndSignals_ThenWorkOnOtherListsFollowsThem) {
  const std::uint32_t n = 20'000;
  int* x = app().allocate<int>(n, Memory::device);
  int* result = app().allocate<int>(1);
  *result = -1;
  ze_event_handle_t filled = app().events[2], reduced = app().events[3];
  ASSERT_ZE(zeEventHostReset(filled));
  ASSERT_ZE(zeEventHostReset(reduced));
  // The reduction goes first, into an immediate list, waiting for data that a regular list writes later.
  auto immediate = app().immediate_list();
  reducer().append_reduce(immediate, x, n, result, zr::minimum<>(), {}, reduced, std::vector<ze_event_handle_t>{filled});
  auto writer = app().list();
  app().fill(writer, x, n, 11, filled);
  app().run({writer});
  auto reader = app().list();
  app().twice(reader, result, {reduced});
  app().run({reader});
  const auto values = host_fill(n, 11);
  EXPECT_EQ(*result, 2 * std::min(-1, *std::min_element(values.begin(), values.end())));
  zeCommandListDestroy(immediate);
}

TEST_F(LevelZeroInterop, GivenTheApplicationsScratch_WhenTwoReductionsShareOneList_ThenEachUsesItsOwn) {
  const std::uint32_t n = 300'001;
  int* x = app().allocate<int>(n, Memory::device);
  int* y = app().allocate<int>(n, Memory::device);
  int* results = app().allocate<int>(2);
  const std::uint64_t bytes = reducer().scratch_bytes<int>(n, zr::plus<>());
  auto* scratch_x = app().allocate<std::byte>(bytes, Memory::device);
  auto* scratch_y = app().allocate<std::byte>(bytes, Memory::device);
  auto list = app().list();
  app().fill(list, x, n, 1);
  app().fill(list, y, n, 2);
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};
  reducer().append_reduce(list, x, n, &results[0], zr::plus<>(), std::span<std::byte>(scratch_x, bytes), fresh);
  reducer().append_reduce(list, y, n, &results[1], zr::bit_xor<>(), std::span<std::byte>(scratch_y, bytes), fresh);
  app().run({list});
  const auto a = host_fill(n, 1), b = host_fill(n, 2);
  EXPECT_EQ(results[0], std::accumulate(a.begin(), a.end(), 0));
  EXPECT_EQ(results[1], std::accumulate(b.begin(), b.end(), 0, [](int s, int v) { return s ^ v; }));
  if (bytes > 0) {
    auto too_small = app().list();
    expect_error<zr::InvalidArgumentError>(
        [&] { reducer().append_reduce(too_small, x, n, results, zr::plus<>(), std::span<std::byte>(scratch_x, bytes - 1)); },
        "needs " + std::to_string(bytes));
    zeCommandListDestroy(too_small);
  }
}

TEST_F(LevelZeroInterop, GivenNoElements_WhenAppended_ThenTheResultKeepsItsValueOrBecomesTheIdentity) {
  int* results = app().allocate<int>(2);
  results[0] = 42;
  results[1] = 42;
  auto list = app().list();
  reducer().append_reduce(list, static_cast<const int*>(nullptr), 0, &results[0], zr::minimum<>());
  reducer().append_reduce(list, static_cast<const int*>(nullptr), 0, &results[1], zr::minimum<>(),
                          zr::property_list{zr::property::reduction::initialize_to_identity{}});
  app().run({list});
  EXPECT_EQ(results[0], 42);
  EXPECT_EQ(results[1], std::numeric_limits<int>::max());
}

TEST_F(LevelZeroInterop, GivenAQueueOverTheApplicationsContext_WhenReducingItsMemory_ThenTheResultIsInPlace) {
  const std::uint32_t n = 12'345;
  int* x = app().allocate<int>(n, Memory::device);
  auto list = app().list();
  app().fill(list, x, n, 5);
  app().run({list});
  zr::queue q(zr::level_zero_interop::make_device(app().driver, app().context, app().device));
  int sum = 0;
  q.reduce(x, n, zr::reduction(&sum, zr::plus<>())).wait();
  const auto values = host_fill(n, 5);
  EXPECT_EQ(sum, std::accumulate(values.begin(), values.end(), 0));
}

// An application's kernels with reducers (zereduce/kernel.hpp) appended between its own kernels: a histogram (a
// span reducer, initialize_to_identity) whose first count the application's next kernel doubles, in one regular
// list; a sum and a maximum of one kernel on an immediate list, signalling the application's event. The test
// driver runs the commands between barriers in reverse order: a missing barrier (or fill) fails here.
TEST_F(LevelZeroInterop, GivenAKernelWithReducers_WhenAppendedBetweenTheApplicationsKernels_ThenItsVariablesHoldTheReductions) {
  const zr::kernel histogram(zr_kernels::seed_examples, "histogram");
  const zr::kernel sum_and_max(zr_kernels::seed_examples, "sum_and_max");
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};
  const std::uint32_t n = 100'003, bins = 7;
  int* values = app().allocate<int>(n, Memory::device);
  unsigned* counts = app().allocate<unsigned>(bins, Memory::shared);
  std::fill(counts, counts + bins, 99u);  // initialize_to_identity replaces it
  auto list = app().list();
  app().fill(list, values, n, 4);
  reducer().append_parallel_for(list, zr::range{n}, histogram, static_cast<const int*>(values), bins,
                                zr::reduction(std::span<unsigned>(counts, bins), zr::plus<>(), fresh));
  app().twice(list, reinterpret_cast<int*>(counts));
  app().run({list});
  std::vector<unsigned> want(bins);
  for (int v : host_fill(n, 4)) ++want[static_cast<unsigned>(v) % bins];
  want[0] *= 2;
  EXPECT_EQ(std::vector<unsigned>(counts, counts + bins), want);

  float* x = app().allocate<float>(n, Memory::device);
  float* sums = app().allocate<float>(2, Memory::host);
  sums[0] = 2.5f;   // folded in
  sums[1] = 1e30f;  // replaced
  auto immediate = app().immediate_list();
  ze_event_handle_t reduced = app().events[2];
  ASSERT_ZE(zeEventHostReset(reduced));
  app().fill_float(immediate, x, n);
  reducer().append_parallel_for(immediate, reduced, {}, zr::range{n}, sum_and_max, static_cast<const float*>(x),
                                zr::reduction(&sums[0], zr::plus<>()), zr::reduction(&sums[1], zr::maximum<>(), fresh));
  EXPECT_ZE(zeEventHostSynchronize(reduced, kWaitNs));
  double sum = 0;
  float peak = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    sum += host_fill_float(i);
    peak = std::max(peak, host_fill_float(i));
  }
  // Multiples of 0.25 that cancel every 13 elements: every order of float additions gives the exact sum.
  EXPECT_EQ(sums[0], static_cast<float>(2.5 + sum));
  EXPECT_EQ(sums[1], peak);
  zeCommandListDestroy(immediate);

  // A wrong call is refused before anything is appended, with the problem named.
  std::vector<float> plain(16);
  auto refused = app().list();
  expect_error<zr::InvalidArgumentError>(
      [&] {
        reducer().append_parallel_for(refused, zr::range{16}, sum_and_max, static_cast<const float*>(plain.data()),
                                      zr::reduction(&sums[0], zr::plus<>()), zr::reduction(&sums[1], zr::maximum<>()));
      },
      "pointer argument 0 is not USM memory");
  expect_error<zr::InvalidArgumentError>(
      [&] {
        reducer().append_parallel_for(refused, zr::range{16}, sum_and_max, static_cast<const float*>(x),
                                      zr::reduction(&plain[0], zr::plus<>()), zr::reduction(&sums[1], zr::maximum<>()));
      },
      "the variable of reduction 0 is not USM memory");
  expect_error<zr::InvalidArgumentError>(
      [&] {
        reducer().append_parallel_for(refused, zr::range{16}, sum_and_max, static_cast<const float*>(x),
                                      zr::reduction(&sums[0], zr::plus<>()));
      },
      "has 2 reducer(s), 1 reduction(s) given");
  zeCommandListDestroy(refused);
}

TEST_F(LevelZeroInterop, GivenMisuse_WhenAppending_ThenTheErrorNamesIt) {
  int* x = app().allocate<int>(1024, Memory::device);
  int* result = app().allocate<int>(1);
  auto list = app().list();
  // Memory of another context.
  ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t other = nullptr;
  ASSERT_ZE(zeContextCreate(app().driver, &context_desc, &other));
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  void* foreign = nullptr;
  ASSERT_ZE(zeMemAllocDevice(other, &device_desc, 4096, 64, app().device, &foreign));
  expect_error<zr::InvalidArgumentError>(
      [&] { reducer().append_reduce(list, static_cast<const int*>(foreign), 1024, result, zr::plus<>()); },
      "input is not USM memory");
  expect_error<zr::InvalidArgumentError>(
      [&] { reducer().append_reduce(list, x, 1024, static_cast<int*>(foreign), zr::plus<>()); }, "result is not USM memory");
  // Ordinary host memory, a range past the allocation's end, a misaligned pointer, no list.
  std::vector<int> host(1024);
  expect_error<zr::InvalidArgumentError>([&] { reducer().append_reduce(list, host.data(), 1024, result, zr::plus<>()); },
                                         "input is not USM memory");
  expect_error<zr::InvalidArgumentError>([&] { reducer().append_reduce(list, x + 1, 1024, result, zr::plus<>()); },
                                         "runs past the end of its allocation");
  expect_error<zr::InvalidArgumentError>(
      [&] {
        reducer().append_reduce(list, reinterpret_cast<const int*>(reinterpret_cast<const char*>(x) + 2), 16, result, zr::plus<>());
      },
      "not aligned");
  expect_error<zr::InvalidArgumentError>([&] { reducer().append_reduce(nullptr, x, 1024, result, zr::plus<>()); },
                                         "command list is null");
  // Null handles and a context of nobody.
  expect_error<zr::InvalidArgumentError>([&] { zr::level_zero_interop::reducer(app().driver, nullptr, app().device); },
                                         "context is null");
  expect_error<zr::InvalidArgumentError>([&] { zr::level_zero_interop::reducer(nullptr, app().context, app().device); },
                                         "driver is null");
  // A list of another device: the driver refuses the append, and the error names the call.
  if (app().devices.size() > 1) {
    ze_command_list_desc_t list_desc{};
    list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
    ze_command_list_handle_t other_device_list = nullptr;
    ASSERT_ZE(zeCommandListCreate(app().context, app().devices[1], &list_desc, &other_device_list));
    expect_error<zr::BackendError>([&] { reducer().append_reduce(other_device_list, x, 1024, result, zr::plus<>()); },
                                   "zeCommandListAppendLaunchKernel");
    zeCommandListDestroy(other_device_list);
  } else {
    std::cout << "[ note ] one device only (ZRT_DEVICES=2 adds another): a list of another device is not tried\n";
  }
  zeMemFree(other, foreign);
  zeContextDestroy(other);
  zeCommandListDestroy(list);
}

}  // namespace
