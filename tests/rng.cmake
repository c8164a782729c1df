# Random numbers and Monte Carlo (issue 6): known answers on every backend,
# exact properties, statistical smoke tests, Genz integrals, the CLI.
add_executable(test_rng_kat test_rng_kat.c)
target_link_libraries(test_rng_kat PRIVATE tbrf m)
target_include_directories(test_rng_kat PRIVATE ${PROJECT_SOURCE_DIR}/c ${PROJECT_SOURCE_DIR}/tests
                           ${RANDOM123_INCLUDE_DIR})
add_test(NAME test_rng_kat COMMAND test_rng_kat ${CMAKE_CURRENT_SOURCE_DIR}/data/kat_vectors.txt)
tbrf_add_test(test_rng_basic test_rng_basic.c)
target_include_directories(test_rng_basic PRIVATE ${RANDOM123_INCLUDE_DIR})
tbrf_add_test(test_rng_stats test_rng_stats.c)
target_include_directories(test_rng_stats PRIVATE ${RANDOM123_INCLUDE_DIR})
tbrf_add_test(test_mc test_mc.c)
# The rng and mc commands.
foreach(case kat raw layouts mc bad_args)
  add_test(NAME cli_rng_${case}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_rng.sh $<TARGET_FILE:tbrf_cli>
                   ${CMAKE_CURRENT_SOURCE_DIR}/data/kat_vectors.txt ${case})
endforeach()
# dieharder (Debian package, installed by scripts/install-deps.sh for the
# tests): long, skipped when absent.
add_test(NAME cli_rng_dieharder
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_rng.sh $<TARGET_FILE:tbrf_cli>
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/kat_vectors.txt dieharder)
set_tests_properties(cli_rng_dieharder PROPERTIES LABELS long SKIP_RETURN_CODE 77 TIMEOUT 1800)
# The same known answers and conversions on OpenCL (skipped without a device).
if(TBRF_HAVE_OPENCL)
  add_executable(test_rng_opencl test_rng_opencl.c)
  target_link_libraries(test_rng_opencl PRIVATE tbrf OpenCL::OpenCL m)
  target_include_directories(test_rng_opencl PRIVATE ${PROJECT_SOURCE_DIR}/c ${PROJECT_SOURCE_DIR}/tests
                             ${RANDOM123_INCLUDE_DIR})
  target_compile_definitions(test_rng_opencl PRIVATE CL_TARGET_OPENCL_VERSION=120
    TBRF_SRC_C_DIR="${PROJECT_SOURCE_DIR}/c" TBRF_R123_DIR="${RANDOM123_INCLUDE_DIR}")
  add_test(NAME test_rng_opencl COMMAND test_rng_opencl ${CMAKE_CURRENT_SOURCE_DIR}/data/kat_vectors.txt)
  set_tests_properties(test_rng_opencl PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
# The headers compiled by nvcc: known answers from the host side always,
# and on a CUDA device when there is one (skipped otherwise).
if(TBRF_HAVE_CUDA)
  add_executable(test_rng_cuda)
  tbrf_cuda_sources(test_rng_cuda test_rng_cuda.cu)
  target_link_libraries(test_rng_cuda PRIVATE tbrf m)
  target_include_directories(test_rng_cuda PRIVATE ${PROJECT_SOURCE_DIR}/c ${PROJECT_SOURCE_DIR}/tests
                             ${RANDOM123_INCLUDE_DIR})
  add_test(NAME test_rng_cuda_host
           COMMAND test_rng_cuda ${CMAKE_CURRENT_SOURCE_DIR}/data/kat_vectors.txt host)
  add_test(NAME test_rng_cuda
           COMMAND test_rng_cuda ${CMAKE_CURRENT_SOURCE_DIR}/data/kat_vectors.txt device)
  set_tests_properties(test_rng_cuda PROPERTIES SKIP_RETURN_CODE 77)
endif()
