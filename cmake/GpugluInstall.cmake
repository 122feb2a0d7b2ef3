# make install: headers, libgpuglu, libpetscgpuglu, a pkg-config file and a CMake
# package so that other projects can find_package(gpuglu).
include(CMakePackageConfigHelpers)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpuglu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS gpuglu EXPORT gpugluTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The CUDA module beside libgpuglu, where its loader looks (api/cuda_module.hpp); loaded at
# run time, so no exported target names it.
if(TARGET gpuglu_cuda)
  install(TARGETS gpuglu_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_SKIP)
endif()
if(TARGET petscgpuglu)
  install(TARGETS petscgpuglu EXPORT gpugluTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(EXPORT gpugluTargets NAMESPACE gpuglu:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpuglu)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpugluConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpugluConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpuglu)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpugluConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpugluConfig.cmake ${PROJECT_BINARY_DIR}/gpugluConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpuglu)
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpuglu.pc.in ${PROJECT_BINARY_DIR}/gpuglu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpuglu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
