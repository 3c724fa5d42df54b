#pragma once
// Applications' kernels with reducers (docs/kernels.md): SYCL 2020's reduction model on ze-reduce. The kernel is
// OpenCL C written with <zereduce/reducer_cl.h> (ZR_KERNEL), compiled at your build time by the CMake function
// zereduce_add_kernel(), which generates a header holding a zr::kernel_source; at run time ze-reduce links it
// with the epilogue that combines its reducers across work-groups, and queue::parallel_for launches it:
//
//   #include "my_kernels.hpp"                               // generated: zr_kernels::my_kernels
//   float norm2 = 0, peak = 0;
//   q.parallel_for(zr::range{n}, zr::kernel(zr_kernels::my_kernels, "axpy_norm"), x, y, a,
//                  zr::reduction(&norm2, zr::plus<>()), zr::reduction(&peak, zr::maximum<>())).wait();
//
// The kernel's own arguments come first, in the order of its parameters: pointers to allocations of the queue's
// device (malloc_device/host/shared), or scalars of at most 8 bytes. The reductions follow, in the order of its
// reducers: zr::reduction(&var, op) for a ZR_REDUCER, zr::reduction(std::span, op) for a ZR_SPAN_REDUCER; each
// must be of the reducer's op and type (checked against the kernel's SPIR-V).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "zereduce/export.hpp"
#include "zereduce/reduction.hpp"

namespace zr {

// What zereduce_add_kernel() generates: the module's name, SPIR-V and preprocessed OpenCL C source. It must
// outlive every launch that uses it (the generated one is a constant of static storage).
struct kernel_source {
  const char* name = nullptr;
  const std::uint32_t* spirv = nullptr;
  std::size_t spirv_words = 0;
  const char* opencl_c_source = nullptr;
};

// A kernel of a module, by its name (the module's own name when none is given).
class kernel {
 public:
  explicit kernel(const kernel_source& source) : source_(&source), name_(source.name) {}
  kernel(const kernel_source& source, const char* name) : source_(&source), name_(name) {}
  const kernel_source& source() const { return *source_; }
  const char* name() const { return name_; }

 private:
  const kernel_source* source_;
  const char* name_;
};

// The indices the body runs for: zr::range{n} (ze-reduce chooses the launch; each work-item takes indices a
// grid apart), or zr::nd_range{global, local} (exactly `global` work-items in groups of `local`, one index each).
struct range {
  std::uint64_t size = 0;
};
struct nd_range {
  std::uint64_t global = 0;
  std::uint64_t local = 0;
};

namespace detail {
// One of the kernel's own arguments, type-erased.
struct kernel_arg {
  bool pointer = false;
  const void* address = nullptr;
  std::size_t bytes = 0;  // a by-value argument's size
  unsigned char value[8] = {};
};

template <typename T>
kernel_arg make_kernel_arg(const T& value) {
  kernel_arg arg;
  if constexpr (std::is_pointer_v<T>) {
    arg.pointer = true;
    arg.address = static_cast<const void*>(value);
  } else if constexpr (std::is_null_pointer_v<T>) {
    arg.pointer = true;
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "a kernel's by-value argument must be trivially copyable");
    static_assert(sizeof(T) <= 8, "a kernel's by-value arguments are at most 8 bytes: pass larger data by pointer");
    arg.bytes = sizeof(T);
    std::memcpy(arg.value, &value, sizeof(T));
  }
  return arg;
}

// One launch as the caller wrote it (queue::parallel_for, and the interop reducers' append_parallel_for): the range,
// the kernel's own arguments and the reductions, in order.
struct kernel_call {
  std::uint64_t global = 0;
  std::uint64_t local = 0;  // 0: a zr::range
  std::vector<kernel_arg> args;
  std::vector<reduction_spec> specs;
  bool arg_after_reduction = false;  // refused: the kernel's arguments come first
};

template <typename Range, typename... Rest>
kernel_call make_kernel_call(const Range& range, const Rest&... rest) {
  static_assert(std::is_same_v<Range, zr::range> || std::is_same_v<Range, zr::nd_range>,
                "parallel_for takes a zr::range or a zr::nd_range");
  kernel_call call;
  if constexpr (std::is_same_v<Range, zr::range>) {
    call.global = range.size;
  } else {
    call.global = range.global;
    call.local = range.local;
  }
  auto take = [&](const auto& item) {
    using Item = std::decay_t<decltype(item)>;
    if constexpr (is_reduction_descriptor_v<Item>) {
      call.specs.push_back(item.spec());
    } else {
      call.args.push_back(make_kernel_arg(item));
      call.arg_after_reduction = call.arg_after_reduction || !call.specs.empty();
    }
  };
  (take(rest), ...);
  return call;
}
}  // namespace detail

}  // namespace zr
