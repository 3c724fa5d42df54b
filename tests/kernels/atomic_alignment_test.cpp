// Every atomic in the embedded modules acts on memory at least as aligned as its own width. A kernel argument
// is aligned by the driver for the type it is declared with: an atomic on a 32-bit word reached through a
// `local uchar*` argument cast to `local int*` may be misaligned, and on NVIDIA's OpenCL it faulted the GPU
// (the localatomic variant for i8/u8/i16/u16 before its scratch argument was declared as the atomic word).
// The check follows each atomic's pointer operand through casts and access chains back to the kernel
// argument it came from, and compares the argument's declared pointee width with the atomic's.
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.h>
#include <spirv-tools/libspirv.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kernel_catalog.hpp"

namespace {

// SPIR-V 1.6 unified specification, section 3.52, and the float-atomic extensions. The self-tests below
// assemble these opcodes by name, so a wrong number fails them.
namespace spv {
enum Op : std::uint16_t {
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypePointer = 32,
  OpFunctionParameter = 55,
  OpAccessChain = 65,
  OpInBoundsAccessChain = 66,
  OpPtrAccessChain = 67,
  OpInBoundsPtrAccessChain = 70,
  OpCopyObject = 83,
  OpPtrCastToGeneric = 121,
  OpGenericCastToPtr = 122,
  OpGenericCastToPtrExplicit = 123,
  OpBitcast = 124,
  OpAtomicLoad = 227,
  OpAtomicStore = 228,
  OpAtomicXor = 242,  // OpAtomicLoad .. OpAtomicXor are one contiguous range
  OpAtomicFlagTestAndSet = 318,
  OpAtomicFlagClear = 319,
  OpAtomicFMinEXT = 5614,
  OpAtomicFMaxEXT = 5615,
  OpAtomicFAddEXT = 6035,
};
}  // namespace spv

bool is_atomic(std::uint16_t op) {
  return (op >= spv::OpAtomicLoad && op <= spv::OpAtomicXor) || op == spv::OpAtomicFlagTestAndSet ||
         op == spv::OpAtomicFlagClear || op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT ||
         op == spv::OpAtomicFAddEXT;
}

// Instructions whose result points into the same allocation as their first pointer operand.
bool derives_pointer(std::uint16_t op) {
  switch (op) {
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain: case spv::OpCopyObject: case spv::OpPtrCastToGeneric:
    case spv::OpGenericCastToPtr: case spv::OpGenericCastToPtrExplicit: case spv::OpBitcast:
      return true;
    default:
      return false;
  }
}

struct ModuleFacts {
  std::map<std::uint32_t, std::uint32_t> scalar_bits;   // OpTypeInt/OpTypeFloat id -> width
  std::map<std::uint32_t, std::uint32_t> pointee;       // OpTypePointer id -> pointee type id
  std::map<std::uint32_t, std::uint32_t> storage_class; // OpTypePointer id -> its storage class
  std::map<std::uint32_t, std::uint32_t> type_of;       // result id -> result type id
  std::map<std::uint32_t, std::uint32_t> derived_from;  // pointer id -> the pointer it was made from
  std::map<std::uint32_t, std::uint32_t> parameters;    // OpFunctionParameter id -> its type
  std::vector<std::pair<std::uint16_t, std::uint32_t>> atomics;  // (opcode, pointer operand)
  std::vector<std::string> problems;
};

spv_result_t collect(void* user, const spv_parsed_instruction_t* inst) {
  auto& facts = *static_cast<ModuleFacts*>(user);
  auto word = [&](std::size_t operand) { return inst->words[inst->operands[operand].offset]; };
  const std::uint16_t op = inst->opcode;
  if (inst->type_id && inst->result_id) facts.type_of[inst->result_id] = inst->type_id;
  if (op == spv::OpTypeInt || op == spv::OpTypeFloat) {
    facts.scalar_bits[inst->result_id] = word(1);
  } else if (op == spv::OpTypePointer) {
    facts.storage_class[inst->result_id] = word(1);
    facts.pointee[inst->result_id] = word(2);
  } else if (op == spv::OpFunctionParameter) {
    facts.parameters[inst->result_id] = inst->type_id;
  } else if (derives_pointer(op)) {
    facts.derived_from[inst->result_id] = word(2);
  } else if (is_atomic(op)) {
    // OpAtomicStore and OpAtomicFlagClear have no result: the pointer is their first operand.
    const bool has_result = op != spv::OpAtomicStore && op != spv::OpAtomicFlagClear;
    facts.atomics.emplace_back(op, word(has_result ? 2 : 0));
  }
  return SPV_SUCCESS;
}

ModuleFacts parse(std::span<const std::uint32_t> words) {
  ModuleFacts facts;
  std::unique_ptr<spv_context_t, void (*)(spv_context)> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_6),
                                                                spvContextDestroy);
  spv_diagnostic diagnostic = nullptr;
  if (spvBinaryParse(context.get(), &facts, words.data(), words.size(), nullptr, collect, &diagnostic) != SPV_SUCCESS)
    facts.problems.push_back(std::string("spvBinaryParse failed: ") +
                             (diagnostic && diagnostic->error ? diagnostic->error : "no diagnostic"));
  spvDiagnosticDestroy(diagnostic);
  return facts;
}

// The width in bits of what a pointer type points at, when that is a scalar.
std::optional<std::uint32_t> pointee_bits(const ModuleFacts& facts, std::uint32_t pointer_type) {
  const auto pointee = facts.pointee.find(pointer_type);
  if (pointee == facts.pointee.end()) return std::nullopt;
  const auto bits = facts.scalar_bits.find(pointee->second);
  if (bits == facts.scalar_bits.end()) return std::nullopt;
  return bits->second;
}

// One line per atomic that acts through an argument declared narrower than the atomic, or whose origin
// cannot be told.
std::vector<std::string> misaligned_atomics(const ModuleFacts& facts) {
  std::vector<std::string> found = facts.problems;
  for (const auto& [op, pointer] : facts.atomics) {
    const auto pointer_type = facts.type_of.find(pointer);
    const std::optional<std::uint32_t> atomic_bits =
        pointer_type == facts.type_of.end() ? std::nullopt : pointee_bits(facts, pointer_type->second);
    if (!atomic_bits) {
      found.push_back("atomic opcode " + std::to_string(op) + " on %" + std::to_string(pointer) +
                      ": not a pointer to a scalar");
      continue;
    }
    std::uint32_t origin = pointer;
    for (auto step = facts.derived_from.find(origin); step != facts.derived_from.end();
         step = facts.derived_from.find(origin))
      origin = step->second;
    const auto parameter = facts.parameters.find(origin);
    if (parameter == facts.parameters.end()) continue;  // a variable: aligned for its own declared type
    const std::optional<std::uint32_t> declared_bits = pointee_bits(facts, parameter->second);
    if (!declared_bits || *declared_bits < *atomic_bits)
      found.push_back("atomic opcode " + std::to_string(op) + " on " + std::to_string(*atomic_bits) +
                      "-bit words through argument %" + std::to_string(origin) + " declared as a pointer to " +
                      (declared_bits ? std::to_string(*declared_bits) + "-bit values" : "a non-scalar"));
  }
  return found;
}

// One line per atomic on a pointer in the Generic storage class. Intel's OpenCL CPU runtime (intel-opencl-rt
// 2026.2) implements atomics on generic pointers as calls it does not have (clBuildProgram: "Symbols not found:
// _Z10atomic_addPU3AS4Vff ..."), and nothing is gained by them: every atomic of ours knows its address space.
// clang makes them from OpenCL C 2.0's atomic_* builtins (declared for generic pointers only).
std::vector<std::string> generic_atomics(const ModuleFacts& facts) {
  constexpr std::uint32_t kGeneric = 8;  // SPIR-V StorageClass Generic
  std::vector<std::string> found = facts.problems;
  for (const auto& [op, pointer] : facts.atomics) {
    const auto pointer_type = facts.type_of.find(pointer);
    if (pointer_type == facts.type_of.end()) continue;
    const auto storage = facts.storage_class.find(pointer_type->second);
    if (storage != facts.storage_class.end() && storage->second == kGeneric)
      found.push_back("atomic opcode " + std::to_string(op) + " on %" + std::to_string(pointer) +
                      ", a Generic pointer");
  }
  return found;
}

std::vector<std::string_view> all_module_names() {
  std::vector<std::string_view> names;
  for (const auto& m : zr::core::embedded_modules()) names.push_back(m.name);
  return names;
}

class AtomicAlignmentTest : public ::testing::TestWithParam<std::string_view> {};

TEST_P(AtomicAlignmentTest, GivenEmbeddedModule_WhenAtomicsTracedToArguments_ThenNoArgumentIsNarrowerThanItsAtomic) {
  for (const auto& m : zr::core::embedded_modules()) {
    if (m.name != GetParam()) continue;
    const auto found = misaligned_atomics(parse(m.spirv));
    EXPECT_TRUE(found.empty()) << m.name << ":\n" << ::testing::PrintToString(found);
    return;
  }
  FAIL() << "no module " << GetParam();
}

TEST_P(AtomicAlignmentTest, GivenEmbeddedModule_WhenAtomicsInspected_ThenNoneActsThroughAGenericPointer) {
  for (const auto& m : zr::core::embedded_modules()) {
    if (m.name != GetParam()) continue;
    const auto found = generic_atomics(parse(m.spirv));
    EXPECT_TRUE(found.empty()) << m.name << " (build it as OpenCL C 3.0 without the generic address space):\n"
                               << ::testing::PrintToString(found);
    return;
  }
  FAIL() << "no module " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(AllEmbeddedModules, AtomicAlignmentTest, ::testing::ValuesIn(all_module_names()),
                         [](const auto& info) { return std::string(info.param); });

// ---- self-tests on kernels assembled by SPIRV-Tools, whose grammar checks the opcode numbers above ----------
std::vector<std::string> check_assembled(const std::string& scratch_type, const std::string& atomic) {
  const std::string text = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "self_test"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%ptr_uchar = OpTypePointer Workgroup %uchar
%ptr_uint = OpTypePointer Workgroup %uint
%ptr_float = OpTypePointer Workgroup %float
%fn = OpTypeFunction %void %ptr_)" + scratch_type + R"(
%device = OpConstant %uint 1
%relaxed = OpConstant %uint 0
%one = OpConstant %uint 1
%main = OpFunction %void None %fn
%scratch = OpFunctionParameter %ptr_)" + scratch_type + R"(
%entry = OpLabel
%word = OpBitcast %ptr_uint %scratch
%next = OpInBoundsPtrAccessChain %ptr_uint %word %one
)" + atomic + R"(
OpReturn
OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) { messages += m; });
  std::vector<std::uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << messages;
  return misaligned_atomics(parse(words));
}

TEST(AtomicAlignmentSelfTest, GivenWordAtomicThroughByteArgument_WhenChecked_ThenReported) {
  EXPECT_EQ(check_assembled("uchar", "%old = OpAtomicIAdd %uint %word %device %relaxed %one").size(), 1u);
  EXPECT_EQ(check_assembled("uchar", "OpAtomicStore %next %device %relaxed %one").size(), 1u);
  EXPECT_EQ(check_assembled("uchar", "%old = OpAtomicUMax %uint %next %device %relaxed %one").size(), 1u);
}

TEST(AtomicAlignmentSelfTest, GivenWordAtomicThroughWordArgument_WhenChecked_ThenClean) {
  EXPECT_TRUE(check_assembled("uint", "%old = OpAtomicIAdd %uint %word %device %relaxed %one").empty());
  EXPECT_TRUE(check_assembled("float", "%old = OpAtomicXor %uint %next %device %relaxed %one").empty());
  EXPECT_TRUE(check_assembled("uint", "%old = OpAtomicLoad %uint %next %device %relaxed").empty());
}

TEST(AtomicAlignmentSelfTest, GivenAtomicOnAGenericPointer_WhenChecked_ThenReported) {
  const std::string text = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "self_test"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ptr_global = OpTypePointer CrossWorkgroup %uint
%ptr_generic = OpTypePointer Generic %uint
%fn = OpTypeFunction %void %ptr_global
%device = OpConstant %uint 1
%relaxed = OpConstant %uint 0
%one = OpConstant %uint 1
%main = OpFunction %void None %fn
%total = OpFunctionParameter %ptr_global
%entry = OpLabel
%generic = OpPtrCastToGeneric %ptr_generic %total
%old = OpAtomicIAdd %uint %generic %device %relaxed %one
%kept = OpAtomicIAdd %uint %total %device %relaxed %one
OpReturn
OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::vector<std::uint32_t> words;
  ASSERT_TRUE(tools.Assemble(text, &words));
  EXPECT_EQ(generic_atomics(parse(words)).size(), 1u) << "the generic one only";
}

}  // namespace
