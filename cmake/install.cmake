# cmake --install: headers, libzereduce, the tools, a CMake package (find_package(zereduce) ->
# zereduce::zereduce, and zereduce_add_operator()) and a relocatable zereduce.pc.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/zereduce DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS zereduce EXPORT zereduceTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(zr_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/zereduce)
install(EXPORT zereduceTargets NAMESPACE zereduce:: DESTINATION ${zr_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/zereduceConfig.cmake.in
  ${PROJECT_BINARY_DIR}/zereduceConfig.cmake INSTALL_DESTINATION ${zr_cmake_dir} PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/zereduceConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/zereduceConfig.cmake ${PROJECT_BINARY_DIR}/zereduceConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/zereduce_operators.cmake ${PROJECT_SOURCE_DIR}/cmake/zereduce_embed_operator.cmake
  DESTINATION ${zr_cmake_dir})

# The .pc file finds the prefix from its own location, so the installed tree can be moved.
set(zr_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH PC_PREFIX_FROM_PCFILEDIR /prefix/${zr_pc_dir} /prefix)
string(REGEX REPLACE "/$" "" PC_PREFIX_FROM_PCFILEDIR "${PC_PREFIX_FROM_PCFILEDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/zereduce.pc.in ${PROJECT_BINARY_DIR}/zereduce.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/zereduce.pc DESTINATION ${zr_pc_dir})
