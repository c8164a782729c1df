/* hdf5_gdf.c — yt's Grid Data Format inside tbrf's HDF5 grid files, so that
 * `yt.load("f.h5")` opens them with no user code (doc/cli.md, "Looking
 * at the files"). yt identifies a GDF file by a root group
 * /gridded_data_format and reads one grid, described by
 * /simulation_parameters and the /grid_* datasets, from
 * /data/grid_0000000000/NAME, one dataset per field listed under
 * /field_types. The values are not copied: a 3D scalar /field is hard
 * linked there; a 2D grid (yt wants three axes, (1, ny, nx)) and each
 * component of a vector (field_x, field_y[, field_z] out of /field's last
 * axis) are HDF5 virtual datasets mapping /field of the same file.
 * field_ordering = 1 tells yt the arrays are (z, y, x) with x fastest,
 * tbrf's order. Written with the XDMF side file's numbers when a grid
 * file is marked complete; not under MPI (a parallel writer), nor for
 * series or points. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/hdf5_format.h"
#include "tbrf.h"

#define GDF_GRID "/data/grid_0000000000"

/* A small dataset of n int64 (rank 1, or (1, n) when two_d) with values v. */
static int small_i64(hid_t f, const char *name, const int64_t *v, int n, int two_d)
{
    hsize_t dims[2] = {two_d ? 1 : (hsize_t)n, (hsize_t)n};
    hid_t s = H5Screate_simple(two_d ? 2 : 1, dims, NULL);
    hid_t d = s >= 0 ? H5Dcreate2(f, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT,
                                  H5P_DEFAULT)
                     : -1;
    int rc = d < 0 || H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0;
    if (d >= 0)
        H5Dclose(d);
    if (s >= 0)
        H5Sclose(s);
    return rc ? -1 : 0;
}

/* An attribute of n values of the native type mt stored as ft on obj. */
static int gattr(hid_t obj, const char *name, hid_t ft, hid_t mt, const void *v, int n)
{
    hsize_t dn = (hsize_t)n;
    hid_t s = n > 1 ? H5Screate_simple(1, &dn, NULL) : H5Screate(H5S_SCALAR);
    hid_t a = s >= 0 ? H5Acreate2(obj, name, ft, s, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a < 0 || H5Awrite(a, mt, v) < 0;
    if (a >= 0)
        H5Aclose(a);
    if (s >= 0)
        H5Sclose(s);
    return rc ? -1 : 0;
}

static int gattr_str(hid_t obj, const char *name, const char *v)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    int rc = t < 0 || H5Tset_size(t, strlen(v) + 1) < 0 ||
             gattr(obj, name, t, t, v, 1);
    if (t >= 0)
        H5Tclose(t);
    return rc ? -1 : 0;
}

/* /simulation_parameters: the domain covers the cells (cell i centred at
 * origin + i spacing), one level, no ghost zones, periodic boundaries
 * where the field is periodic over exactly the grid. */
static int sim_params(hid_t f, const tbrf_io_meta *m)
{
    hid_t g = H5Gcreate2(f, "simulation_parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return -1;
    int64_t dims[3] = {1, 1, 1}, one = 1, zero = 0, two = 2, dim = m->dim, bc[6];
    double le[3] = {-0.5, -0.5, -0.5}, re[3] = {0.5, 0.5, 0.5}, t0 = 0.0;
    for (int c = 0; c < m->dim; c++) {
        dims[c] = m->n[c];
        le[c] = m->origin[c] - 0.5 * m->spacing[c];
        re[c] = m->origin[c] + ((double)m->n[c] - 0.5) * m->spacing[c];
        int periodic = m->box && m->box_length[c] > 0 &&
                       fabs((double)m->n[c] * m->spacing[c] - m->box_length[c]) <=
                           1e-9 * m->box_length[c];
        bc[2 * c] = bc[2 * c + 1] = periodic ? 0 : 2; /* GDF: 0 periodic, 2 outflow */
    }
    for (int c = m->dim; c < 3; c++)
        bc[2 * c] = bc[2 * c + 1] = 0;
    char id[64];
    snprintf(id, sizeof id, "tbrf seed %llu realization %llu", (unsigned long long)m->seed,
             (unsigned long long)m->realization);
    int rc = gattr(g, "refine_by", H5T_STD_I64LE, H5T_NATIVE_INT64, &two, 1) ||
             gattr(g, "dimensionality", H5T_STD_I64LE, H5T_NATIVE_INT64, &dim, 1) ||
             gattr(g, "domain_dimensions", H5T_STD_I64LE, H5T_NATIVE_INT64, dims, 3) ||
             gattr(g, "current_time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &t0, 1) ||
             gattr(g, "domain_left_edge", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, le, 3) ||
             gattr(g, "domain_right_edge", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, re, 3) ||
             gattr_str(g, "unique_identifier", id) ||
             gattr(g, "cosmological_simulation", H5T_STD_I64LE, H5T_NATIVE_INT64, &zero, 1) ||
             gattr(g, "num_ghost_zones", H5T_STD_I64LE, H5T_NATIVE_INT64, &zero, 1) ||
             gattr(g, "field_ordering", H5T_STD_I64LE, H5T_NATIVE_INT64, &one, 1) ||
             gattr(g, "boundary_conditions", H5T_STD_I64LE, H5T_NATIVE_INT64, bc, 6);
    H5Gclose(g);
    return rc ? -1 : 0;
}

/* Field `name` of the grid: component comp (-1: the scalar) of /field as
 * a virtual dataset (nz, ny, nx) ((1, ny, nx) in 2D). */
static int virtual_field(hid_t f, hid_t field, const tbrf_io_meta *m, const char *name, int comp)
{
    hid_t fs = H5Dget_space(field), type = H5Dget_type(field);
    hsize_t fd[4], start[4] = {0, 0, 0, 0}, count[4];
    int rank = fs >= 0 ? H5Sget_simple_extent_dims(fs, fd, NULL) : -1;
    hsize_t vd[3] = {m->dim == 3 ? (hsize_t)m->n[2] : 1, (hsize_t)m->n[1], (hsize_t)m->n[0]};
    hid_t vs = H5Screate_simple(3, vd, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int rc = -1;
    for (int i = 0; i < rank; i++)
        count[i] = fd[i];
    if (comp >= 0 && rank > 0)
        start[rank - 1] = (hsize_t)comp, count[rank - 1] = 1;
    char path[96];
    snprintf(path, sizeof path, GDF_GRID "/%s", name);
    if (rank > 0 && vs >= 0 && dcpl >= 0 && type >= 0 &&
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
        H5Pset_virtual(dcpl, vs, ".", "/field", fs) >= 0) {
        hid_t d = H5Dcreate2(f, path, type, vs, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        rc = d < 0 ? -1 : 0;
        if (d >= 0)
            H5Dclose(d);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (vs >= 0)
        H5Sclose(vs);
    if (type >= 0)
        H5Tclose(type);
    if (fs >= 0)
        H5Sclose(fs);
    return rc;
}

/* The grid's fields under /data and /field_types. */
static int fields(hid_t f, hid_t field, const tbrf_io_meta *m)
{
    static const char *const NAMES[3] = {"field_x", "field_y", "field_z"};
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    int rc = lcpl < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0;
    hid_t g = rc ? -1 : H5Gcreate2(f, GDF_GRID, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    hid_t types = H5Gcreate2(f, "field_types", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    rc |= g < 0 || types < 0;
    const int nc = m->ncomp > 1 ? m->ncomp : 1;
    for (int c = 0; rc == 0 && c < nc; c++) {
        const char *name = nc > 1 ? NAMES[c] : "field";
        if (nc == 1 && m->dim == 3)
            rc |= H5Lcreate_hard(f, "/field", f, GDF_GRID "/field", H5P_DEFAULT, H5P_DEFAULT) < 0;
        else
            rc |= virtual_field(f, field, m, name, nc > 1 ? c : -1);
        hid_t t = H5Gcreate2(types, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc |= t < 0 || gattr_str(t, "field_name", name);
        if (t >= 0)
            H5Gclose(t);
    }
    if (types >= 0)
        H5Gclose(types);
    if (g >= 0)
        H5Gclose(g);
    if (lcpl >= 0)
        H5Pclose(lcpl);
    return rc ? -1 : 0;
}

int io_gdf_write(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    if (!m->is_grid || io_h5(w)->field < 0 || (m->dim != 2 && m->dim != 3))
        return 0;
    const int64_t zero3[3] = {0, 0, 0}, zero = 0, parent = -1;
    const int64_t dims[3] = {m->n[0], m->n[1], m->dim == 3 ? m->n[2] : 1};
    hid_t f = io_h5(w)->file;
    hid_t g = H5Gcreate2(f, "gridded_data_format", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g < 0 || gattr_str(g, "data_software", "tbrf") ||
             gattr_str(g, "data_software_version", TBRF_VERSION_STRING);
    if (g >= 0)
        H5Gclose(g);
    rc = rc || sim_params(f, m) || small_i64(f, "grid_left_index", zero3, 3, 1) ||
         small_i64(f, "grid_dimensions", dims, 3, 1) || small_i64(f, "grid_level", &zero, 1, 0) ||
         small_i64(f, "grid_parent_id", &parent, 1, 0) ||
         small_i64(f, "grid_particle_count", &zero, 1, 1) || fields(f, io_h5(w)->field, m);
    return rc ? -1 : 0;
}
