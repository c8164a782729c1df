# rng.cmake — random numbers and Monte Carlo (issue 6). Included by
# c/CMakeLists.txt after add_library(tbrf).
target_sources(tbrf PRIVATE rng.c mc.c)
if(TBRF_HAVE_OPENCL)
  # The Monte Carlo kernel: the rng/ headers concatenated (their includes
  # of each other are guarded, so the embedded text is self-contained).
  include(${PROJECT_SOURCE_DIR}/cmake/Embed.cmake)
  tbrf_embed(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/tbrf_mc_opencl_src.c NAME tbrf_mc_opencl_src
             FILES ${CMAKE_CURRENT_SOURCE_DIR}/rng/common.h ${CMAKE_CURRENT_SOURCE_DIR}/rng/lcg64.h
                   ${CMAKE_CURRENT_SOURCE_DIR}/rng/mc_body.h)
  target_sources(tbrf PRIVATE mc_opencl.c ${CMAKE_CURRENT_BINARY_DIR}/tbrf_mc_opencl_src.c)
  target_compile_definitions(tbrf PRIVATE TBRF_MC_OPENCL CL_TARGET_OPENCL_VERSION=120)
  target_link_libraries(tbrf PRIVATE OpenCL::OpenCL)
endif()
if(TBRF_HAVE_CUDA)
  # The Monte Carlo kernel on CUDA (the same rng/mc_body.h); no fused
  # multiply-adds, so it rounds like the CPU.
  tbrf_cuda_sources(tbrf mc_cuda.cu)
  target_compile_definitions(tbrf PRIVATE TBRF_MC_CUDA)
  target_include_directories(tbrf PRIVATE ${RANDOM123_INCLUDE_DIR})
  set_property(SOURCE mc_cuda.cu APPEND PROPERTY COMPILE_OPTIONS
    "$<$<COMPILE_LANGUAGE:CUDA>:-fmad=false;-Xcompiler=-Wall,-Wextra>")
endif()
