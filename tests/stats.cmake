# Statistical tests (label "stats"), determinism and bad-input tests.
# The spectrum estimator of the CLI (cli/measure.c) is compiled into the
# tests that need it; it links FFTW3 directly.
set(TBRF_MEASURE_SRC ${PROJECT_SOURCE_DIR}/cli/measure.c)

function(tbrf_add_stats_test name)
  tbrf_add_test(${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "stats" TIMEOUT 600)
endfunction()

tbrf_add_stats_test(test_stats_measure test_stats_measure.c ${TBRF_MEASURE_SRC})
target_link_libraries(test_stats_measure PRIVATE PkgConfig::FFTW3)
tbrf_add_stats_test(test_stats_normal test_stats_normal.c)
tbrf_add_stats_test(test_stats_variance test_stats_variance.c)
tbrf_add_stats_test(test_stats_spectrum test_stats_spectrum.c ${TBRF_MEASURE_SRC})
target_link_libraries(test_stats_spectrum PRIVATE PkgConfig::FFTW3)
tbrf_add_stats_test(test_stats_covariance test_stats_covariance.c)
tbrf_add_stats_test(test_stats_isotropy test_stats_isotropy.c)
tbrf_add_stats_test(test_stats_2d test_stats_2d.c)

tbrf_add_test(test_determinism test_determinism.c)
tbrf_add_test(test_api_errors test_api_errors.c)
