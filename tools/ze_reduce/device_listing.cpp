#include "device_listing.hpp"

#include <cstdio>
#include <string>

#include "data_types.hpp"
#include "common/capabilities_json.hpp"
#include "kernel_catalog.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

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
    {zr::op_kind::plus, zr::element_type::f16}};

// "yes", "no (why)" or "unknown (probe did not finish in N s)".
std::string executes(const zr::device& d) {
  const auto& probe = d.execution();
  std::string text(to_string(probe.state));
  if (!probe.detail.empty()) text += " (" + probe.detail + ")";
  return text;
}

}  // namespace

void print_devices(bool verbose) {
  const auto& devices = zr::get_devices();
  if (devices.empty()) {
    std::printf("no device: install a Level Zero GPU driver, an OpenCL GPU driver, or pocl-opencl-icd for the CPU\n");
    return;
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const zr::device& d = devices[i];
    std::printf("[%zu] %s %s: %s\n", i, std::string(to_string(d.get_backend())).c_str(),
                std::string(to_string(d.kind())).c_str(), d.description().c_str());
    try {
      const auto& c = d.capabilities();
      std::printf("    compute units %u, max work-group %llu, local memory %llu KiB, memory %.1f GiB (one allocation "
                  "%.1f GiB), sub-groups %s\n",
                  c.compute_units, static_cast<unsigned long long>(c.max_work_group_size),
                  static_cast<unsigned long long>(c.local_memory_bytes >> 10),
                  static_cast<double>(c.global_memory_bytes) / (1ull << 30),
                  static_cast<double>(c.max_allocation_bytes) / (1ull << 30), sizes_of(c.sub_group_sizes).c_str());
      std::printf("    features: %s; kernels execute: %s\n", features_of(c).c_str(), executes(d).c_str());
      for (auto type : {zr::element_type::i8, zr::element_type::i16, zr::element_type::i32, zr::element_type::i64,
                        zr::element_type::u8, zr::element_type::u16, zr::element_type::u32, zr::element_type::u64,
                        zr::element_type::f16, zr::element_type::f32, zr::element_type::f64, zr::element_type::boolean})
        for (auto op : {zr::op_kind::plus, zr::op_kind::multiplies, zr::op_kind::minimum, zr::op_kind::maximum,
                        zr::op_kind::bit_and, zr::op_kind::bit_or, zr::op_kind::bit_xor, zr::op_kind::logical_and,
                        zr::op_kind::logical_or}) {
          if (!core::is_supported(static_cast<core::Op>(op), static_cast<core::DataType>(type))) continue;
          const bool summary = std::find(std::begin(kSummaryPairs), std::end(kSummaryPairs), std::pair{op, type}) !=
                               std::end(kSummaryPairs);
          if (!verbose && !summary) continue;
          const auto why = d.why_unsupported(type, op);
          std::printf("    %-11s %-4s %s\n", std::string(to_string(op)).c_str(), std::string(to_string(type)).c_str(),
                      why ? ("unsupported: " + *why).c_str() : strategies_text(d.strategies(type, op)).c_str());
        }
      if (!verbose) std::printf("    (-v lists every op and type)\n");
    } catch (const zr::Error& error) {
      std::printf("    unusable: %s\n", error.what());
    }
  }
}

nlohmann::json devices_json() {
  nlohmann::json list = nlohmann::json::array();
  const auto& devices = zr::get_devices();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const zr::device& d = devices[i];
    nlohmann::json entry = {{"index", i},
                            {"name", d.name()},
                            {"backend", std::string(to_string(d.get_backend()))},
                            {"kind", std::string(to_string(d.kind()))},
                            {"driver_version", d.driver_version()},
                            {"description", d.description()}};
    try {
      const auto& c = d.capabilities();
      entry["capabilities"] = tools::capabilities_json(c);
      entry["executes_kernels"] = d.executes_kernels();
      entry["kernel_execution"] = {{"status", std::string(to_string(d.execution().state))},
                                   {"detail", d.execution().detail}};
      nlohmann::json strategies = nlohmann::json::object();
      for (auto dt : core::kAllDataTypes)
        for (auto o : core::kAllOps) {
          if (!core::is_supported(o, dt)) continue;
          const auto type = static_cast<zr::element_type>(dt);
          const auto op = static_cast<zr::op_kind>(o);
          nlohmann::json names = nlohmann::json::array();
          for (auto s : d.strategies(type, op)) names.push_back(std::string(to_string(s)));
          strategies[std::string(core::name(o)) + " " + std::string(core::name(dt))] = names;
        }
      entry["strategies"] = strategies;
    } catch (const zr::Error& error) {
      entry["unusable"] = error.what();
    }
    list.push_back(entry);
  }
  return {{"schema", "ze_reduce/devices/1"}, {"version", std::string(zr::version())}, {"devices", list}};
}

void print_modules() {
  std::size_t kernels = 0;
  for (const auto& m : core::embedded_modules()) {
    std::printf("%-22s requires %-28s SPIR-V %7zu B  SPIR %7zu B  source %7zu B  %3zu kernels\n",
                std::string(m.name).c_str(), core::to_string(m.required).c_str(), m.spirv.size_bytes(),
                m.spir12_bitcode.size(), m.opencl_c_source.size(), m.kernels.size());
    kernels += m.kernels.size();
  }
  std::printf("%zu modules, %zu kernels\n", core::embedded_modules().size(), kernels);
}

}  // namespace zr::cli
