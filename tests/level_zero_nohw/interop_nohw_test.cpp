// zr::level_zero_interop (include/zereduce/level_zero.hpp) on Intel's real Level Zero driver WITHOUT hardware,
// per profile (tgllp, dg2, pvc), with the loader's validation layer and parameter validation on: an application's
// own context, USM memory, regular and immediate command lists and events, with ze-reduce's reductions appended
// for every strategy the profile allows, then executed and waited for. What this proves: every call the appender
// makes into an application's list is accepted by Intel's driver for that product. What it does not: results
// (the driver executes no kernels; tests/interop checks results through the test driver).
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "zereduce/functional.hpp"
#include "zereduce/level_zero.hpp"
#include "seed_examples.hpp"  // tools/kernels: the sample kernels with reducers

namespace {

#define ASSERT_ZE(call) ASSERT_EQ((call), ZE_RESULT_SUCCESS) << #call

TEST(NoHardwareInterop, GivenAnApplicationsListOnIntelsDriver_WhenEveryStrategyIsAppended_ThenTheDriverAcceptsAndCompletesIt) {
  if (std::getenv("ProductFamilyOverride") == nullptr)
    GTEST_SKIP() << "skipped: needs Intel's driver in its no-hardware mode (ctest sets ProductFamilyOverride)";
  ASSERT_ZE(zeInit(0));
  std::uint32_t count = 1;
  ze_driver_handle_t driver = nullptr;
  ASSERT_ZE(zeDriverGet(&count, &driver));
  ze_device_handle_t device = nullptr;
  count = 1;
  ASSERT_ZE(zeDeviceGet(driver, &count, &device));
  ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  ASSERT_ZE(zeContextCreate(driver, &context_desc, &context));
  ze_command_queue_desc_t queue_desc{};
  queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  ze_command_queue_handle_t queue = nullptr;
  ASSERT_ZE(zeCommandQueueCreate(context, device, &queue_desc, &queue));
  ze_fence_desc_t fence_desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t fence = nullptr;
  ASSERT_ZE(zeFenceCreate(queue, &fence_desc, &fence));
  ze_event_pool_desc_t pool_desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
  ze_event_pool_handle_t pool = nullptr;
  ASSERT_ZE(zeEventPoolCreate(context, &pool_desc, 1, &device, &pool));
  std::vector<ze_event_handle_t> events(2);
  for (std::uint32_t i = 0; i < 2; ++i) {
    ze_event_desc_t event_desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ASSERT_ZE(zeEventCreate(pool, &event_desc, &events[i]));
  }
  const std::uint64_t n = 1 << 20;
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  void* input = nullptr;
  void* result = nullptr;
  ASSERT_ZE(zeMemAllocDevice(context, &device_desc, n * 8, 64, device, &input));
  ASSERT_ZE(zeMemAllocDevice(context, &device_desc, 64, 64, device, &result));

  {
    zr::level_zero_interop::reducer reducer(driver, context, device);
    ze_command_list_desc_t list_desc{};
    list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
    ze_command_list_handle_t list = nullptr;
    ASSERT_ZE(zeCommandListCreate(context, device, &list_desc, &list));
    std::size_t appended = 0;
    auto append_all = [&](auto type_tag, zr::element_type type, auto op, zr::op_kind kind) {
      using T = typename decltype(type_tag)::type;
      for (zr::strategy strategy : reducer.device().strategies(type, kind)) {
        SCOPED_TRACE(std::string(zr::to_string(strategy)));
        const zr::property_list props{zr::property::reduction::use_strategy{strategy}};
        EXPECT_NO_THROW(reducer.append_reduce(list, static_cast<const T*>(input), n, static_cast<T*>(result), op, props));
        ++appended;
      }
    };
    append_all(std::type_identity<float>{}, zr::element_type::f32, zr::plus<>(), zr::op_kind::plus);
    append_all(std::type_identity<std::int32_t>{}, zr::element_type::i32, zr::maximum<>(), zr::op_kind::maximum);
    append_all(std::type_identity<std::uint64_t>{}, zr::element_type::u64, zr::bit_xor<>(), zr::op_kind::bit_xor);
    // The application's scratch, and its events.
    const std::uint64_t bytes = reducer.scratch_bytes<float>(n, zr::plus<>());
    void* scratch = nullptr;
    ASSERT_ZE(zeMemAllocDevice(context, &device_desc, bytes ? bytes : 1, 64, device, &scratch));
    EXPECT_NO_THROW(reducer.append_reduce(list, static_cast<const float*>(input), n, static_cast<float*>(result), zr::plus<>(),
                                          std::span<std::byte>(static_cast<std::byte*>(scratch), bytes), {}, events[0]));
    // Kernels with reducers: a span filled with its identity first, and two reducers of one kernel.
    auto* counts = static_cast<std::uint32_t*>(result) + 8;
    EXPECT_NO_THROW(reducer.append_parallel_for(list, zr::range{n}, zr::kernel(zr_kernels::seed_examples, "histogram"),
                                                static_cast<const std::uint32_t*>(input), std::uint32_t{7},
                                                zr::reduction(std::span<std::uint32_t>(counts, 7), zr::plus<>(),
                                                              {zr::property::reduction::initialize_to_identity{}})));
    EXPECT_NO_THROW(reducer.append_parallel_for(list, zr::range{n}, zr::kernel(zr_kernels::seed_examples, "sum_and_max"),
                                                static_cast<const float*>(input),
                                                zr::reduction(static_cast<float*>(result), zr::plus<>()),
                                                zr::reduction(static_cast<float*>(result) + 1, zr::maximum<>())));
    ASSERT_ZE(zeCommandListClose(list));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    ASSERT_ZE(zeFenceHostSynchronize(fence, 120'000'000'000));
    EXPECT_GE(appended, 6u);

    // An immediate list.
    ze_command_list_handle_t immediate = nullptr;
    ASSERT_ZE(zeCommandListCreateImmediate(context, device, &queue_desc, &immediate));
    EXPECT_NO_THROW(reducer.append_reduce(immediate, static_cast<const float*>(input), n, static_cast<float*>(result),
                                          zr::maximum<>(), {}, events[1]));
    ASSERT_ZE(zeEventHostSynchronize(events[1], 120'000'000'000));
    ASSERT_ZE(zeCommandListDestroy(immediate));
    ASSERT_ZE(zeCommandListDestroy(list));
    ASSERT_ZE(zeMemFree(context, scratch));
  }
  for (auto e : events) ASSERT_ZE(zeEventDestroy(e));
  ASSERT_ZE(zeEventPoolDestroy(pool));
  ASSERT_ZE(zeMemFree(context, result));
  ASSERT_ZE(zeMemFree(context, input));
  ASSERT_ZE(zeFenceDestroy(fence));
  ASSERT_ZE(zeCommandQueueDestroy(queue));
  ASSERT_ZE(zeContextDestroy(context));
}

}  // namespace
