# bench/cosmo_peers_common.sh — sourced by bench/cosmo_peers.sh and
# bench/cosmo_peers_time.sh: the one cosmology both compare tbrf and
# monofonIC at, the P(k) table they share and monofonIC's configuration,
# so that the two benchmarks run the same ICs. Needs $tbrf set.
#
# Cosmology: Omega_m 0.308, Omega_b 0.0484, h 0.678, sigma8 0.815, n_s 0.968
# (2LPTic's example), flat, no radiation (monofonIC: ZeroRadiation), no
# massive neutrinos.
OM=0.308 OB=0.0484 H=0.678 S8=0.815 NS=0.968

# peers_abs CMD: CMD as an absolute path when it names a file by a relative
# path (build/cli/tbrf), unchanged when it is a bare name found on PATH:
# the scripts cd into WORKDIR before they run it.
peers_abs() {
    case $1 in
    /* | "" ) echo "$1" ;;
    */*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
    *) echo "$1" ;;
    esac
}

# peers_enter WORKDIR: $tbrf and $mono made absolute (peers_abs), then
# WORKDIR made and entered.
peers_enter() {
    tbrf=$(peers_abs "$tbrf")
    mono=$(peers_abs "$mono")
    mkdir -p "$1"
    cd "$1"
}

# pk.txt: `tbrf arepo pk`'s Eisenstein & Hu table at z = 0 of the cosmology.
peers_pk() {
    "$tbrf" arepo pk --out pk.txt --omega-m $OM --omega-b $OB --hubble $H --sigma8 $S8 \
        --ns $NS --kmin 1e-5 --kmax 200 --quiet
}

# transfer_camb.txt: pk.txt as CAMB's 13-column transfer layout
# (monofonIC's CAMB_file plugin): k, then T = sqrt(P / k^n_s) in every
# column, so that whichever species monofonIC takes the spectrum is P.
peers_transfer_camb() {
    awk -v ns=$NS '!/^#/ { t = sqrt($2 / exp(ns * log($1))); printf "%.12e", $1;
        for (i = 0; i < 12; i++) printf " %.12e", t; printf "\n" }' pk.txt > transfer_camb.txt
}

# peers_time_line NAME FILE: "NAME wall_s cpu_s maxrss_MiB" from the report
# FILE of /usr/bin/time -v (cpu = user + system).
peers_time_line() {
    awk -v n="$1" -F': ' '
        /Elapsed \(wall/ { k = split($2, t, ":"); w = 0; for (i = 1; i <= k; i++) w = w * 60 + t[i] }
        /User time/ { u = $2 }
        /System time/ { s = $2 }
        /Maximum resident/ { m = $2 / 1024 }
        END { printf "%s %.2f %.2f %.1f\n", n, w, u + s, m }' "$2"
}

# peers_mono_stages LOG: monofonIC's own wall seconds of its phi(1) and
# phi(2) stages ("took : X s" after ">> Computing phi(n) term"), as
# "phi1 phi2"; "- -" for a stage it did not print.
peers_mono_stages() {
    sed 's/\x1b\[[0-9;]*m//g' "$1" | awk '
        /Computing phi\(1\)/ { want = 1; next }
        /Computing phi\(2\)/ { want = 2; next }
        want && /took/ { v = $NF; sub(/s$/, "", v); t[want] = v; want = 0 }
        END { printf "%s %s\n", (1 in t) ? t[1] : "-", (2 in t) ? t[2] : "-" }'
}

# peers_mono_conf G BOX Z ORDER SEED FILE [TRANSFER [BARYONS [VREL]]]:
# monofonIC's configuration on stdout: the AREPO HDF5 file FILE in double
# precision with 64-bit IDs, the P(k) of TRANSFER (default
# transfer_camb.txt), the corner modes removed (the particle Nyquist
# sphere), no fixing or pairing, $OMP_NUM_THREADS threads; BARYONS yes
# for two fluids (then DoBaryonVrel VREL, default yes, and the transfer
# file's columns taken at z = Z).
peers_mono_conf() {
    local baryons=${8:-no} vrel="" ztarget=""
    if [ "$baryons" = yes ]; then
        vrel=$'\n'"DoBaryonVrel = ${9:-yes}"
        ztarget=$'\n'"ztarget = $3"
    fi
    cat <<EOF
[setup]
GridRes = $1
BoxLength = $2
zstart = $3
LPTorder = $4
DoBaryons = $baryons$vrel
DoFixing = no
DoInversion = no
DoRemoveCornerModes = yes
ParticleLoad = sc
[cosmology]
ParameterSet = none
Omega_m = $OM
Omega_b = $OB
Omega_L = $(echo "1 - $OM" | bc -l)
H0 = $(echo "100 * $H" | bc -l)
n_s = $NS
sigma_8 = $S8
m_nu1 = 0
m_nu2 = 0
m_nu3 = 0
ZeroRadiation = true$ztarget
transfer = CAMB_file
transfer_file = ${7:-transfer_camb.txt}
[random]
generator = NGENIC
seed = $5
[execution]
NumThreads = $OMP_NUM_THREADS
[output]
format = AREPO
filename = $6
UseLongids = true
EOF
}

# peers_tbrf_has_lpt: whether $tbrf's `arepo cosmo` takes --lpt. The help is
# captured whole before it is searched: `tbrf ... --help | grep -q` under
# pipefail fails whenever grep exits at its match before tbrf has written
# the rest (SIGPIPE), and the run then went on without --lpt.
peers_tbrf_has_lpt() {
    local help
    help=$("$tbrf" arepo cosmo --help 2>&1) || true
    case $help in *--lpt*) return 0 ;; esac
    return 1
}

# peers_tbrf_order FILE: the LPT order $tbrf says it ran (the lpt_order it
# records in FILE, read by `tbrf info`); 1 from a tbrf without --lpt (it
# makes Zel'dovich ICs only); fails when a tbrf with --lpt recorded none.
peers_tbrf_order() {
    local info order
    info=$("$tbrf" info "$1" 2>&1) || { echo "tbrf info $1 failed: $info" >&2; return 1; }
    order=$(printf '%s\n' "$info" | sed -n 's/^ *lpt_order *= *\([0-9][0-9]*\).*/\1/p')
    if [ -z "$order" ]; then
        peers_tbrf_has_lpt && { echo "$1 records no lpt_order" >&2; return 1; }
        order=1
    fi
    echo "$order"
}

# peers_tbrf_check FILE ORDER: fails, saying so, unless $tbrf ran ORDER in
# FILE, so that no run is labelled with an order it did not run.
peers_tbrf_check() {
    local ran
    ran=$(peers_tbrf_order "$1") || return 1
    [ "$ran" = "$2" ] || { echo "$1: tbrf ran LPT order $ran, not $2" >&2; return 1; }
}
