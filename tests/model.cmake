# Model layer: spectra, covariances, the turning-bands line spectrum,
# Bessel K (test_model); tables, parameters, messages (test_model_input).
tbrf_add_test(test_model test_model.c)
tbrf_add_test(test_model_input test_model_input.c)
