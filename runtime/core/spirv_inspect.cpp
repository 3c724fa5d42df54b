#include "spirv_inspect.hpp"

#include <map>
#include <stdexcept>

namespace zr::core {

namespace {
// SPIR-V numbers used here (SPIR-V 1.6 unified spec, section 3).
constexpr std::uint32_t kMagic = 0x07230203;
enum Opcode : std::uint32_t {
  OpEntryPoint = 15,
  OpCapability = 17,
  OpMemoryModel = 14,
  OpConstant = 43,
  OpFunction = 54,
  OpFunctionEnd = 56,
  OpDecorate = 71,
  OpReturnValue = 254,
  OpGroupAll = 261,
  OpGroupSMax = 271,
  OpGroupNonUniformElect = 333,
  OpGroupNonUniformQuadSwap = 366,
};
enum Capability : std::uint32_t {
  CapFloat16Buffer = 8,
  CapFloat16 = 9,
  CapFloat64 = 10,
  CapInt64Atomics = 12,
  CapGroupNonUniform = 61,
  CapGroupNonUniformQuad = 68,
  CapSubgroupShuffleINTEL = 5568,
  CapSubgroupBufferBlockIOINTEL = 5569,
  CapAtomicFloat32MinMaxEXT = 5612,
  CapAtomicFloat64MinMaxEXT = 5613,
  CapAtomicFloat16MinMaxEXT = 5616,
  CapAtomicFloat32AddEXT = 6033,
  CapAtomicFloat64AddEXT = 6034,
  CapAtomicFloat16AddEXT = 6095,
};
constexpr std::uint32_t kDecorationBuiltIn = 11;
constexpr std::uint32_t kDecorationLinkageAttributes = 41;
constexpr std::uint32_t kLinkageExport = 0;
constexpr std::uint32_t kScopeWorkgroup = 2;
constexpr std::uint32_t kScopeSubgroup = 3;
bool is_subgroup_builtin(std::uint32_t b) { return b >= 36 && b <= 41; }  // SubgroupSize .. SubgroupLocalInvocationId

std::string read_string(std::span<const std::uint32_t> words) {
  std::string s;
  for (std::uint32_t w : words) {
    for (int i = 0; i < 4; ++i) {
      char c = static_cast<char>((w >> (8 * i)) & 0xff);
      if (c == '\0') return s;
      s.push_back(c);
    }
  }
  throw std::runtime_error("SPIR-V string without terminator");
}
}  // namespace

SpirvSummary inspect_spirv(std::span<const std::uint32_t> words) {
  if (words.size() < 5 || words[0] != kMagic) throw std::runtime_error("not a SPIR-V module (bad magic number)");
  SpirvSummary out;
  std::map<std::uint32_t, std::uint32_t> constants;  // id -> low 32 bits of the value
  std::vector<std::uint32_t> group_scope_ids;
  std::map<std::string, std::uint32_t, std::less<>> linked;  // linkage name -> id, either kind
  std::map<std::uint32_t, bool> exported;                      // id -> export (true) or import
  std::map<std::uint32_t, std::vector<std::uint32_t>> returned_ids;  // function id -> OpReturnValue operands
  std::uint32_t current_function = 0;

  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16;
    const std::uint32_t opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) throw std::runtime_error("truncated SPIR-V instruction");
    const auto operands = words.subspan(at + 1, count - 1);
    switch (opcode) {
      case OpCapability: out.capabilities.insert(operands[0]); break;
      case OpMemoryModel:
        out.memory_addressing = operands[0];
        out.memory_model = operands[1];
        break;
      case OpEntryPoint: out.entry_points.push_back(read_string(operands.subspan(2))); break;
      case OpConstant: constants[operands[1]] = operands[2]; break;
      case OpDecorate:
        if (operands.size() >= 3 && operands[1] == kDecorationBuiltIn && is_subgroup_builtin(operands[2]))
          out.features |= Feature::subgroups;
        if (operands.size() >= 3 && operands[1] == kDecorationLinkageAttributes) {
          linked[read_string(operands.subspan(2, operands.size() - 3))] = operands[0];
          exported[operands[0]] = operands.back() == kLinkageExport;
        }
        break;
      case OpFunction: current_function = operands[1]; returned_ids[current_function]; break;
      case OpFunctionEnd: current_function = 0; break;
      case OpReturnValue:
        if (current_function != 0) returned_ids[current_function].push_back(operands[0]);
        break;
      default:
        if ((opcode >= OpGroupAll && opcode <= OpGroupSMax) ||
            (opcode >= OpGroupNonUniformElect && opcode <= OpGroupNonUniformQuadSwap))
          group_scope_ids.push_back(operands[2]);  // result type, result id, execution scope
        break;
    }
    at += count;
  }

  for (std::uint32_t id : group_scope_ids) {
    auto it = constants.find(id);
    if (it == constants.end()) throw std::runtime_error("group operation with a non-constant scope");
    if (it->second == kScopeSubgroup) out.features |= Feature::subgroups;
    else if (it->second == kScopeWorkgroup) out.features |= Feature::work_group_collectives;
  }
  for (const auto& [linkage_name, id] : linked) {
    if (!returned_ids.contains(id)) continue;  // a variable, not a function
    (exported[id] ? out.exported_functions : out.imported_functions)[linkage_name] = id;
  }
  for (const auto& [function, values] : returned_ids) {
    if (values.empty()) continue;
    bool same = true;
    for (std::uint32_t value : values) same = same && value == values.front() && constants.contains(value);
    if (same) out.returned_constants[function] = constants[values.front()];
  }
  for (std::uint32_t cap : out.capabilities) {
    switch (cap) {
      case CapFloat16Buffer: case CapFloat16: out.features |= Feature::fp16; break;
      case CapFloat64: out.features |= Feature::fp64; break;
      case CapInt64Atomics: out.features |= Feature::int64_atomics; break;
      case CapSubgroupShuffleINTEL: case CapSubgroupBufferBlockIOINTEL: out.features |= Feature::subgroups; break;
      case CapAtomicFloat16AddEXT: case CapAtomicFloat32AddEXT: case CapAtomicFloat64AddEXT:
        out.features |= Feature::float_atomic_add;
        break;
      case CapAtomicFloat16MinMaxEXT: case CapAtomicFloat32MinMaxEXT: case CapAtomicFloat64MinMaxEXT:
        out.features |= Feature::float_atomic_min_max;
        break;
      default:
        if (cap >= CapGroupNonUniform && cap <= CapGroupNonUniformQuad) out.features |= Feature::subgroups;
        break;
    }
  }
  return out;
}

}  // namespace zr::core
