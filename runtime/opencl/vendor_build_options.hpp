#pragma once
// Build options a vendor's OpenCL compiler takes for one module on one device class: today NVIDIA's register caps
// for the modules that ran faster with more resident groups (vendor_build_options.cpp says what was measured).
#include <string>
#include <string_view>

#include "capabilities.hpp"

namespace zr::opencl {

// The options to add to `module_name`'s clBuildProgram options on this device ("" for none). nvidia_options: the
// device's compiler takes NVIDIA's options (cl_nv_compiler_options): NVIDIA's own driver, not another platform's
// device that bears an NVIDIA name (PoCL's CUDA devices), whose compiler would refuse them.
std::string vendor_build_options(const core::Capabilities& caps, bool nvidia_options, std::string_view module_name);

}  // namespace zr::opencl
