# On Intel's Level Zero driver without hardware the suite must find (one-kernel probe) that kernels do not
# execute, say so in the report, and run validity checks only: no result compared, none failed.
#   cmake -DPROGRAM=... -DREPORT=... [-DDEVICE=level_zero -DBACKEND=level_zero] [-DPYTHON=... -DSCHEMA=...]
#         -P check_nohw_report.cmake
#
# Intel's driver in this capture mode very rarely never signals a fence (seen once in about 20 runs of the
# ~760 submissions here). The library's bounded wait (ZE_REDUCE_TIMEOUT_S, 20 s here) turns that into an
# error naming the hang; an attempt also gets 120 s in all (it takes about 10). A hung attempt is retried,
# twice at most, saying so.
set(ENV{ZE_REDUCE_TIMEOUT_S} 20)
if(NOT DEVICE)
  set(DEVICE level_zero)
endif()
if(NOT BACKEND)
  set(BACKEND level_zero)
endif()
foreach(attempt 1 2 3)
  execute_process(COMMAND ${PROGRAM} --quick --device ${DEVICE} --report ${REPORT} --gtest_brief=1
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors TIMEOUT 120)
  if(NOT status MATCHES "timeout" AND NOT "${output}${errors}" MATCHES "did not finish .* within")
    break()
  endif()
  message(WARNING "attempt ${attempt}: the no-hardware driver hung (a fence never signalled); trying again")
endforeach()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the suite failed (${status}) on the no-hardware device:\n${output}${errors}")
endif()
if(NOT output MATCHES "kernels do NOT execute")
  message(FATAL_ERROR "the suite did not say that kernels do not execute:\n${output}")
endif()
file(READ ${REPORT} report)
string(JSON devices LENGTH "${report}" devices)
if(NOT devices EQUAL 1)
  message(FATAL_ERROR "expected the one device matching '${DEVICE}', the report lists ${devices}: ${report}")
endif()
string(JSON backend GET "${report}" devices 0 backend)
string(JSON executes GET "${report}" devices 0 kernels_execute)
string(JSON checks GET "${report}" devices 0 checks)
string(JSON compared GET "${report}" devices 0 cases compared_with_reference)
string(JSON validity GET "${report}" devices 0 cases validity_only)
string(JSON failed GET "${report}" totals failed)
string(JSON passed GET "${report}" totals passed)
if(NOT backend STREQUAL BACKEND OR executes OR NOT checks STREQUAL "validity_only")
  message(FATAL_ERROR "the report does not say that kernels do not execute on ${backend}: kernels_execute ${executes}, checks ${checks}")
endif()
if(NOT compared EQUAL 0 OR validity EQUAL 0 OR passed EQUAL 0 OR NOT failed EQUAL 0)
  message(FATAL_ERROR "expected validity checks only, all passing: ${compared} compared with the reference, "
                      "${validity} validity checks, ${passed} passed, ${failed} failed")
endif()
if(PYTHON AND SCHEMA)
  execute_process(COMMAND ${PYTHON} -c "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))"
                          ${REPORT} ${SCHEMA} RESULT_VARIABLE invalid ERROR_VARIABLE why)
  if(invalid)
    message(FATAL_ERROR "the no-hardware report does not validate against ${SCHEMA}:\n${why}")
  endif()
endif()
message(STATUS "validity checks only: ${validity} cases, ${passed} passed")
