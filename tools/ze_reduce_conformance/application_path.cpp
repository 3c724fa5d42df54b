#include "application_path.hpp"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <level_zero/ze_api.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "common/type_dispatch.hpp"
#include "zereduce/level_zero.hpp"
#include "zereduce/opencl.hpp"

namespace zr::conformance {

namespace {

// Every wait of the application has a deadline: a hang is a failure of the case, not of CI.
constexpr std::chrono::seconds kDeadline{300};

property_list properties_of(const ConformanceCase& c) {
  property_list props{property::reduction::use_strategy{c.strategy}};
  if (c.properties.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.properties.deterministic) props = props.with(property::reduction::deterministic{});
  if (c.properties.reproducible) props = props.with(property::reduction::reproducible{});
  return props;
}

// The application's own calls (the tool's, not the library's) that fail.
void cl_ok(cl_int code, const char* call) {
  if (code != CL_SUCCESS) throw BackendError("opencl", call, code, "", "the application's device", "a call of the application");
}
void ze_ok(ze_result_t code, const char* call) {
  if (code != ZE_RESULT_SUCCESS)
    throw BackendError("level_zero", call, code, "", "the application's device", "a call of the application");
}

// The typed call for the case's (type, op).
template <typename F>
DeviceRun typed(const ConformanceCase& c, F&& call) {
  return tools::visit_pair(c.type, c.op, [&](auto type_tag, auto op_tag) -> DeviceRun {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    return call(std::type_identity<T>{}, Op{});
  });
}

DeviceRun run_of(const plan_summary& summary, core::DataType type, const void* result_bytes) {
  DeviceRun run;
  run.strategy = summary.strategy;
  run.combine_depth = summary.combine_depth;
  run.result = core::Scalar{type, {}};
  std::memcpy(run.result.bytes.data(), result_bytes, core::size_of(type));
  return run;
}

// An OpenCL application: its own context on the device, an in-order queue, cl_mem buffers.
class OpenClApplication final : public ApplicationPath {
 public:
  explicit OpenClApplication(cl_device_id device) : device_(device) {
    cl_int code = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &code);
    cl_ok(code, "clCreateContext");
    queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &code);
    cl_ok(code, "clCreateCommandQueueWithProperties");
    result_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, 8, nullptr, &code);
    cl_ok(code, "clCreateBuffer");
    reducer_.emplace(context_, device_);
  }
  ~OpenClApplication() override {
    reducer_.reset();
    if (input_) clReleaseMemObject(input_);
    clReleaseMemObject(result_);
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
  }

  DeviceRun reduce(const ConformanceCase& c, std::span<const std::byte> input, const core::Scalar& initial) override {
    if (input.size() > capacity_ || !input_) {
      if (input_) clReleaseMemObject(input_);
      input_ = nullptr;
      cl_int code = CL_SUCCESS;
      input_ = clCreateBuffer(context_, CL_MEM_READ_ONLY, std::max<std::size_t>(input.size(), 8), nullptr, &code);
      cl_ok(code, "clCreateBuffer");
      capacity_ = std::max<std::size_t>(input.size(), 8);
    }
    if (!input.empty())
      cl_ok(clEnqueueWriteBuffer(queue_, input_, CL_TRUE, 0, input.size(), input.data(), 0, nullptr, nullptr), "clEnqueueWriteBuffer");
    cl_ok(clEnqueueWriteBuffer(queue_, result_, CL_TRUE, 0, initial.size(), initial.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
    return typed(c, [&](auto type_tag, auto op) {
      using T = typename decltype(type_tag)::type;
      const property_list props = properties_of(c);
      cl_event done = reducer_->append_reduce<T>(queue_, input_, 0, c.n, result_, 0, op, props);
      wait(done);
      std::array<std::byte, 8> bytes{};
      cl_ok(clEnqueueReadBuffer(queue_, result_, CL_TRUE, 0, sizeof(T), bytes.data(), 0, nullptr, nullptr), "clEnqueueReadBuffer");
      return run_of(reducer_->describe<T>(c.n, op, props), static_cast<core::DataType>(c.type), bytes.data());
    });
  }

 private:
  static void wait(cl_event event) {
    const auto deadline = std::chrono::steady_clock::now() + kDeadline;
    for (;;) {
      cl_int status = CL_QUEUED;
      cl_ok(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), "clGetEventInfo");
      if (status == CL_COMPLETE) break;
      if (status < 0) {
        clReleaseEvent(event);
        throw DeviceLostError("opencl", "clGetEventInfo", status, "", "the application's device",
                              "the appended reduction's event reports an error");
      }
      if (std::chrono::steady_clock::now() > deadline) {
        clReleaseEvent(event);
        throw TimeoutError("opencl", "clGetEventInfo", "the application's device", "the appended reduction",
                           static_cast<double>(kDeadline.count()));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    clReleaseEvent(event);
  }

  cl_device_id device_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_mem input_ = nullptr;
  std::size_t capacity_ = 0;
  cl_mem result_ = nullptr;
  std::optional<opencl_interop::reducer> reducer_;
};

// A Level Zero application: its own context on the device, a command queue of the compute group, USM device
// memory for the input (copied in by the same command list) and host memory for the result.
class LevelZeroApplication final : public ApplicationPath {
 public:
  explicit LevelZeroApplication(const level_zero_interop::native_handles& handles) : driver_(handles.driver), device_(handles.device) {
    ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_ok(zeContextCreate(driver_, &context_desc, &context_), "zeContextCreate");
    std::uint32_t groups = 0;
    ze_ok(zeDeviceGetCommandQueueGroupProperties(device_, &groups, nullptr), "zeDeviceGetCommandQueueGroupProperties");
    ze_command_queue_group_properties_t blank{};
    blank.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    std::vector<ze_command_queue_group_properties_t> properties(groups, blank);
    ze_ok(zeDeviceGetCommandQueueGroupProperties(device_, &groups, properties.data()), "zeDeviceGetCommandQueueGroupProperties");
    for (std::uint32_t g = 0; g < groups; ++g)
      if (properties[g].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
        ordinal_ = g;
        break;
      }
    ze_command_queue_desc_t queue_desc{};
    queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    queue_desc.ordinal = ordinal_;
    ze_ok(zeCommandQueueCreate(context_, device_, &queue_desc, &queue_), "zeCommandQueueCreate");
    ze_fence_desc_t fence_desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
    ze_ok(zeFenceCreate(queue_, &fence_desc, &fence_), "zeFenceCreate");
    ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    ze_ok(zeMemAllocHost(context_, &host_desc, 8, 64, &result_), "zeMemAllocHost");
    reducer_.emplace(driver_, context_, device_);
  }
  ~LevelZeroApplication() override {
    reducer_.reset();
    if (input_) zeMemFree(context_, input_);
    zeMemFree(context_, result_);
    zeFenceDestroy(fence_);
    zeCommandQueueDestroy(queue_);
    zeContextDestroy(context_);
  }

  DeviceRun reduce(const ConformanceCase& c, std::span<const std::byte> input, const core::Scalar& initial) override {
    if (input.size() > capacity_ || !input_) {
      if (input_) zeMemFree(context_, input_);
      input_ = nullptr;
      ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
      capacity_ = std::max<std::size_t>(input.size(), 8);
      ze_ok(zeMemAllocDevice(context_, &device_desc, capacity_, 256, device_, &input_), "zeMemAllocDevice");
    }
    std::memcpy(result_, initial.data(), initial.size());
    ze_command_list_desc_t list_desc{};
    list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
    list_desc.commandQueueGroupOrdinal = ordinal_;
    ze_command_list_handle_t list = nullptr;
    ze_ok(zeCommandListCreate(context_, device_, &list_desc, &list), "zeCommandListCreate");
    struct ListOwner {
      ze_command_list_handle_t list;
      ~ListOwner() { zeCommandListDestroy(list); }
    } owner{list};
    // The application copies its data in; the reducer's first barrier orders the copy before the reduction.
    if (!input.empty())
      ze_ok(zeCommandListAppendMemoryCopy(list, input_, input.data(), input.size(), nullptr, 0, nullptr), "zeCommandListAppendMemoryCopy");
    return typed(c, [&](auto type_tag, auto op) {
      using T = typename decltype(type_tag)::type;
      const property_list props = properties_of(c);
      reducer_->append_reduce<T>(list, static_cast<const T*>(input_), c.n, static_cast<T*>(result_), op, props);
      ze_ok(zeCommandListClose(list), "zeCommandListClose");
      ze_ok(zeCommandQueueExecuteCommandLists(queue_, 1, &list, fence_), "zeCommandQueueExecuteCommandLists");
      const ze_result_t waited = zeFenceHostSynchronize(fence_, std::chrono::nanoseconds(kDeadline).count());
      if (waited == ZE_RESULT_NOT_READY)
        throw TimeoutError("level_zero", "zeFenceHostSynchronize", "the application's device",
                           "the application's command list", static_cast<double>(kDeadline.count()));
      if (waited == ZE_RESULT_ERROR_DEVICE_LOST)
        throw DeviceLostError("level_zero", "zeFenceHostSynchronize", waited, "ZE_RESULT_ERROR_DEVICE_LOST",
                              "the application's device", "the application's command list");
      ze_ok(waited, "zeFenceHostSynchronize");
      ze_ok(zeFenceReset(fence_), "zeFenceReset");
      return run_of(reducer_->describe<T>(c.n, op, props), static_cast<core::DataType>(c.type), result_);
    });
  }

 private:
  ze_driver_handle_t driver_;
  ze_device_handle_t device_;
  ze_context_handle_t context_ = nullptr;
  std::uint32_t ordinal_ = 0;
  ze_command_queue_handle_t queue_ = nullptr;
  ze_fence_handle_t fence_ = nullptr;
  void* input_ = nullptr;
  std::size_t capacity_ = 0;
  void* result_ = nullptr;
  std::optional<level_zero_interop::reducer> reducer_;
};

}  // namespace

std::unique_ptr<ApplicationPath> ApplicationPath::make(const device& dev) {
  if (auto id = opencl_interop::native_device_of(dev)) return std::make_unique<OpenClApplication>(*id);
  if (auto handles = level_zero_interop::native_handles_of(dev)) return std::make_unique<LevelZeroApplication>(*handles);
  throw UnsupportedError("device '" + dev.name() + "' has no interop path");
}

std::string ApplicationPath::why_not(const ConformanceCase& c) {
  if (is_arg_op(c.op)) return "an arg-reduction";
  if (is_transform_op(c.op) || is_moments_op(c.op)) return "a transform-reduction";
  if (c.op == op_kind::user) return "a user-defined operator";
  if (c.from_host_span) return "an input read from a host span";
  return {};
}

}  // namespace zr::conformance
