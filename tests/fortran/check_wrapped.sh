#!/bin/sh
# check_wrapped.sh TBRF_H FORTRAN_DIR — every function of tbrf.h has an
# idiomatic wrapper of the same name in module tbrf (a procedure or a generic
# interface in tbrf.f90 or the tbrf_*.inc files it includes), unless listed
# in RAW_ONLY (reachable as c_<name> from tbrf_c); and every function of
# tbrf_mpi.h beside it a generic of module tbrf_mpi (tbrf_mpi.f90).
set -eu
h=$1 dir=$2
f90=$(mktemp)
trap 'rm -f "$f90"' EXIT
cat "$dir/tbrf.f90" "$dir"/tbrf_*.inc > "$f90"
here=$(dirname "$0")
# The cancel hooks: a Fortran program is interrupted by its own signal
# handling, and a bind(C) callback is all a caller needs (c_tbrf_*).
# The inner pieces of an initial condition split over ranks (its plan, the
# rows from given displacements, the fixed modes) are what libtbrf_mpi's
# tbrf_ic_cosmo_generate_mpi composes; a Fortran code calls that through
# module tbrf_mpi (tbrf_mpi.f90), so they are reached raw (c_tbrf_ic_cosmo_*).
RAW_ONLY="tbrf_set_cancel tbrf_driver_set_cancel tbrf_inflow_set_cancel tbrf_ic_cosmo_set_cancel"
RAW_ONLY="$RAW_ONLY tbrf_ic_cosmo_plan"
RAW_ONLY="$RAW_ONLY tbrf_ic_cosmo_push_rows tbrf_ic_cosmo_push_rows2 tbrf_ic_cosmo_push_rows3"
RAW_ONLY="$RAW_ONLY tbrf_ic_cosmo_fixed_modes"
# Likewise the steps of a zoom and the lattice offset they make, which
# tbrf_ic_zoom_make_mpi composes (module tbrf_mpi: tbrf_ic_zoom_make_mpi).
RAW_ONLY="$RAW_ONLY tbrf_ic_zoom_begin tbrf_ic_zoom_level_make tbrf_ic_zoom_take"
RAW_ONLY="$RAW_ONLY tbrf_ic_zoom_append tbrf_ic_zoom_finish tbrf_ic_cosmo_get_offset"
names=$(awk -f "$here/../../fortran/gen_tbrf_c.awk" "$h" | sed -n 's/.*bind(C, name="\([A-Za-z_0-9]*\)").*/\1/p')
test -n "$names"
missing=0 n=0
for name in $names; do
    n=$((n + 1))
    case " $RAW_ONLY " in *" $name "*) continue ;; esac
    if ! grep -Eiq "^[[:space:]]*((subroutine|function|interface)[[:space:]]+$name\b|(integer|logical|real)[^!]*function[[:space:]]+$name\b)" "$f90"; then
        echo "no idiomatic wrapper in module tbrf for $name"
        missing=$((missing + 1))
    fi
done
# tbrf_mpi.h (libtbrf_mpi): each function a generic of module tbrf_mpi,
# which takes the communicator in either of Fortran's forms.
mpi_h=$(dirname "$h")/tbrf_mpi.h
if [ -f "$mpi_h" ]; then
    for name in $(sed -n 's/^TBRF_API [a-z_0-9 *]*[ *]\(tbrf_[a-z_0-9]*\)(.*/\1/p' "$mpi_h"); do
        n=$((n + 1))
        if ! grep -Eiq "^[[:space:]]*interface[[:space:]]+$name\b" "$dir/tbrf_mpi.f90"; then
            echo "no generic in module tbrf_mpi for $name"
            missing=$((missing + 1))
        fi
    done
fi
if [ "$missing" -ne 0 ]; then
    echo "$missing of $n C functions lack a Fortran wrapper"
    exit 1
fi
echo "all $n C functions have a Fortran wrapper"
