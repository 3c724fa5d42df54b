// Checks the kernel modules embedded in zr_kernels against sources that do not share code with the build-time
// checker (runtime/core/spirv_inspect.cpp): the SPIRV-Tools validator and binary parser, the spirv-dis
// disassembler, the catalogue the embedder generated, and the module list CMake read from kernels.table.
//
// Compile definitions (tests/kernels/CMakeLists.txt):
//   ZR_TEST_SPIRV_DIS          path of spirv-dis
//   ZR_TEST_KERNEL_OUT         directory holding the built <module>.spv files
//   ZR_TEST_MODULES            "tree_base,tree_fp16,..."  the modules CMake configured from kernels.table
//   ZR_TEST_MODULE_REQUIRES    "tree_base=|tree_fp16=fp16|..."  each module's features as CMake computed them
//   ZR_TEST_NATIVE_EXPECTED    1 when configured with ZR_EMBED_NATIVE_BINARIES=ON, else 0
//   ZR_TEST_INTEL_TARGETS      "gen9=float_atomic_add,float_atomic_min_max|tgllp=fp64,...|pvc="  (targets, lacks)
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.h>
#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "features.hpp"
#include "kernel_catalog.hpp"

namespace {

using zr::core::EmbeddedModule;
using zr::core::Feature;
using zr::core::FeatureSet;

// ---- SPIR-V numbers (SPIR-V 1.6 unified specification, section 3, and the registered extensions) -----------
// These are written out here on purpose rather than shared with spirv_inspect.cpp; the self-tests at the end of
// this file check them against the SPIRV-Tools assembler's grammar.
namespace spv {
enum Op : std::uint16_t {
  OpMemoryModel = 14,
  OpEntryPoint = 15,
  OpCapability = 17,
  OpConstant = 43,
  OpControlBarrier = 224,
  OpGroupAsyncCopy = 259,  // async_work_group_copy: OpenCL 1.2 core, not a collective
  OpGroupWaitEvents = 260,
  OpGroupAll = 261,
  OpGroupAny = 262,
  OpGroupBroadcast = 263,
  OpGroupIAdd = 264,
  OpGroupFAdd = 265,
  OpGroupFMin = 266,
  OpGroupUMin = 267,
  OpGroupSMin = 268,
  OpGroupFMax = 269,
  OpGroupUMax = 270,
  OpGroupSMax = 271,
  OpGroupNonUniformElect = 333,
  OpGroupNonUniformAll = 334,
  OpGroupNonUniformBroadcast = 337,
  OpGroupNonUniformBallot = 339,
  OpGroupNonUniformShuffle = 345,
  OpGroupNonUniformIAdd = 349,
  OpGroupNonUniformFMul = 352,
  OpGroupNonUniformLogicalXor = 364,
  OpGroupNonUniformQuadBroadcast = 365,
  OpGroupNonUniformQuadSwap = 366,
  OpSubgroupBallotKHR = 4421,
  OpSubgroupFirstInvocationKHR = 4422,
  OpSubgroupAllKHR = 4428,
  OpSubgroupAnyKHR = 4429,
  OpSubgroupAllEqualKHR = 4430,
  OpGroupNonUniformRotateKHR = 4431,
  OpSubgroupReadInvocationKHR = 4432,
  OpGroupIAddNonUniformAMD = 5000,
  OpGroupSMaxNonUniformAMD = 5007,
  OpSubgroupShuffleINTEL = 5571,
  OpSubgroupShuffleDownINTEL = 5572,
  OpSubgroupShuffleUpINTEL = 5573,
  OpSubgroupShuffleXorINTEL = 5574,
  OpSubgroupBlockReadINTEL = 5575,
  OpSubgroupBlockWriteINTEL = 5576,
  OpSubgroupImageBlockReadINTEL = 5577,
  OpSubgroupImageBlockWriteINTEL = 5578,
  OpSubgroupImageMediaBlockReadINTEL = 5580,
  OpSubgroupImageMediaBlockWriteINTEL = 5581,
  OpGroupIMulKHR = 6401,
  OpGroupLogicalXorKHR = 6408,
};

enum Capability : std::uint32_t {
  Float16Buffer = 8,
  Float16 = 9,
  Float64 = 10,
  Int64Atomics = 12,
  GroupNonUniform = 61,
  GroupNonUniformVote = 62,
  GroupNonUniformArithmetic = 63,
  GroupNonUniformBallot = 64,
  GroupNonUniformShuffle = 65,
  GroupNonUniformShuffleRelative = 66,
  GroupNonUniformClustered = 67,
  GroupNonUniformQuad = 68,
  SubgroupBallotKHR = 4423,
  SubgroupVoteKHR = 4431,
  SubgroupShuffleINTEL = 5568,
  SubgroupBufferBlockIOINTEL = 5569,
  SubgroupImageBlockIOINTEL = 5570,
  SubgroupImageMediaBlockIOINTEL = 5579,
  AtomicFloat32MinMaxEXT = 5612,
  AtomicFloat64MinMaxEXT = 5613,
  AtomicFloat16MinMaxEXT = 5616,
  GroupNonUniformRotateKHR = 6026,
  AtomicFloat32AddEXT = 6033,
  AtomicFloat64AddEXT = 6034,
  AtomicFloat16AddEXT = 6095,
};

enum AddressingModel : std::uint32_t { Physical64 = 2 };
enum MemoryModel : std::uint32_t { OpenCL = 2 };
enum Scope : std::uint32_t { Workgroup = 2, Subgroup = 3 };

enum BuiltIn : std::uint32_t {
  SubgroupSize = 36,
  SubgroupMaxSize = 37,
  NumSubgroups = 38,
  NumEnqueuedSubgroups = 39,
  SubgroupId = 40,
  SubgroupLocalInvocationId = 41,
  SubgroupEqMask = 4416,
  SubgroupGeMask = 4417,
  SubgroupGtMask = 4418,
  SubgroupLeMask = 4419,
  SubgroupLtMask = 4420,
};
}  // namespace spv

// Instructions whose third word (after result type and result id) is an Execution scope <id>: the group
// operations of the Groups capability, the non-uniform group operations, the AMD/KHR group arithmetic.
bool has_execution_scope(std::uint16_t op) {
  return (op >= spv::OpGroupAll && op <= spv::OpGroupSMax) ||
         (op >= spv::OpGroupNonUniformElect && op <= spv::OpGroupNonUniformQuadSwap) ||
         op == spv::OpGroupNonUniformRotateKHR ||
         (op >= spv::OpGroupIAddNonUniformAMD && op <= spv::OpGroupSMaxNonUniformAMD) ||
         (op >= spv::OpGroupIMulKHR && op <= spv::OpGroupLogicalXorKHR);
}

// Instructions that only exist at sub-group level and carry no scope operand.
bool is_subgroup_only_instruction(std::uint16_t op) {
  switch (op) {
    case spv::OpSubgroupBallotKHR: case spv::OpSubgroupFirstInvocationKHR: case spv::OpSubgroupAllKHR:
    case spv::OpSubgroupAnyKHR: case spv::OpSubgroupAllEqualKHR: case spv::OpSubgroupReadInvocationKHR:
    case spv::OpSubgroupShuffleINTEL: case spv::OpSubgroupShuffleDownINTEL: case spv::OpSubgroupShuffleUpINTEL:
    case spv::OpSubgroupShuffleXorINTEL: case spv::OpSubgroupBlockReadINTEL: case spv::OpSubgroupBlockWriteINTEL:
    case spv::OpSubgroupImageBlockReadINTEL: case spv::OpSubgroupImageBlockWriteINTEL:
    case spv::OpSubgroupImageMediaBlockReadINTEL: case spv::OpSubgroupImageMediaBlockWriteINTEL:
      return true;
    default:
      return false;
  }
}

bool is_subgroup_builtin(std::uint32_t b) {
  return (b >= spv::SubgroupSize && b <= spv::SubgroupLocalInvocationId) ||
         (b >= spv::SubgroupEqMask && b <= spv::SubgroupLtMask);
}

std::optional<Feature> feature_of_capability(std::uint32_t cap) {
  switch (cap) {
    case spv::Float16Buffer: case spv::Float16: return Feature::fp16;
    case spv::Float64: return Feature::fp64;
    case spv::Int64Atomics: return Feature::int64_atomics;
    case spv::AtomicFloat16AddEXT: case spv::AtomicFloat32AddEXT: case spv::AtomicFloat64AddEXT:
      return Feature::float_atomic_add;
    case spv::AtomicFloat16MinMaxEXT: case spv::AtomicFloat32MinMaxEXT: case spv::AtomicFloat64MinMaxEXT:
      return Feature::float_atomic_min_max;
    case spv::GroupNonUniform: case spv::GroupNonUniformVote: case spv::GroupNonUniformArithmetic:
    case spv::GroupNonUniformBallot: case spv::GroupNonUniformShuffle: case spv::GroupNonUniformShuffleRelative:
    case spv::GroupNonUniformClustered: case spv::GroupNonUniformQuad: case spv::GroupNonUniformRotateKHR:
    case spv::SubgroupBallotKHR: case spv::SubgroupVoteKHR: case spv::SubgroupShuffleINTEL:
    case spv::SubgroupBufferBlockIOINTEL: case spv::SubgroupImageBlockIOINTEL:
    case spv::SubgroupImageMediaBlockIOINTEL:
      return Feature::subgroups;
    default:
      return std::nullopt;
  }
}

// ---- what SPIRV-Tools' parser sees in a module -----------------------------------------------------------------
struct ParsedModule {
  std::uint32_t version = 0;  // header word 1
  int memory_model_count = 0;
  std::uint32_t addressing_model = ~0u;
  std::uint32_t memory_model = ~0u;
  std::set<std::uint32_t> capabilities;
  std::vector<std::string> entry_points;
  FeatureSet features;
  std::vector<std::string> problems;  // anything the classification could not make sense of
};

struct ParseState {
  ParsedModule out;
  std::map<std::uint32_t, std::uint32_t> constants;              // 32-bit OpConstant values by id
  std::vector<std::pair<std::uint16_t, std::uint32_t>> scopes;  // (opcode, execution scope id)
};

std::string literal_string(const spv_parsed_instruction_t& inst, const spv_parsed_operand_t& operand) {
  const char* begin = reinterpret_cast<const char*>(inst.words + operand.offset);
  return std::string(begin, strnlen(begin, operand.num_words * 4u));
}

spv_result_t on_header(void* user, spv_endianness_t, std::uint32_t, std::uint32_t version, std::uint32_t,
                       std::uint32_t, std::uint32_t) {
  static_cast<ParseState*>(user)->out.version = version;
  return SPV_SUCCESS;
}

spv_result_t on_instruction(void* user, const spv_parsed_instruction_t* inst) {
  auto& state = *static_cast<ParseState*>(user);
  auto& out = state.out;
  auto word = [&](std::size_t operand) { return inst->words[inst->operands[operand].offset]; };
  const std::uint16_t op = inst->opcode;

  // Any BuiltIn operand (OpDecorate, OpMemberDecorate, OpDecorateId ...) naming a sub-group variable.
  for (std::uint16_t i = 0; i < inst->num_operands; ++i) {
    if (inst->operands[i].type == SPV_OPERAND_TYPE_BUILT_IN && is_subgroup_builtin(word(i)))
      out.features |= Feature::subgroups;
  }

  if (op == spv::OpCapability) {
    out.capabilities.insert(word(0));
  } else if (op == spv::OpMemoryModel) {
    ++out.memory_model_count;
    out.addressing_model = word(0);
    out.memory_model = word(1);
  } else if (op == spv::OpEntryPoint) {
    bool named = false;
    for (std::uint16_t i = 0; i < inst->num_operands; ++i) {
      if (inst->operands[i].type == SPV_OPERAND_TYPE_LITERAL_STRING) {
        out.entry_points.push_back(literal_string(*inst, inst->operands[i]));
        named = true;
        break;
      }
    }
    if (!named) out.problems.push_back("OpEntryPoint without a name");
  } else if (op == spv::OpConstant) {
    if (inst->num_operands == 3 && inst->operands[2].num_words == 1) state.constants[inst->result_id] = word(2);
  } else if (has_execution_scope(op)) {
    if (inst->num_operands < 3 || inst->operands[2].type != SPV_OPERAND_TYPE_SCOPE_ID) {
      out.problems.push_back("opcode " + std::to_string(op) + " was expected to have an Execution scope operand");
    } else {
      state.scopes.emplace_back(op, word(2));
    }
  } else if (op == spv::OpControlBarrier) {
    // sub_group_barrier(): a Subgroup execution scope needs sub-groups; work_group_barrier() is core.
    state.scopes.emplace_back(op, word(0));
  } else if (is_subgroup_only_instruction(op)) {
    out.features |= Feature::subgroups;
  }
  return SPV_SUCCESS;
}

ParsedModule parse_with_spirv_tools(std::span<const std::uint32_t> words) {
  ParseState state;
  // The parser needs a grammar that knows every opcode; the universal 1.6 one does (it is only a parse).
  std::unique_ptr<spv_context_t, void (*)(spv_context)> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_6),
                                                                spvContextDestroy);
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result = spvBinaryParse(context.get(), &state, words.data(), words.size(), on_header,
                                             on_instruction, &diagnostic);
  if (result != SPV_SUCCESS) {
    state.out.problems.push_back("spvBinaryParse failed (" + std::to_string(result) + "): " +
                                 (diagnostic && diagnostic->error ? diagnostic->error : "no diagnostic"));
  }
  spvDiagnosticDestroy(diagnostic);

  for (auto [op, id] : state.scopes) {
    auto it = state.constants.find(id);
    if (it == state.constants.end()) {
      state.out.problems.push_back("opcode " + std::to_string(op) + " has a scope that is not a 32-bit constant");
      continue;
    }
    if (it->second == spv::Subgroup) {
      state.out.features |= Feature::subgroups;
    } else if (it->second == spv::Workgroup && op != spv::OpControlBarrier) {
      state.out.features |= Feature::work_group_collectives;
    }
  }
  for (std::uint32_t cap : state.out.capabilities) {
    if (auto f = feature_of_capability(cap)) state.out.features |= *f;
  }
  return state.out;
}

// ---- SPIRV-Tools validation ------------------------------------------------------------------------------------
// The environment is the universal one of the module's own SPIR-V version, like plain spirv-val in the build
// (which uses universal 1.6): llvm-spirv-15 writes 1.0, or 1.3 for modules with non-uniform group operations.
// The OpenCL environments cannot be used: they reject Int64Atomics (needed by the int64atomic class) even
// though OpenCL devices with cl_khr_int64_base_atomics accept it.
std::optional<spv_target_env> universal_env_for(std::uint32_t version_word) {
  if ((version_word >> 16) != 1) return std::nullopt;
  switch ((version_word >> 8) & 0xff) {
    case 0: return SPV_ENV_UNIVERSAL_1_0;
    case 1: return SPV_ENV_UNIVERSAL_1_1;
    case 2: return SPV_ENV_UNIVERSAL_1_2;
    case 3: return SPV_ENV_UNIVERSAL_1_3;
    case 4: return SPV_ENV_UNIVERSAL_1_4;
    case 5: return SPV_ENV_UNIVERSAL_1_5;
    case 6: return SPV_ENV_UNIVERSAL_1_6;
    default: return std::nullopt;
  }
}

std::string validate(std::span<const std::uint32_t> words) {
  if (words.size() < 5) return "module has no SPIR-V header";
  const auto env = universal_env_for(words[1]);
  if (!env) return "unknown SPIR-V version word " + std::to_string(words[1]);
  spvtools::SpirvTools tools(*env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position, const char* text) {
    messages += "word " + std::to_string(position.index) + ": " + text + "\n";
  });
  if (!tools.Validate(words.data(), words.size()) && messages.empty()) messages = "invalid, without a message";
  return messages;
}

// ---- helpers -----------------------------------------------------------------------------------------------------
std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : text) {
    if (c == separator) {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

// "a=x,y|b=|c=z" -> {a: "x,y", b: "", c: "z"}
std::map<std::string, std::string> parse_assignments(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const auto& item : split(text, '|')) {
    const auto eq = item.find('=');
    out[item.substr(0, eq)] = eq == std::string::npos ? "" : item.substr(eq + 1);
  }
  return out;
}

FeatureSet parse_features(const std::string& list) {
  FeatureSet set;
  for (const auto& name : split(list, ',')) {
    const auto f = zr::core::parse_feature(name);
    EXPECT_TRUE(f.has_value()) << "unknown feature '" << name << "' in the CMake configuration";
    if (f) set |= *f;
  }
  return set;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> table_entry_points(const EmbeddedModule& m) {
  std::vector<std::string> names;
  for (const auto& k : m.kernels) names.emplace_back(k.entry_point);
  return sorted(std::move(names));
}

std::string capability_list(const std::set<std::uint32_t>& caps) {
  std::string s;
  for (auto c : caps) s += (s.empty() ? "" : " ") + std::to_string(c);
  return s;
}

std::string module_param_name(const ::testing::TestParamInfo<std::string_view>& info) {
  std::string name(info.param);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
                  '_');
  return name;
}

// The parameter is the module's name (so that test output shows it), looked up again in each test.
std::vector<std::string_view> all_module_names() {
  std::vector<std::string_view> out;
  for (const auto& m : zr::core::embedded_modules()) out.push_back(m.name);
  return out;
}

// A file that removes itself.
class TempFile {
 public:
  explicit TempFile(const std::string& stem) {
    std::string pattern = ::testing::TempDir() + "zr_" + stem + "_XXXXXX.spv";
    const int fd = mkstemps(pattern.data(), 4);
    if (fd >= 0) {
      close(fd);
      path_ = pattern;
    }
  }
  ~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct CommandResult {
  int status = -1;
  std::string output;
};

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) result.output.append(buffer, n);
  result.status = pclose(pipe);
  return result;
}

// ---- the per-module tests ----------------------------------------------------------------------------------------
class EmbeddedModuleTest : public ::testing::TestWithParam<std::string_view> {
 protected:
  void SetUp() override {
    for (const auto& m : zr::core::embedded_modules()) {
      if (m.name == GetParam()) module_ = &m;
    }
    ASSERT_NE(module_, nullptr);
  }
  const EmbeddedModule& module() const { return *module_; }

 private:
  const EmbeddedModule* module_ = nullptr;
};

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenValidatedWithSpirvTools_ThenNoDiagnostics) {
  ASSERT_FALSE(module().spirv.empty());
  EXPECT_EQ(validate(module().spirv), "");
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenParsedWithSpirvTools_ThenMemoryModelIsPhysical64OpenCL) {
  const auto parsed = parse_with_spirv_tools(module().spirv);
  EXPECT_TRUE(parsed.problems.empty()) << ::testing::PrintToString(parsed.problems);
  EXPECT_EQ(parsed.memory_model_count, 1);
  EXPECT_EQ(parsed.addressing_model, spv::Physical64);
  EXPECT_EQ(parsed.memory_model, spv::OpenCL);
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenParsedWithSpirvTools_ThenEntryPointsAreExactlyTheTableKernels) {
  const auto parsed = parse_with_spirv_tools(module().spirv);
  // Only the epilogues of kernels with reducers (the tree's and the collectives') are libraries of functions,
  // without entry points.
  EXPECT_EQ(module().kernels.empty(), module().variant == "kepilogue" || module().variant == "kepiwg");
  EXPECT_EQ(sorted(parsed.entry_points), table_entry_points(module()));
  // No entry point twice (sorted() keeps duplicates, so a duplicate in only one of them fails above too).
  const std::set<std::string> unique(parsed.entry_points.begin(), parsed.entry_points.end());
  EXPECT_EQ(unique.size(), parsed.entry_points.size());
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenParsedWithSpirvTools_ThenCapabilitiesImplyExactlyTheRequiredFeatures) {
  const auto parsed = parse_with_spirv_tools(module().spirv);
  EXPECT_TRUE(parsed.problems.empty()) << ::testing::PrintToString(parsed.problems);
  EXPECT_EQ(zr::core::to_string(parsed.features), zr::core::to_string(zr::core::spirv_visible(module().required)))
      << "capabilities: " << capability_list(parsed.capabilities);
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenComparedWithCMakeConfiguration_ThenRequiredFeaturesAgree) {
  // kernels.table as CMake read it (ZR_MODULE_REQUIRES_<module>) against what the embedder wrote.
  const auto requires_by_module = parse_assignments(ZR_TEST_MODULE_REQUIRES);
  const auto it = requires_by_module.find(std::string(module().name));
  ASSERT_NE(it, requires_by_module.end()) << "CMake does not know module " << module().name;
  EXPECT_EQ(zr::core::to_string(parse_features(it->second)), zr::core::to_string(module().required));
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenComparedWithBuiltFile_ThenSpirvWordsAreIdentical) {
  const std::string path = std::string(ZR_TEST_KERNEL_OUT) + "/" + std::string(module().name) + ".spv";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot open " << path;
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ASSERT_EQ(bytes.size(), module().spirv.size_bytes());
  EXPECT_EQ(std::memcmp(bytes.data(), module().spirv.data(), bytes.size()), 0);
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenDisassembledWithSpirvDis_ThenMemoryModelAndEntryPointsMatch) {
  TempFile file(std::string(module().name));
  ASSERT_FALSE(file.path().empty()) << "cannot create a temporary file in " << ::testing::TempDir();
  {
    std::ofstream out(file.path(), std::ios::binary);
    out.write(reinterpret_cast<const char*>(module().spirv.data()),
              static_cast<std::streamsize>(module().spirv.size_bytes()));
    ASSERT_TRUE(out.good());
  }
  const auto dis = run_command(std::string("'") + ZR_TEST_SPIRV_DIS + "' --no-color '" + file.path() + "'");
  ASSERT_EQ(dis.status, 0) << dis.output;
  EXPECT_NE(dis.output.find("OpMemoryModel Physical64 OpenCL"), std::string::npos);

  // Lines like '               OpEntryPoint Kernel %315 "zr_tree_plus_f16" %__spirv_BuiltInGlobalSize ...'.
  // (No std::regex: GCC 12 warns inside it under the sanitizers of the debug preset, and warnings are errors.)
  std::vector<std::string> names;
  std::istringstream lines(dis.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string opcode, model, id, name;
    if (!(words >> opcode >> model >> id >> name) || opcode != "OpEntryPoint") continue;
    EXPECT_EQ(model, "Kernel") << line;
    ASSERT_TRUE(name.size() >= 2 && name.front() == '"' && name.back() == '"') << line;
    names.push_back(name.substr(1, name.size() - 2));
  }
  EXPECT_EQ(sorted(names), table_entry_points(module()));
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenSpir12BitcodeInspected_ThenItIsNonEmptyLlvmBitcode) {
  const auto bc = module().spir12_bitcode;
  ASSERT_GE(bc.size(), 4u);
  EXPECT_EQ(bc[0], 'B');
  EXPECT_EQ(bc[1], 'C');
  EXPECT_EQ(bc[2], 0xC0);
  EXPECT_EQ(bc[3], 0xDE);
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenOpenClSourceInspected_ThenItDefinesEveryEntryPoint) {
  const auto source = module().opencl_c_source;
  ASSERT_FALSE(source.empty());
  for (const auto& k : module().kernels) {
    // "kernel void <name>(" after preprocessing; the name followed by '(' so that zr_x_f1 does not match zr_x_f16.
    EXPECT_NE(source.find(std::string(k.entry_point) + "("), std::string_view::npos)
        << k.entry_point << " is not defined in the OpenCL C source";
  }
}

TEST_P(EmbeddedModuleTest, GivenEmbeddedModule_WhenKernelsListed_ThenNamesFollowTheNamingScheme) {
  EXPECT_EQ(std::string(module().name), std::string(module().variant) + "_" + std::string(module().type_class));
  for (const auto& k : module().kernels) {
    EXPECT_EQ(k.variant, module().variant);
    EXPECT_EQ(k.entry_point, k.per_type ? zr::core::kernel_entry_point(k.variant, k.type)
                                        : zr::core::kernel_entry_point(k.variant, k.op, k.type));
  }
}

TEST_P(EmbeddedModuleTest, GivenNativeBinariesOption_WhenModuleInspected_ThenEveryApplicableTargetHasABinary) {
#if ZR_TEST_NATIVE_EXPECTED
  const auto targets = parse_assignments(ZR_TEST_INTEL_TARGETS);
  ASSERT_FALSE(targets.empty());
  std::set<std::string> expected;
  for (const auto& [target, lacks] : targets) {
    if (module().required.missing_from(FeatureSet(~parse_features(lacks).bits())).empty()) expected.insert(target);
  }
  std::set<std::string> found;
  for (const auto& native : module().native_binaries) {
    EXPECT_TRUE(found.insert(std::string(native.target)).second) << "two binaries for " << native.target;
    ASSERT_GE(native.bytes.size(), 4u) << "empty native binary for " << native.target;
    // ocloc writes a zebin (ELF), an older patch-token binary ("CTNI"), or for a device family such as gen9 a
    // fat binary: an ar archive with one binary per configuration of the family.
    const bool elf = std::memcmp(native.bytes.data(), "\x7f" "ELF", 4) == 0;
    const bool patch_tokens = std::memcmp(native.bytes.data(), "CTNI", 4) == 0;
    const bool fat = native.bytes.size() >= 8 && std::memcmp(native.bytes.data(), "!<arch>\n", 8) == 0;
    EXPECT_TRUE(elf || patch_tokens || fat) << "native binary for " << native.target << " has an unknown format";
  }
  EXPECT_EQ(found, expected);
#else
  EXPECT_TRUE(module().native_binaries.empty());
  GTEST_SKIP() << "configured without ZR_EMBED_NATIVE_BINARIES: no native binaries are embedded";
#endif
}

INSTANTIATE_TEST_SUITE_P(AllEmbeddedModules, EmbeddedModuleTest, ::testing::ValuesIn(all_module_names()),
                         module_param_name);

// ---- the catalogue as a whole -------------------------------------------------------------------------------------
TEST(EmbeddedCatalogueTest, GivenKernelsTable_WhenCatalogueListed_ThenModulesAreExactlyThoseCMakeConfigured) {
  std::vector<std::string> embedded;
  for (const auto& m : zr::core::embedded_modules()) embedded.emplace_back(m.name);
  EXPECT_EQ(sorted(embedded), sorted(split(ZR_TEST_MODULES, ',')));
}

TEST(EmbeddedCatalogueTest, GivenAllModules_WhenEntryPointsCollected_ThenEachIsUniqueAndFoundByFindKernel) {
  std::set<std::string> seen;
  for (const auto& m : zr::core::embedded_modules()) {
    for (const auto& k : m.kernels) {
      EXPECT_TRUE(seen.insert(std::string(k.entry_point)).second) << k.entry_point << " is in two modules";
      const auto location =
          k.per_type ? zr::core::find_kernel(k.variant, k.type) : zr::core::find_kernel(k.variant, k.op, k.type);
      ASSERT_TRUE(location.has_value()) << k.entry_point;
      EXPECT_EQ(location->kernel->entry_point, k.entry_point);
      EXPECT_EQ(location->module->name, m.name);
    }
  }
  EXPECT_FALSE(seen.empty());
}

// ---- self-tests of the classification above, on modules assembled by SPIRV-Tools from text -------------------------
// The assembler uses SPIRV-Tools' own grammar, so these also check the numbers in namespace spv.
std::vector<std::uint32_t> assemble(const std::string& body) {
  const std::string text =
      "OpCapability Addresses\nOpCapability Kernel\n" + body;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
    messages += m;
  });
  std::vector<std::uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << messages << "\n" << text;
  return words;
}

const char* kPrologue = R"(
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "self_test"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn = OpTypeFunction %void
%workgroup = OpConstant %uint 2
%subgroup = OpConstant %uint 3
%semantics = OpConstant %uint 256
%one = OpConstant %float 1
)";

FeatureSet features_of(const std::string& capabilities, const std::string& code) {
  const std::string body = capabilities + kPrologue +
                           "%main = OpFunction %void None %fn\n%entry = OpLabel\n" + code +
                           "OpReturn\nOpFunctionEnd\n";
  const auto parsed = parse_with_spirv_tools(assemble(body));
  EXPECT_TRUE(parsed.problems.empty()) << ::testing::PrintToString(parsed.problems);
  EXPECT_EQ(parsed.entry_points, std::vector<std::string>{"self_test"});
  EXPECT_EQ(parsed.addressing_model, spv::Physical64);
  EXPECT_EQ(parsed.memory_model, spv::OpenCL);
  return parsed.features;
}

TEST(SpirvClassifierSelfTest, GivenPlainKernel_WhenClassified_ThenNoFeatures) {
  EXPECT_EQ(features_of("", "OpControlBarrier %workgroup %workgroup %semantics\n"), FeatureSet());
}

TEST(SpirvClassifierSelfTest, GivenWorkgroupScopedGroupOperation_WhenClassified_ThenWorkGroupCollectives) {
  EXPECT_EQ(features_of("OpCapability Groups\n", "%r = OpGroupFAdd %float %workgroup Reduce %one\n"),
            FeatureSet(Feature::work_group_collectives));
}

TEST(SpirvClassifierSelfTest, GivenSubgroupScopedGroupOperation_WhenClassified_ThenSubgroups) {
  EXPECT_EQ(features_of("OpCapability Groups\n", "%r = OpGroupFMax %float %subgroup Reduce %one\n"),
            FeatureSet(Feature::subgroups));
  EXPECT_EQ(features_of("OpCapability Groups\n", "%r = OpGroupBroadcast %float %subgroup %one %workgroup\n"),
            FeatureSet(Feature::subgroups));
}

TEST(SpirvClassifierSelfTest, GivenSubgroupBarrier_WhenClassified_ThenSubgroups) {
  EXPECT_EQ(features_of("", "OpControlBarrier %subgroup %workgroup %semantics\n"), FeatureSet(Feature::subgroups));
}

TEST(SpirvClassifierSelfTest, GivenNonUniformOperations_WhenClassified_ThenSubgroups) {
  // Without the capability, so that only the instruction's scope can tell.
  EXPECT_EQ(features_of("", "%r = OpGroupNonUniformFMul %float %subgroup Reduce %one\n"),
            FeatureSet(Feature::subgroups));
  EXPECT_EQ(features_of("", "%b = OpTypeBool\n%r = OpGroupNonUniformElect %b %subgroup\n"
                            "%q = OpGroupNonUniformQuadSwap %float %subgroup %one %workgroup\n"),
            FeatureSet(Feature::subgroups));
  EXPECT_EQ(features_of("", "%r = OpGroupNonUniformIAdd %uint %workgroup Reduce %workgroup\n"),
            FeatureSet(Feature::work_group_collectives));
}

TEST(SpirvClassifierSelfTest, GivenIntelSubgroupShuffle_WhenClassified_ThenSubgroups) {
  EXPECT_EQ(features_of("", "%r = OpSubgroupShuffleINTEL %float %one %workgroup\n"), FeatureSet(Feature::subgroups));
}

TEST(SpirvClassifierSelfTest, GivenSubgroupBuiltInDecoration_WhenClassified_ThenSubgroups) {
  for (const char* builtin : {"SubgroupSize", "SubgroupMaxSize", "NumSubgroups", "NumEnqueuedSubgroups", "SubgroupId",
                              "SubgroupLocalInvocationId", "SubgroupEqMask", "SubgroupLtMask"}) {
    const std::string decoration = std::string("OpDecorate %v BuiltIn ") + builtin + "\n";
    // Decorations come before the types: splice this one in after the entry point.
    const std::string body = std::string("OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"self_test\"\n") +
                             decoration + std::string(kPrologue).substr(std::string(kPrologue).find("%void")) +
                             "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    const auto parsed = parse_with_spirv_tools(assemble(body));
    EXPECT_EQ(parsed.features, FeatureSet(Feature::subgroups)) << builtin;
  }
  const std::string body = std::string("OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"self_test\"\n") +
                           "OpDecorate %v BuiltIn LocalInvocationId\n" +
                           std::string(kPrologue).substr(std::string(kPrologue).find("%void")) +
                           "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
  EXPECT_EQ(parse_with_spirv_tools(assemble(body)).features, FeatureSet());
}

TEST(SpirvClassifierSelfTest, GivenFeatureCapabilities_WhenClassified_ThenTheMappedFeature) {
  const std::pair<const char*, FeatureSet> cases[] = {
      {"Float16Buffer", Feature::fp16},
      {"Float16", Feature::fp16},
      {"Float64", Feature::fp64},
      {"Int64Atomics", Feature::int64_atomics},
      {"AtomicFloat16AddEXT", Feature::float_atomic_add},
      {"AtomicFloat32AddEXT", Feature::float_atomic_add},
      {"AtomicFloat64AddEXT", Feature::float_atomic_add},
      {"AtomicFloat16MinMaxEXT", Feature::float_atomic_min_max},
      {"AtomicFloat32MinMaxEXT", Feature::float_atomic_min_max},
      {"AtomicFloat64MinMaxEXT", Feature::float_atomic_min_max},
      {"GroupNonUniform", Feature::subgroups},
      {"GroupNonUniformQuad", Feature::subgroups},
      {"GroupNonUniformRotateKHR", Feature::subgroups},
      {"SubgroupBallotKHR", Feature::subgroups},
      {"SubgroupVoteKHR", Feature::subgroups},
      {"SubgroupShuffleINTEL", Feature::subgroups},
      {"SubgroupBufferBlockIOINTEL", Feature::subgroups},
      {"SubgroupImageBlockIOINTEL", Feature::subgroups},
      {"SubgroupImageMediaBlockIOINTEL", Feature::subgroups},
      {"Groups", FeatureSet()},  // used by both kinds of collectives: the scopes decide
      {"Int64", FeatureSet()},
      {"Int8", FeatureSet()},
  };
  for (const auto& [capability, feature] : cases) {
    EXPECT_EQ(features_of(std::string("OpCapability ") + capability + "\n", ""), feature) << capability;
  }
}

TEST(SpirvClassifierSelfTest, GivenSubgroupOnlyOpcodes_WhenAssembled_ThenNumbersMatchTheGrammar) {
  const std::pair<const char*, std::uint16_t> cases[] = {
      {"%r = OpSubgroupBallotKHR %v4uint %true", spv::OpSubgroupBallotKHR},
      {"%r = OpSubgroupFirstInvocationKHR %uint %x", spv::OpSubgroupFirstInvocationKHR},
      {"%r = OpSubgroupAllKHR %bool %true", spv::OpSubgroupAllKHR},
      {"%r = OpSubgroupAnyKHR %bool %true", spv::OpSubgroupAnyKHR},
      {"%r = OpSubgroupAllEqualKHR %bool %true", spv::OpSubgroupAllEqualKHR},
      {"%r = OpSubgroupReadInvocationKHR %uint %x %x", spv::OpSubgroupReadInvocationKHR},
      {"%r = OpGroupNonUniformRotateKHR %uint %x %x %x", spv::OpGroupNonUniformRotateKHR},
      {"%r = OpGroupIAddNonUniformAMD %uint %x Reduce %x", spv::OpGroupIAddNonUniformAMD},
      {"%r = OpGroupSMaxNonUniformAMD %uint %x Reduce %x", spv::OpGroupSMaxNonUniformAMD},
      {"%r = OpGroupIMulKHR %uint %x Reduce %x", spv::OpGroupIMulKHR},
      {"%r = OpGroupLogicalXorKHR %uint %x Reduce %x", spv::OpGroupLogicalXorKHR},
      {"%r = OpSubgroupShuffleINTEL %uint %x %x", spv::OpSubgroupShuffleINTEL},
      {"%r = OpSubgroupShuffleDownINTEL %uint %x %x %x", spv::OpSubgroupShuffleDownINTEL},
      {"%r = OpSubgroupShuffleUpINTEL %uint %x %x %x", spv::OpSubgroupShuffleUpINTEL},
      {"%r = OpSubgroupShuffleXorINTEL %uint %x %x", spv::OpSubgroupShuffleXorINTEL},
      {"%r = OpSubgroupBlockReadINTEL %uint %x", spv::OpSubgroupBlockReadINTEL},
      {"OpSubgroupBlockWriteINTEL %x %x", spv::OpSubgroupBlockWriteINTEL},
      {"%r = OpSubgroupImageBlockReadINTEL %uint %x %x", spv::OpSubgroupImageBlockReadINTEL},
      {"OpSubgroupImageBlockWriteINTEL %x %x %x", spv::OpSubgroupImageBlockWriteINTEL},
      {"%r = OpSubgroupImageMediaBlockReadINTEL %uint %x %x %x %x", spv::OpSubgroupImageMediaBlockReadINTEL},
      {"OpSubgroupImageMediaBlockWriteINTEL %x %x %x %x %x", spv::OpSubgroupImageMediaBlockWriteINTEL},
      {"%r = OpGroupAll %bool %x %true", spv::OpGroupAll},
      {"%r = OpGroupSMax %uint %x Reduce %x", spv::OpGroupSMax},
      {"%r = OpGroupNonUniformElect %bool %x", spv::OpGroupNonUniformElect},
      {"%r = OpGroupNonUniformQuadSwap %uint %x %x %x", spv::OpGroupNonUniformQuadSwap},
      {"%r = OpGroupAsyncCopy %uint %x %x %x %x %x %x", spv::OpGroupAsyncCopy},
      {"OpGroupWaitEvents %x %x %x", spv::OpGroupWaitEvents},
  };
  for (const auto& [instruction, opcode] : cases) {
    // The assembler does not resolve ids, so the last instruction is the one written here.
    const auto words = assemble(std::string(instruction) + "\n");
    ASSERT_GE(words.size(), 6u) << instruction;
    std::size_t at = 5, last = 5;
    while (at < words.size()) {
      last = at;
      at += words[at] >> 16;
    }
    EXPECT_EQ(words[last] & 0xffff, opcode) << instruction;
    // And the classification puts it where it belongs.
    const bool scoped = has_execution_scope(opcode);
    const bool subgroup_only = is_subgroup_only_instruction(opcode);
    if (opcode == spv::OpGroupAsyncCopy || opcode == spv::OpGroupWaitEvents) {
      EXPECT_FALSE(scoped || subgroup_only) << instruction;
    } else {
      EXPECT_NE(scoped, subgroup_only) << instruction;
    }
  }
}

TEST(SpirvClassifierSelfTest, GivenCorruptedModule_WhenValidated_ThenDiagnosticIsNotEmpty) {
  ASSERT_FALSE(zr::core::embedded_modules().empty());
  std::vector<std::uint32_t> words(zr::core::embedded_modules()[0].spirv.begin(),
                                   zr::core::embedded_modules()[0].spirv.end());
  ASSERT_GT(words.size(), 5u);
  words[3] = 1;  // the id bound: every id is now out of range
  EXPECT_NE(validate(words), "");
}

}  // namespace
