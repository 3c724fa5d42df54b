// ze_reduce: for now, lists the embedded kernel modules and their kernels.
#include <cstdio>

#include "kernel_catalog.hpp"

int main() {
  using namespace zr::core;
  std::size_t kernels = 0;
  for (const auto& m : embedded_modules()) {
    std::printf("%-18s requires %-24s SPIR-V %6zu B  SPIR %6zu B  source %6zu B  %3zu kernels\n",
                std::string(m.name).c_str(), to_string(m.required).c_str(), m.spirv.size_bytes(),
                m.spir12_bitcode.size(), m.opencl_c_source.size(), m.kernels.size());
    kernels += m.kernels.size();
  }
  std::printf("%zu modules, %zu kernels\n", embedded_modules().size(), kernels);
}
