#!/bin/sh
# check_wrapped.sh TBRF_H TBRF_F90 — every function of tbrf.h has an
# idiomatic wrapper of the same name in module tbrf (a procedure or a generic
# interface), unless listed in RAW_ONLY (reachable as c_<name> from tbrf_c).
set -eu
h=$1 f90=$2
here=$(dirname "$0")
# The cancel hooks: a Fortran program is interrupted by its own signal
# handling, and a bind(C) callback is all a caller needs (c_tbrf_*).
RAW_ONLY="tbrf_set_cancel tbrf_driver_set_cancel tbrf_inflow_set_cancel tbrf_ic_cosmo_set_cancel"
names=$(awk -f "$here/../../fortran/gen_tbrf_c.awk" "$h" | sed -n 's/.*bind(C, name="\([A-Za-z_0-9]*\)").*/\1/p')
test -n "$names"
missing=0 n=0
for name in $names; do
    n=$((n + 1))
    case " $RAW_ONLY " in *" $name "*) continue ;; esac
    if ! grep -Eiq "^[[:space:]]*((subroutine|function|interface)[[:space:]]+$name\b|(integer|logical|real)[^!]*function[[:space:]]+$name\b)" "$f90"; then
        echo "no idiomatic wrapper in $(basename "$f90") for $name"
        missing=$((missing + 1))
    fi
done
if [ "$missing" -ne 0 ]; then
    echo "$missing of $n C functions lack a Fortran wrapper"
    exit 1
fi
echo "all $n C functions have a Fortran wrapper"
