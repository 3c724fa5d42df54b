#pragma once
// ze_reduce --list and --modules: what this machine offers, through the public API.
#include <nlohmann/json.hpp>

namespace zr::cli {

// Every device in zr::get_devices() order with backend, kind, driver, capabilities, whether its kernels
// really run, and the strategies it allows for each (op, type) pair (verbose: every pair; else a summary).
void print_devices(bool verbose);
nlohmann::json devices_json();

void print_modules();

}  // namespace zr::cli
