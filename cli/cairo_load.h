/* cairo_load.h — cairo and fontconfig loaded when a picture is first drawn
 * (io/dynload.h says why), included by plot.h after <cairo.h> and
 * <fontconfig/fontconfig.h>. In the serial command's module
 * (TBRF_CLI_CAIRO_DLOPEN, set by cli/CMakeLists.txt) each function named
 * below becomes a pointer that plot_load fills; the MPI command links
 * cairo as before.
 *
 * plot_slice and plot_spectrum, the only ways into the drawing code, call
 * plot_load first. A cairo function called in plot*.c but missing from
 * PLOT_CAIRO_FUNCS is an undefined symbol, which the module's linking
 * (--no-undefined) reports. */
#ifndef TBRF_CLI_CAIRO_LOAD_H
#define TBRF_CLI_CAIRO_LOAD_H

#include <stddef.h>

/* Loads cairo and fontconfig (once per process). 0, or -1 with err set:
 * "PNG pictures need libcairo.so.2, which could not be loaded: ...". */
int plot_load(char *err, size_t errlen);

#ifdef TBRF_CLI_CAIRO_DLOPEN
#define PLOT_CAIRO_FUNCS(X)                                                                       \
    X(cairo_arc) X(cairo_clip) X(cairo_create) X(cairo_debug_reset_static_data) X(cairo_destroy) \
    X(cairo_fill) X(cairo_fill_preserve) X(cairo_font_extents) X(cairo_get_source)                \
    X(cairo_image_surface_create) X(cairo_image_surface_get_data)                                 \
    X(cairo_image_surface_get_stride) X(cairo_line_to) X(cairo_move_to) X(cairo_new_path)         \
    X(cairo_paint) X(cairo_pattern_add_color_stop_rgb) X(cairo_pattern_create_linear)             \
    X(cairo_pattern_destroy) X(cairo_pattern_set_extend) X(cairo_pattern_set_filter)              \
    X(cairo_rectangle) X(cairo_restore) X(cairo_rotate) X(cairo_save) X(cairo_scale)              \
    X(cairo_select_font_face) X(cairo_set_dash) X(cairo_set_font_size) X(cairo_set_line_join)     \
    X(cairo_set_line_width) X(cairo_set_source) X(cairo_set_source_rgb)                           \
    X(cairo_set_source_rgba) X(cairo_set_source_surface) X(cairo_show_text)                       \
    X(cairo_status_to_string) X(cairo_stroke) X(cairo_surface_destroy) X(cairo_surface_flush)     \
    X(cairo_surface_mark_dirty) X(cairo_surface_status) X(cairo_surface_write_to_png_stream)      \
    X(cairo_text_extents) X(cairo_translate)
#define PLOT_FC_FUNCS(X) X(FcFini)

typedef struct plot_cairo_table {
#define PLOT_SLOT(f) __typeof__(f) *p_##f;
    PLOT_CAIRO_FUNCS(PLOT_SLOT)
    PLOT_FC_FUNCS(PLOT_SLOT)
#undef PLOT_SLOT
} plot_cairo_table;
extern plot_cairo_table plot_cairo;

#define cairo_arc (*plot_cairo.p_cairo_arc)
#define cairo_clip (*plot_cairo.p_cairo_clip)
#define cairo_create (*plot_cairo.p_cairo_create)
#define cairo_debug_reset_static_data (*plot_cairo.p_cairo_debug_reset_static_data)
#define cairo_destroy (*plot_cairo.p_cairo_destroy)
#define cairo_fill (*plot_cairo.p_cairo_fill)
#define cairo_fill_preserve (*plot_cairo.p_cairo_fill_preserve)
#define cairo_font_extents (*plot_cairo.p_cairo_font_extents)
#define cairo_get_source (*plot_cairo.p_cairo_get_source)
#define cairo_image_surface_create (*plot_cairo.p_cairo_image_surface_create)
#define cairo_image_surface_get_data (*plot_cairo.p_cairo_image_surface_get_data)
#define cairo_image_surface_get_stride (*plot_cairo.p_cairo_image_surface_get_stride)
#define cairo_line_to (*plot_cairo.p_cairo_line_to)
#define cairo_move_to (*plot_cairo.p_cairo_move_to)
#define cairo_new_path (*plot_cairo.p_cairo_new_path)
#define cairo_paint (*plot_cairo.p_cairo_paint)
#define cairo_pattern_add_color_stop_rgb (*plot_cairo.p_cairo_pattern_add_color_stop_rgb)
#define cairo_pattern_create_linear (*plot_cairo.p_cairo_pattern_create_linear)
#define cairo_pattern_destroy (*plot_cairo.p_cairo_pattern_destroy)
#define cairo_pattern_set_extend (*plot_cairo.p_cairo_pattern_set_extend)
#define cairo_pattern_set_filter (*plot_cairo.p_cairo_pattern_set_filter)
#define cairo_rectangle (*plot_cairo.p_cairo_rectangle)
#define cairo_restore (*plot_cairo.p_cairo_restore)
#define cairo_rotate (*plot_cairo.p_cairo_rotate)
#define cairo_save (*plot_cairo.p_cairo_save)
#define cairo_scale (*plot_cairo.p_cairo_scale)
#define cairo_select_font_face (*plot_cairo.p_cairo_select_font_face)
#define cairo_set_dash (*plot_cairo.p_cairo_set_dash)
#define cairo_set_font_size (*plot_cairo.p_cairo_set_font_size)
#define cairo_set_line_join (*plot_cairo.p_cairo_set_line_join)
#define cairo_set_line_width (*plot_cairo.p_cairo_set_line_width)
#define cairo_set_source (*plot_cairo.p_cairo_set_source)
#define cairo_set_source_rgb (*plot_cairo.p_cairo_set_source_rgb)
#define cairo_set_source_rgba (*plot_cairo.p_cairo_set_source_rgba)
#define cairo_set_source_surface (*plot_cairo.p_cairo_set_source_surface)
#define cairo_show_text (*plot_cairo.p_cairo_show_text)
#define cairo_status_to_string (*plot_cairo.p_cairo_status_to_string)
#define cairo_stroke (*plot_cairo.p_cairo_stroke)
#define cairo_surface_destroy (*plot_cairo.p_cairo_surface_destroy)
#define cairo_surface_flush (*plot_cairo.p_cairo_surface_flush)
#define cairo_surface_mark_dirty (*plot_cairo.p_cairo_surface_mark_dirty)
#define cairo_surface_status (*plot_cairo.p_cairo_surface_status)
#define cairo_surface_write_to_png_stream (*plot_cairo.p_cairo_surface_write_to_png_stream)
#define cairo_text_extents (*plot_cairo.p_cairo_text_extents)
#define cairo_translate (*plot_cairo.p_cairo_translate)
#define FcFini (*plot_cairo.p_FcFini)
#endif

#endif
