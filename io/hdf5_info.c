/* hdf5_info.c — the HDF5 reader's info slot, a readable summary of an
 * HDF5 file: its groups and datasets
 * with their attributes (the netCDF library's bookkeeping hidden), and the
 * root attributes that record how it was generated (`tbrf info`). Works on any
 * HDF5 file, not only ours, so it can also explain a bad points file. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/hdf5_format.h"
#include "io/io_reader.h"
#include "io/tbrf_io.h"

#define MAX_SHOWN 16 /* array attributes: elements printed before "..." */
#define INFO_MAX_VALUES (1 << 16) /* larger numeric attributes are not read at all */

static void print_type(FILE *out, hid_t t)
{
    H5T_class_t c = H5Tget_class(t);
    size_t size = H5Tget_size(t);
    switch (c) {
    case H5T_FLOAT:
        fprintf(out, "float%zu", size * 8);
        break;
    case H5T_INTEGER:
        fprintf(out, "%sint%zu", H5Tget_sign(t) == H5T_SGN_NONE ? "u" : "", size * 8);
        break;
    case H5T_STRING:
        fputs("string", out);
        break;
    case H5T_COMPOUND:
        fputs("compound", out);
        break;
    default:
        fputs("other", out);
        break;
    }
}

static void print_dims(FILE *out, hid_t space)
{
    int rank = H5Sget_simple_extent_ndims(space);
    hsize_t dims[H5S_MAX_RANK];
    if (rank < 0 || H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
        fputs("(?)", out);
        return;
    }
    if (rank == 0) {
        fputs("scalar", out);
        return;
    }
    fputc('(', out);
    for (int i = 0; i < rank; i++)
        fprintf(out, "%s%llu", i ? ", " : "", (unsigned long long)dims[i]);
    fputc(')', out);
}

/* Prints an attribute's value: strings quoted, numbers in full. */
static void print_attr_value(FILE *out, hid_t a)
{
    hid_t t = H5Aget_type(a);
    hid_t space = H5Aget_space(a);
    hssize_t np = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t < 0 || np < 0) {
        fputs("(unreadable)", out);
        goto done;
    }
    if (c == H5T_STRING && np == 1) {
        char *v = NULL;
        if (io_attr_string(a, &v) == 1) {
            fputc('"', out);
            io_put_escaped(out, v);
            fputc('"', out);
        } else {
            fputs("(unreadable string)", out);
        }
        free(v);
        goto done;
    }
    if (c != H5T_FLOAT && c != H5T_INTEGER) {
        fputs("(", out);
        print_type(out, t);
        fputs(" value not shown)", out);
        goto done;
    }
    if ((size_t)np > SIZE_MAX / 8 || np > INFO_MAX_VALUES) {
        fprintf(out, "(%lld values, not shown)", (long long)np);
        goto done;
    }
    size_t n = (size_t)np;
    void *buf = malloc(n ? n * 8 : 8);
    if (!buf) {
        fputs("(no memory)", out);
        goto done;
    }
    int unsig = c == H5T_INTEGER && H5Tget_sign(t) == H5T_SGN_NONE;
    hid_t mt = c == H5T_FLOAT ? H5T_NATIVE_DOUBLE : unsig ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64;
    if (H5Aread(a, mt, buf) < 0) {
        fputs("(unreadable)", out);
        free(buf);
        goto done;
    }
    if (n != 1)
        fputc('[', out);
    for (size_t i = 0; i < n && i < MAX_SHOWN; i++) {
        if (i)
            fputs(", ", out);
        if (c == H5T_FLOAT)
            io_put_double(out, ((double *)buf)[i]);
        else if (unsig)
            fprintf(out, "%" PRIu64, ((uint64_t *)buf)[i]);
        else
            fprintf(out, "%" PRId64, ((int64_t *)buf)[i]);
    }
    if (n > MAX_SHOWN)
        fprintf(out, ", ... (%zu values)", n);
    if (n != 1)
        fputc(']', out);
    free(buf);
done:
    if (t >= 0)
        H5Tclose(t);
    if (space >= 0)
        H5Sclose(space);
}

/* Bounds on what is listed: objects in the file, attributes of one object. */
#define INFO_MAX_OBJECTS 10000
#define INFO_MAX_ATTRS 1000

/* The netCDF library's (and HDF5 dimension scales') bookkeeping, not the
 * file's metadata: hidden. CLASS and NAME only on a dimension scale. */
static int hidden_attr(const char *name, int dimscale)
{
    static const char *internal[] = {"_Netcdf4Dimid", "_Netcdf4Coordinates", "_NCProperties",
                                     "_nc3_strict", "_IsNetcdf4", "_SuperblockVersion",
                                     "REFERENCE_LIST", "DIMENSION_LIST", "DIMENSION_LABELS"};
    for (size_t i = 0; i < sizeof internal / sizeof *internal; i++)
        if (strcmp(name, internal[i]) == 0)
            return 1;
    return dimscale && (strcmp(name, "CLASS") == 0 || strcmp(name, "NAME") == 0);
}

/* The string attribute `name` of obj into buf ("" when absent or not a string). */
static void attr_text(hid_t obj, const char *name, char *buf, size_t n)
{
    buf[0] = '\0';
    if (H5Aexists(obj, name) <= 0)
        return;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    char *v = NULL;
    if (a >= 0 && io_attr_string(a, &v) == 1)
        snprintf(buf, n, "%s", v);
    free(v);
    if (a >= 0)
        H5Aclose(a);
}

static int is_dimscale(hid_t obj)
{
    char c[32];
    attr_text(obj, "CLASS", c, sizeof c);
    return strcmp(c, "DIMENSION_SCALE") == 0;
}

typedef struct attr_ctx {
    FILE *out;
    const char *indent;
    int width;
    int dimscale;   /* obj is a dimension scale: CLASS and NAME hidden */
    long shown, more;
} attr_ctx;

static herr_t attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    attr_ctx *ctx = data;
    if (hidden_attr(name, ctx->dimscale))
        return 0;
    if (ctx->shown >= INFO_MAX_ATTRS) {
        ctx->more++;
        return 0;
    }
    ctx->shown++;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    char ename[256];
    fprintf(ctx->out, "%s%-*s = ", ctx->indent, ctx->width,
            tbrf_io_escape(name, ename, sizeof ename));
    if (a < 0) {
        fputs("(unreadable)", ctx->out);
    } else {
        print_attr_value(ctx->out, a);
        H5Aclose(a);
    }
    fputc('\n', ctx->out);
    return 0;
}

/* Attributes in the order they were written (which groups them sensibly)
 * when the file tracks it, else by name; the internal ones hidden, at
 * most INFO_MAX_ATTRS. Returns how many were listed. */
static long print_attrs(FILE *out, hid_t obj, const char *indent)
{
    attr_ctx ctx = {out, indent, 18, is_dimscale(obj), 0, 0};
    hsize_t idx = 0;
    if (H5Aiterate2(obj, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, attr_cb, &ctx) < 0 && idx == 0) {
        idx = 0;
        ctx.shown = ctx.more = 0;
        H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, attr_cb, &ctx);
    }
    if (ctx.more > 0)
        fprintf(out, "%s... %ld more attributes\n", indent, ctx.more);
    return ctx.shown + ctx.more;
}

static void print_filters(FILE *out, hid_t dcpl)
{
    int nf = H5Pget_nfilters(dcpl);
    for (int i = 0; i < nf; i++) {
        unsigned flags = 0, cd[8];
        size_t ncd = 8;
        char name[64] = "";
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, sizeof name, name, NULL);
        fputs(i ? "+" : "  filters ", out);
        if (id == H5Z_FILTER_DEFLATE && ncd >= 1)
            fprintf(out, "deflate(%u)", cd[0]);
        else if (id == H5Z_FILTER_SHUFFLE)
            fputs("shuffle", out);
        else
            fputs(name[0] ? name : "unknown", out);
    }
}

/* The axes of /field (grid) or /value (points), slowest first: a
 * series (`tbrf drive`, a /time dataset) has time first and its vector
 * components last; a single field has its components last when the root
 * attribute "components" says it is a vector. */
static void print_axes(FILE *out, hid_t obj, hid_t space, int grid)
{
    int rank = H5Sget_simple_extent_ndims(space), vec = 0, series = 0;
    hid_t file = H5Iget_file_id(obj);
    if (file >= 0) {
        vec = H5Aexists_by_name(file, "/", "components", H5P_DEFAULT) > 0;
        series = H5Lexists(file, "time", H5P_DEFAULT) > 0;
        H5Fclose(file);
    }
    vec = vec || series; /* a series always holds vectors */
    int space_axes = rank - series - vec;
    /* a 1D grid only in a series (three components in a 1D box) */
    const char *grid_axes = space_axes == 3   ? "nz, ny, nx"
                            : space_axes == 2 ? "ny, nx"
                            : space_axes == 1 && series ? "nx"
                                                        : NULL;
    if (!grid)
        grid_axes = space_axes == 1 ? "point" : NULL;
    if (!grid_axes)
        return; /* a shape tbrf does not write: no label rather than a wrong one */
    fprintf(out, "  [%s%s%s]", series ? "time, " : "", grid_axes, vec ? ", component" : "");
}

static void print_dataset(FILE *out, hid_t obj, const char *lname, const char *name)
{
    hid_t t = H5Dget_type(obj), space = H5Dget_space(obj), dcpl = H5Dget_create_plist(obj);
    fprintf(out, "  /%-14s ", name);
    if (t >= 0)
        print_type(out, t);
    fputs("  ", out);
    if (space >= 0)
        print_dims(out, space);
    if (dcpl >= 0) {
        if (H5Pget_layout(dcpl) == H5D_CHUNKED) {
            hsize_t cd[H5S_MAX_RANK];
            int r = H5Pget_chunk(dcpl, H5S_MAX_RANK, cd);
            fputs("  chunks (", out);
            for (int i = 0; i < r; i++)
                fprintf(out, "%s%llu", i ? ", " : "", (unsigned long long)cd[i]);
            fputc(')', out);
        }
        print_filters(out, dcpl);
    }
    if ((strcmp(lname, "field") == 0 || strcmp(lname, "value") == 0) && space >= 0)
        print_axes(out, obj, space, strcmp(lname, "field") == 0);
    char nm[80];
    attr_text(obj, "NAME", nm, sizeof nm);
    if (strncmp(nm, "This is a netCDF dimension but not a netCDF variable", 52) == 0)
        fputs("  (netCDF dimension)", out);
    fputc('\n', out);
    print_attrs(out, obj, "      ");
    if (t >= 0)
        H5Tclose(t);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
}

typedef struct visit_ctx {
    FILE *out;
    long shown, more;
    int gdf; /* the file carries tbrf's yt layout (hdf5_gdf.c): listed as one line */
} visit_ctx;

/* 1 for an object of the Grid Data Format layout tbrf writes for yt
 * (hdf5_gdf.c), which the listing folds into one line. */
static int gdf_object(const char *lname)
{
    static const char *const TOP[] = {"data", "field_types", "gridded_data_format",
                                      "simulation_parameters", "grid_dimensions",
                                      "grid_left_index", "grid_level", "grid_parent_id",
                                      "grid_particle_count"};
    for (size_t i = 0; i < sizeof TOP / sizeof *TOP; i++) {
        size_t n = strlen(TOP[i]);
        if (strncmp(lname, TOP[i], n) == 0 && (lname[n] == '\0' || lname[n] == '/'))
            return 1;
    }
    return 0;
}

/* 1 when the file's /gridded_data_format says tbrf wrote it. */
static int tbrf_gdf(hid_t f)
{
    char sw[16] = "";
    if (H5Lexists(f, "gridded_data_format", H5P_DEFAULT) <= 0)
        return 0;
    hid_t g = H5Gopen2(f, "gridded_data_format", H5P_DEFAULT);
    if (g < 0)
        return 0;
    attr_text(g, "data_software", sw, sizeof sw);
    H5Gclose(g);
    return strcmp(sw, "tbrf") == 0;
}

/* Every object of the file, groups with their attributes and datasets
 * with shape, type and attributes; at most INFO_MAX_OBJECTS. */
static herr_t visit_cb(hid_t g, const char *lname, const H5L_info_t *info, void *data)
{
    visit_ctx *ctx = data;
    FILE *out = ctx->out;
    if (ctx->gdf && gdf_object(lname))
        return 0;
    if (ctx->shown >= INFO_MAX_OBJECTS) {
        ctx->more++;
        return 0;
    }
    ctx->shown++;
    char name[512];
    tbrf_io_escape(lname, name, sizeof name);
    if (info->type != H5L_TYPE_HARD) {
        fprintf(out, "  /%s  (link)\n", name);
        return 0;
    }
    hid_t obj = H5Oopen(g, lname, H5P_DEFAULT);
    if (obj < 0) {
        fprintf(out, "  /%s  (cannot open)\n", name);
        return 0;
    }
    H5I_type_t type = H5Iget_type(obj);
    if (type == H5I_GROUP) {
        fprintf(out, "  /%s/  group\n", name);
        print_attrs(out, obj, "      ");
    } else if (type == H5I_DATASET) {
        print_dataset(out, obj, lname, name);
    } else {
        fprintf(out, "  /%s  (other object)\n", name);
    }
    H5Oclose(obj);
    return 0;
}

int io_h5_info(const char *path, FILE *out, char *err, size_t errlen)
{
    if (!path || !path[0] || !out) {
        io_setf(err, errlen, "no file name given");
        return -1;
    }
    if (io_stat_input(path, NULL, err, errlen))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    if (H5Fis_hdf5(path) <= 0) {
        io_setf(err, errlen, "%s is not an HDF5 file", path);
        goto done;
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "cannot open %s%s%s", path, why[0] ? ": " : "", why);
        goto done;
    }
    fputs("file: ", out);
    io_put_escaped(out, path);
    fputc('\n', out);
    fputs("objects:\n", out);
    visit_ctx vc = {out, 0, 0, tbrf_gdf(f)};
    H5Lvisit(f, H5_INDEX_NAME, H5_ITER_INC, visit_cb, &vc);
    if (vc.gdf)
        fputs("  (and yt's Grid Data Format layout over /field: /gridded_data_format, "
              "/simulation_parameters, /grid_*, /field_types, /data/; doc/cli.md)\n", out);
    if (vc.more > 0)
        fprintf(out, "  ... %ld more objects\n", vc.more);
    hid_t root = H5Gopen2(f, "/", H5P_DEFAULT);
    if (root >= 0) {
        fputs("attributes:\n", out);
        if (print_attrs(out, root, "  ") == 0)
            fputs("  none (not written by tbrf?)\n", out);
        H5Gclose(root);
    }
    H5Fclose(f);
    rc = 0;
done:
    io_quiet_end(&q);
    return rc;
}
