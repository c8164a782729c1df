# GPU backend tests (issue 5). Each runs on a backend only when it is
# built; without a device they exit 77 and ctest reports them skipped.
# TBRF_WISDOM points the tuning cache at the build tree, never ~/.cache.
set(TBRF_GPU_TEST_ENV "TBRF_WISDOM=${CMAKE_CURRENT_BINARY_DIR}/gpu-test-wisdom")

function(tbrf_gpu_test name backend)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu" TIMEOUT 300
    ENVIRONMENT "${TBRF_GPU_TEST_ENV}-${name}")
endfunction()

if(TBRF_HAVE_OPENCL OR TBRF_HAVE_CUDA)
  add_executable(test_gpu_conformance test_gpu_conformance.c)
  target_link_libraries(test_gpu_conformance PRIVATE tbrf m)
  target_include_directories(test_gpu_conformance PRIVATE ${PROJECT_SOURCE_DIR}/c ${PROJECT_SOURCE_DIR}/tests)
  add_executable(test_gpu_stats test_gpu_stats.c)
  target_link_libraries(test_gpu_stats PRIVATE tbrf m)
  target_include_directories(test_gpu_stats PRIVATE ${PROJECT_SOURCE_DIR}/c ${PROJECT_SOURCE_DIR}/tests)
endif()
tbrf_add_test(test_gpu_selection test_gpu_selection.c)
set_tests_properties(test_gpu_selection PROPERTIES LABELS "gpu" ENVIRONMENT "${TBRF_GPU_TEST_ENV}-selection")

if(TBRF_HAVE_OPENCL)
  # no ICD found (empty vendor directory): NO_DEVICE, never a crash
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/empty-icd)
  add_test(NAME gpu_opencl_no_platform COMMAND test_gpu_selection opencl-no-platform)
  set_tests_properties(gpu_opencl_no_platform PROPERTIES LABELS "gpu"
    ENVIRONMENT "OCL_ICD_VENDORS=${CMAKE_CURRENT_BINARY_DIR}/empty-icd;${TBRF_GPU_TEST_ENV}-noplatform")
  tbrf_gpu_test(gpu_opencl_conformance opencl $<TARGET_FILE:test_gpu_conformance> opencl)
  tbrf_gpu_test(gpu_opencl_stats opencl $<TARGET_FILE:test_gpu_stats> opencl)
endif()
if(TBRF_HAVE_CUDA)
  # Runs the suite on a machine with an NVIDIA GPU; elsewhere it checks
  # that the backend reports TBRF_ERR_NO_DEVICE cleanly and skips.
  tbrf_gpu_test(gpu_cuda_conformance cuda $<TARGET_FILE:test_gpu_conformance> cuda)
  tbrf_gpu_test(gpu_cuda_stats cuda $<TARGET_FILE:test_gpu_stats> cuda)
  tbrf_gpu_test(gpu_cuda_no_device cuda $<TARGET_FILE:test_gpu_selection> cuda-no-device)
endif()
if(TBRF_HAVE_OPENCL)
  # counts GPU devices itself to check what `auto` must pick
  target_link_libraries(test_gpu_selection PRIVATE OpenCL::OpenCL)
  target_compile_definitions(test_gpu_selection PRIVATE TEST_HAVE_OPENCL CL_TARGET_OPENCL_VERSION=120)
endif()
