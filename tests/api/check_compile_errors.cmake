# Compiles each snippet of compile_errors/ with the project's compiler: control.cpp must compile, every other
# one must fail with the static_assert message given below (so the error a user sees is the intended one).
set(expectations
  "bit_and_on_float.cpp|this (operation, type) pair is not allowed"
  "logical_or_on_int.cpp|this (operation, type) pair is not allowed"
  "lambda_op.cpp|the operation must be one of zr::plus"
  "mismatched_types.cpp|every reduction's type must be the input's element type")
set(failures "")
execute_process(COMMAND ${COMPILER} -std=c++20 -fsyntax-only -I${INCLUDE_DIR} ${SNIPPETS}/control.cpp
                RESULT_VARIABLE control_result ERROR_VARIABLE control_output)
if(NOT control_result EQUAL 0)
  message(FATAL_ERROR "control.cpp does not compile:\n${control_output}")
endif()
foreach(expectation IN LISTS expectations)
  string(REPLACE "|" ";" parts "${expectation}")
  list(GET parts 0 file)
  list(GET parts 1 message)
  execute_process(COMMAND ${COMPILER} -std=c++20 -fsyntax-only -I${INCLUDE_DIR} ${SNIPPETS}/${file}
                  RESULT_VARIABLE result ERROR_VARIABLE output)
  if(result EQUAL 0)
    string(APPEND failures "${file} compiled, but must not\n")
  else()
    string(FIND "${output}" "${message}" at)
    if(at EQUAL -1)
      string(APPEND failures "${file} failed without the message '${message}':\n${output}\n")
    else()
      message(STATUS "${file}: refused with '${message}'")
    endif()
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
