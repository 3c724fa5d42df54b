#include "device_listing.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "data_types.hpp"
#include "common/capabilities_json.hpp"
#include "common/device_text.hpp"
#include "kernel_catalog.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

void print_devices(bool verbose) { std::fputs(tools::devices_text(verbose).c_str(), stdout); }

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
      std::vector<core::Op> ops(core::kAllOps.begin(), core::kAllOps.end());
      ops.insert(ops.end(), core::kArgOps.begin(), core::kArgOps.end());
      ops.insert(ops.end(), core::kTransformOps.begin(), core::kTransformOps.end());
      ops.insert(ops.end(), core::kMomentsOps.begin(), core::kMomentsOps.end());
      for (auto dt : core::kAllDataTypes)
        for (auto o : ops) {
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
