#!/usr/bin/env bash
# test_layers.sh SRC_ROOT — no include runs from a lower layer to a higher
# one (doc/design.md, "Layers"). Each folder has a rank; a file may include
# "folder/..." only from its own rank or a lower one. Calls follow
# includes, so this also keeps calls downward.
set -euo pipefail
root=$1
rank() {
    case $1 in
    include/*) echo 0 ;;
    c/core/*) echo 1 ;;
    c/methods/*) echo 2 ;;
    c/backends/* | kernels/*) echo 3 ;;
    c/engine/*) echo 4 ;;
    c/plan/* | c/rng/* | c/mc/*) echo 5 ;;
    c/apps/*) echo 6 ;;
    io/* | c/analysis/* | c/mpi/*) echo 7 ;;
    cli/* | fortran/*) echo 8 ;;
    *) echo 99 ;;
    esac
}
cd "$root"
bad=0 n=0
while IFS= read -r f; do
    while IFS= read -r inc; do
        case $inc in
        tbrf.h | tbrf_version.h | tbrf_mpi.h | tbrf_arepo.h | tbrf_writer.h | tbrf/*) target=include/x ;;
        core/* | methods/* | backends/* | engine/* | plan/* | rng/* | mc/* | driving/* | apps/* | analysis/* | mpi/*) target=c/$inc ;;
        io/* | kernels/*) target=$inc ;;
        *) continue ;; # a file of the same folder, or a system header
        esac
        n=$((n + 1))
        if [ "$(rank "$target")" -gt "$(rank "$f")" ]; then
            echo "$f includes $inc: a lower layer reaches up"
            bad=1
        fi
    done < <(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f")
done < <(find include c kernels io cli -name '*.[ch]' -o -name '*.cu' -o -name '*.cl' | sort)
[ "$bad" -eq 0 ] || exit 1
echo "$n includes checked: every one points to the same layer or a lower one"
