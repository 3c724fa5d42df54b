#pragma once
// Links an application's SPIR-V (a user-defined operator, or a kernel with reducers) with one of the embedded
// modules it goes with (an operator's reduction template, a kernel's epilogue), with SPIRV-Tools' linker, and
// validates the result. The linked module then stands beside the embedded ones, so that plans, caches and
// executors treat it as one of them.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "features.hpp"
#include "kernel_catalog.hpp"

namespace zr::core {

// A linked module and everything its EmbeddedModule's views point into.
struct LinkedModule {
  std::shared_ptr<const void> owner;  // the application's object, kept alive with the module
  std::string name;
  std::vector<std::uint32_t> spirv;
  std::string source;
  EmbeddedModule module;
};

// The user's words linked with the embedded module's: `what` names the user's part in errors ("user operator
// 'x'"); `name` is the linked module's; `source` its OpenCL C for devices that build source; it requires what
// the embedded module requires (but being a template) and `user_required`. Throws zr::InvalidArgumentError
// with SPIRV-Tools' messages when the link or the validation fails.
std::unique_ptr<LinkedModule> link_with_embedded(const EmbeddedModule& embedded, std::span<const std::uint32_t> user_spirv,
                                                 const std::string& what, std::string name, std::string source,
                                                 FeatureSet user_required, std::shared_ptr<const void> owner);

}  // namespace zr::core
