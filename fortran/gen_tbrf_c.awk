# gen_tbrf_c.awk — generates fortran/tbrf_c.f90 (module tbrf_c) from include/tbrf.h.
#
#   awk -f fortran/gen_tbrf_c.awk BUILD/include/tbrf_version.h include/tbrf.h > fortran/tbrf_c.f90
#   awk -v mode=flayout -f fortran/gen_tbrf_c.awk include/tbrf.h > tests/fortran/layout_f.f90
#   awk -v mode=clayout -f fortran/gen_tbrf_c.awk include/tbrf.h > BUILD/layout_c.c  (at build time)
#
# The two layout files list sizeof and the offset of every field of every
# struct: layout_f.f90 (committed) as the Fortran bind(C) types of the
# committed tbrf_c.f90 lay them out, layout_c.c (generated from the current
# header at build time) as the C compiler does. fortran_layout compares them.
#
# POSIX awk (mawk, gawk, busybox). The output is committed; the ctest
# fortran_generated_in_step regenerates it and fails when it differs, so a
# change to tbrf.h that is not carried into Fortran fails CI.
#
# What it mirrors, mechanically:
#   #define TBRF_X <integer or string>       -> parameter
#   enum / typedef enum { A = v, B, ... }     -> integer(c_int) parameters
#   typedef struct X { fields } X;           -> type, bind(C) :: X
#   typedef struct X X;  (opaque)             -> handled as type(c_ptr)
#   typedef R (*X)(params);                   -> abstract interface X
#   R name(params);                           -> interface c_name, bind(C, name="name")
# Argument mapping (C -> Fortran):
#   scalar number                  -> value
#   T a[N]                         -> a(N)
#   const T *a (number)            -> intent(in) :: a(*)
#   TBRF_OUT T *a (number)         -> intent(out) :: a  (one value handed back)
#   TBRF_ARRAY T *a (number)       -> a(*)              (an array it writes)
#   T *a (number), unmarked        -> stops the generator: the header says
#                                     which of the two each such pointer is
#   const char *s                  -> character(kind=c_char) :: s(*) (NUL-terminated)
#   void *, opaque *, const struct * -> type(c_ptr), value  (may be c_null_ptr)
#   struct *  (non-const)          -> type(struct) by reference
#   opaque **                      -> type(c_ptr) by reference
#   function-pointer typedef       -> type(c_funptr), value
#   returned pointers              -> type(c_ptr)
# Unsigned integers map to the signed kind of the same size (same bits).
# Anything it cannot map stops the generator with a message (exit 1).

function fail(msg) {
    print "gen_tbrf_c.awk: " msg > "/dev/stderr"
    failed = 1
    exit 1
}

function trim(s) {
    sub(/^[ \t\n]+/, "", s)
    sub(/[ \t\n]+$/, "", s)
    return s
}

function squeeze(s) {
    gsub(/[ \t\n]+/, " ", s)
    return trim(s)
}

# Fortran kind spelling of a C number type; "" if not a number type.
function kind_of(t) {
    if (t == "int" || t == "int32_t" || t == "uint32_t" || t == "unsigned") {
        if (t == "int" || t == "unsigned") return "integer(c_int)"
        return "integer(c_int32_t)"
    }
    if (t == "int64_t" || t == "uint64_t") return "integer(c_int64_t)"
    if (t == "int16_t" || t == "uint16_t") return "integer(c_int16_t)"
    if (t == "int8_t" || t == "uint8_t") return "integer(c_int8_t)"
    if (t == "size_t") return "integer(c_size_t)"
    if (t == "long") return "integer(c_long)"
    if (t == "double") return "real(c_double)"
    if (t == "float") return "real(c_float)"
    if (t == "bool" || t == "_Bool") return "logical(c_bool)"
    if (t in ENUMTYPE) return "integer(c_int)"
    return ""
}

# Splits a C declaration "const double lo[3]" into globals D_CONST, D_BASE,
# D_PTR (number of *), D_NAME, D_ARR ("" or the bound).
function parse_decl(s,    n, w, i, tok) {
    s = squeeze(s)
    D_ARR = ""
    if (match(s, /\[[^]]*\]$/)) {
        D_ARR = substr(s, RSTART + 1, RLENGTH - 2)
        s = trim(substr(s, 1, RSTART - 1))
    }
    gsub(/\*/, " * ", s)
    n = split(squeeze(s), w, " ")
    D_CONST = 0; D_BASE = ""; D_PTR = 0; D_NAME = ""; D_MARK = ""
    for (i = 1; i <= n; i++) {
        tok = w[i]
        if (tok == "TBRF_OUT" || tok == "TBRF_ARRAY") D_MARK = tok
        else if (tok == "const") D_CONST = 1
        else if (tok == "*") D_PTR++
        else if (tok == "struct" || tok == "enum" || tok == "restrict") continue
        else if (i == n && D_BASE != "") D_NAME = tok
        else if (D_BASE == "") D_BASE = tok
        else if (tok == "int" && (D_BASE == "unsigned" || D_BASE == "long")) continue
        else fail("cannot parse declaration '" s "'")
    }
}

# Fortran declaration of one dummy argument (C declaration s).
function dummy_decl(s, ctx,    k) {
    parse_decl(s)
    if (D_NAME == "") fail(ctx ": unnamed parameter '" s "'")
    ARGNAME = D_NAME
    k = kind_of(D_BASE)
    if (D_ARR != "") {
        if (k == "" || D_PTR > 0) fail(ctx ": cannot map array parameter '" s "'")
        return k ", intent(" (D_CONST ? "in" : "inout") ") :: " D_NAME "(" D_ARR ")"
    }
    if (D_PTR == 0) {
        if (k != "") return k ", value :: " D_NAME
        if (D_BASE in FUNPTR) return "type(c_funptr), value :: " D_NAME
        fail(ctx ": cannot map parameter '" s "'")
    }
    if (D_PTR == 1) {
        if (D_BASE == "char")
            return "character(kind=c_char)" (D_CONST ? ", intent(in)" : "") " :: " D_NAME "(*)"
        if (D_BASE == "void" || (D_BASE in OPAQUE)) return "type(c_ptr), value :: " D_NAME
        if (D_BASE in STRUCT) {
            if (D_CONST) return "type(c_ptr), value :: " D_NAME
            return "type(" D_BASE ") :: " D_NAME
        }
        if (k != "") {
            if (D_CONST) return k ", intent(in) :: " D_NAME "(*)"
            if (D_MARK == "TBRF_OUT") return k ", intent(out) :: " D_NAME
            if (D_MARK == "TBRF_ARRAY") return k " :: " D_NAME "(*)"
            fail(ctx ": parameter '" squeeze(s) "' points to numbers the function writes but " \
                 "has no mark: put TBRF_OUT before it in the header if the function hands " \
                 "back one value there, TBRF_ARRAY if it is an array")
        }
        fail(ctx ": cannot map pointer parameter '" s "'")
    }
    if (D_PTR == 2 && ((D_BASE in OPAQUE) || D_BASE == "void" || D_BASE == "char"))
        return "type(c_ptr) :: " D_NAME
    fail(ctx ": cannot map parameter '" s "'")
}

# Prints "  <word> name(args) bind(C...)" with the argument list wrapped.
function emit_head(ind, head, fname, argl, tail,    line, n, a, i, piece) {
    line = ind head " " fname "("
    n = split(argl, a, ",")
    for (i = 1; i <= n; i++) {
        piece = a[i] (i < n ? ", " : "")
        if (length(line piece) > 100) {
            print line "&"
            line = ind "    " piece
        } else
            line = line piece
    }
    line = line ")"
    if (length(line " " tail) > 110) {
        print line " &"
        line = ind "    " tail
    } else
        line = line " " tail
    print line
}

# One function (abstract: typedef callback) as an interface body.
function emit_proc(ret, cname, params, abstract,    fname, n, p, i, decls, argl, ind, rk, head, tail) {
    ind = abstract ? "    " : "    "
    fname = abstract ? cname : "c_" cname
    params = squeeze(params)
    argl = ""; decls = ""
    if (params != "void" && params != "") {
        n = split(params, p, ",")
        for (i = 1; i <= n; i++) {
            decls = decls ind "    " dummy_decl(p[i], cname) "\n"
            argl = argl (i > 1 ? "," : "") ARGNAME
        }
    }
    parse_decl(ret " r_")
    if (D_BASE == "void" && D_PTR == 0) { head = "subroutine"; rk = "" }
    else {
        head = "function"
        if (D_PTR > 0) rk = "type(c_ptr)"
        else { rk = kind_of(D_BASE); if (rk == "") fail(cname ": cannot map return type '" ret "'") }
    }
    tail = abstract ? "bind(C)" : "bind(C, name=\"" cname "\")"
    emit_head(ind, head, fname, argl, tail)
    print ind "    import"
    if (rk != "") print ind "    " rk " :: " fname
    printf "%s", decls
    print ind "end " head " " fname
}

function handle_enum(body,    n, it, i, nm, val, next_val) {
    n = split(body, it, ",")
    next_val = 0
    for (i = 1; i <= n; i++) {
        nm = squeeze(it[i])
        if (nm == "") continue
        if (index(nm, "=")) {
            val = squeeze(substr(nm, index(nm, "=") + 1))
            nm = squeeze(substr(nm, 1, index(nm, "=") - 1))
            if (val !~ /^-?[0-9]+$/) fail("enum value '" val "' of " nm " is not an integer")
            next_val = val + 0
        }
        ENUMS[++nenum] = "integer(c_int), parameter :: " nm " = " next_val
        next_val++
    }
}

function handle_struct(name, body,    n, f, i, k, decl) {
    STRUCT[name] = 1
    NSTRUCT++; SNAME[NSTRUCT] = name; SNF[NSTRUCT] = 0
    n = split(body, f, ";")
    TYPES[++ntype] = "type, bind(C) :: " name
    for (i = 1; i <= n; i++) {
        if (squeeze(f[i]) == "") continue
        parse_decl(f[i])
        k = kind_of(D_BASE)

        if (D_PTR > 0) decl = "type(c_ptr) :: " D_NAME
        else if (D_BASE in FUNPTR) decl = "type(c_funptr) :: " D_NAME
        else if (D_BASE in STRUCT) decl = "type(" D_BASE ") :: " D_NAME
        else if (k != "") decl = k " :: " D_NAME
        else fail(name ": cannot map field '" f[i] "'")
        if (D_ARR != "") decl = decl "(" D_ARR ")"
        TYPES[++ntype] = "    " decl
        SNF[NSTRUCT]++; SF[NSTRUCT, SNF[NSTRUCT]] = D_NAME; SFARR[NSTRUCT, SNF[NSTRUCT]] = (D_ARR != "")
    }
    TYPES[++ntype] = "end type " name
}

function handle_stmt(s,    m, name, body, ret, params, p1) {
    s = squeeze(s)
    if (s == "") return
    sub(/^TBRF_API /, "", s)
    if (s ~ /^(typedef )?enum /) {
        body = substr(s, index(s, "{") + 1)
        body = substr(body, 1, index(body, "}") - 1)
        handle_enum(body)
        name = squeeze(substr(s, index(s, "}") + 1))
        if (name != "") ENUMTYPE[name] = 1
        m = s; sub(/^(typedef )?enum /, "", m); sub(/[ {].*/, "", m)
        if (m != "") ENUMTYPE[m] = 1
        return
    }
    if (s ~ /^typedef struct [A-Za-z_0-9]+ \{/) {
        m = s; sub(/^typedef struct /, "", m); sub(/ .*/, "", m)
        body = substr(s, index(s, "{") + 1)
        p1 = body
        sub(/\}[^}]*$/, "", body)
        handle_struct(m, body)
        return
    }
    if (s ~ /^typedef struct [A-Za-z_0-9]+ [A-Za-z_0-9]+$/) {
        m = s; sub(/.* /, "", m)
        OPAQUE[m] = 1
        return
    }
    if (s ~ /^typedef [^(]*\( *\* *[A-Za-z_0-9]+ *\) *\(/) {
        ret = s; sub(/^typedef /, "", ret); sub(/ *\(.*/, "", ret)
        name = s; sub(/^[^(]*\( *\* */, "", name); sub(/ *\).*/, "", name)
        params = s; sub(/^[^(]*\([^)]*\) *\(/, "", params); sub(/\) *$/, "", params)
        FUNPTR[name] = 1
        NCB++; CBRET[NCB] = ret; CBNAME[NCB] = name; CBPAR[NCB] = params
        return
    }
    if (s ~ /^typedef /) fail("cannot map typedef '" s "'")
    if (s ~ /^[A-Za-z_][A-Za-z_0-9 *]*[ *][A-Za-z_][A-Za-z_0-9]* *\(.*\)$/) {
        params = s; sub(/^[^(]*\(/, "", params); sub(/\) *$/, "", params)
        m = s; sub(/ *\(.*/, "", m)
        name = m; sub(/.*[ *]/, "", name)
        ret = substr(m, 1, length(m) - length(name))
        NFN++; FNRET[NFN] = ret; FNNAME[NFN] = name; FNPAR[NFN] = params
        return
    }
    fail("cannot map declaration '" s "'")
}

function emit_flayout(    i, j, f, k) {
    print "! layout_f.f90 — GENERATED from include/tbrf.h by fortran/gen_tbrf_c.awk (mode=flayout);"
    print "! do not edit. sizeof and field offsets of the bind(C) types of tbrf_c, in"
    print "! the order of layout_c.c (generated from the header at build time)."
    print "module layout_f"
    print "    use, intrinsic :: iso_c_binding"
    print "    use tbrf_c"
    print "    implicit none"
    print "contains"
    print "    subroutine fortran_layout(out, name, n)"
    print "        integer(c_int64_t), intent(out) :: out(:)"
    print "        character(len=64), intent(out) :: name(:)"
    print "        integer, intent(out) :: n"
    for (i = 1; i <= NSTRUCT; i++)
        print "        type(" SNAME[i] "), target :: v" i
    print "        n = 0"
    for (i = 1; i <= NSTRUCT; i++) {
        print "        call put(int(c_sizeof(v" i "), c_int64_t), 'sizeof(" SNAME[i] ")')"
        for (j = 1; j <= SNF[i]; j++) {
            f = "v" i "%" SF[i, j] (SFARR[i, j] ? "(1)" : "")
            print "        call put(off(c_loc(" f "), c_loc(v" i ")), 'offsetof(" SNAME[i] ", " SF[i, j] ")')"
        }
    }
    print "    contains"
    print "        subroutine put(v, what)"
    print "            integer(c_int64_t), intent(in) :: v"
    print "            character(len=*), intent(in) :: what"
    print "            n = n + 1"
    print "            out(n) = v"
    print "            name(n) = what"
    print "        end subroutine put"
    print "    end subroutine fortran_layout"
    print ""
    print "    function off(a, b) result(d)"
    print "        type(c_ptr), intent(in) :: a, b"
    print "        integer(c_int64_t) :: d"
    print "        d = int(transfer(a, 0_c_intptr_t) - transfer(b, 0_c_intptr_t), c_int64_t)"
    print "    end function off"
    print "end module layout_f"
}

function emit_clayout(    i, j) {
    print "/* layout_c.c — GENERATED at build time from tbrf.h by fortran/gen_tbrf_c.awk"
    print " * (mode=clayout): sizeof and field offsets of every public struct. */"
    print "#include <stddef.h>"
    print "#include <stdint.h>"
    print "#include \"tbrf.h\""
    print ""
    print "int tbrf_ftest_layout(int64_t *out)"
    print "{"
    print "    int k = 0;"
    for (i = 1; i <= NSTRUCT; i++) {
        print "    out[k++] = (int64_t)sizeof(" SNAME[i] ");"
        for (j = 1; j <= SNF[i]; j++)
            print "    out[k++] = (int64_t)offsetof(" SNAME[i] ", " SF[i, j] ");"
    }
    print "    return k;"
    print "}"
}

BEGIN {
    text = ""
}

# The text of the header: preprocessor lines handled one by one, the rest
# collected. An #include "tbrf/NAME.h" (the umbrella tbrf.h over its
# feature headers, and a feature header over those it needs) is read in
# place, once, from the include/ folder, so the generator reads the
# headers in the umbrella's order.
{ take(FILENAME, $0) }

function dir_of(path) {
    if (path !~ /\//) return "."
    sub(/\/[^\/]*$/, "", path)
    return path
}

function read_header(path,    line, rc) {
    if (path in READ) return
    READ[path] = 1
    while ((rc = (getline line < path)) > 0) take(path, line)
    if (rc < 0) fail("cannot read " path)
    close(path)
}

function take(file, line,    nm, val, inc, base) {
    if (failed) return
    if (line ~ /^[ \t]*#[ \t]*include[ \t]*"tbrf\/[A-Za-z0-9_]+\.h"/) {
        inc = line; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
        # "tbrf/NAME.h" from tbrf.h, or from a feature header beside NAME.h
        base = dir_of(file)
        if (base ~ /(^|\/)tbrf$/) base = dir_of(base)
        read_header(base "/" inc)
        return
    }
    if (line !~ /^[ \t]*#/) { text = text line "\n"; return }
    # the export and argument marks and the version header's include guard
    # are no constants
    if (line ~ /^[ \t]*#[ \t]*define[ \t]+(TBRF_API|TBRF_OUT|TBRF_ARRAY|TBRF_VERSION_H)([ \t]|$)/) return
    if (line ~ /^[ \t]*#[ \t]*define[ \t]+TBRF_[A-Za-z0-9_]+[ \t]+/) {
        nm = line; sub(/^[ \t]*#[ \t]*define[ \t]+/, "", nm)
        val = nm; sub(/^[A-Za-z0-9_]+[ \t]+/, "", val); sub(/[ \t]*(\/\*.*)?$/, "", val)
        sub(/[ \t].*/, "", nm)
        if (val ~ /^-?[0-9]+$/)
            DEFS[++ndef] = "integer(c_int), parameter :: " nm " = " val
        else if (val ~ /^"[^"]*"$/)
            DEFS[++ndef] = "character(len=*), parameter :: " nm " = " val
        else if (val ~ /^-?[0-9]*\.[0-9]*([eE][-+]?[0-9]+)?$/)
            DEFS[++ndef] = "real(c_double), parameter :: " nm " = " val "_c_double"
        else
            fail("cannot map macro " nm " = " val)
    } else if (line ~ /^[ \t]*#[ \t]*define/ && line !~ /^[ \t]*#[ \t]*define[ \t]+TBRF_[A-Z_]*H[ \t]*$/) {
        fail("cannot map macro '" line "'")
    }
}

END {
    if (failed) exit 1
    # Comments, C++ guards.
    out = ""
    while ((i = index(text, "/*")) > 0) {
        out = out substr(text, 1, i - 1) " "
        text = substr(text, i + 2)
        j = index(text, "*/")
        if (j == 0) fail("unterminated comment")
        text = substr(text, j + 2)
    }
    text = out text
    gsub(/\/\/[^\n]*/, "", text)
    gsub(/extern "C" \{/, "", text)
    # Statements end at ';' outside braces.
    depth = 0; stmt = ""
    n = length(text)
    for (i = 1; i <= n; i++) {
        c = substr(text, i, 1)
        if (c == "{") depth++
        if (c == "}") {
            depth--
            if (depth < 0) { depth = 0; continue }   # the extern "C" close
        }
        if (c == ";" && depth == 0) { handle_stmt(stmt); stmt = ""; continue }
        stmt = stmt c
    }
    if (squeeze(stmt) != "") fail("trailing text '" squeeze(stmt) "'")
    if (failed) exit 1
    if (mode == "flayout") { emit_flayout(); exit 0 }
    if (mode == "clayout") { emit_clayout(); exit 0 }

    print "! tbrf_c.f90 — GENERATED from include/tbrf.h by fortran/gen_tbrf_c.awk; do not edit."
    print "! Regenerate: awk -f fortran/gen_tbrf_c.awk BUILD/include/tbrf_version.h include/tbrf.h > fortran/tbrf_c.f90"
    print "! (the ctest fortran_generated_in_step fails while this file is stale)."
    print "!"
    print "! Raw bind(C) mirror of the C API: every macro constant, enum constant,"
    print "! struct, callback type and function of tbrf.h. Functions are named c_<C name>;"
    print "! the idiomatic module tbrf builds on them. Unsigned C integers are the"
    print "! signed Fortran kind of the same size (same bits)."
    print "module tbrf_c"
    print "    use, intrinsic :: iso_c_binding"
    print "    implicit none"
    print "    public"
    print ""
    for (i = 1; i <= ndef; i++) print "    " DEFS[i]
    print ""
    for (i = 1; i <= nenum; i++) print "    " ENUMS[i]
    print ""
    for (i = 1; i <= ntype; i++) print "    " TYPES[i]
    print ""
    if (NCB > 0) {
        print "    abstract interface"
        for (i = 1; i <= NCB; i++) {
            if (i > 1) print ""
            emit_proc(CBRET[i], CBNAME[i], CBPAR[i], 1)
        }
        print "    end interface"
        print ""
    }
    print "    interface"
    for (i = 1; i <= NFN; i++) {
        if (i > 1) print ""
        emit_proc(FNRET[i], FNNAME[i], FNPAR[i], 0)
    }
    print "    end interface"
    print "end module tbrf_c"
}
