/* cairo_load.c — cairo and fontconfig loaded on first use (cairo_load.h). */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>

#include "cairo_load.h"
#include "io/dynload.h"

#ifdef TBRF_CLI_CAIRO_DLOPEN
plot_cairo_table plot_cairo;

/* The command is single-threaded around its pictures: no once-guard. */
static int g_loaded;
static int g_status;
static char g_message[512];

int plot_load(char *err, size_t errlen)
{
#define PLOT_NAME(f) #f,
#define PLOT_ADDR(f) (void **)&plot_cairo.p_##f,
    static const char *const CAIRO_NAMES[] = {PLOT_CAIRO_FUNCS(PLOT_NAME)};
    static const char *const FC_NAMES[] = {PLOT_FC_FUNCS(PLOT_NAME)};
    void **const cairo_slots[] = {PLOT_CAIRO_FUNCS(PLOT_ADDR)};
    void **const fc_slots[] = {PLOT_FC_FUNCS(PLOT_ADDR)};
#undef PLOT_NAME
#undef PLOT_ADDR
    if (!g_loaded) {
        g_loaded = 1;
        g_status = io_dynload(TBRF_CAIRO_SONAME, "PNG pictures", CAIRO_NAMES, cairo_slots,
                              (int)(sizeof CAIRO_NAMES / sizeof CAIRO_NAMES[0]), g_message,
                              sizeof g_message);
        if (g_status == 0)
            g_status = io_dynload(TBRF_FONTCONFIG_SONAME, "PNG pictures", FC_NAMES, fc_slots,
                                  (int)(sizeof FC_NAMES / sizeof FC_NAMES[0]), g_message,
                                  sizeof g_message);
    }
    if (g_status)
        snprintf(err, errlen, "%s", g_message);
    return g_status;
}
#else
/* cairo is linked (the MPI command). */
int plot_load(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return 0;
}
#endif
