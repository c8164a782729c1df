# tbrf_cuda_sources(<target> <file.cu>...): adds CUDA sources to a target,
# compiled by nvcc, or in an emulator build as C++ without contracted
# multiply-adds (as nvcc -fmad=false and the __dadd_rn/__dmul_rn kernels).
function(tbrf_cuda_sources target)
  target_sources(${target} PRIVATE ${ARGN})
  target_link_libraries(${target} PRIVATE ${TBRF_CUDART})
  if(TBRF_CUDA_EMULATOR)
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CXX)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -ffp-contract=off)
  else()
    set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES ${TBRF_CUDA_ARCHITECTURES})
  endif()
endfunction()
