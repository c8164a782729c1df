# Package files: pkg-config (tbrf.pc) and find_package(tbrf). Both carry
# what a static link needs: the libraries libtbrf itself links.
include(CMakePackageConfigHelpers)
set(TBRF_PC_REQUIRES_PRIVATE "fftw3")
set(TBRF_PC_LIBS_PRIVATE "-lfftw3_omp -lm ${OpenMP_C_FLAGS}")
if(TBRF_HAVE_QHULL) # tbrf_ic_voronoi_volumes (a static libtbrf needs it at link time)
  string(APPEND TBRF_PC_LIBS_PRIVATE " -lqhull_r")
endif()
if(TBRF_HAVE_OPENCL)
  string(APPEND TBRF_PC_REQUIRES_PRIVATE " OpenCL")
endif()
if(TBRF_HAVE_CUDA AND NOT TBRF_CUDA_EMULATOR)
  string(APPEND TBRF_PC_LIBS_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart -lstdc++")
endif()
file(RELATIVE_PATH TBRF_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
configure_file(${CMAKE_CURRENT_LIST_DIR}/tbrf.pc.in ${PROJECT_BINARY_DIR}/tbrf.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tbrf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(EXPORT tbrfTargets NAMESPACE tbrf:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tbrf)
set(TBRF_CONFIG_OPENCL ${TBRF_HAVE_OPENCL})
set(TBRF_CONFIG_CUDA OFF)
if(TBRF_HAVE_CUDA AND NOT TBRF_CUDA_EMULATOR)
  set(TBRF_CONFIG_CUDA ON)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tbrfConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tbrfConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tbrf)
# 0.x: a minor release may change the API (doc/design.md, "Versions").
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tbrfConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tbrfConfig.cmake
              ${PROJECT_BINARY_DIR}/tbrfConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tbrf)
