#pragma once
// The device listing of `ze_reduce --list` as text, from the public API alone, so that the Python package's
// `python -m zereduce --list` prints the very same.
#include <string>

namespace zr::tools {

// Every device in zr::get_devices() order: backend, kind, description, capabilities, whether its kernels
// really run, and the strategies it allows for each (op, type) pair (verbose: every pair; else a summary).
std::string devices_text(bool verbose);

}  // namespace zr::tools
