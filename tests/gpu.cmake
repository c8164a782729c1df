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
if(TBRF_CUDA_EMULATOR)
  # The CUDA backend on the tests' CPU emulator of the CUDA runtime
  # (tests/cuda_emulator, doc/gpu.md): one emulated device for the suites
  # above (gpu_cuda_no_device keeps the default of none), the conformance
  # suite again under two random stream schedules, and what only the
  # emulator can stage: a device smaller than the field, failing
  # allocations, a GPU the kernels were not built for, a caller's own
  # current device.
  set(TBRF_EMU_ONE "TBRF_CUDA_EMU_DEVICES=1")
  set_property(TEST gpu_cuda_conformance gpu_cuda_stats test_rng_cuda APPEND PROPERTY ENVIRONMENT ${TBRF_EMU_ONE})
  foreach(seed 1 2)
    tbrf_gpu_test(gpu_cuda_conformance_random${seed} cuda $<TARGET_FILE:test_gpu_conformance> cuda)
    set_property(TEST gpu_cuda_conformance_random${seed} APPEND PROPERTY ENVIRONMENT
      ${TBRF_EMU_ONE} TBRF_CUDA_EMU_SCHEDULE=random:${seed})
  endforeach()
  add_executable(test_cuda_emulated test_cuda_emulated.c)
  target_link_libraries(test_cuda_emulated PRIVATE tbrf tbrf_cuda_emulator m)
  target_include_directories(test_cuda_emulated PRIVATE ${PROJECT_SOURCE_DIR}/c ${PROJECT_SOURCE_DIR}/tests)
  tbrf_gpu_test(gpu_cuda_bigger_than_device cuda $<TARGET_FILE:test_cuda_emulated> big)
  set_property(TEST gpu_cuda_bigger_than_device APPEND PROPERTY ENVIRONMENT ${TBRF_EMU_ONE} TBRF_CUDA_EMU_MEMORY_MIB=8)
  tbrf_gpu_test(gpu_cuda_failed_allocations cuda $<TARGET_FILE:test_cuda_emulated> faults)
  set_property(TEST gpu_cuda_failed_allocations APPEND PROPERTY ENVIRONMENT ${TBRF_EMU_ONE})
  tbrf_gpu_test(gpu_cuda_keeps_caller_device cuda $<TARGET_FILE:test_cuda_emulated> device)
  set_property(TEST gpu_cuda_keeps_caller_device APPEND PROPERTY ENVIRONMENT TBRF_CUDA_EMU_DEVICES=2)
  tbrf_gpu_test(gpu_cuda_no_kernel_image cuda $<TARGET_FILE:test_cuda_emulated> no-image)
  set_property(TEST gpu_cuda_no_kernel_image APPEND PROPERTY ENVIRONMENT ${TBRF_EMU_ONE}
    TBRF_CUDA_EMU_NO_KERNEL_IMAGE=1)
endif()
if(TBRF_HAVE_OPENCL)
  # counts GPU devices itself to check what `auto` must pick
  target_link_libraries(test_gpu_selection PRIVATE OpenCL::OpenCL)
  target_compile_definitions(test_gpu_selection PRIVATE TEST_HAVE_OPENCL CL_TARGET_OPENCL_VERSION=120)
endif()
