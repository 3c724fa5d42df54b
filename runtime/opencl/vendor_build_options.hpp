#pragma once
// Build options a vendor's OpenCL compiler takes for one module on one device class: today NVIDIA's register caps
// for the modules that ran faster with more resident groups (vendor_build_options.cpp says what was measured).
#include <string>
#include <string_view>

#include "capabilities.hpp"

namespace zr::opencl {

// The options to add to `module_name`'s clBuildProgram options on this device ("" for none).
std::string vendor_build_options(const core::Capabilities& caps, std::string_view module_name);

}  // namespace zr::opencl
