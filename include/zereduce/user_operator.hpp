#pragma once
// User-defined reduction operators (docs/user_operators.md): written in OpenCL C with
// <zereduce/user_operator_cl.h>, compiled at your build time by the CMake function zereduce_add_operator(),
// which generates a header holding a zr::user_operator_source. At run time ze-reduce links the operator's
// SPIR-V into its precompiled reduction kernels (SPIRV-Tools' linker), validates the result and builds it for
// the device; OpenCL devices that take no SPIR-V (PoCL, NVIDIA) build the operator's source with the kernels'.
//
//   #include "bounds.hpp"                        // generated: zr_operators::bounds
//   struct bounds { float lo, hi; std::uint64_t lo_index, hi_index; };   // the accumulator, as in the .cl
//   zr::user_operator<float, bounds> op(zr_operators::bounds);            // checks the sizes against the SPIR-V
//   bounds b = q.reduce_value(x, n, op);                                  // or q.reduce(x, n, op, &b, props)
//
// Semantics are SYCL 2020's: the result is combine(initial value, reduction of the input) unless
// initialize_to_identity (then the reduction alone); an empty input leaves the initial value, or gives the
// identity with initialize_to_identity (an operator without one refuses that). The combine must be associative
// and commutative; elements are combined in index order within each work-item, then in a fixed tree, so the
// result is deterministic for a given device and launch shape (the reproducible property is refused).
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "zereduce/export.hpp"

namespace zr {

// What zereduce_add_operator() generates: the operator's name, SPIR-V and preprocessed OpenCL C source. It
// must outlive every reduction that uses it (the generated one is a constant of static storage).
struct user_operator_source {
  const char* name = nullptr;
  const std::uint32_t* spirv = nullptr;
  std::size_t spirv_words = 0;
  const char* opencl_c_source = nullptr;
};

// What the operator's SPIR-V says of it.
struct user_operator_info {
  std::string name;
  std::uint32_t element_bytes = 0;          // the input element's size: 1, 2, 4 or 8
  std::uint32_t accumulator_bytes = 0;      // at most 64
  std::uint32_t accumulator_alignment = 0;  // at most 16
  bool has_identity = false;
};

// Reads and checks the operator; throws InvalidArgumentError naming the operator and what is wrong.
ZR_API user_operator_info describe(const user_operator_source& source);

namespace detail {
// Throws InvalidArgumentError when the C++ types do not match the operator's element and accumulator.
ZR_API void check_user_operator(const user_operator_source& source, std::size_t element_bytes,
                                std::size_t accumulator_bytes, std::size_t accumulator_alignment);
}  // namespace detail

// An operator bound to the C++ types of its element (T) and accumulator (A), whose sizes and alignment must be
// those of the OpenCL C types it was written with.
template <typename T, typename A>
class user_operator {
  static_assert(std::is_trivially_copyable_v<T>, "the element type must be trivially copyable");
  static_assert(std::is_trivially_copyable_v<A>, "the accumulator type must be trivially copyable");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "user operators read elements of 1, 2, 4 or 8 bytes");

 public:
  using element_type = T;
  using accumulator_type = A;

  explicit user_operator(const user_operator_source& source) : source_(&source) {
    detail::check_user_operator(source, sizeof(T), sizeof(A), alignof(A));
  }
  const user_operator_source& source() const { return *source_; }

 private:
  const user_operator_source* source_;
};

}  // namespace zr
