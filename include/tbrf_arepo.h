/* tbrf_arepo.h — AREPO / Gadget "format 3" HDF5 initial-condition files
 * (doc/arepo.md, doc/ic.md): in the tbrf_io library of the command and,
 * installed, in libtbrf_writer (pkg-config tbrf-writer), so that a
 * program that makes its initial conditions with tbrf.h's tbrf_ic_*
 * writes the command's files.
 *
 * The file layout is what AREPO's reader demands (doc/arepo.md, "What
 * AREPO reads"): /Header with every attribute it opens, /PartType<t> with
 * Coordinates, Velocities, ParticleIDs, Masses (types whose MassTable
 * entry is 0) and InternalEnergy (gas), and tbrf's generating parameters
 * in /tbrf. Written like every tbrf file: temporaries renamed only when
 * every file of the set is complete (tbrf_io.h, "Safe writes"). */
#ifndef TBRF_AREPO_H
#define TBRF_AREPO_H

#include <stddef.h>
#include <stdint.h>
#include "tbrf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The file layouts of a set (tbrf_arepo_cosmo_file.format, doc/arepo.md
 * "Gadget binary files"): AREPO/Gadget format-3 HDF5 BASE.hdf5 (BASE.I.hdf5
 * for several files); Gadget's binary SnapFormat/ICFormat 1 (Fortran
 * records: the 256-byte header, POS, VEL, ID, MASS, U); format 2 (the
 * same with a labelled record before each block). */
#define TBRF_AREPO_FORMAT_HDF5 0
#define TBRF_AREPO_FORMAT_GADGET1 1
#define TBRF_AREPO_FORMAT_GADGET2 2

/* The Header of every file of a set. */
typedef struct tbrf_arepo_header {
    double time, redshift;        /* Time (the scale factor in cosmological runs), Redshift */
    double box_size;              /* BoxSize > 0; every coordinate in [0, BoxSize) */
    double omega0, omega_lambda;  /* Omega0, OmegaLambda in [0, 10] */
    double omega_baryon;          /* OmegaBaryon in [0, omega0] (not read by AREPO) */
    double hubble_param;          /* HubbleParam > 0 */
    double mass_table[6];         /* MassTable: 0 = per-particle Masses */
    int double_precision;         /* 1: float64 datasets, Flag_DoublePrecision 1; 0: float32, 0 */
    int long_ids;                 /* 1: uint64 ParticleIDs (AREPO's LONGIDS); 0: uint32 */
    int num_files;                /* NumFilesPerSnapshot >= 1 */
    int flag_sfr, flag_cooling, flag_stellarage, flag_metals, flag_feedback;
    /* The units, written as Header attributes UnitLength_in_cm,
     * UnitMass_in_g and UnitVelocity_in_cm_per_s when > 0 (AREPO takes
     * its units from the parameter file and ignores them; they make the
     * file self-describing for other readers); 0: not written. */
    double unit_length_cm, unit_mass_g, unit_velocity_cm_s;
} tbrf_arepo_header;

/* Fills *h with a non-cosmological single-file set: time 0, redshift 0,
 * box 1, Omega 0, h 1, float64, uint32 IDs, every flag 0. */
TBRF_API void tbrf_arepo_header_init(tbrf_arepo_header *h);

/* One particle type's data (all files together): n rows, positions xyz
 * (3n), velocities (3n, NULL: zeros), masses (n; required when the
 * MassTable entry is 0, ignored otherwise), u the specific internal
 * energy (n, type 0 only; NULL: zeros). IDs are first_id .. first_id +
 * n - 1 (first_id >= 1). */
typedef struct tbrf_arepo_particles {
    int64_t n;
    const double *pos, *vel, *mass, *u;
    uint64_t first_id;
} tbrf_arepo_particles;

/* A generating parameter recorded as an attribute of /tbrf: a string when
 * text is not NULL, else the number. */
typedef struct tbrf_arepo_param {
    const char *name, *text;
    double value;
} tbrf_arepo_param;

/* 0 if the header's values are in range (what tbrf_arepo_write checks
 * first), else -1 with the reason in err. */
TBRF_API int tbrf_arepo_check_header(const tbrf_arepo_header *h, char *err, size_t errlen);

/* The name of file `index` of the set `base`: BASE.hdf5 for one file,
 * BASE.INDEX.hdf5 for several (a trailing ".hdf5" of base is dropped
 * first: AREPO's InitCondFile names the set without it). Malloc'ed, NULL
 * if out of memory. */
char *tbrf_arepo_file_name(const char *base, int num_files, int index);

/* Writes the set: file f holds rows [n f/F, n (f+1)/F) of every type.
 * Checks everything first (header ranges, finite data inside the box,
 * positive gas mass, IDs unique across types and within uint32 unless
 * long_ids; in a float32 file every value within float range) and writes
 * nothing on bad input; a single file is refused while BASE.0.hdf5
 * exists (AREPO would read that set instead). Every file is written to a
 * temporary; the names are published only when all are complete and
 * synced, with the catchable signals held back during the renames (if a
 * rename fails, the previous set is put back: all or nothing; a set of
 * two or more records set_files, set_member and set_digest in /tbrf,
 * tbrf_arepo_check_set). float32 coordinates that round up to BoxSize
 * are wrapped to stay in [0, BoxSize). Returns 0, or -1 with one line
 * naming the file or the bad value in err. */
TBRF_API int tbrf_arepo_write(const char *base, const tbrf_arepo_header *h,
                     const tbrf_arepo_particles types[6], const tbrf_arepo_param *params,
                     size_t nparams, char *err, size_t errlen);

/* A set written one file at a time, so that a caller holds one file's
 * particles, not all of them (--files bounds memory). open
 * checks the header, the counts n[t] of the whole set and their IDs
 * first_id[t] .. first_id[t] + n[t] - 1 (as tbrf_arepo_write), refuses a
 * single file beside BASE.0.hdf5, and creates every file's temporary;
 * write_file(f) takes file f's rows of each type (part[t].n = the count
 * and part[t].first_id = the ID of the first row that
 * tbrf_arepo_file_rows gives; positions inside the box, finite values),
 * in order f = 0, 1, ...; commit publishes the set when every file is
 * written (all or nothing, as tbrf_arepo_write: a failed rename puts the
 * previous set back); close
 * frees the set and removes unpublished temporaries, so an error at any
 * step leaves no file. Each returns 0, or -1 with one line in err. */
typedef struct tbrf_arepo_set tbrf_arepo_set;
/* Opens the set (see above). */
TBRF_API int tbrf_arepo_set_open(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                        const uint64_t first_id[6], tbrf_arepo_set **set, char *err,
                        size_t errlen);
/* Writes file f of the set (see above). */
TBRF_API int tbrf_arepo_set_write_file(tbrf_arepo_set *set, int f,
                                       const tbrf_arepo_particles part[6],
                                       const tbrf_arepo_param *params, size_t nparams, char *err,
                                       size_t errlen);
/* Publishes the set when every file is written (see above). */
TBRF_API int tbrf_arepo_set_commit(tbrf_arepo_set *set, char *err, size_t errlen);
/* Frees the set, removing unpublished temporaries; NULL is ignored. */
TBRF_API void tbrf_arepo_set_close(tbrf_arepo_set *set);

/* For the command's signal handler, not exported: hook(paths, n) is
 * called whenever the temporaries of the set being written change (n of
 * them, paths valid until the next call; NULL and 0: none left), so that
 * a handler can remove them (async-signal-safe unlink) before the
 * process dies. NULL: no hook. */
void tbrf_arepo_set_temp_hook(void (*hook)(const char *const *paths, int n));

/* Checks that the AREPO file path, when it records that it is a member
 * of a set of tbrf's (set_files, set_member, set_digest in /tbrf: sets
 * of two or more files), has every other member BASE.I.hdf5 with the
 * same set_digest: 0 (also for a file that records no set); -1 naming
 * the missing member or the member of another run (a mixed set) in err.
 * Not exported: the readers of this file call it. */
int tbrf_arepo_check_set(const char *path, char *err, size_t errlen);

/* tbrf_arepo_set_open and tbrf_arepo_write in the file layout `format`
 * (TBRF_AREPO_FORMAT_*): for the gadget formats the members are Gadget
 * binary files BASE (BASE.I for several) and the set also publishes the
 * side file BASE.tbrf.h5 (the Header, /tbrf with the parameters, the
 * format, set_files, set_digest, and /gadget_members: each member's size
 * and digest), renamed first; a single file is refused while BASE.0
 * exists. Not exported: the command's. */
int tbrf_arepo_set_open_format(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                               const uint64_t first_id[6], int format, tbrf_arepo_set **set,
                               char *err, size_t errlen);
int tbrf_arepo_write_format(const char *base, const tbrf_arepo_header *h,
                            const tbrf_arepo_particles types[6], const tbrf_arepo_param *params,
                            size_t nparams, int format, char *err, size_t errlen);

/* A part of a set, for a set written by several processes (the
 * MPI command's `arepo cosmo`: each rank writes its own members). Not
 * exported: the command's. open_part is tbrf_arepo_set_open for members
 * member0 .. member0 + members - 1 of h->num_files only, member f holding
 * rows bounds[f] .. bounds[f + 1] - 1 of every type that has particles
 * (bounds: num_files + 1 rising rows from 0 to that count, the same in
 * every process); write_file takes those members in order. part_digests
 * gives the written members' content digests (members values); the
 * caller gathers every process's into one array of num_files, the same
 * in every process, for part_stage, which records the set's identity
 * (as tbrf_arepo_set_commit's, so a part written by one process is the
 * serial set bitwise) and closes and syncs the members under their
 * temporary names. Publishing is then agreed across the processes:
 * part_rename(0) renames every member but member 0 (the file AREPO opens
 * first), keeping the files it replaces, part_rename(1) member 0; from
 * the first rename the catchable signals are held back until
 * part_finish(ok), which with ok = 1 drops the kept files (the set is
 * published) and with ok = 0 puts them back and removes the new members
 * (the previous set, or none). Each returns 0, or -1 with one line in err
 * (part_finish: -1 when a kept file could not be put back). */
int tbrf_arepo_set_open_part(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                             const uint64_t first_id[6], int member0, int members,
                             const int64_t *bounds, tbrf_arepo_set **set, char *err,
                             size_t errlen);
/* open_part_format: open_part in the layout `format` (as
 * tbrf_arepo_set_open_format): for the gadget formats the process that
 * writes member 0 also writes the side file, which records every
 * member's size as well: part_sizes(all = 0) gives the written members'
 * sizes (members values), part_sizes(all = 1) takes every process's
 * gathered (num_files), before part_stage (0, or -1 when the part is
 * incomplete); part_rename(0) renames the side file first. */
int tbrf_arepo_set_open_part_format(const char *base, const tbrf_arepo_header *h,
                                    const int64_t n[6], const uint64_t first_id[6], int member0,
                                    int members, const int64_t *bounds, int format,
                                    tbrf_arepo_set **set, char *err, size_t errlen);
int tbrf_arepo_set_part_sizes(tbrf_arepo_set *set, uint64_t *sizes, int all);
int tbrf_arepo_set_part_digests(const tbrf_arepo_set *set, uint64_t *digests);
int tbrf_arepo_set_part_stage(tbrf_arepo_set *set, const uint64_t *digests, char *err,
                              size_t errlen);
int tbrf_arepo_set_part_rename(tbrf_arepo_set *set, int first_member, char *err, size_t errlen);
int tbrf_arepo_set_part_finish(tbrf_arepo_set *set, int ok);

/* The format recorded by the file path (TBRF_AREPO_FORMAT_*): a Gadget
 * set's side file records gadget1 or gadget2; any other file is
 * TBRF_AREPO_FORMAT_HDF5. Not exported. */
int tbrf_arepo_file_format(const char *path);

/* The name of member `index` of the set `base` of num_files in `format`
 * (tbrf_arepo_file_name for HDF5; BASE or BASE.INDEX for Gadget), and of
 * the file that records a set's command: the HDF5 member itself, a Gadget
 * set's side file BASE.tbrf.h5 (index ignored). Malloc'ed, NULL if out of
 * memory. Not exported. */
char *tbrf_arepo_member_name(const char *base, int num_files, int index, int format);
char *tbrf_arepo_record_name(const char *base, int num_files, int index, int format);

/* Rows [*first, *first + *count) of n that file f of a set of num_files
 * holds: [n f / F, n (f + 1) / F). */
TBRF_API void tbrf_arepo_file_rows(int64_t n, int num_files, int f, int64_t *first, int64_t *count);

/* The command that wrote an AREPO file, from its /tbrf group ("tbrf
 * arepo gas ..."), as a malloc'ed string in *command: 0; 1 when the file
 * is no AREPO file of tbrf (no /Header, /tbrf or command: *command NULL);
 * -1 with the reason in err (unreadable, not one string). */
TBRF_API int tbrf_arepo_read_command(const char *path, char **command, char *err, size_t errlen);

/* Compares the particle datasets (Coordinates, Velocities, ParticleIDs,
 * Masses, InternalEnergy of every PartType<t>) of two AREPO files bit for
 * bit: their presence, shape, stored type and bytes. 0 equal, 1 different
 * (err names the dataset), -1 unreadable or over the memory budget. */
TBRF_API int tbrf_arepo_compare(const char *a, const char *b, char *err, size_t errlen);

/* Reads /PartType0/Coordinates (N, 3), any float type, of an AREPO or
 * Gadget HDF5 file (one file of a set) as doubles into malloc'ed *xyz,
 * after the storage and memory-budget checks of tbrf_io.h. Returns 0; 1
 * when path is no HDF5 file with that dataset (read it as /points or
 * text instead); -1 with a message in err. */
TBRF_API int tbrf_arepo_read_coordinates(const char *path, int64_t *n, double **xyz, char *err,
                                size_t errlen);

/* A glass for particle loads (N-GenIC's GlassFile): /PartType1/Coordinates
 * of a Gadget/AREPO HDF5 file (else /PartType0/Coordinates) with its
 * /Header BoxSize in *box (1 when the file has none), read as
 * tbrf_arepo_read_coordinates reads. Returns 0; 1 when path has neither
 * dataset (read /points or text, in a unit box, instead); -1 with a
 * message in err (a BoxSize that is not one positive number, say). */
TBRF_API int tbrf_arepo_read_glass(const char *path, int64_t *n, double **xyz, double *box,
                                   char *err, size_t errlen);

/* A cosmological initial condition (tbrf.h's tbrf_ic_cosmo) written as
 * the set `base` as `tbrf arepo cosmo` writes it: PartType1 (IDs 1 .. N)
 * and, with gas, PartType0 (IDs N + 1 .. 2N, InternalEnergy), the Header
 * (Time = a, the cosmology, MassTable from the IC's masses, the units),
 * every parameter in /tbrf. Generates file by file (one file's particles
 * in memory: tbrf_ic_cosmo_generate with num_files chunks). */
typedef struct tbrf_arepo_cosmo_file {
    int32_t num_files;        /* NumFilesPerSnapshot, 1 .. 65536 (default 1) */
    int32_t double_precision; /* 1: float64 (default); 0: float32 */
    int32_t long_ids;         /* 1: uint64 ParticleIDs; 0: uint32 (default) */
    int32_t format;           /* TBRF_AREPO_FORMAT_HDF5 (0, default), _GADGET1 or _GADGET2:
                                 Gadget's binary layouts, members BASE (BASE.0, BASE.1, ...
                                 for several files) and the side file BASE.tbrf.h5 with the
                                 Header and the parameters; IDs become uint64 by themselves
                                 when they pass 2^32 - 1 */
    const char *command;      /* recorded as /tbrf command (what `tbrf arepo regen` reruns);
                                 NULL (default): "tbrf arepo cosmo" */
    const char *power_name;   /* recorded as power_spectrum: the P(k) table's file when the IC
                                 was made with params.power; NULL (default): the Eisenstein &
                                 Hu fit's name */
    const char *glass_name;   /* recorded as glass_file with a glass; NULL: "(glass)" */
    const char *power_digest; /* recorded as power_file_digest when not NULL (default NULL) */
    const char *gas_power_name; /* recorded as gas_power_spectrum with params.power_gas (the
                                   transfer file's baryon column); NULL: "(power_gas)" */
} tbrf_arepo_cosmo_file;

/* Fills *file with the defaults listed in tbrf_arepo_cosmo_file. */
TBRF_API void tbrf_arepo_default_cosmo_file(tbrf_arepo_cosmo_file *file);

/* Writes the set (published only when complete, as tbrf_arepo_set_*).
 * Returns 0, or -1 with one line in err (the IC's message when it
 * failed). */
TBRF_API int tbrf_arepo_write_cosmo(const char *base, tbrf_ic_cosmo *ic,
                                    const tbrf_arepo_cosmo_file *file, char *err,
                                    size_t errlen);

/* Writes a zoom IC (tbrf.h's tbrf_ic_zoom) as a set: PartType1 the fine
 * dark matter (MassTable[1] mass_fine), PartType2 the parent's particles
 * outside the region (MassTable[2] mass_coarse; with nested levels also
 * the coarser levels', MassTable[2] 0 and a Masses dataset), with gas PartType0 the
 * fine gas (MassTable[0] mass_gas); IDs 1 .. fine, then coarse, then gas;
 * the header and /tbrf as tbrf_arepo_write_cosmo's, with the region
 * (zoom_refinement, zoom_levels, zoom_region, zoom_pad_cells, zoom_region_cells) and
 * file->command (NULL: "tbrf arepo zoom"). All particles are in memory
 * (the zoom holds them); file f of num_files holds rows [n f/F, n (f+1)/F)
 * of every type. Published only when complete. Returns 0, or -1 with one
 * line in err. */
TBRF_API int tbrf_arepo_write_zoom(const char *base, const tbrf_ic_zoom *zoom,
                                   const tbrf_arepo_cosmo_file *file, char *err, size_t errlen);

/* tbrf_arepo_write_cosmo's set written by several processes, each its
 * own members (tbrf_arepo_set_open_part: member0, members, bounds): open
 * checks and creates this process's members; part_push is the
 * tbrf_ic_push_fn that writes chunk c as member c (the IC's rows
 * bounds[c] .. bounds[c + 1] - 1), its message then in part_message;
 * part_set the set, for its digests, stage, renames and finish; close
 * frees it (tbrf_arepo_set_close). open returns 0, or -1 with one line in
 * err. Not exported: the MPI command's. */
typedef struct tbrf_arepo_cosmo_part tbrf_arepo_cosmo_part;
int tbrf_arepo_cosmo_part_open(const char *base, tbrf_ic_cosmo *ic,
                               const tbrf_arepo_cosmo_file *file, int member0, int members,
                               const int64_t *bounds, tbrf_arepo_cosmo_part **part, char *err,
                               size_t errlen);
int tbrf_arepo_cosmo_part_push(void *part, const tbrf_ic_chunk *chunk);
tbrf_arepo_set *tbrf_arepo_cosmo_part_set(tbrf_arepo_cosmo_part *part);
const char *tbrf_arepo_cosmo_part_message(const tbrf_arepo_cosmo_part *part);
void tbrf_arepo_cosmo_part_close(tbrf_arepo_cosmo_part *part);

#ifdef __cplusplus
}
#endif
#endif
