#include "opencl/vendor_build_options.hpp"

#include <array>

#include "tuning.hpp"

namespace zr::opencl {

namespace {
struct RegisterCap {
  std::string_view module;  // an embedded module's name: the template and its feature set
  unsigned registers;
};

// NVIDIA's compiler gives these kernels more registers than their latency-bound loops repay: capped
// (-cl-nv-maxrregcount), more groups stay resident per SM. H200, 2^28 elements, power-law segment sizes, the same
// library with ZE_REDUCE_OPENCL_BUILD_OPTIONS (bench/results/nvidia_register_caps_h200_2026-11-29/): segarg's
// argmax 0.86x the time at 32 registers, segt's norm_l2 0.82x, segspan's f64 sums and maxima 0.89-0.90x at 40.
// segspan's 4-byte kernels were slower capped (1.05-1.10x at 40, 1.35x at 32) and keep their 48. Only the modules
// measured are capped (f32 argmax and norm_l2 live in the base modules; their f64 forms are not capped).
constexpr std::array kNvidiaRegisterCaps{
    RegisterCap{"segarg_base", 32},
    RegisterCap{"segt_base", 32},
    RegisterCap{"segspan_fp64", 40},
};
}  // namespace

std::string vendor_build_options(const core::Capabilities& caps, std::string_view module_name) {
  if (core::device_class(caps) != core::DeviceClass::nvidia_gpu) return {};
  for (const RegisterCap& cap : kNvidiaRegisterCaps)
    if (module_name == cap.module) return "-cl-nv-maxrregcount=" + std::to_string(cap.registers);
  return {};
}

}  // namespace zr::opencl
