// Build-time tool: checks every compiled kernel module against spirv_kernels/kernels.table and writes a C++
// source that embeds the modules (SPIR-V words, SPIR 1.2 bitcode, OpenCL C source, optional native binaries)
// with their catalogue. Any disagreement between a module and its table line fails the build.
//
// usage: embed_kernels --table FILE --output FILE
//                      (--module NAME SPV BC CL)... (--native NAME TARGET FILE)...
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_catalog.hpp"
#include "spirv_inspect.hpp"

namespace {

using zr::core::DataType;
using zr::core::FeatureSet;
using zr::core::Op;

struct TableRow {
  std::string variant, source, cl_std;
  FeatureSet required;
  std::vector<std::string> classes;
  std::vector<Op> ops;
  int line = 0;
  bool per_type = false;  // ops column "-": one kernel per type for every op (zr_<variant>_<type>)
};

struct ModuleFiles {
  std::string spv, bc, cl;
  std::vector<std::pair<std::string, std::string>> native;  // target, file
};

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::vector<TableRow> read_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot open kernel table " + path);
  std::vector<TableRow> rows;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::stringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    if (w.size() != 6) fail(where + "expected 6 columns: variant source cl_std requires type_classes ops");
    TableRow row{w[0], w[1], w[2], {}, split(w[4], ','), {}, line_no};
    if (row.variant.find('_') != std::string::npos) fail(where + "a variant name may not contain '_'");
    if (row.cl_std != "CL1.2" && row.cl_std != "CL2.0" && row.cl_std != "CL3.0")
      fail(where + "cl_std must be CL1.2, CL2.0 or CL3.0");
    if (w[3] != "-") {
      for (const auto& f : split(w[3], ',')) {
        auto feature = zr::core::parse_feature(f);
        if (!feature) fail(where + "unknown feature '" + f + "'");
        row.required |= *feature;
      }
    }
    for (const auto& c : row.classes) {
      if (!zr::core::find_type_class(c)) fail(where + "unknown type class '" + c + "'");
    }
    if (w[5] == "none") {
      // No entry points: a library of functions that the runtime links into other modules (kepilogue).
    } else if (w[5] == "-") {
      row.per_type = true;  // one kernel per type for all ops: zr_<variant>_<type>
    } else if (w[5] == "all") {
      row.ops.assign(zr::core::kAllOps.begin(), zr::core::kAllOps.end());
    } else {
      for (const auto& o : split(w[5], ',')) {
        auto op = zr::core::parse_op(o);
        if (!op) fail(where + "unknown op '" + o + "'");
        row.ops.push_back(*op);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string cpp_identifier(const std::string& text) {
  std::string id = text;
  std::replace_if(id.begin(), id.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return id;
}

// As a string literal, not a list of numbers: the compiler reads 42 MB of byte lists as ten million initializers
// (GCC 12: 97 s and 2 GB for the generated file at -O3, 30 s at -O0; as literals 10 s at -O0). Printable characters
// stay themselves, the rest are three-digit octal escapes, which never run into the character after them. The
// literal's terminating 0 keeps empty arrays legal and text arrays terminated; spans exclude it.
void write_bytes(std::ostream& out, const std::string& name, const std::vector<char>& bytes) {
  out << "alignas(4) const std::uint8_t " << name << "[] =\n  \"";
  static constexpr char kOctal[] = "01234567";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i > 0 && i % 96 == 0) out << "\"\n  \"";
    const auto byte = static_cast<unsigned char>(bytes[i]);
    if (byte == '\n') out << "\\n";
    else if (byte >= 0x20 && byte < 0x7f && byte != '\\' && byte != '"' && byte != '?') out << static_cast<char>(byte);
    else out << '\\' << kOctal[byte >> 6] << kOctal[(byte >> 3) & 7] << kOctal[byte & 7];
  }
  out << "\";\n";
}

struct Module {
  std::string name;
  const TableRow* row;
  const zr::core::TypeClass* type_class;
  ModuleFiles files;
  std::vector<std::pair<Op, DataType>> kernels;
};

void check_module(Module& m, const std::vector<std::uint32_t>& words) {
  const auto summary = zr::core::inspect_spirv(words);
  const std::string where = "module " + m.name + " (kernels.table line " + std::to_string(m.row->line) + "): ";
  if (summary.memory_addressing != 2 || summary.memory_model != 2)
    fail(where + "memory model is not Physical64 OpenCL");
  const FeatureSet declared = zr::core::spirv_visible(m.row->required | m.type_class->required);
  if (summary.features != declared)
    fail(where + "the SPIR-V needs features {" + to_string(summary.features) + "} but the table declares {" +
         to_string(declared) + "}");

  std::set<std::string> expected;
  for (DataType type : m.type_class->types) {
    if (m.row->per_type) {
      expected.insert(zr::core::kernel_entry_point(m.row->variant, type));
      m.kernels.emplace_back(Op::plus, type);
      continue;
    }
    for (Op op : m.row->ops) {
      if (!zr::core::is_supported(op, type)) continue;
      expected.insert(zr::core::kernel_entry_point(m.row->variant, op, type));
      m.kernels.emplace_back(op, type);
    }
  }
  const std::set<std::string> found(summary.entry_points.begin(), summary.entry_points.end());
  std::string missing, extra;
  for (const auto& e : expected) if (!found.count(e)) missing += " " + e;
  for (const auto& e : found) if (!expected.count(e)) extra += " " + e;
  if (!missing.empty() || !extra.empty())
    fail(where + "entry points differ from the table." + (missing.empty() ? "" : " Missing:" + missing) +
         (extra.empty() ? "" : " Unexpected:" + extra));
}

void write_module(std::ostream& out, Module& m) {
  const std::string id = cpp_identifier(m.name);
  const auto spv = read_bytes(m.files.spv);
  if (spv.size() % 4 != 0) fail(m.files.spv + ": size is not a multiple of 4 bytes");
  std::vector<std::uint32_t> words(spv.size() / 4);
  std::memcpy(words.data(), spv.data(), spv.size());
  check_module(m, words);

  out << "alignas(4) const std::uint32_t " << id << "_spirv[] = {";
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i % 8 == 0) out << "\n  ";
    out << "0x" << std::hex << words[i] << std::dec << "u,";
  }
  out << "};\n";
  write_bytes(out, id + "_bitcode", read_bytes(m.files.bc));
  const auto source = read_bytes(m.files.cl);
  write_bytes(out, id + "_source", source);

  // A module without entry points still gets an array (of one unused entry: C++ has no empty arrays).
  out << "const EmbeddedKernel " << id << "_kernels[] = {\n";
  if (m.kernels.empty()) out << "  {},\n";
  for (auto [op, type] : m.kernels) {
    const std::string entry = m.row->per_type ? zr::core::kernel_entry_point(m.row->variant, type)
                                              : zr::core::kernel_entry_point(m.row->variant, op, type);
    out << "  {\"" << entry << "\", \"" << m.row->variant << "\", Op::" << zr::core::name(op) << ", DataType::"
        << (type == DataType::boolean ? "boolean" : std::string(zr::core::name(type)))
        << (m.row->per_type ? ", true" : "") << "},\n";
  }
  out << "};\n";

  std::size_t index = 0;
  for (const auto& [target, file] : m.files.native) write_bytes(out, id + "_native" + std::to_string(index++), read_bytes(file));
  out << "const NativeBinary " << id << "_native[] = {\n";
  index = 0;
  for (const auto& [target, file] : m.files.native) {
    const auto size = read_bytes(file).size();
    out << "  {\"" << target << "\", {" << id << "_native" << index++ << ", " << size << "}},\n";
  }
  out << "  {\"\", {}}};\n\n";
}

int run(int argc, char** argv) {
  std::string table_path, output_path;
  std::map<std::string, ModuleFiles> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto need = [&](int k) {
      if (i + k >= argc) fail("missing values after " + arg);
    };
    if (arg == "--table") { need(1); table_path = argv[++i]; }
    else if (arg == "--output") { need(1); output_path = argv[++i]; }
    else if (arg == "--module") { need(4); auto& f = files[argv[i + 1]]; f.spv = argv[i + 2]; f.bc = argv[i + 3]; f.cl = argv[i + 4]; i += 4; }
    else if (arg == "--native") { need(3); files[argv[i + 1]].native.emplace_back(argv[i + 2], argv[i + 3]); i += 3; }
    else fail("unknown argument " + arg);
  }
  if (table_path.empty() || output_path.empty()) fail("--table and --output are required");

  const auto rows = read_table(table_path);
  std::vector<Module> modules;
  for (const auto& row : rows) {
    for (const auto& c : row.classes) {
      const std::string name = row.variant + "_" + c;
      auto it = files.find(name);
      if (it == files.end() || it->second.spv.empty()) fail("no compiled files given for module " + name);
      modules.push_back({name, &row, zr::core::find_type_class(c), it->second, {}});
      files.erase(it);
    }
  }
  if (!files.empty()) fail("module " + files.begin()->first + " is not in the kernel table");

  std::ostringstream out;
  out << "// Generated by embed_kernels from spirv_kernels/kernels.table. Do not edit.\n"
         "#include <cstdint>\n#include \"kernel_catalog.hpp\"\n\n"
         "namespace zr::core {\nnamespace {\n";
  for (auto& m : modules) write_module(out, m);
  out << "const EmbeddedModule kModules[] = {\n";
  for (const auto& m : modules) {
    const std::string id = cpp_identifier(m.name);
    const auto bc_size = read_bytes(m.files.bc).size();
    const auto cl_size = read_bytes(m.files.cl).size();
    out << "  {\"" << m.name << "\", \"" << m.row->variant << "\", \"" << m.type_class->name << "\", \""
        << m.row->cl_std << "\", FeatureSet(" << (m.row->required | m.type_class->required).bits() << "u), "
        << id << "_spirv, {" << id << "_bitcode, " << bc_size << "}, "
        << "std::string_view(reinterpret_cast<const char*>(" << id << "_source), " << cl_size << "), "
        << "{" << id << "_kernels, " << m.kernels.size() << "}, {" << id << "_native, " << m.files.native.size()
        << "}},\n";
  }
  out << "};\n}  // namespace\n\nstd::span<const EmbeddedModule> embedded_modules() { return kModules; }\n\n"
         "}  // namespace zr::core\n";

  std::ofstream file(output_path);
  file << out.str();
  if (!file) fail("cannot write " + output_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "embed_kernels: error: " << e.what() << '\n';
    return 1;
  }
}
