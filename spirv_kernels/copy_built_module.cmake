# cmake -DFROM=<other tree>/spirv_kernels/modules/<module> -DTO=<this tree>/spirv_kernels/modules/<module> -P this
# Copies a module another build of the same sources made (ZR_KERNEL_MODULES_FROM), after checking that it is not
# older than any file its compile read (the .d files clang wrote there list the source and every header): a kernel
# edited since that build fails here, by name, rather than embedding the old module.
foreach(depfile IN ITEMS ${FROM}.d ${FROM}.cl.d)
  if(NOT EXISTS ${depfile})
    message(FATAL_ERROR "${depfile} is missing: build the tree ZR_KERNEL_MODULES_FROM names first")
  endif()
  file(READ ${depfile} deps)
  # "target: dep dep \<newline> dep ...": every path after the colon.
  string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
  string(REGEX REPLACE "\\\\\n" " " deps "${deps}")
  string(REGEX REPLACE "[ \t\r\n]+" ";" deps "${deps}")
  foreach(dep IN LISTS deps)
    if(dep AND EXISTS ${dep} AND ${dep} IS_NEWER_THAN ${FROM}.spv)
      message(FATAL_ERROR "${dep} changed after ${FROM}.spv was built: rebuild that tree first, or configure this "
                          "one without ZR_KERNEL_MODULES_FROM")
    endif()
  endforeach()
endforeach()
foreach(extension IN ITEMS spv spir12.bc cl)
  file(COPY_FILE ${FROM}.${extension} ${TO}.${extension} ONLY_IF_DIFFERENT)
endforeach()
