#pragma once
// What each cached kernel's arguments hold now, so that a launch sets only the ones that change. A cl_kernel keeps
// its arguments from one enqueue to the next (each enqueue captures them), and the context's kernels live as long
// as the context: a plan run again on the same memory sets only its cl_mem arguments (issue 42: fewer driver calls per
// small reduction). SVM and USM pointers are addresses, so an equal one is the same argument even after a free.
// Used with Context::launch_mutex held, like the arguments themselves.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "opencl/cl.hpp"

namespace zr::opencl {

class KernelArguments {
 public:
  // How an argument was set: the same bytes through another call are another value.
  enum class Kind : char { svm_pointer, usm_pointer, local_bytes, value };

  // Whether argument `index` of `kernel` holds `size` bytes at `bytes`, set as `kind`.
  bool holds(cl_kernel kernel, cl_uint index, Kind kind, const void* bytes, std::size_t size) const;
  // After the argument was set so.
  void remember(cl_kernel kernel, cl_uint index, Kind kind, const void* bytes, std::size_t size);
  // After a failed set: the argument's value is unknown.
  void forget(cl_kernel kernel, cl_uint index);

 private:
  static std::string key(Kind kind, const void* bytes, std::size_t size);
  std::unordered_map<cl_kernel, std::vector<std::string>> held_;  // per argument index; empty: unknown
};

}  // namespace zr::opencl
