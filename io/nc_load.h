/* nc_load.h — netCDF loaded on first use (io/dynload.h says why). Included
 * (after <netcdf.h>) by the io sources that call netCDF. In the serial io
 * library (TBRF_IO_NC_DLOPEN, set by io/CMakeLists.txt) each netCDF
 * function named below becomes a pointer that io_nc_load fills; the MPI
 * io library (TBRF_IO_MPI) links the MPI netCDF as before.
 *
 * Every entry into netCDF (a netCDF writer's creation, a netCDF points
 * file's reading) calls io_nc_load first. A netCDF function called here
 * but missing from IO_NC_FUNCS is an undefined symbol, which the linking
 * of the command's module (--no-undefined) reports. */
#ifndef TBRF_IO_NC_LOAD_H
#define TBRF_IO_NC_LOAD_H

#include <stddef.h>

/* Loads netCDF (once per process, thread-safe). 0, or -1 with err set:
 * "netCDF files need libnetcdf.so.N, which could not be loaded: ...". */
int io_nc_load(char *err, size_t errlen);

#if defined(TBRF_IO_NC_DLOPEN) && !defined(TBRF_IO_MPI)
#include <netcdf.h>

#define IO_NC_FUNCS(X)                                                                              \
    X(nc_close) X(nc_create) X(nc_def_dim) X(nc_def_var) X(nc_def_var_chunking)                     \
    X(nc_def_var_deflate) X(nc_def_var_fill) X(nc_free_string) X(nc_get_att_double)                 \
    X(nc_get_att_longlong) X(nc_get_att_string) X(nc_get_att_text) X(nc_get_att_ulonglong)          \
    X(nc_get_var_double) X(nc_get_vara_double) X(nc_initialize) X(nc_inq) X(nc_inq_att)             \
    X(nc_inq_attname) X(nc_inq_dim) X(nc_inq_dimlen) X(nc_inq_format) X(nc_inq_var)                 \
    X(nc_inq_var_chunking) X(nc_inq_var_deflate) X(nc_inq_var_fill) X(nc_inq_vardimid)              \
    X(nc_inq_varid) X(nc_inq_varndims) X(nc_inq_vartype) X(nc_open) X(nc_put_att_double)            \
    X(nc_put_att_longlong) X(nc_put_att_text) X(nc_put_att_ulonglong) X(nc_put_var_double)          \
    X(nc_put_vara_double) X(nc_put_vara_float) X(nc_set_var_chunk_cache) X(nc_strerror)

typedef struct io_nc_table {
#define IO_NC_SLOT(f) __typeof__(f) *p_##f;
    IO_NC_FUNCS(IO_NC_SLOT)
#undef IO_NC_SLOT
} io_nc_table;
extern io_nc_table io_nc;

#define nc_close (*io_nc.p_nc_close)
#define nc_create (*io_nc.p_nc_create)
#define nc_def_dim (*io_nc.p_nc_def_dim)
#define nc_def_var (*io_nc.p_nc_def_var)
#define nc_def_var_chunking (*io_nc.p_nc_def_var_chunking)
#define nc_def_var_deflate (*io_nc.p_nc_def_var_deflate)
#define nc_def_var_fill (*io_nc.p_nc_def_var_fill)
#define nc_free_string (*io_nc.p_nc_free_string)
#define nc_get_att_double (*io_nc.p_nc_get_att_double)
#define nc_get_att_longlong (*io_nc.p_nc_get_att_longlong)
#define nc_get_att_string (*io_nc.p_nc_get_att_string)
#define nc_get_att_text (*io_nc.p_nc_get_att_text)
#define nc_get_att_ulonglong (*io_nc.p_nc_get_att_ulonglong)
#define nc_get_var_double (*io_nc.p_nc_get_var_double)
#define nc_get_vara_double (*io_nc.p_nc_get_vara_double)
#define nc_initialize (*io_nc.p_nc_initialize)
#define nc_inq (*io_nc.p_nc_inq)
#define nc_inq_att (*io_nc.p_nc_inq_att)
#define nc_inq_attname (*io_nc.p_nc_inq_attname)
#define nc_inq_dim (*io_nc.p_nc_inq_dim)
#define nc_inq_dimlen (*io_nc.p_nc_inq_dimlen)
#define nc_inq_format (*io_nc.p_nc_inq_format)
#define nc_inq_var (*io_nc.p_nc_inq_var)
#define nc_inq_var_chunking (*io_nc.p_nc_inq_var_chunking)
#define nc_inq_var_deflate (*io_nc.p_nc_inq_var_deflate)
#define nc_inq_var_fill (*io_nc.p_nc_inq_var_fill)
#define nc_inq_vardimid (*io_nc.p_nc_inq_vardimid)
#define nc_inq_varid (*io_nc.p_nc_inq_varid)
#define nc_inq_varndims (*io_nc.p_nc_inq_varndims)
#define nc_inq_vartype (*io_nc.p_nc_inq_vartype)
#define nc_open (*io_nc.p_nc_open)
#define nc_put_att_double (*io_nc.p_nc_put_att_double)
#define nc_put_att_longlong (*io_nc.p_nc_put_att_longlong)
#define nc_put_att_text (*io_nc.p_nc_put_att_text)
#define nc_put_att_ulonglong (*io_nc.p_nc_put_att_ulonglong)
#define nc_put_var_double (*io_nc.p_nc_put_var_double)
#define nc_put_vara_double (*io_nc.p_nc_put_vara_double)
#define nc_put_vara_float (*io_nc.p_nc_put_vara_float)
#define nc_set_var_chunk_cache (*io_nc.p_nc_set_var_chunk_cache)
#define nc_strerror (*io_nc.p_nc_strerror)
#endif

#endif
