/* startup_stub.c — a shared library without the functions of netCDF or
 * cairo, copied by test_startup.sh under their sonames to stand for a
 * broken installation: loading them must fail with a message, never a
 * crash. */
int tbrf_test_startup_stub(void);
int tbrf_test_startup_stub(void)
{
    return 0;
}
