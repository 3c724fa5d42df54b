// Reductions appended to an application's own OpenCL queue (zr::opencl_interop, issue 41): the host time of one
// append (median over many, host clock: what an application pays per reduction when it amortises latency by
// appending), and the throughput of back-to-back appended f32 sums of the application's cl_mem, against a read
// of the same bytes by a plain float4 kernel of the application's, in the same run and queue.
// Prints one JSON object per line.
// Usage: zr_interop_bench [device substring, default: the first GPU, else the first device] [log2 n = 24 26 28]
#define CL_TARGET_OPENCL_VERSION 120
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "zereduce/opencl.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

void ok(cl_int code, const char* call) {
  if (code != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", call, code);
    std::exit(1);
  }
}

cl_device_id pick_device(const std::string& wanted) {
  cl_uint count = 0;
  ok(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  ok(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  cl_device_id first = nullptr, gpu = nullptr;
  for (cl_platform_id platform : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ids(n);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr);
    for (cl_device_id id : ids) {
      char name[256] = {};
      clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof name, name, nullptr);
      cl_device_type type = 0;
      clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
      if (!wanted.empty() && std::string(name).find(wanted) != std::string::npos) return id;
      if (!first) first = id;
      if (!gpu && (type & CL_DEVICE_TYPE_GPU)) gpu = id;
    }
  }
  return gpu ? gpu : first;
}

const char* kSource = R"CL(
kernel void ramp(global float* x) { size_t i = get_global_id(0); x[i] = (float)(i % 7u) - 3.0f; }
kernel void read4(global const float4* x, ulong n4, global float* sink) {
  float4 acc = (float4)(0.0f);
  for (ulong i = get_global_id(0); i < n4; i += get_global_size(0)) acc += x[i];
  if (acc.x + acc.y + acc.z + acc.w == 12345.678f) sink[0] = acc.x;  // keeps the loads
}
)CL";

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string wanted = argc > 1 ? argv[1] : "";
  std::vector<int> logs;
  for (int i = 2; i < argc; ++i) logs.push_back(std::atoi(argv[i]));
  if (logs.empty()) logs = {24, 26, 28};
  cl_device_id device = pick_device(wanted);
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_uint units = 1;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
  cl_int code = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &code);
  ok(code, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &code);
  ok(code, "clCreateCommandQueue");
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &code);
  ok(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel ramp = clCreateKernel(program, "ramp", &code);
  cl_kernel read4 = clCreateKernel(program, "read4", &code);
  ok(code, "clCreateKernel");
  zr::opencl_interop::reducer reducer(context, device);
  const zr::property_list fresh{zr::property::reduction::initialize_to_identity{}};

  for (int log2n : logs) {
    const std::size_t n = std::size_t{1} << log2n;
    cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &code);
    ok(code, "clCreateBuffer");
    cl_mem result = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &code);
    ok(clSetKernelArg(ramp, 0, sizeof data, &data), "clSetKernelArg");
    ok(clEnqueueNDRangeKernel(queue, ramp, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), "ramp");
    // Warm-up: kernels built, scratch allocated.
    for (int i = 0; i < 3; ++i) clReleaseEvent(reducer.append_reduce<float>(queue, data, 0, n, result, 0, zr::plus<>(), fresh));
    ok(clFinish(queue), "clFinish");

    // Host cost of one append (the device works behind it; the queue is drained between batches).
    std::vector<double> append_us;
    for (int batch = 0; batch < 20; ++batch) {
      for (int i = 0; i < 10; ++i) {
        const auto start = clock_type::now();
        cl_event event = reducer.append_reduce<float>(queue, data, 0, n, result, 0, zr::plus<>(), fresh);
        append_us.push_back(seconds_since(start) * 1e6);
        clReleaseEvent(event);
      }
      ok(clFinish(queue), "clFinish");
    }
    std::sort(append_us.begin(), append_us.end());

    const cl_ulong n4 = n / 4;
    const std::size_t global = static_cast<std::size_t>(units) * 2048, local = 256;
    ok(clSetKernelArg(read4, 0, sizeof data, &data) | clSetKernelArg(read4, 1, sizeof n4, &n4) |
           clSetKernelArg(read4, 2, sizeof result, &result),
       "clSetKernelArg");
    // The driver's own floor for what an append must do at least: two kernel launches (a reduction's two
    // passes) and a flush, by the application itself, host clock.
    std::vector<double> floor_us;
    for (int batch = 0; batch < 20; ++batch) {
      for (int i = 0; i < 10; ++i) {
        const auto start = clock_type::now();
        ok(clEnqueueNDRangeKernel(queue, read4, 1, nullptr, &global, &local, 0, nullptr, nullptr), "read4");
        ok(clEnqueueNDRangeKernel(queue, read4, 1, nullptr, &global, &local, 0, nullptr, nullptr), "read4");
        ok(clFlush(queue), "clFlush");
        floor_us.push_back(seconds_since(start) * 1e6);
      }
      ok(clFinish(queue), "clFinish");
    }
    std::sort(floor_us.begin(), floor_us.end());

    // Throughput: rounds of back-to-back appends against the application's own float4 read, alternated.
    const int reps = std::max(3, static_cast<int>((std::size_t{1} << 30) / n));
    std::vector<double> ours_gbs, read_gbs;
    for (int round = 0; round < 7; ++round) {
      auto start = clock_type::now();
      for (int i = 0; i < reps; ++i) clReleaseEvent(reducer.append_reduce<float>(queue, data, 0, n, result, 0, zr::plus<>(), fresh));
      ok(clFinish(queue), "clFinish");
      ours_gbs.push_back(static_cast<double>(n * sizeof(float)) * reps / seconds_since(start) / 1e9);
      start = clock_type::now();
      for (int i = 0; i < reps; ++i)
        ok(clEnqueueNDRangeKernel(queue, read4, 1, nullptr, &global, &local, 0, nullptr, nullptr), "read4");
      ok(clFinish(queue), "clFinish");
      read_gbs.push_back(static_cast<double>(n * sizeof(float)) * reps / seconds_since(start) / 1e9);
    }
    std::sort(ours_gbs.begin(), ours_gbs.end());
    std::sort(read_gbs.begin(), read_gbs.end());
    const double ours = ours_gbs[ours_gbs.size() / 2], read = read_gbs[read_gbs.size() / 2];
    std::printf("{\"bench\": \"interop_append\", \"device\": \"%s\", \"type\": \"f32\", \"op\": \"plus\", \"log2n\": %d, "
                "\"append_host_us_median\": %.3f, \"append_host_us_p90\": %.3f, \"two_launches_flush_us_median\": %.3f, "
                "\"appended_gbs\": %.1f, "
                "\"app_read4_gbs\": %.1f, \"ratio_to_read\": %.3f}\n",
                name, log2n, append_us[append_us.size() / 2], append_us[append_us.size() * 9 / 10], floor_us[floor_us.size() / 2],
                ours, read, ours / read);
    std::fflush(stdout);
    clReleaseMemObject(data);
    clReleaseMemObject(result);
  }
  clReleaseKernel(ramp);
  clReleaseKernel(read4);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
