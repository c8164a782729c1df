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
  # Ampere and Hopper (H100) natively, PTX for later GPUs; override with
  # -DTBRF_CUDA_ARCHITECTURES=... (e.g. "native" on a machine with a GPU).
  set(TBRF_CUDA_ARCHITECTURES "80-real;90-real;90-virtual" CACHE STRING "CUDA architectures of the kernels")
  set_property(TARGET tbrf PROPERTY CUDA_ARCHITECTURES ${TBRF_CUDA_ARCHITECTURES})
  target_sources(tbrf PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/gpu/backend_cuda.c
    ${TBRF_KERNEL_DIR}/tb_project.cu)
  target_compile_definitions(tbrf PRIVATE TBRF_HAVE_CUDA)
  target_include_directories(tbrf PRIVATE ${TBRF_KERNEL_DIR})
  target_link_libraries(tbrf PRIVATE CUDA::cudart)
  set_source_files_properties(${TBRF_KERNEL_DIR}/tb_project.cu PROPERTIES COMPILE_OPTIONS
    "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra;--Werror=all-warnings>")
endif()
