// The test driver keeps the Level Zero rules that make it worth testing against: work between barriers is not
// run in append order, device memory is not host memory, unimplemented calls fail loudly. Called through the
// official loader, as the runtime calls it.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

#define ASSERT_ZE(call) ASSERT_EQ((call), ZE_RESULT_SUCCESS) << #call

class DriverRules : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("ZE_ENABLE_ALT_DRIVERS") == nullptr) GTEST_SKIP() << "needs ZE_ENABLE_ALT_DRIVERS (the test driver)";
    ASSERT_ZE(zeInit(0));
    std::uint32_t count = 1;
    ASSERT_ZE(zeDriverGet(&count, &driver_));
    count = 1;
    ASSERT_ZE(zeDeviceGet(driver_, &count, &device_));
    ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ASSERT_ZE(zeContextCreate(driver_, &context_desc, &context_));
    ze_command_queue_desc_t queue_desc{};
    queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    ASSERT_ZE(zeCommandQueueCreate(context_, device_, &queue_desc, &queue_));
    ze_fence_desc_t fence_desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
    ASSERT_ZE(zeFenceCreate(queue_, &fence_desc, &fence_));
    ze_command_list_desc_t list_desc{};
    list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
    ASSERT_ZE(zeCommandListCreate(context_, device_, &list_desc, &list_));
  }
  void TearDown() override {
    if (list_) zeCommandListDestroy(list_);
    if (fence_) zeFenceDestroy(fence_);
    if (queue_) zeCommandQueueDestroy(queue_);
    for (void* p : allocations_) zeMemFree(context_, p);
    if (context_) zeContextDestroy(context_);
  }
  std::int32_t* host(std::size_t n) {
    ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    void* p = nullptr;
    EXPECT_EQ(zeMemAllocHost(context_, &desc, n * 4, 64, &p), ZE_RESULT_SUCCESS);
    allocations_.push_back(p);
    return static_cast<std::int32_t*>(p);
  }
  std::int32_t* device_memory(std::size_t n) {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    void* p = nullptr;
    EXPECT_EQ(zeMemAllocDevice(context_, &desc, n * 4, 64, device_, &p), ZE_RESULT_SUCCESS);
    allocations_.push_back(p);
    return static_cast<std::int32_t*>(p);
  }
  void run() {
    ASSERT_ZE(zeCommandListClose(list_));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue_, 1, &list_, fence_));
    ASSERT_ZE(zeFenceHostSynchronize(fence_, UINT64_MAX));
    ASSERT_ZE(zeFenceReset(fence_));
    ASSERT_ZE(zeCommandListReset(list_));
  }
  ze_driver_handle_t driver_ = nullptr;
  ze_device_handle_t device_ = nullptr;
  ze_context_handle_t context_ = nullptr;
  ze_command_queue_handle_t queue_ = nullptr;
  ze_fence_handle_t fence_ = nullptr;
  ze_command_list_handle_t list_ = nullptr;
  std::vector<void*> allocations_;
};

// a -> b, then b -> c: without a barrier Level Zero does not order them, and the driver runs the second first.
TEST_F(DriverRules, GivenTwoDependentCopiesWithoutABarrier_ThenTheyDoNotRunInAppendOrder) {
  constexpr std::size_t n = 1024;
  std::int32_t *a = host(n), *b = host(n), *c = host(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = 1, b[i] = 2, c[i] = 3;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, b, a, n * 4, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, c, b, n * 4, nullptr, 0, nullptr));
  run();
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(c[0], 2) << "the second copy ran after the first: a missing barrier would go unnoticed";

  for (std::size_t i = 0; i < n; ++i) a[i] = 1, b[i] = 2, c[i] = 3;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, b, a, n * 4, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, c, b, n * 4, nullptr, 0, nullptr));
  run();
  EXPECT_EQ(c[n - 1], 1) << "a barrier must order the copies";
}

TEST_F(DriverRules, GivenDeviceMemory_WhenTheHostReadsItWhileIdle_ThenTheProcessFaults) {
  if (const char* p = std::getenv("ZRT_PROTECT_DEVICE_MEMORY"); p && std::string(p) == "0")
    GTEST_SKIP() << "ZRT_PROTECT_DEVICE_MEMORY=0";
  constexpr std::size_t n = 256;
  std::int32_t* d = device_memory(n);
  std::int32_t* h = host(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::int32_t>(i);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, d, h, n * 4, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, h + 0, d + 1, 4, nullptr, 0, nullptr));
  run();
  EXPECT_EQ(h[0], 1) << "the device reads and writes its memory";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH({ std::printf("%d\n", static_cast<volatile std::int32_t*>(d)[1]); }, "");
}

TEST_F(DriverRules, GivenACallTheDriverDoesNotImplement_ThenItFailsWithUnsupportedFeature) {
  std::uint32_t count = 0;
  EXPECT_EQ(zeDeviceGetCacheProperties(device_, &count, nullptr), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

TEST_F(DriverRules, GivenAFenceBeforeTheWorkIsDone_ThenItIsNotSignalled) {
  constexpr std::size_t n = 64;
  std::int32_t *a = host(n), *b = host(n);
  ze_event_pool_desc_t pool_desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  ASSERT_ZE(zeEventPoolCreate(context_, &pool_desc, 1, &device_, &pool));
  ze_event_desc_t event_desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t gate = nullptr;
  ASSERT_ZE(zeEventCreate(pool, &event_desc, &gate));
  // The copy waits for an event only the host signals: until then neither the copy nor the fence may complete.
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list_, b, a, n * 4, nullptr, 1, &gate));
  ASSERT_ZE(zeCommandListClose(list_));
  a[0] = 7;
  b[0] = 0;
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue_, 1, &list_, fence_));
  EXPECT_EQ(zeFenceHostSynchronize(fence_, 200'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(b[0], 0);
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeFenceHostSynchronize(fence_, UINT64_MAX));
  EXPECT_EQ(b[0], 7);
  zeEventDestroy(gate);
  zeEventPoolDestroy(pool);
}

}  // namespace
