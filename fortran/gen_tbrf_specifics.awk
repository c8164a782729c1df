# gen_tbrf_specifics.awk — expands fortran/tbrf_specifics.in into
# fortran/tbrf_specifics.inc, the per-type and per-kind specific procedures
# of module tbrf that differ only in a name, a kind or a rank.
#
#   awk -f gen_tbrf_specifics.awk tbrf_specifics.in > tbrf_specifics.inc
#
# A block between "!@each SPEC" and "!@end" is written once for every
# combination SPEC names, with each @NAME@ replaced by its value. SPEC is
# groups separated by " ; "; a group is NAME=v1|v2|... assignments that
# advance together (so they list as many values); the groups multiply, the
# first group varying slowest. Lines starting "!!" are the template's own
# comments and are not copied. Values hold no blank, "|", ";", "&" or "\".
BEGIN {
    print "! tbrf_specifics.inc — GENERATED from tbrf_specifics.in by"
    print "! gen_tbrf_specifics.awk (test fortran_generated_in_step): edit the"
    print "! template, then regenerate. Included by module tbrf (fortran/tbrf.f90)."
    inblock = 0
}
function expand(spec, body,    groups, ng, g, k, na, a, eq, name, vals, nv, count, total, idx, c, out, rest, j) {
    ng = split(spec, groups, / *; */)
    nvar = 0
    total = 1
    for (g = 1; g <= ng; g++) {
        na = split(groups[g], a, / +/)
        count[g] = -1
        for (k = 1; k <= na; k++) {
            if (a[k] == "") continue
            eq = index(a[k], "=")
            if (eq == 0) { print "gen_tbrf_specifics.awk: bad assignment " a[k] > "/dev/stderr"; exit 1 }
            nvar++
            vname[nvar] = substr(a[k], 1, eq - 1)
            nv = split(substr(a[k], eq + 1), vals, "|")
            if (count[g] >= 0 && nv != count[g]) { print "gen_tbrf_specifics.awk: uneven group " groups[g] > "/dev/stderr"; exit 1 }
            count[g] = nv
            vgroup[nvar] = g
            for (j = 1; j <= nv; j++) vval[nvar, j] = vals[j]
        }
        total *= count[g]
    }
    for (c = 0; c < total; c++) {
        rest = c
        for (g = ng; g >= 1; g--) { idx[g] = rest % count[g] + 1; rest = int(rest / count[g]) }
        out = body
        for (k = 1; k <= nvar; k++) gsub("@" vname[k] "@", vval[k, idx[vgroup[k]]], out)
        printf "%s", out
    }
}
/^[ \t]*!!/ { next }
/^[ \t]*!@each / {
    if (inblock) { print "gen_tbrf_specifics.awk: nested !@each" > "/dev/stderr"; exit 1 }
    spec = $0
    sub(/^[ \t]*!@each +/, "", spec)
    body = ""
    inblock = 1
    next
}
/^[ \t]*!@end/ { expand(spec, body); inblock = 0; next }
inblock { body = body $0 "\n"; next }
{ print }
END { if (inblock) { print "gen_tbrf_specifics.awk: !@each without !@end" > "/dev/stderr"; exit 1 } }
