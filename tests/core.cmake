# Unit tests of the core's internal layers: directions, lines, plan basics.
tbrf_add_test(test_directions test_directions.c)
tbrf_add_test(test_lines test_lines.c)
target_include_directories(test_lines PRIVATE ${RANDOM123_INCLUDE_DIR})
target_link_libraries(test_lines PRIVATE PkgConfig::FFTW3)
tbrf_add_test(test_plan_basics test_plan_basics.c)
tbrf_add_test(example_api example_api.c)

# The installed package works for an outside program (pkg-config and
# find_package). Under the sanitizers the consumer must link their runtimes.
set(TBRF_CONSUMER_FLAGS "")
if(TBRF_SANITIZE)
  set(TBRF_CONSUMER_FLAGS "-fsanitize=address,undefined")
endif()
add_test(NAME install_consumer
  COMMAND ${CMAKE_COMMAND} -E env "SANITIZE_FLAGS=${TBRF_CONSUMER_FLAGS}"
          bash ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/consumer)
