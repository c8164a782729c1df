/* nc_load.c — netCDF loaded on first use (nc_load.h). */
#include <netcdf.h>
#include <pthread.h>
#include <stdio.h>

#include "io/dynload.h"
#include "io/nc_load.h"

#if defined(TBRF_IO_NC_DLOPEN) && !defined(TBRF_IO_MPI)
io_nc_table io_nc;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_status;
static char g_message[512];

static void load(void)
{
#define IO_NC_NAME(f) #f,
    static const char *const NAMES[] = {IO_NC_FUNCS(IO_NC_NAME)};
#undef IO_NC_NAME
#define IO_NC_ADDR(f) (void **)&io_nc.p_##f,
    void **const slots[] = {IO_NC_FUNCS(IO_NC_ADDR)};
#undef IO_NC_ADDR
    g_status = io_dynload(TBRF_NETCDF_SONAME, "netCDF files", NAMES, slots,
                          (int)(sizeof NAMES / sizeof NAMES[0]), g_message, sizeof g_message);
}

int io_nc_load(char *err, size_t errlen)
{
    pthread_once(&g_once, load);
    if (g_status)
        snprintf(err, errlen, "%s", g_message);
    return g_status;
}
#else
/* netCDF is linked (the MPI io library, or a build without dlopen). */
int io_nc_load(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return 0;
}
#endif
