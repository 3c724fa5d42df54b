#pragma once
// Raw OpenCL on the same device as ours (the same driver, bypassing ze-reduce), for three reference points:
//   - the OpenCL SDK-style multi-pass tree (each group reduces 2 x work-group size elements per pass, local
//     memory tree, passes until one value is left): the classic baseline;
//   - a read-bandwidth probe: a trivial vector-load kernel (16-byte loads, grid-stride on GPUs, one
//     contiguous chunk per work-item on CPUs) whose result only feeds a store that never happens; the best of
//     a few launch shapes;
//   - the latency floor: an empty kernel enqueue plus a blocking 4-byte read (and an empty enqueue + finish),
//     on a queue without profiling, as ze-reduce's queues are unless asked to profile.
// All kernels are OpenCL C source compiled at run time (this program is a benchmark, not the library).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct ClTiming {
  double device_s = 0;  // first kernel start to last kernel end (profiling events)
  double wall_s = 0;    // enqueue to completion, host clock
};

class ClPeer {
 public:
  // The OpenCL device whose CL_DEVICE_NAME is `name` (nullopt if none).
  static std::unique_ptr<ClPeer> open(const std::string& name);
  ~ClPeer();
  ClPeer(const ClPeer&) = delete;
  ClPeer& operator=(const ClPeer&) = delete;

  bool is_cpu() const { return cpu_; }
  bool fp64() const { return fp64_; }
  std::string version() const { return version_; }

  // Copies `bytes` from host into the peer's one input buffer (grown as needed).
  void upload(const void* host, std::uint64_t bytes);

  // type: "f32" | "f64" | "i32"; op: "sum" | "min" | "max". Reduces the first n elements of the input;
  // result bytes into *result (8 bytes room).
  ClTiming sdk_tree(const std::string& type, const std::string& op, std::uint64_t n, void* result);
  // Reads the first `bytes` of the input (a multiple of 64); the best shape is chosen on the first call per size.
  ClTiming read_probe(std::uint64_t bytes);
  // out[i] = a x[i] + y[i] for the first n elements, x and y the input's first and second n floats (upload 2n):
  // a plain kernel (a work-item per element), the baseline of kernels with reducers (bench/kernel_bench.cpp).
  ClTiming axpy_store(std::uint64_t n, float a);
  // Wall seconds of: empty kernel enqueue + blocking read of 4 bytes (`enqueue_s`, if given: the kernel's enqueue
  // alone); and empty kernel + clFinish.
  double empty_kernel_and_read(double* enqueue_s = nullptr);
  double empty_kernel_and_finish();

 private:
  ClPeer() = default;
  cl_kernel kernel_for(const std::string& type, const std::string& op);
  // One launch of `kernel` (its arguments set) on the profiling queue, waited for.
  ClTiming timed_launch(cl_kernel kernel, std::size_t global, std::size_t local);
  cl_mem scratch(int which, std::uint64_t bytes);

  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;          // profiling on: device times of the reductions and the probe
  cl_command_queue floor_queue_ = nullptr;    // profiling off: the latency floor
  cl_mem input_ = nullptr;
  std::uint64_t input_bytes_ = 0;
  cl_mem scratch_[2] = {nullptr, nullptr};
  std::uint64_t scratch_bytes_[2] = {0, 0};
  cl_mem small_ = nullptr;
  std::vector<std::pair<std::string, cl_program>> programs_;
  std::vector<std::pair<std::string, cl_kernel>> kernels_;
  cl_kernel probe_ = nullptr, empty_ = nullptr;
  cl_uint compute_units_ = 1;
  std::size_t max_wg_ = 1;
  bool cpu_ = false, fp64_ = false;
  std::string version_;
  std::vector<std::pair<std::uint64_t, std::pair<std::size_t, std::size_t>>> probe_shape_;  // bytes -> (global, local)
};

}  // namespace bench
