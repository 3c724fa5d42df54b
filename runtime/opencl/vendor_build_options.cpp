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
// (-cl-nv-maxrregcount), more groups stay resident per SM. Measured on an H200, 2^28 elements, each A/B in one call
// (bench/results/nvidia_register_caps_h200_2026-11-29/):
// - segt_base at 32 (f32 norm_l2 and the other transforms of 4-byte and smaller types): power-law sizes 0.82x the
//   time, one segment of 2^28 0.92x, one-element segments by offsets 0.91x, rows of one and of four 0.99-1.00x.
//   Segments of 2^0..2^8, by rows and by offsets: 0.90-1.00x.
// Not capped: segarg_base (argmax at 32: power law 0.86x, but one- and four-element segments 1.47-1.89x slower and
// 2^28 1.06x) and segspan (at 32 the 4-byte types run 1.13-1.37x slower; f64 at 40 runs 1.03-1.14x slower).
constexpr std::array kNvidiaRegisterCaps{
    RegisterCap{"segt_base", 32},
};
}  // namespace

std::string vendor_build_options(const core::Capabilities& caps, bool nvidia_options, std::string_view module_name) {
  if (!nvidia_options || core::device_class(caps) != core::DeviceClass::nvidia_gpu) return {};
  for (const RegisterCap& cap : kNvidiaRegisterCaps)
    if (module_name == cap.module) return "-cl-nv-maxrregcount=" + std::to_string(cap.registers);
  return {};
}

}  // namespace zr::opencl
