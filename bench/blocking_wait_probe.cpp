// zr_blocking_wait_probe: how long a blocking 4-byte read takes to return behind a kernel, as a function of
// the kernel's device time, for the ways a host can wait on an OpenCL queue (raw OpenCL, no ze-reduce code).
// It backs the small-n latency analysis of bench/results/notes/h100.md: on NVIDIA's driver the blocking read
// returns in steps, so the latency of a reduction depends on whether its kernel ends inside the driver's
// first step, not only on how long it runs.
//
//   zr_blocking_wait_probe [--runs 200] [--device-type gpu|cpu]   (JSON lines on stdout)
//
// The kernel is one work-item that runs `iters` dependent multiply-adds, so that its device time (profiling
// start to end, on a queue with profiling) rises from that of an empty kernel in small steps. For each
// iteration count, the median host time (steady clock, on a queue without profiling) of:
//   read              kernel; blocking read                         (the floor's sequence in reduce_bench)
//   flush_read        kernel; clFlush; blocking read                (what ze-reduce does)
//   flush_wait<D>_read kernel; clFlush; D us on the host clock; blocking read
//   finish            kernel; clFinish                              (a result left in device memory)
//   finish_read       kernel; clFinish; blocking read
// and the bounded waits (OpenCL has no timed wait, so a bounded wait polls the event's status):
//   poll_read         kernel; non-blocking read into pageable host memory; clFlush; poll the read's event
//   poll_pinned_read  the same into pinned host memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer), then a copy
//   poll_kernel_read  kernel; clFlush; poll the kernel's event; blocking read (of a finished result)
//   poll_kernel       kernel; clFlush; poll the kernel's event (a result left in device memory)
// and waits that block in the driver (no deadline of their own: a side thread can give them one):
//   pinned_read_finish  kernel; non-blocking read into pinned memory; clFinish
//   pinned_read_wait    kernel; non-blocking read into pinned memory; clWaitForEvents on the read's event
//   helper_wait         kernel; non-blocking read into pinned memory; clFlush; a waiting side thread, woken
//                       through a condition variable, blocks in clWaitForEvents on the read's event and sets a flag
//                       that the calling thread spins on
//   helper_finish       the same with clFinish on the side thread
// and with no read at all, where the driver lets a kernel write host memory (zero-copy):
//   zerocopy_finish     the kernel writes its result into a mapped CL_MEM_ALLOC_HOST_PTR buffer; clFinish; the host
//                       reads the mapped pointer (a sentinel is written there before each launch, and every value
//                       read is checked: "zerocopy_mismatches" counts the runs that did not see the kernel's value)
//   zerocopy_poll       the same, polling the kernel's event instead of clFinish
#include <CL/cl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

void check(cl_int code, const char* call) {
  if (code != CL_SUCCESS) throw std::runtime_error(std::string(call) + " failed: " + std::to_string(code));
}

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

void host_wait_us(double us) {
  const auto start = clock_type::now();
  while (seconds_since(start) < us * 1e-6) {
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

const char* kSource =
    "kernel void spin(global uint* out, uint iters) {\n"
    "  uint x = (uint)get_global_id(0) + 1u;\n"
    "  for (uint i = 0; i < iters; ++i) x = x * 1103515245u + 12345u;\n"
    "  out[0] = x;\n"
    "}\n";

}  // namespace

int main(int argc, char** argv) try {
  int runs = 200;
  cl_device_type type = CL_DEVICE_TYPE_GPU;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--runs") runs = std::max(10, std::atoi(value.c_str()));
    else if (key == "--device-type") type = value == "cpu" ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    else throw std::runtime_error("unknown option " + key);
  }
  cl_platform_id platforms[16];
  cl_uint platform_count = 0;
  check(clGetPlatformIDs(16, platforms, &platform_count), "clGetPlatformIDs");
  cl_device_id device = nullptr;
  for (cl_uint i = 0; i < platform_count && !device; ++i)
    if (clGetDeviceIDs(platforms[i], type, 1, &device, nullptr) != CL_SUCCESS) device = nullptr;
  if (!device) throw std::runtime_error("no OpenCL device of the requested type");
  char name[256] = {}, driver[256] = {};
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr), "clGetDeviceInfo");
  check(clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof driver, driver, nullptr), "clGetDeviceInfo");
  std::printf("{\"device\":\"%s\",\"driver\":\"%s\",\"runs\":%d}\n", name, driver, runs);

  cl_int code = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &code);
  check(code, "clCreateContext");
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue timed = clCreateCommandQueueWithProperties(context, device, profiling, &code);
  check(code, "clCreateCommandQueueWithProperties");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &code);
  check(code, "clCreateCommandQueueWithProperties");
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &code);
  check(code, "clCreateProgramWithSource");
  check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, "spin", &code);
  check(code, "clCreateKernel");
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &code);
  check(code, "clCreateBuffer");
  check(clSetKernelArg(kernel, 0, sizeof out, &out), "clSetKernelArg");

  const size_t one = 1;
  auto launch = [&](cl_command_queue q, cl_event* event) {
    check(clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &one, &one, 0, nullptr, event), "clEnqueueNDRangeKernel");
  };
  auto read = [&] {
    cl_uint value = 0;
    check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr), "clEnqueueReadBuffer");
  };
  auto flush_wait_read = [&](double us) {
    return [&, us] {
      launch(queue, nullptr);
      check(clFlush(queue), "clFlush");
      if (us > 0) host_wait_us(us);
      read();
    };
  };
  struct Way {
    const char* name;
    std::function<void()> run;
  };
  cl_mem pinned_buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64, nullptr, &code);
  check(code, "clCreateBuffer");
  void* pinned = clEnqueueMapBuffer(queue, pinned_buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64, 0, nullptr,
                                    nullptr, &code);
  check(code, "clEnqueueMapBuffer");
  auto poll = [](cl_event event) {
    for (cl_int status = CL_QUEUED; status > CL_COMPLETE;)
      check(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
            "clGetEventInfo");
    clReleaseEvent(event);
  };
  auto poll_read_into = [&](void* host) {
    return [&, host] {
      launch(queue, nullptr);
      cl_event event = nullptr;
      check(clEnqueueReadBuffer(queue, out, CL_FALSE, 0, 4, host, 0, nullptr, &event), "clEnqueueReadBuffer");
      check(clFlush(queue), "clFlush");
      poll(event);
    };
  };
  static cl_uint pageable_value;
  // The side thread of helper_wait and helper_finish: it sleeps until handed a wait, makes it, then sets `done`.
  struct Helper {
    std::mutex mutex;
    std::condition_variable wake;
    cl_event event = nullptr;
    bool pending = false, finish = false, stop = false;
    std::atomic<bool> done{false};
  } helper;
  std::thread side([&] {
    std::unique_lock lock(helper.mutex);
    for (;;) {
      helper.wake.wait(lock, [&] { return helper.pending || helper.stop; });
      if (helper.stop) return;
      helper.pending = false;
      if (helper.finish) check(clFinish(queue), "clFinish");
      else check(clWaitForEvents(1, &helper.event), "clWaitForEvents");
      helper.done.store(true, std::memory_order_release);
    }
  });
  auto read_then = [&](bool on_helper, bool finish) {
    return [&, on_helper, finish] {
      launch(queue, nullptr);
      cl_event event = nullptr;
      check(clEnqueueReadBuffer(queue, out, CL_FALSE, 0, 4, pinned, 0, nullptr, &event), "clEnqueueReadBuffer");
      if (!on_helper) {
        if (finish) check(clFinish(queue), "clFinish");
        else check(clWaitForEvents(1, &event), "clWaitForEvents");
      } else {
        check(clFlush(queue), "clFlush");
        helper.done.store(false);
        {
          std::lock_guard lock(helper.mutex);
          helper.event = event;
          helper.finish = finish;
          helper.pending = true;
        }
        helper.wake.notify_one();
        while (!helper.done.load(std::memory_order_acquire)) {
        }
      }
      clReleaseEvent(event);
      std::memcpy(&pageable_value, pinned, 4);
    };
  };
  const Way ways[] = {
      {"poll_read", poll_read_into(&pageable_value)},
      {"poll_pinned_read", [&, inner = poll_read_into(pinned)] {
         inner();
         std::memcpy(&pageable_value, pinned, 4);
       }},
      {"poll_kernel_read", [&] {
         cl_event event = nullptr;
         launch(queue, &event);
         check(clFlush(queue), "clFlush");
         poll(event);
         read();
       }},
      {"poll_kernel", [&] {
         cl_event event = nullptr;
         launch(queue, &event);
         check(clFlush(queue), "clFlush");
         poll(event);
       }},
      {"read", [&] { launch(queue, nullptr); read(); }},
      {"flush_read", flush_wait_read(0)},
      {"flush_wait1_read", flush_wait_read(1)},
      {"flush_wait2_read", flush_wait_read(2)},
      {"flush_wait3_read", flush_wait_read(3)},
      {"finish", [&] { launch(queue, nullptr); check(clFinish(queue), "clFinish"); }},
      {"finish_read", [&] { launch(queue, nullptr); check(clFinish(queue), "clFinish"); read(); }},
      {"pinned_read_finish", read_then(false, true)},
      {"pinned_read_wait", read_then(false, false)},
      {"helper_wait", read_then(true, false)},
      {"helper_finish", read_then(true, true)},
  };

  // The zero-copy ways: the same kernel writing into the mapped buffer; `expected` is this iteration count's value.
  cl_kernel to_host = clCreateKernel(program, "spin", &code);
  check(code, "clCreateKernel");
  check(clSetKernelArg(to_host, 0, sizeof pinned_buffer, &pinned_buffer), "clSetKernelArg");
  volatile cl_uint* mapped = static_cast<volatile cl_uint*>(pinned);
  cl_uint expected = 0;
  long zerocopy_mismatches = 0;
  auto zerocopy = [&](bool finish) {
    return [&, finish] {
      mapped[0] = 0xdeadbeefu;
      cl_event event = nullptr;
      check(clEnqueueNDRangeKernel(queue, to_host, 1, nullptr, &one, &one, 0, nullptr, finish ? nullptr : &event),
            "clEnqueueNDRangeKernel");
      if (finish) {
        check(clFinish(queue), "clFinish");
      } else {
        check(clFlush(queue), "clFlush");
        poll(event);
      }
      if (mapped[0] != expected) ++zerocopy_mismatches;
    };
  };
  const Way host_ways[] = {{"zerocopy_finish", zerocopy(true)}, {"zerocopy_poll", zerocopy(false)}};

  // Prints the median host time of `runs` calls of the way (after 10 left out).
  auto time_way = [&](const Way& way) {
    std::vector<double> host_s;
    for (int i = 0; i < runs + 10; ++i) {
      const auto start = clock_type::now();
      way.run();
      if (i >= 10) host_s.push_back(seconds_since(start));
    }
    std::printf(",\"%s_us\":%.1f", way.name, median(host_s) * 1e6);
  };

  for (cl_uint iters : {0u, 500u, 1000u, 1500u, 2000u, 2500u, 3000u, 4000u, 5000u, 6000u, 8000u, 10000u}) {
    check(clSetKernelArg(kernel, 1, sizeof iters, &iters), "clSetKernelArg");
    std::vector<double> device_s;
    for (int i = 0; i < 60; ++i) {
      cl_event event = nullptr;
      launch(timed, &event);
      check(clWaitForEvents(1, &event), "clWaitForEvents");
      cl_ulong start = 0, end = 0;
      check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr), "profiling");
      check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), "profiling");
      clReleaseEvent(event);
      if (i >= 10) device_s.push_back(static_cast<double>(end - start) * 1e-9);
    }
    std::printf("{\"iters\":%u,\"device_us\":%.2f", iters, median(device_s) * 1e6);
    for (const Way& way : ways) time_way(way);
    check(clSetKernelArg(to_host, 1, sizeof iters, &iters), "clSetKernelArg");
    launch(queue, nullptr);
    check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 4, &expected, 0, nullptr, nullptr), "clEnqueueReadBuffer");
    zerocopy_mismatches = 0;
    for (const Way& way : host_ways) time_way(way);
    std::printf(",\"zerocopy_mismatches\":%ld,\"zerocopy_runs\":%d}\n", zerocopy_mismatches, 2 * (runs + 10));
    std::fflush(stdout);
  }
  clReleaseKernel(to_host);
  {
    std::lock_guard lock(helper.mutex);
    helper.stop = true;
  }
  helper.wake.notify_one();
  side.join();
  check(clEnqueueUnmapMemObject(queue, pinned_buffer, pinned, 0, nullptr, nullptr), "clEnqueueUnmapMemObject");
  check(clFinish(queue), "clFinish");
  clReleaseMemObject(pinned_buffer);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseCommandQueue(timed);
  clReleaseContext(context);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "zr_blocking_wait_probe: %s\n", e.what());
  return 1;
}
