#include "user_operator.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <utility>

#include "log.hpp"
#include "spirv_inspect.hpp"
#include "spirv_link.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {

std::string label(std::string_view name) { return "user operator '" + std::string(name) + "'"; }

std::uint32_t interface_constant(const UserOperatorSource& source, const SpirvSummary& summary, std::string_view function) {
  const auto exported = summary.exported_functions.find(function);
  if (exported == summary.exported_functions.end())
    throw InvalidArgumentError(label(source.name) + ": its SPIR-V exports no function " + std::string(function) +
                               " (an operator is written with <zereduce/user_operator_cl.h> and ends with one of its "
                               "ZR_USER_OPERATOR macros, and is compiled by zereduce_add_operator())");
  const auto value = summary.returned_constants.find(exported->second);
  if (value == summary.returned_constants.end())
    throw InvalidArgumentError(label(source.name) + ": " + std::string(function) + " does not return a constant");
  return value->second;
}

std::shared_ptr<UserOperator> read_operator(const UserOperatorSource& source) {
  if (source.spirv.empty()) throw InvalidArgumentError(label(source.name) + ": its SPIR-V is empty");
  SpirvSummary summary;
  try {
    summary = inspect_spirv(source.spirv);
  } catch (const std::exception& e) {
    throw InvalidArgumentError(label(source.name) + ": its SPIR-V cannot be read: " + e.what());
  }
  auto op = std::make_shared<UserOperator>();
  op->name = std::string(source.name);
  op->spirv.assign(source.spirv.begin(), source.spirv.end());
  op->opencl_c_source = std::string(source.opencl_c_source);
  const std::uint32_t version = interface_constant(source, summary, "zr_user_interface_version");
  if (version != kUserInterfaceVersion)
    throw InvalidArgumentError(label(source.name) + " was written for interface version " + std::to_string(version) +
                               " of user_operator_cl.h; this ze-reduce links version " +
                               std::to_string(kUserInterfaceVersion) + ": rebuild it with this ze-reduce's header");
  op->element_bytes = interface_constant(source, summary, "zr_user_element_bytes");
  op->accumulator_bytes = interface_constant(source, summary, "zr_user_accumulator_bytes");
  op->accumulator_alignment = interface_constant(source, summary, "zr_user_accumulator_alignment");
  op->has_identity = interface_constant(source, summary, "zr_user_has_identity") != 0;
  for (std::string_view function : {"zr_user_transform", "zr_user_combine", "zr_user_identity", "zr_user_copy",
                                    "zr_user_to_local", "zr_user_from_local", "zr_user_to_global", "zr_user_from_global"}) {
    if (!summary.exported_functions.contains(function))
      throw InvalidArgumentError(label(source.name) + ": its SPIR-V exports no function " + std::string(function));
  }
  if (op->element_bytes != 1 && op->element_bytes != 2 && op->element_bytes != 4 && op->element_bytes != 8)
    throw InvalidArgumentError(label(source.name) + " reads " + std::to_string(op->element_bytes) +
                               "-byte elements: elements of 1, 2, 4 or 8 bytes are supported");
  if (op->accumulator_bytes == 0 || op->accumulator_bytes > kMaxUserAccumulatorBytes)
    throw InvalidArgumentError(label(source.name) + " has a " + std::to_string(op->accumulator_bytes) +
                               "-byte accumulator: at most " + std::to_string(kMaxUserAccumulatorBytes) +
                               " bytes are supported");
  if (op->accumulator_alignment == 0 || op->accumulator_alignment > 16)
    throw InvalidArgumentError(label(source.name) + " has an accumulator aligned to " +
                               std::to_string(op->accumulator_alignment) + " bytes: at most 16 are supported");
  op->required = spirv_visible(summary.features);
  static std::atomic<std::uint64_t> serials{0};
  op->serial = ++serials;
  logger().debug("user operator '{}': {}-byte elements, {}-byte accumulator, {} identity, needs {}", op->name,
                 op->element_bytes, op->accumulator_bytes, op->has_identity ? "an" : "no", to_string(op->required));
  return op;
}

struct Registry {
  std::mutex mutex;
  // By the words' address and count; the words are compared too, as the memory may have been reused.
  std::map<std::pair<const std::uint32_t*, std::size_t>, std::shared_ptr<const UserOperator>> operators;
  std::map<std::pair<const EmbeddedModule*, const UserOperator*>, std::unique_ptr<LinkedModule>> modules;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

std::unique_ptr<LinkedModule> link(const EmbeddedModule& template_module, std::shared_ptr<const UserOperator> op) {
  return link_with_embedded(template_module, op->spirv, label(op->name),
                            std::string(template_module.name) + "+" + op->name + "#" + std::to_string(op->serial),
                            op->opencl_c_source + "\n" + std::string(template_module.opencl_c_source), op->required, op);
}

}  // namespace

DataType UserOperator::element_bits() const {
  switch (element_bytes) {
    case 1: return DataType::u8;
    case 2: return DataType::u16;
    case 4: return DataType::u32;
    default: return DataType::u64;
  }
}

std::shared_ptr<const UserOperator> load_user_operator(const UserOperatorSource& source) {
  Registry& r = registry();
  const std::pair key{source.spirv.data(), source.spirv.size()};
  {
    std::lock_guard lock(r.mutex);
    const auto found = r.operators.find(key);
    if (found != r.operators.end() && found->second->name == source.name &&
        std::equal(source.spirv.begin(), source.spirv.end(), found->second->spirv.begin()))
      return found->second;
  }
  std::shared_ptr<const UserOperator> op = read_operator(source);
  std::lock_guard lock(r.mutex);
  r.operators[key] = op;
  return op;
}

const EmbeddedModule& linked_module(const EmbeddedModule& template_module, const UserOperator& op) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const std::pair key{&template_module, &op};
  auto found = r.modules.find(key);
  if (found != r.modules.end()) return found->second->module;
  // The registry owns the operator through its cache entry; the linked module keeps it alive past a replacement.
  std::shared_ptr<const UserOperator> owner;
  for (const auto& [words, cached] : r.operators)
    if (cached.get() == &op) owner = cached;
  if (!owner) throw InvalidArgumentError(label(op.name) + " was not loaded with load_user_operator");
  auto linked = link(template_module, std::move(owner));
  return r.modules.emplace(key, std::move(linked)).first->second->module;
}

DataType user_template_bits(std::string_view variant, const UserOperator& op) {
  return variant == "ufinal" || variant == "usegjoin" ? DataType::u8 : op.element_bits();
}

const EmbeddedModule* user_template(std::string_view variant, const UserOperator& op) {
  const auto found = find_kernel(variant, user_template_bits(variant, op));
  return found ? found->module : nullptr;
}

}  // namespace zr::core
