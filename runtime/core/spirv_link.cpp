#include "spirv_link.hpp"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>

#include "log.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {

// The embedded modules are SPIR-V 1.0 to 1.3 (llvm-spirv-15 --spirv-max-version=1.3), as are the user's.
constexpr spv_target_env kEnvironment = SPV_ENV_UNIVERSAL_1_3;

std::string messages_of(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) out += "\n  " + m;
  return out;
}

}  // namespace

std::unique_ptr<LinkedModule> link_with_embedded(const EmbeddedModule& embedded, std::span<const std::uint32_t> user_spirv,
                                                 const std::string& what, std::string name, std::string source,
                                                 FeatureSet user_required, std::shared_ptr<const void> owner) {
  auto linked = std::make_unique<LinkedModule>();
  linked->owner = std::move(owner);
  linked->name = std::move(name);
  std::vector<std::string> messages;
  spvtools::Context context(kEnvironment);
  context.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
    messages.emplace_back(text);
  });
  const std::vector<std::vector<std::uint32_t>> inputs{
      std::vector<std::uint32_t>(embedded.spirv.begin(), embedded.spirv.end()),
      std::vector<std::uint32_t>(user_spirv.begin(), user_spirv.end())};
  if (spvtools::Link(context, inputs, &linked->spirv) != SPV_SUCCESS)
    throw InvalidArgumentError(what + " cannot be linked with ze-reduce's " + std::string(embedded.name) +
                               " (SPIRV-Tools' linker):" + messages_of(messages));
  spvtools::SpirvTools tools(kEnvironment);
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
    messages.emplace_back(text);
  });
  if (!tools.Validate(linked->spirv))
    throw InvalidArgumentError(what + " linked with ze-reduce's " + std::string(embedded.name) +
                               " is not valid SPIR-V (SPIRV-Tools' validator):" + messages_of(messages));
  linked->source = std::move(source);
  EmbeddedModule& m = linked->module;
  m = embedded;
  m.name = linked->name;
  m.required = embedded.required.missing_from(Feature::user_operator_template) | user_required;
  m.spirv = linked->spirv;
  m.spir12_bitcode = {};
  m.opencl_c_source = linked->source;
  m.native_binaries = {};
  logger().debug("linked {} ({} words)", linked->name, linked->spirv.size());
  return linked;
}

}  // namespace zr::core
