#include "spirv_reader.hpp"

#include <spirv-tools/libspirv.h>

#include <cstring>
#include <memory>

namespace zrt {

namespace {

// SPIR-V specification numbers (section 3).
namespace op {
constexpr std::uint16_t EntryPoint = 15, ExecutionMode = 16, Capability = 17, TypeImage = 25, TypeSampler = 26,
                        TypePointer = 32, Function = 54, FunctionParameter = 55, FunctionEnd = 56;
}
constexpr std::uint32_t kExecutionModelKernel = 6;
constexpr std::uint32_t kModeLocalSize = 17, kModeSubgroupSize = 35;
constexpr std::uint32_t kStorageUniformConstant = 0, kStorageWorkgroup = 4, kStorageCrossWorkgroup = 5,
                        kStorageGeneric = 8;

struct Reader {
  SpirvModule out;
  std::map<std::uint32_t, std::uint32_t> pointer_storage;  // OpTypePointer id -> storage class
  std::set<std::uint32_t> opaque_types;                    // images and samplers
  std::map<std::uint32_t, std::string> entry_by_function;
  std::map<std::uint32_t, KernelSignature> signature_by_function;
  std::uint32_t current_function = 0;
};

spv_result_t on_instruction(void* user, const spv_parsed_instruction_t* inst) {
  auto& r = *static_cast<Reader*>(user);
  auto word = [&](std::size_t operand) { return inst->words[inst->operands[operand].offset]; };
  switch (inst->opcode) {
    case op::Capability: r.out.capabilities.insert(word(0)); break;
    case op::EntryPoint:
      if (word(0) == kExecutionModelKernel) {
        const auto& name_operand = inst->operands[2];
        const char* text = reinterpret_cast<const char*>(inst->words + name_operand.offset);
        const std::string name(text, strnlen(text, name_operand.num_words * 4u));
        r.entry_by_function[word(1)] = name;
        r.out.kernel_order.push_back(name);
      }
      break;
    case op::ExecutionMode: {
      auto& sig = r.signature_by_function[word(0)];
      if (word(1) == kModeSubgroupSize && inst->num_operands >= 3) sig.required_subgroup_size = word(2);
      if (word(1) == kModeLocalSize && inst->num_operands >= 5)
        for (int i = 0; i < 3; ++i) sig.required_group_size[i] = word(2 + i);
      break;
    }
    case op::TypePointer: r.pointer_storage[inst->result_id] = word(1); break;
    case op::TypeImage:
    case op::TypeSampler: r.opaque_types.insert(inst->result_id); break;
    case op::Function: r.current_function = inst->result_id; break;
    case op::FunctionParameter: {
      ArgKind kind = ArgKind::value;
      const std::uint32_t type = inst->type_id;
      if (auto found = r.pointer_storage.find(type); found != r.pointer_storage.end()) {
        const std::uint32_t storage = found->second;
        if (storage == kStorageWorkgroup) kind = ArgKind::local_pointer;
        else if (storage == kStorageCrossWorkgroup || storage == kStorageUniformConstant || storage == kStorageGeneric)
          kind = ArgKind::global_pointer;
        // A Function-storage pointer parameter is a by-value struct (byval): passed as bytes.
      } else if (r.opaque_types.count(type)) {
        kind = ArgKind::sampler_or_image;
      }
      r.signature_by_function[r.current_function].args.push_back(kind);
      break;
    }
    case op::FunctionEnd: r.current_function = 0; break;
    default: break;
  }
  return SPV_SUCCESS;
}

}  // namespace

SpirvModule read_spirv(std::span<const std::uint32_t> words) {
  Reader reader;
  std::unique_ptr<spv_context_t, void (*)(spv_context)> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_6), spvContextDestroy);
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result =
      spvBinaryParse(context.get(), &reader, words.data(), words.size(), nullptr, on_instruction, &diagnostic);
  if (result != SPV_SUCCESS) {
    reader.out.problem = "the module is not valid SPIR-V (spvBinaryParse: " +
                         std::string(diagnostic && diagnostic->error ? diagnostic->error : std::to_string(result)) + ")";
  }
  spvDiagnosticDestroy(diagnostic);
  for (const auto& [function, name] : reader.entry_by_function)
    reader.out.kernels[name] = reader.signature_by_function[function];
  return reader.out;
}

}  // namespace zrt
