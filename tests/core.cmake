# Unit tests of the core's internal layers: directions, lines, plan basics.
tbrf_add_test(test_directions test_directions.c)
tbrf_add_test(test_lines test_lines.c)
target_include_directories(test_lines PRIVATE ${RANDOM123_INCLUDE_DIR})
target_link_libraries(test_lines PRIVATE PkgConfig::FFTW3)
tbrf_add_test(test_plan_basics test_plan_basics.c)
tbrf_add_test(example_api example_api.c)
