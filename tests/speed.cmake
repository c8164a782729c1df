# Speed work (issue 7): the SIMD projection kernels agree bitwise with the
# portable ones; the FFT method's statistics and determinism.
tbrf_add_test(test_cpu_kernels test_cpu_kernels.c)
tbrf_add_test(test_fft_method test_fft_method.c)
target_link_libraries(test_fft_method PRIVATE PkgConfig::FFTW3)
set_tests_properties(test_fft_method PROPERTIES LABELS "stats" TIMEOUT 600)
