# zereduce_add_operator(): user-defined reduction operators, and zereduce_add_kernel(): kernels with reducers,
# compiled at the user's build time.
#
#   zereduce_add_kernel(<target> NAME <identifier> SOURCE <file.cl> [NAMESPACE <ns>] [INCLUDE_DIRECTORIES <dir>...])
#
# does the same for a file of kernels written with <zereduce/reducer_cl.h> (docs/kernels.md): the header holds
#   inline constexpr zr::kernel_source <ns>::<identifier>      (default namespace zr_kernels)
# and at run time ze-reduce links the kernels' SPIR-V with the epilogue that combines their reducers.
#
#   zereduce_add_operator(<target> NAME <identifier> SOURCE <file.cl> [NAMESPACE <ns>] [INCLUDE_DIRECTORIES <dir>...])
#
# compiles the OpenCL C operator in <file.cl> (written with <zereduce/user_operator_cl.h>) with the toolchain
# ze-reduce's own kernels are built with: clang-15 to SPIR 64-bit LLVM bitcode, llvm-spirv-15 to SPIR-V,
# spirv-val to check it. It also keeps the operator's preprocessed source, for OpenCL devices that take
# neither SPIR-V nor SPIR (NVIDIA's). Both go into a generated header <identifier>.hpp holding
#   inline constexpr zr::user_operator_source <ns>::<identifier>
# which an INTERFACE library <target> puts on the include path of whatever links it. At run time ze-reduce links
# the operator's SPIR-V into its precompiled reduction kernels (docs/user_operators.md); no OpenCL C is compiled
# at run time on Level Zero devices.
#
# <target> depends, at the target level, on <target>_generate, the target that runs those rules, so whatever links
# <target> builds after them, from any directory and with any generator: the Makefiles generators know a custom
# command only in the directory that defines it (tests/install/operator_consumer builds that shape). A custom
# command in another directory that reads the generated files itself (tests/kernels spirv-links the .spv) needs
# add_dependencies(<its target> <target>_generate) the same way.
#
# Needs ZEREDUCE_OPENCL_INCLUDE_DIR (the directory holding zereduce/user_operator_cl.h): the installed package's
# config and ze-reduce's own build set it.
find_program(ZEREDUCE_CLANG NAMES clang-15 REQUIRED)
find_program(ZEREDUCE_LLVM_SPIRV NAMES llvm-spirv-15 REQUIRED)
find_program(ZEREDUCE_SPIRV_VAL NAMES spirv-val REQUIRED)
set(ZEREDUCE_EMBED_OPERATOR_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/zereduce_embed_operator.cmake)

# The rules both share: FUNCTION names the caller in messages, KIND the generated constant's type
# (user_operator_source or kernel_source) and HEADER the public header that declares it.
function(_zereduce_add_opencl function kind header default_namespace target)
  cmake_parse_arguments(PARSE_ARGV 5 arg "" "NAME;SOURCE;NAMESPACE" "INCLUDE_DIRECTORIES")
  if(NOT arg_NAME OR NOT arg_SOURCE)
    message(FATAL_ERROR "${function}(${target}): NAME and SOURCE are required")
  endif()
  if(NOT arg_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${function}(${target}): NAME '${arg_NAME}' is not a C++ identifier")
  endif()
  if(NOT arg_NAMESPACE)
    set(arg_NAMESPACE ${default_namespace})
  endif()
  if(NOT ZEREDUCE_OPENCL_INCLUDE_DIR)
    message(FATAL_ERROR "${function}: ZEREDUCE_OPENCL_INCLUDE_DIR is not set (find_package(zereduce) sets it)")
  endif()
  get_filename_component(source ${arg_SOURCE} ABSOLUTE)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/zereduce_operators/${target})
  set(base ${out}/${arg_NAME})
  set(includes -I${ZEREDUCE_OPENCL_INCLUDE_DIR})
  foreach(dir IN LISTS arg_INCLUDE_DIRECTORIES)
    get_filename_component(dir ${dir} ABSOLUTE)
    list(APPEND includes -I${dir})
  endforeach()
  # As ze-reduce's kernels are built (spirv_kernels/CMakeLists.txt says why no clang vectorizers).
  set(flags -cl-std=CL1.2 ${includes} -Wall -Werror)
  add_custom_command(
    OUTPUT ${base}.spv ${base}.cl
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out}
    COMMAND ${ZEREDUCE_CLANG} ${flags} -target spir64 -O2 -fno-slp-vectorize -fno-vectorize -emit-llvm
            -Xclang -finclude-default-header -c ${source} -o ${base}.bc -MD -MF ${base}.d -MT ${base}.spv
    # Without the Intel aliasing extension: its declarations (from restrict pointers in inlined helpers) come
    # out where spirv-val rejects them.
    COMMAND ${ZEREDUCE_LLVM_SPIRV} --spirv-max-version=1.3 --spirv-ext=+all,-SPV_INTEL_memory_access_aliasing
            ${base}.bc -o ${base}.spv
    COMMAND ${ZEREDUCE_SPIRV_VAL} ${base}.spv
    COMMAND ${ZEREDUCE_CLANG} ${flags} -x cl -cl-no-stdinc -E -P ${source} -o ${base}.cl
    DEPENDS ${source}
    DEPFILE ${base}.d
    COMMENT "${function}: ${arg_NAME} (clang-15, llvm-spirv-15, spirv-val)"
    VERBATIM)
  add_custom_command(
    OUTPUT ${out}/include/${arg_NAME}.hpp
    COMMAND ${CMAKE_COMMAND} -DNAME=${arg_NAME} -DNAMESPACE=${arg_NAMESPACE} -DSPIRV=${base}.spv
            -DSOURCE=${base}.cl -DOUTPUT=${out}/include/${arg_NAME}.hpp
            -DFUNCTION=${function} -DKIND=${kind} -DHEADER=${header} -P ${ZEREDUCE_EMBED_OPERATOR_SCRIPT}
    DEPENDS ${base}.spv ${base}.cl ${ZEREDUCE_EMBED_OPERATOR_SCRIPT}
    COMMENT "${function}: ${arg_NAME}.hpp"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS ${out}/include/${arg_NAME}.hpp)
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_generate)
  target_include_directories(${target} INTERFACE ${out}/include)
endfunction()

function(zereduce_add_operator target)
  _zereduce_add_opencl(zereduce_add_operator user_operator_source zereduce/user_operator.hpp zr_operators ${target} ${ARGN})
endfunction()

function(zereduce_add_kernel target)
  _zereduce_add_opencl(zereduce_add_kernel kernel_source zereduce/kernel.hpp zr_kernels ${target} ${ARGN})
endfunction()
