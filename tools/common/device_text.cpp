#include "common/device_text.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <utility>
#include <vector>

#include "common/type_dispatch.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::tools {

namespace {

std::string features_of(const zr::device_capabilities& c) {
  std::string text;
  auto add = [&](bool present, const char* name) {
    if (!present) return;
    if (!text.empty()) text += ", ";
    text += name;
  };
  add(c.fp16, "fp16");
  add(c.fp64, "fp64");
  add(c.int64_atomics, "int64_atomics");
  add(!c.sub_group_sizes.empty(), "subgroups");
  add(c.work_group_collectives, "work_group_collectives");
  add(c.f32_atomic_add, "f32_atomic_add");
  add(c.f32_atomic_min_max, "f32_atomic_min_max");
  return text.empty() ? "none" : text;
}

std::string sizes_of(const std::vector<std::uint32_t>& sizes) {
  std::string text;
  for (auto s : sizes) {
    if (!text.empty()) text += ',';
    text += std::to_string(s);
  }
  return text.empty() ? "none" : text;
}

std::string strategies_text(const std::vector<zr::strategy>& strategies) {
  std::string text;
  for (auto s : strategies) {
    if (!text.empty()) text += ' ';
    text += to_string(s);
  }
  return text;
}

// The pairs shown without -v: what most people reduce.
constexpr std::pair<zr::op_kind, zr::element_type> kSummaryPairs[] = {
    {zr::op_kind::plus, zr::element_type::f32}, {zr::op_kind::maximum, zr::element_type::f32},
    {zr::op_kind::plus, zr::element_type::i32}, {zr::op_kind::plus, zr::element_type::f64},
    {zr::op_kind::plus, zr::element_type::f16}, {zr::op_kind::argmax, zr::element_type::f32}};

// "yes", "no (why)" or "unknown (probe did not finish in N s)".
std::string executes(const zr::device& d) {
  const auto& probe = d.execution();
  std::string text(to_string(probe.state));
  if (!probe.detail.empty()) text += " (" + probe.detail + ")";
  return text;
}

}  // namespace

std::string devices_text(bool verbose) {
  std::string out;
  char line[1024];
  const auto& devices = zr::get_devices();
  if (devices.empty()) {
    return "no device: install a Level Zero GPU driver, an OpenCL GPU driver, or pocl-opencl-icd for the CPU\n";
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const zr::device& d = devices[i];
    // snprintf, not a chain of std::string +: g++ 12 warns falsely (-Wrestrict) on such chains at -O3.
    std::snprintf(line, sizeof line, "[%zu] %s %s: ", i, std::string(to_string(d.get_backend())).c_str(),
                  std::string(to_string(d.kind())).c_str());
    out.append(line).append(d.description()).append("\n");
    try {
      const auto& c = d.capabilities();
      std::snprintf(line, sizeof line,
                    "    compute units %u, max work-group %llu, local memory %llu KiB, memory %.1f GiB (one "
                    "allocation %.1f GiB), sub-groups %s\n",
                    c.compute_units, static_cast<unsigned long long>(c.max_work_group_size),
                    static_cast<unsigned long long>(c.local_memory_bytes >> 10),
                    static_cast<double>(c.global_memory_bytes) / (1ull << 30),
                    static_cast<double>(c.max_allocation_bytes) / (1ull << 30), sizes_of(c.sub_group_sizes).c_str());
      out += line;
      out += "    features: " + features_of(c) + "; kernels execute: " + executes(d) + "\n";
      for (auto type : {zr::element_type::i8, zr::element_type::i16, zr::element_type::i32, zr::element_type::i64,
                        zr::element_type::u8, zr::element_type::u16, zr::element_type::u32, zr::element_type::u64,
                        zr::element_type::f16, zr::element_type::f32, zr::element_type::f64, zr::element_type::boolean})
        for (auto op : {zr::op_kind::plus, zr::op_kind::multiplies, zr::op_kind::minimum, zr::op_kind::maximum,
                        zr::op_kind::bit_and, zr::op_kind::bit_or, zr::op_kind::bit_xor, zr::op_kind::logical_and,
                        zr::op_kind::logical_or, zr::op_kind::argmin, zr::op_kind::argmax, zr::op_kind::sum_squares,
                        zr::op_kind::norm_l2, zr::op_kind::norm_l1, zr::op_kind::count_nonzero,
                        zr::op_kind::count_equal, zr::op_kind::sum_i64, zr::op_kind::sum_u64, zr::op_kind::sum_f32,
                        zr::op_kind::sum_f64, zr::op_kind::mean_var_f32, zr::op_kind::mean_var_f64}) {
          if (!pair_defined(type, op)) continue;
          const bool summary = std::find(std::begin(kSummaryPairs), std::end(kSummaryPairs), std::pair{op, type}) !=
                               std::end(kSummaryPairs);
          if (!verbose && !summary) continue;
          const auto why = d.why_unsupported(type, op);
          std::snprintf(line, sizeof line, "    %-13s %-4s ", std::string(to_string(op)).c_str(),
                        std::string(to_string(type)).c_str());
          out += line + (why ? "unsupported: " + *why : strategies_text(d.strategies(type, op))) + "\n";
        }
      if (!verbose) out += "    (-v lists every op and type)\n";
    } catch (const zr::Error& error) {
      out += std::string("    unusable: ") + error.what() + "\n";
    }
  }
  return out;
}

}  // namespace zr::tools
