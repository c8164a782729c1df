# gpu.cmake — the OpenCL and CUDA backends (issue 5). Included by
# c/CMakeLists.txt after add_library(tbrf); the root CMakeLists decides
# TBRF_HAVE_OPENCL / TBRF_HAVE_CUDA.
include(${PROJECT_SOURCE_DIR}/cmake/Embed.cmake)
set(TBRF_KERNEL_DIR ${PROJECT_SOURCE_DIR}/kernels)

if(TBRF_HAVE_OPENCL)
  tbrf_embed(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/tbrf_opencl_kernels.c NAME tbrf_opencl_kernels
             FILES ${TBRF_KERNEL_DIR}/tb_opencl_prelude.cl ${TBRF_KERNEL_DIR}/tb_project_body.h
                   ${TBRF_KERNEL_DIR}/tb_project.cl)
  target_sources(tbrf PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/gpu/opencl_util.c
    ${CMAKE_CURRENT_SOURCE_DIR}/gpu/wisdom.c
    ${CMAKE_CURRENT_SOURCE_DIR}/gpu/gpu_common.c
    ${CMAKE_CURRENT_SOURCE_DIR}/backend_opencl.c
    ${CMAKE_CURRENT_BINARY_DIR}/tbrf_opencl_kernels.c)
  target_compile_definitions(tbrf PRIVATE TBRF_HAVE_OPENCL CL_TARGET_OPENCL_VERSION=120)
  target_link_libraries(tbrf PRIVATE OpenCL::OpenCL)
endif()

if(TBRF_HAVE_CUDA)
  if(NOT TBRF_HAVE_OPENCL)
    target_sources(tbrf PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/gpu/wisdom.c
                                ${CMAKE_CURRENT_SOURCE_DIR}/gpu/gpu_common.c)
  endif()
  target_sources(tbrf PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/gpu/backend_cuda.c)
  # named in the message when a GPU cannot run the kernels
  string(REPLACE ";" "," TBRF_CUDA_ARCHS "${TBRF_CUDA_ARCHITECTURES}")
  if(TBRF_CUDA_EMULATOR)
    set(TBRF_CUDA_ARCHS "emulator")
  endif()
  set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/gpu/backend_cuda.c APPEND PROPERTY
    COMPILE_DEFINITIONS "TBRF_CUDA_ARCHS=\"${TBRF_CUDA_ARCHS}\"")
  tbrf_cuda_sources(tbrf ${TBRF_KERNEL_DIR}/tb_project.cu)
  target_compile_definitions(tbrf PRIVATE TBRF_HAVE_CUDA)
  target_include_directories(tbrf PRIVATE ${TBRF_KERNEL_DIR})
  set_property(SOURCE ${TBRF_KERNEL_DIR}/tb_project.cu APPEND PROPERTY COMPILE_OPTIONS
    "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra;--Werror=all-warnings>")
endif()
