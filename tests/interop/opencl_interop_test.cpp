// An application's own OpenCL objects (issue 41): its context, its queues (in-order and out-of-order), its
// buffers and its kernels, built from its own OpenCL C source. ze-reduce's reduction is appended between the
// application's kernels: the one before writes the data, the one after reads the result, and nothing waits on
// the host in between. Every result is compared with a host fold of the same data. Runs on every OpenCL device
// that executes kernels (PoCL in CI; Intel's CPU runtime and NVIDIA's GPU where present); Intel's no-hardware
// GPU platform is left out (its kernels do not run).
#define CL_TARGET_OPENCL_VERSION 200  // clSVMAlloc, for shared virtual memory
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue: the call most applications make
#include <gtest/gtest.h>

#include "support/expect_error.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "zereduce/errors.hpp"
#include "zereduce/functional.hpp"
#include "zereduce/opencl.hpp"
#include "seed_examples.hpp"  // tools/kernels: the sample kernels with reducers

#include <CL/cl_ext.h>  // cl_intel_unified_shared_memory

namespace {

void ok(cl_int code, const char* call) { ASSERT_EQ(code, CL_SUCCESS) << call; }

const char* kAppSource = R"CL(
kernel void fill(global int* x, uint n, int seed) {
  uint i = get_global_id(0);
  if (i < n) x[i] = (int)((i * 2654435761u + (uint)seed) >> 9) % 2001 - 1000;
}
kernel void fill_float(global float* x, uint n) {
  uint i = get_global_id(0);
  if (i < n) x[i] = (float)((int)(i % 13u) - 6) * 0.25f;
}
kernel void twice(global int* r, uint at) { r[at] = 2 * r[at]; }
)CL";

std::vector<int> host_fill(std::size_t n, int seed) {
  std::vector<int> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = static_cast<int>(((static_cast<std::uint32_t>(i) * 2654435761u + static_cast<std::uint32_t>(seed)) >> 9) % 2001) - 1000;
  return x;
}

std::string device_name(cl_device_id device) {
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  return name;
}

// The devices an application could use here: every device of every platform but Intel's no-hardware GPU one.
std::vector<cl_device_id> application_devices() {
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(0, nullptr, &platform_count) != CL_SUCCESS || platform_count == 0) return {};
  std::vector<cl_platform_id> platforms(platform_count);
  clGetPlatformIDs(platform_count, platforms.data(), nullptr);
  std::vector<cl_device_id> devices;
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find("HD Graphics") != std::string::npos) continue;
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) continue;
    std::vector<cl_device_id> ids(count);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
    devices.insert(devices.end(), ids.begin(), ids.end());
  }
  return devices;
}

// What an application holds: a context, an in-order queue, an out-of-order one where the device has them, and
// its program.
struct Application {
  explicit Application(cl_device_id id) : device(id) {
    cl_int code = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &code);
    ok(code, "clCreateContext");
    queue = clCreateCommandQueue(context, device, 0, &code);
    ok(code, "clCreateCommandQueue");
    cl_command_queue_properties supported = 0;
    clGetDeviceInfo(device, CL_DEVICE_QUEUE_PROPERTIES, sizeof supported, &supported, nullptr);
    if (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
      out_of_order = clCreateCommandQueue(context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &code);
    program = clCreateProgramWithSource(context, 1, &kAppSource, nullptr, &code);
    ok(code, "clCreateProgramWithSource");
    ok(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    fill = clCreateKernel(program, "fill", &code);
    fill_float = clCreateKernel(program, "fill_float", &code);
    twice = clCreateKernel(program, "twice", &code);
    ok(code, "clCreateKernel");
  }
  ~Application() {
    for (cl_kernel k : {fill, fill_float, twice}) clReleaseKernel(k);
    clReleaseProgram(program);
    if (out_of_order) clReleaseCommandQueue(out_of_order);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  cl_mem buffer(std::size_t bytes) {
    cl_int code = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &code);
    EXPECT_EQ(code, CL_SUCCESS);
    return mem;
  }
  // Enqueues fill(x, n, seed) on `on`; returns its event.
  cl_event enqueue_fill(cl_command_queue on, cl_mem x, cl_uint n, cl_int seed) {
    clSetKernelArg(fill, 0, sizeof x, &x);
    clSetKernelArg(fill, 1, sizeof n, &n);
    clSetKernelArg(fill, 2, sizeof seed, &seed);
    const std::size_t global = (n + 63) / 64 * 64;
    cl_event done = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(on, fill, 1, nullptr, &global, nullptr, 0, nullptr, &done), CL_SUCCESS);
    return done;
  }
  cl_event enqueue_twice(cl_command_queue on, cl_mem r, cl_uint at, std::span<const cl_event> after = {}) {
    clSetKernelArg(twice, 0, sizeof r, &r);
    clSetKernelArg(twice, 1, sizeof at, &at);
    const std::size_t one = 1;
    cl_event done = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(on, twice, 1, nullptr, &one, &one, static_cast<cl_uint>(after.size()),
                                     after.empty() ? nullptr : after.data(), &done),
              CL_SUCCESS);
    return done;
  }
  template <typename T>
  void write(cl_mem mem, std::size_t offset, T value) {
    EXPECT_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, offset, sizeof value, &value, 0, nullptr, nullptr), CL_SUCCESS);
  }
  template <typename T>
  T read(cl_mem mem, std::size_t offset) {
    T value{};
    EXPECT_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, offset, sizeof value, &value, 0, nullptr, nullptr), CL_SUCCESS);
    return value;
  }

  cl_device_id device;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_command_queue out_of_order = nullptr;
  cl_program program = nullptr;
  cl_kernel fill = nullptr, fill_float = nullptr, twice = nullptr;
};

cl_uint reference_count(cl_context context) {
  cl_uint count = 0;
  clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, nullptr);
  return count;
}

std::uint64_t base_alignment(cl_device_id device) {
  cl_uint bits = 0;
  clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr);
  return std::max<std::uint64_t>(bits / 8, 1);
}

using zr_test::expect_error;

class OpenClInterop : public ::testing::TestWithParam<cl_device_id> {};

TEST_P(OpenClInterop, GivenTheApplicationsKernelsAroundIt_WhenAppendedInOrder_ThenTheNextKernelSeesTheReduction) {
  Application app(GetParam());
  const cl_uint n = (1u << 20) + 3;
  cl_mem data = app.buffer(n * sizeof(int));
  cl_mem results = app.buffer(4 * sizeof(int));
  zr::opencl_interop::reducer reducer(app.context, app.device);
  clReleaseEvent(app.enqueue_fill(app.queue, data, n, 7));
  // sum into results[0] (initialized to the identity), max into results[1], sum folded into 100 at results[2]
  app.write(results, 2 * sizeof(int), 100);
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};
  clReleaseEvent(reducer.append_reduce<int>(app.queue, data, 0, n, results, 0, zr::plus<>(), fresh));
  clReleaseEvent(reducer.append_reduce<int>(app.queue, data, 0, n, results, sizeof(int), zr::maximum<>(), fresh));
  clReleaseEvent(reducer.append_reduce<int>(app.queue, data, 0, n, results, 2 * sizeof(int), zr::plus<>()));
  clReleaseEvent(app.enqueue_twice(app.queue, results, 0));  // the application's kernel after ours
  const std::vector<int> host = host_fill(n, 7);
  const long long sum = std::accumulate(host.begin(), host.end(), 0LL);
  EXPECT_EQ(app.read<int>(results, 0), static_cast<int>(2 * sum)) << device_name(app.device);
  EXPECT_EQ(app.read<int>(results, sizeof(int)), *std::max_element(host.begin(), host.end()));
  EXPECT_EQ(app.read<int>(results, 2 * sizeof(int)), static_cast<int>(100 + sum));
  clReleaseMemObject(data);
  clReleaseMemObject(results);
}

TEST_P(OpenClInterop, GivenAnOutOfOrderQueue_WhenAppendedWithWaitLists_ThenTheEventsOrderIt) {
  Application app(GetParam());
  if (!app.out_of_order) GTEST_SKIP() << device_name(app.device) << " has no out-of-order queues";
  const cl_uint n = 100003;
  cl_mem data = app.buffer(n * sizeof(int));
  cl_mem result = app.buffer(sizeof(int));
  zr::opencl_interop::reducer reducer(app.context, app.device);
  const cl_event filled = app.enqueue_fill(app.out_of_order, data, n, 3);
  const cl_event reduced = reducer.append_reduce<int>(app.out_of_order, data, 0, n, result, 0, zr::plus<>(),
                                                      {zr::property::reduction::initialize_to_identity{}},
                                                      std::span<const cl_event>(&filled, 1));
  const cl_event doubled = app.enqueue_twice(app.out_of_order, result, 0, std::span<const cl_event>(&reduced, 1));
  ASSERT_EQ(clWaitForEvents(1, &doubled), CL_SUCCESS);
  const std::vector<int> host = host_fill(n, 3);
  EXPECT_EQ(app.read<int>(result, 0), static_cast<int>(2 * std::accumulate(host.begin(), host.end(), 0LL)));
  for (cl_event e : {filled, reduced, doubled}) clReleaseEvent(e);
  clReleaseMemObject(data);
  clReleaseMemObject(result);
}

TEST_P(OpenClInterop, GivenTwoQueues_WhenOneReducerAppendsToBoth_ThenItsReductionsRunOneAfterTheOther) {
  Application app(GetParam());
  cl_int code = CL_SUCCESS;
  cl_command_queue second = clCreateCommandQueue(app.context, app.device, 0, &code);
  ASSERT_EQ(code, CL_SUCCESS);
  const cl_uint n = 200003;
  cl_mem data = app.buffer(n * sizeof(int));
  cl_mem results = app.buffer(8 * sizeof(int));
  clReleaseEvent(app.enqueue_fill(app.queue, data, n, 5));
  ASSERT_EQ(clFinish(app.queue), CL_SUCCESS);
  zr::opencl_interop::reducer reducer(app.context, app.device);
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};
  // Results at element offsets no sub-buffer starts at: both are staged through the reducer's one staging
  // buffer, so the second queue's reduction must wait for the first queue's copy back.
  for (int round = 0; round < 4; ++round) {
    const std::size_t at = (1 + round) * sizeof(int);
    clReleaseEvent(round % 2 ? reducer.append_reduce<int>(second, data, 0, n, results, at, zr::maximum<>(), fresh)
                             : reducer.append_reduce<int>(app.queue, data, 0, n, results, at, zr::plus<>(), fresh));
  }
  ASSERT_EQ(clFinish(second), CL_SUCCESS);  // the last append waits for all before it, on both queues
  const std::vector<int> host = host_fill(n, 5);
  const int sum = static_cast<int>(std::accumulate(host.begin(), host.end(), 0LL));
  const int max = *std::max_element(host.begin(), host.end());
  for (int round = 0; round < 4; ++round)
    EXPECT_EQ(app.read<int>(results, (1 + round) * sizeof(int)), round % 2 ? max : sum) << "round " << round;
  clReleaseMemObject(data);
  clReleaseMemObject(results);
  clReleaseCommandQueue(second);
}

TEST_P(OpenClInterop, GivenOffsetsAndSubBuffers_WhenAppended_ThenTheRangesAreReadAndWrittenInPlace) {
  Application app(GetParam());
  const std::uint64_t align = base_alignment(app.device);
  const cl_uint n = 50000;
  const std::uint64_t skip = align / sizeof(int);  // elements before the range
  cl_mem data = app.buffer((n + 2 * skip) * sizeof(int));
  cl_mem results = app.buffer(2 * align);
  clReleaseEvent(app.enqueue_fill(app.queue, data, static_cast<cl_uint>(n + 2 * skip), 11));
  zr::opencl_interop::reducer reducer(app.context, app.device);
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};
  clReleaseEvent(reducer.append_reduce<int>(app.queue, data, align, n, results, align, zr::minimum<>(), fresh));
  // The same range through the application's own sub-buffer, at an offset into it.
  const cl_buffer_region region{static_cast<std::size_t>(align), static_cast<std::size_t>((n + skip) * sizeof(int))};
  cl_int code = CL_SUCCESS;
  cl_mem sub = clCreateSubBuffer(data, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &code);
  ASSERT_EQ(code, CL_SUCCESS);
  clReleaseEvent(reducer.append_reduce<int>(app.queue, sub, 0, n, results, 0, zr::bit_xor<>(), fresh));
  const std::vector<int> host = host_fill(n + 2 * skip, 11);
  const auto first = host.begin() + static_cast<std::ptrdiff_t>(skip);
  EXPECT_EQ(app.read<int>(results, align), *std::min_element(first, first + n));
  EXPECT_EQ(app.read<int>(results, 0), std::accumulate(first, first + n, 0, std::bit_xor<>()));
  clReleaseMemObject(sub);
  clReleaseMemObject(data);
  clReleaseMemObject(results);
}

TEST_P(OpenClInterop, GivenFloatsDeterministicAndEmptyInputs_WhenAppended_ThenSemanticsAreTheQueues) {
  Application app(GetParam());
  const cl_uint n = 1u << 18;
  cl_mem data = app.buffer(n * sizeof(float));
  cl_mem results = app.buffer(4 * sizeof(float));
  cl_kernel fill = app.fill_float;
  clSetKernelArg(fill, 0, sizeof data, &data);
  clSetKernelArg(fill, 1, sizeof n, &n);
  const std::size_t global = n;
  ASSERT_EQ(clEnqueueNDRangeKernel(app.queue, fill, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  zr::opencl_interop::reducer reducer(app.context, app.device);
  const zr::property_list deterministic{zr::property::reduction::initialize_to_identity{},
                                        zr::property::reduction::deterministic{}};
  clReleaseEvent(reducer.append_reduce<float>(app.queue, data, 0, n, results, 0, zr::plus<>(), deterministic));
  clReleaseEvent(reducer.append_reduce<float>(app.queue, data, 0, n, results, sizeof(float), zr::plus<>(), deterministic));
  // n = 0: the value at the result stays (SYCL's rule), or becomes the identity with initialize_to_identity.
  app.write(results, 2 * sizeof(float), 5.5f);
  app.write(results, 3 * sizeof(float), 5.5f);
  clReleaseEvent(reducer.append_reduce<float>(app.queue, data, 0, 0, results, 2 * sizeof(float), zr::plus<>()));
  clReleaseEvent(reducer.append_reduce<float>(app.queue, data, 0, 0, results, 3 * sizeof(float), zr::minimum<>(),
                                              {zr::property::reduction::initialize_to_identity{}}));
  cl_mem binned = app.buffer(sizeof(float));
  clReleaseEvent(reducer.append_reduce<float>(app.queue, data, 0, n, binned, 0, zr::plus<>(),
                                              {zr::property::reduction::initialize_to_identity{},
                                               zr::property::reduction::reproducible{}}));
  double exact = 0;  // every value is a multiple of 1/4 below 2^6: the float sum of 2^18 of them is exact
  for (cl_uint i = 0; i < n; ++i) exact += static_cast<double>(static_cast<int>(i % 13u) - 6) * 0.25;
  const float first = app.read<float>(results, 0);
  EXPECT_EQ(first, static_cast<float>(exact));
  const float second = app.read<float>(results, sizeof(float));
  EXPECT_EQ(std::memcmp(&first, &second, sizeof first), 0) << "deterministic: the same bits";
  EXPECT_EQ(app.read<float>(binned, 0), static_cast<float>(exact)) << "reproducible: the binned sum, rounded once";
  clReleaseMemObject(binned);
  EXPECT_EQ(app.read<float>(results, 2 * sizeof(float)), 5.5f);
  EXPECT_EQ(app.read<float>(results, 3 * sizeof(float)), std::numeric_limits<float>::infinity());
  clReleaseMemObject(data);
  clReleaseMemObject(results);
}

TEST_P(OpenClInterop, GivenTheReducerGone_ThenTheApplicationsContextHasItsOwnReferencesBack) {
  Application app(GetParam());
  const cl_uint before = reference_count(app.context);
  {
    zr::opencl_interop::reducer reducer(app.context, app.device);
    EXPECT_GT(reference_count(app.context), before);
    EXPECT_EQ(reducer.context(), app.context);
    EXPECT_EQ(reducer.device(), app.device);
    cl_mem data = app.buffer(1000 * sizeof(int));
    cl_mem result = app.buffer(sizeof(int));
    clReleaseEvent(app.enqueue_fill(app.queue, data, 1000, 1));
    clReleaseEvent(reducer.append_reduce<int>(app.queue, data, 0, 1000, result, 0, zr::plus<>()));
    clReleaseMemObject(data);  // released while the reduction may still run: OpenCL keeps it until then
    clReleaseMemObject(result);
  }  // the destructor waits for the last reduction
  EXPECT_EQ(reference_count(app.context), before);
}

TEST_P(OpenClInterop, GivenAnotherContextsObjectsOrBadRanges_WhenAppended_ThenTheErrorNamesThem) {
  Application app(GetParam());
  Application other(GetParam());
  zr::opencl_interop::reducer reducer(app.context, app.device);
  cl_mem data = app.buffer(1024 * sizeof(int));
  cl_mem result = app.buffer(sizeof(int));
  cl_mem foreign = other.buffer(1024 * sizeof(int));
  using zr::InvalidArgumentError;
  expect_error<InvalidArgumentError>(
      [&] { reducer.append_reduce<int>(app.queue, foreign, 0, 1024, result, 0, zr::plus<>()); },
      "input buffer belongs to another cl_context");
  expect_error<InvalidArgumentError>(
      [&] { reducer.append_reduce<int>(app.queue, data, 0, 1024, foreign, 0, zr::plus<>()); },
      "result buffer belongs to another cl_context");
  expect_error<InvalidArgumentError>(
      [&] { reducer.append_reduce<int>(other.queue, data, 0, 1024, result, 0, zr::plus<>()); },
      "queue belongs to another cl_context");
  expect_error<InvalidArgumentError>(
      [&] { reducer.append_reduce<int>(app.queue, data, 4, 1024, result, 0, zr::plus<>()); },
      "runs past the end of its buffer of 4096 bytes");
  expect_error<InvalidArgumentError>(
      [&] { reducer.append_reduce<int>(app.queue, data, 2, 10, result, 0, zr::plus<>()); },
      "offset is not a multiple of the 4-byte i32 elements");
  if (base_alignment(app.device) > sizeof(int))
    expect_error<InvalidArgumentError>(
        [&] { reducer.append_reduce<int>(app.queue, data, sizeof(int), 10, result, 0, zr::plus<>()); },
        "base address alignment");
  expect_error<InvalidArgumentError>([&] { zr::opencl_interop::reducer(nullptr, app.device); }, "context is null");
  for (cl_mem mem : {data, result, foreign}) clReleaseMemObject(mem);
}

// "<index>_<platform>_<device>": ctest picks a platform's devices with --gtest_filter (interop.opencl_intel_cpu).
std::string test_name(const ::testing::TestParamInfo<cl_device_id>& info) {
  cl_platform_id platform = nullptr;
  clGetDeviceInfo(info.param, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
  char platform_name[256] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, nullptr);
  std::string name = std::to_string(info.index) + "_" + platform_name + "_" + device_name(info.param);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

TEST_P(OpenClInterop, GivenSharedVirtualMemory_WhenAppended_ThenItIsReadAndWrittenInPlace) {
  Application app(GetParam());
  cl_device_svm_capabilities svm = 0;
  clGetDeviceInfo(app.device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr);
  zr::opencl_interop::reducer reducer(app.context, app.device);
  int host_result = 0;
  if (svm == 0) {
    std::vector<int> host(16);
    expect_error<zr::UnsupportedError>(
        [&] { reducer.append_reduce<int>(app.queue, host.data(), host.size(), &host_result, zr::plus<>()); },
        "has neither shared virtual memory");
    GTEST_SKIP() << device_name(app.device) << " has no shared virtual memory: refused by name";
  }
  // Kernels of CPU devices address any host memory: there the reduction may start inside an allocation; GPU
  // drivers may recognise an allocation's start only (the reducer refuses what the driver does not recognise).
  cl_device_type type = 0;
  clGetDeviceInfo(app.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  const cl_uint skip = (type & CL_DEVICE_TYPE_CPU) ? 3 : 0;
  const cl_uint n = 200003;
  auto* data = static_cast<int*>(clSVMAlloc(app.context, CL_MEM_READ_WRITE, (n + 8) * sizeof(int), 0));
  auto* results = static_cast<int*>(clSVMAlloc(app.context, CL_MEM_READ_WRITE, 4 * sizeof(int), 0));
  ASSERT_TRUE(data && results);
  // The application's kernel writes the data through the SVM pointer.
  const cl_int seed = 9;
  ASSERT_EQ(clSetKernelArgSVMPointer(app.fill, 0, data), CL_SUCCESS);
  clSetKernelArg(app.fill, 1, sizeof n, &n);
  clSetKernelArg(app.fill, 2, sizeof seed, &seed);
  const std::size_t global = (n + 63) / 64 * 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(app.queue, app.fill, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  auto* maximum = static_cast<int*>(clSVMAlloc(app.context, CL_MEM_READ_WRITE, sizeof(int), 0));
  const int start = 1000;  // the maximum's value before the reduction, which includes it
  ASSERT_EQ(clEnqueueSVMMemFill(app.queue, maximum, &start, sizeof(int), sizeof(int), 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseEvent(reducer.append_reduce<int>(app.queue, data + skip, n - skip, &results[0], zr::plus<>(),
                                            {zr::property::reduction::initialize_to_identity{}}));
  clReleaseEvent(reducer.append_reduce<int>(app.queue, data + skip, n - skip, maximum, zr::maximum<>()));
  ASSERT_EQ(clEnqueueSVMMap(app.queue, CL_TRUE, CL_MAP_READ, results, 4 * sizeof(int), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMap(app.queue, CL_TRUE, CL_MAP_READ, maximum, sizeof(int), 0, nullptr, nullptr), CL_SUCCESS);
  const std::vector<int> host = host_fill(n, seed);
  EXPECT_EQ(results[0], static_cast<int>(std::accumulate(host.begin() + skip, host.end(), 0LL))) << device_name(app.device);
  EXPECT_EQ(*maximum, std::max(start, *std::max_element(host.begin() + skip, host.end())));
  ASSERT_EQ(clEnqueueSVMUnmap(app.queue, results, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMUnmap(app.queue, maximum, 0, nullptr, nullptr), CL_SUCCESS);
  // Ordinary host memory is not the context's SVM: a GPU's reducer refuses it by name, never copies it.
  if (!(type & CL_DEVICE_TYPE_CPU)) {
    std::vector<int> plain(1024, 1);
    expect_error<zr::InvalidArgumentError>(
        [&] { reducer.append_reduce<int>(app.queue, plain.data(), plain.size(), maximum, zr::plus<>()); },
        "input is not shared virtual memory of the reducer's context");
  }
  expect_error<zr::InvalidArgumentError>(
      [&] { reducer.append_reduce<int>(app.queue, reinterpret_cast<const int*>(reinterpret_cast<const char*>(data) + 1), 8, maximum, zr::plus<>()); },
      "not aligned");
  clFinish(app.queue);
  clSVMFree(app.context, maximum);
  clSVMFree(app.context, data);
  clSVMFree(app.context, results);
}

// An application's kernels with reducers (zereduce/kernel.hpp) appended between its own kernels, reading and
// writing its shared virtual memory in place: a histogram (a span reducer, initialize_to_identity) and a sum and a
// maximum of one kernel (the sum folding the value already there), then the application's kernel that doubles a
// count; on an out-of-order queue, ordered by the wait list and the returned event alone.
TEST_P(OpenClInterop, GivenAKernelWithReducers_WhenAppendedBetweenTheApplicationsKernels_ThenItsVariablesHoldTheReductions) {
  Application app(GetParam());
  cl_device_svm_capabilities svm = 0;
  clGetDeviceInfo(app.device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr);
  zr::opencl_interop::reducer reducer(app.context, app.device);
  const zr::kernel histogram(zr_kernels::seed_examples, "histogram");
  const zr::kernel sum_and_max(zr_kernels::seed_examples, "sum_and_max");
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};
  const cl_uint n = 100003, bins = 7;
  if (svm == 0) {
    std::vector<unsigned> counts(bins);
    expect_error<zr::UnsupportedError>(
        [&] {
          clReleaseEvent(reducer.append_parallel_for(app.queue, zr::range{n}, histogram, static_cast<const unsigned*>(nullptr),
                                                     bins, zr::reduction(std::span<unsigned>(counts), zr::plus<>())));
        },
        "has neither shared virtual memory");
    GTEST_SKIP() << device_name(app.device) << " has no shared virtual memory: refused by name";
  }
  auto svm_alloc = [&](std::size_t bytes) { return clSVMAlloc(app.context, CL_MEM_READ_WRITE, bytes, 0); };
  auto* values = static_cast<int*>(svm_alloc(n * sizeof(int)));
  auto* counts = static_cast<unsigned*>(svm_alloc(bins * sizeof(unsigned)));
  auto* x = static_cast<float*>(svm_alloc(n * sizeof(float)));
  auto* sums = static_cast<float*>(svm_alloc(4 * sizeof(float)));  // sum, peak; again on the out-of-order queue
  ASSERT_TRUE(values && counts && x && sums);

  const cl_int seed = 5;
  const std::size_t global = (n + 63) / 64 * 64;
  ASSERT_EQ(clSetKernelArgSVMPointer(app.fill, 0, values), CL_SUCCESS);
  clSetKernelArg(app.fill, 1, sizeof n, &n);
  clSetKernelArg(app.fill, 2, sizeof seed, &seed);
  ASSERT_EQ(clEnqueueNDRangeKernel(app.queue, app.fill, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(app.fill_float, 0, x), CL_SUCCESS);
  clSetKernelArg(app.fill_float, 1, sizeof n, &n);
  ASSERT_EQ(clEnqueueNDRangeKernel(app.queue, app.fill_float, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  const unsigned junk = 99;  // initialize_to_identity replaces it
  const float before[] = {2.5f, 1e30f, 0.0f, 0.0f};  // the sum folds 2.5 in; the maximum's 1e30 is replaced
  ASSERT_EQ(clEnqueueSVMMemFill(app.queue, counts, &junk, sizeof junk, bins * sizeof(unsigned), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(app.queue, CL_FALSE, sums, before, sizeof before, 0, nullptr, nullptr), CL_SUCCESS);

  clReleaseEvent(reducer.append_parallel_for(app.queue, zr::range{n}, histogram, static_cast<const int*>(values), bins,
                                             zr::reduction(std::span<unsigned>(counts, bins), zr::plus<>(), fresh)));
  clReleaseEvent(reducer.append_parallel_for(app.queue, zr::range{n}, sum_and_max, static_cast<const float*>(x),
                                             zr::reduction(&sums[0], zr::plus<>()),
                                             zr::reduction(&sums[1], zr::maximum<>(), fresh)));
  const cl_uint first = 0;
  ASSERT_EQ(clSetKernelArgSVMPointer(app.twice, 0, counts), CL_SUCCESS);
  clSetKernelArg(app.twice, 1, sizeof first, &first);
  const std::size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(app.queue, app.twice, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);

  if (app.out_of_order) {
    cl_event filled = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(app.out_of_order, app.fill_float, 1, nullptr, &global, nullptr, 0, nullptr, &filled),
              CL_SUCCESS);
    cl_event reduced = reducer.append_parallel_for(app.out_of_order, std::span<const cl_event>(&filled, 1), zr::range{n},
                                                   sum_and_max, static_cast<const float*>(x),
                                                   zr::reduction(&sums[2], zr::plus<>(), fresh),
                                                   zr::reduction(&sums[3], zr::maximum<>(), fresh));
    ASSERT_EQ(clWaitForEvents(1, &reduced), CL_SUCCESS);
    clReleaseEvent(reduced);
    clReleaseEvent(filled);
  }
  ASSERT_EQ(clFinish(app.queue), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMap(app.queue, CL_TRUE, CL_MAP_READ, counts, bins * sizeof(unsigned), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMap(app.queue, CL_TRUE, CL_MAP_READ, sums, 4 * sizeof(float), 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<unsigned> want(bins);
  for (int v : host_fill(n, seed)) ++want[static_cast<unsigned>(v) % bins];
  want[0] *= 2;
  EXPECT_EQ(std::vector<unsigned>(counts, counts + bins), want) << device_name(app.device);
  // Multiples of 0.25 that cancel every 13 elements: every order of float additions gives the exact sum.
  double sum = 0;
  float peak = -1e30f;
  for (cl_uint i = 0; i < n; ++i) {
    const float v = static_cast<float>(static_cast<int>(i % 13) - 6) * 0.25f;
    sum += v;
    peak = std::max(peak, v);
  }
  EXPECT_EQ(sums[0], static_cast<float>(2.5 + sum));
  EXPECT_EQ(sums[1], peak);
  if (app.out_of_order) {
    EXPECT_EQ(sums[2], static_cast<float>(sum));
    EXPECT_EQ(sums[3], peak);
  }
  ASSERT_EQ(clEnqueueSVMUnmap(app.queue, counts, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMUnmap(app.queue, sums, 0, nullptr, nullptr), CL_SUCCESS);

  // A wrong call is refused before anything is enqueued, with the problem named.
  expect_error<zr::InvalidArgumentError>(
      [&] {
        clReleaseEvent(reducer.append_parallel_for(app.queue, zr::range{n}, sum_and_max, static_cast<const float*>(x),
                                                   zr::reduction(&sums[0], zr::minimum<>()),
                                                   zr::reduction(&sums[1], zr::maximum<>())));
      },
      "does not match reducer 0");
  expect_error<zr::InvalidArgumentError>(
      [&] {
        clReleaseEvent(reducer.append_parallel_for(app.queue, zr::range{n}, sum_and_max, zr::reduction(&sums[0], zr::plus<>()),
                                                   zr::reduction(&sums[1], zr::maximum<>())));
      },
      "takes 1 argument(s) of its own, 0 given");
  expect_error<zr::InvalidArgumentError>(
      [&] {
        clReleaseEvent(reducer.append_parallel_for(app.queue, zr::range{n}, sum_and_max, static_cast<const float*>(x),
                                                   zr::reduction(static_cast<float*>(nullptr), zr::plus<>()),
                                                   zr::reduction(&sums[1], zr::maximum<>())));
      },
      "variable of reduction 0 is a null pointer");
  ASSERT_EQ(clFinish(app.queue), CL_SUCCESS);
  for (void* p : {static_cast<void*>(values), static_cast<void*>(counts), static_cast<void*>(x), static_cast<void*>(sums)})
    clSVMFree(app.context, p);
}

// The extension's entry points as an application gets them (the ICD loader does not export them).
struct IntelUsmCalls {
  explicit IntelUsmCalls(cl_device_id device) {
    std::size_t bytes = 0;
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &bytes);
    std::string extensions(bytes, '\0');
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, bytes, extensions.data(), nullptr);
    if (extensions.find("cl_intel_unified_shared_memory") == std::string::npos) return;
    cl_platform_id platform = nullptr;
    clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
    auto get = [&](const char* name) { return clGetExtensionFunctionAddressForPlatform(platform, name); };
    device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(get("clDeviceMemAllocINTEL"));
    shared_alloc = reinterpret_cast<clSharedMemAllocINTEL_fn>(get("clSharedMemAllocINTEL"));
    host_alloc = reinterpret_cast<clHostMemAllocINTEL_fn>(get("clHostMemAllocINTEL"));
    free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(get("clMemBlockingFreeINTEL"));
    set_arg = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(get("clSetKernelArgMemPointerINTEL"));
    memcpy = reinterpret_cast<clEnqueueMemcpyINTEL_fn>(get("clEnqueueMemcpyINTEL"));
  }
  bool present() const { return device_alloc && shared_alloc && host_alloc && free && set_arg && memcpy; }
  clDeviceMemAllocINTEL_fn device_alloc = nullptr;
  clSharedMemAllocINTEL_fn shared_alloc = nullptr;
  clHostMemAllocINTEL_fn host_alloc = nullptr;
  clMemBlockingFreeINTEL_fn free = nullptr;
  clSetKernelArgMemPointerINTEL_fn set_arg = nullptr;
  clEnqueueMemcpyINTEL_fn memcpy = nullptr;
};

TEST_P(OpenClInterop, GivenUnifiedSharedMemory_WhenAppended_ThenEveryKindIsReadAndWrittenInPlace) {
  Application app(GetParam());
  const IntelUsmCalls usm(app.device);
  if (!usm.present()) GTEST_SKIP() << device_name(app.device) << " has no cl_intel_unified_shared_memory";
  zr::opencl_interop::reducer reducer(app.context, app.device);
  const cl_uint n = 300007;
  const cl_int seed = 17;
  const std::vector<int> host = host_fill(n, seed);
  using Allocate = void* (*)(const IntelUsmCalls&, cl_context, cl_device_id, std::size_t);
  const std::pair<const char*, Allocate> kinds[] = {
      {"device", [](const IntelUsmCalls& u, cl_context c, cl_device_id d, std::size_t b) { return u.device_alloc(c, d, nullptr, b, 0, nullptr); }},
      {"shared", [](const IntelUsmCalls& u, cl_context c, cl_device_id d, std::size_t b) { return u.shared_alloc(c, d, nullptr, b, 0, nullptr); }},
      {"host", [](const IntelUsmCalls& u, cl_context c, cl_device_id, std::size_t b) { return u.host_alloc(c, nullptr, b, 0, nullptr); }}};
  for (const auto& [kind, allocate] : kinds) {
    SCOPED_TRACE(kind);
    auto* data = static_cast<int*>(allocate(usm, app.context, app.device, n * sizeof(int)));
    auto* results = static_cast<int*>(allocate(usm, app.context, app.device, 4 * sizeof(int)));
    ASSERT_TRUE(data && results);
    // The application's kernel writes the data through the USM pointer; the sum lands inside the result
    // allocation (element 1), the maximum combines with the value already there (element 2).
    ASSERT_EQ(usm.set_arg(app.fill, 0, data), CL_SUCCESS);
    clSetKernelArg(app.fill, 1, sizeof n, &n);
    clSetKernelArg(app.fill, 2, sizeof seed, &seed);
    const std::size_t global = (n + 63) / 64 * 64;
    ASSERT_EQ(clEnqueueNDRangeKernel(app.queue, app.fill, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    const int before[4] = {7, 7, 999, 7};
    ASSERT_EQ(usm.memcpy(app.queue, CL_FALSE, results, before, sizeof before, 0, nullptr, nullptr), CL_SUCCESS);
    clReleaseEvent(reducer.append_reduce<int>(app.queue, data + 5, n - 5, &results[1], zr::plus<>(),
                                              {zr::property::reduction::initialize_to_identity{}}));
    clReleaseEvent(reducer.append_reduce<int>(app.queue, data, n, &results[2], zr::maximum<>()));
    clReleaseEvent(reducer.append_reduce<int>(app.queue, data, 0, &results[3], zr::minimum<>(),
                                              {zr::property::reduction::initialize_to_identity{}}));
    int after[4] = {};
    ASSERT_EQ(usm.memcpy(app.queue, CL_TRUE, after, results, sizeof after, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(after[0], 7);
    EXPECT_EQ(after[1], static_cast<int>(std::accumulate(host.begin() + 5, host.end(), 0LL)));
    EXPECT_EQ(after[2], std::max(999, *std::max_element(host.begin(), host.end())));
    EXPECT_EQ(after[3], std::numeric_limits<int>::max());  // no elements: the identity
    // Past the allocation's end: refused by name, nothing enqueued.
    expect_error<zr::InvalidArgumentError>(
        [&] { reducer.append_reduce<int>(app.queue, data + 8, n, &results[1], zr::plus<>()); },
        "runs past its end");
    usm.free(app.context, data);
    usm.free(app.context, results);
  }
  // USM of another context is not this reducer's memory: a GPU's reducer refuses it by name; a CPU device's
  // kernels address any host memory (as SVM), so there it is read in place.
  Application other(app.device);
  auto* foreign = static_cast<int*>(usm.device_alloc(other.context, other.device, nullptr, 64 * sizeof(int), 0, nullptr));
  auto* result = static_cast<int*>(usm.shared_alloc(app.context, app.device, nullptr, sizeof(int), 0, nullptr));
  ASSERT_TRUE(foreign && result);
  std::vector<int> ones(64, 1);
  ASSERT_EQ(usm.memcpy(other.queue, CL_TRUE, foreign, ones.data(), 64 * sizeof(int), 0, nullptr, nullptr), CL_SUCCESS);
  cl_device_type type = 0;
  clGetDeviceInfo(app.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  if (type & CL_DEVICE_TYPE_CPU) {
    clReleaseEvent(reducer.append_reduce<int>(app.queue, foreign, 64, result, zr::plus<>(),
                                              {zr::property::reduction::initialize_to_identity{}}));
    int sum = 0;
    ASSERT_EQ(usm.memcpy(app.queue, CL_TRUE, &sum, result, sizeof sum, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(sum, 64);
  } else {
    expect_error<zr::InvalidArgumentError>(
        [&] { reducer.append_reduce<int>(app.queue, foreign, 64, result, zr::plus<>()); }, "input");
  }
  usm.free(other.context, foreign);
  usm.free(app.context, result);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, OpenClInterop, ::testing::ValuesIn(application_devices()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpenClInterop);

}  // namespace
