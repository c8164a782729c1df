#!/bin/sh
# `tbrf arepo cosmo --ngenic` (doc/arepo.md, "--ngenic") on the adapted
# N-GenIC parameter file tests/data/ngenic/ngenic.param with a format-1
# glass of 8 points tiled 8 times: the Gadget files N-GenIC would name
# (OutputDir/FileBase.0, .1), bitwise equal to the explicit command they
# map to, regenerated from the side file; every key tbrf cannot honour
# refused by name with exit 2.
# usage: arepo_ngenic.sh TBRF DATA_DIR WORK_DIR
set -u
T=$1; DATA=$2; W=$3
rm -rf "$W" && mkdir -p "$W/ICs" && cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
cp "$DATA/ngenic.param" . || exit 1
# the glass: Gadget format 1, header (npart[1] = npartTotal[1] = 8, one
# file, BoxSize 1000) and a POS block of float32 points on a 2^3 lattice
{
  printf '\000\001\000\000'                       # 256
  printf '\000\000\000\000\010\000\000\000'        # npart[0..1]
  head -c 64 /dev/zero                             # npart[2..5], mass[6]
  head -c 24 /dev/zero                             # time, redshift, flags
  printf '\000\000\000\000\010\000\000\000'        # npartTotal[0..1]
  head -c 16 /dev/zero                             # npartTotal[2..5]
  printf '\000\000\000\000\001\000\000\000'        # flag_cooling, num_files
  printf '\000\000\000\000\000\100\217\100'        # BoxSize 1000.0
  head -c 120 /dev/zero                            # the rest of 256
  printf '\000\001\000\000'
  printf '\140\000\000\000'                        # 96 bytes of POS
  for k in 0 1; do for j in 0 1; do for i in 0 1; do
    for c in $i $j $k; do
      if [ "$c" = 0 ]; then printf '\000\000\000\000'; else printf '\000\000\372\103'; fi
    done
  done; done; done
  printf '\140\000\000\000'
} > glass_dmonly_8.dat
"$T" arepo cosmo --ngenic ngenic.param --quiet || fail "--ngenic run"
for f in ICs/ics.0 ICs/ics.1 ICs/ics.tbrf.h5; do test -s "$f" || fail "no $f"; done
# the explicit command it maps to (mass unit 1.989e43 g in M_sun of the IAU)
MU=$(awk 'BEGIN { printf "%.17g", 1.989e43 / 1.988409870698051e33 }')
"$T" arepo cosmo --glass glass_dmonly_8.dat --format gadget1 --files 2 --no-wiggles \
  --box 50000 --particles 16 --redshift 63 --omega-m 0.3 --omega-lambda 0.7 --omega-b 0.04 \
  --hubble 0.7 --ns 1.0 --sigma8 0.9 --seed 123456 --mass-unit "$MU" --lpt 1 --out expl --quiet \
  || fail "explicit run"
cmp ICs/ics.0 expl.0 && cmp ICs/ics.1 expl.1 || fail "--ngenic differs from its explicit command"
"$T" info ICs/ics.0 > info.txt || fail "info of a member"
grep -q "Gadget format 1" info.txt && grep -q "type 1: 2048 in this file, 4096 in all" info.txt \
  && grep -q "record ID   8192 bytes" info.txt || fail "info: $(cat info.txt)"
"$T" info ICs/ics.tbrf.h5 | grep -q 'format *= "gadget1"' || fail "info of the side file"
"$T" regenerate ICs/ics.tbrf.h5 --out again --check >/dev/null || fail "regenerate --check"
test -s again.0 && test -s again.1 || fail "regenerate names"
"$T" regenerate ICs/ics.0 --out x 2>err.txt; test $? = 2 && grep -q "tbrf.h5" err.txt \
  || fail "regenerate of a member: $(cat err.txt)"
# the set's commit (TBRF_TEST_AREPO_SET_FAULT, io/arepo.c): a failed
# rename or a SIGTERM before the renames leaves the previous set and no
# temporary; kill -9 between renames leaves a mixed set that info refuses
A="--box 50000 --particles 8 --redshift 63 --omega-m 0.3 --omega-b 0.04 --hubble 0.7 --sigma8 0.8 --format gadget1 --files 2 --quiet"
"$T" arepo cosmo $A --out s --seed 1 || fail "set"
cksum s.0 s.1 s.tbrf.h5 > before.txt
TBRF_TEST_AREPO_SET_FAULT=fail:2 "$T" arepo cosmo $A --out s --seed 2 2>/dev/null && fail "fail:2 succeeded"
TBRF_TEST_AREPO_SET_FAULT=term:1 "$T" arepo cosmo $A --out s --seed 3 2>/dev/null && fail "term:1 succeeded"
cksum s.0 s.1 s.tbrf.h5 | cmp -s - before.txt || fail "the previous set changed"
ls -A | grep -q tmp && fail "temporaries left: $(ls -A)"
TBRF_TEST_AREPO_SET_FAULT=kill:2 "$T" arepo cosmo $A --out s --seed 4 2>/dev/null && fail "kill:2 succeeded"
"$T" info s.tbrf.h5 >/dev/null 2>err.txt && fail "info of a mixed set"
grep -q "does not belong to the set" err.txt || fail "mixed set: $(cat err.txt)"
# refused by name, exit 2
refuse() { # KEY VALUE
  sed "s/^$1 .*/$1 $2/" ngenic.param > bad.param
  "$T" arepo cosmo --ngenic bad.param --out bad 2>err.txt; rc=$?
  test $rc = 2 || fail "$1 $2: exit $rc, not 2"
  grep -q "$1" err.txt || fail "$1 $2: not named: $(cat err.txt)"
  test ! -e bad.0 || fail "$1 $2 wrote files"
}
refuse WDM_On 1
refuse WDM_Vtherm_On 1
refuse OmegaDM_2ndSpecies 0.1
refuse SphereMode 0
refuse WhichSpectrum 0
refuse Nmesh 8
refuse GlassTileFac 4
refuse OmegaBaryon 0.3
# OmegaBaryon 0: dark matter only, Eisenstein & Hu's zero-baryon form, as --omega-b 0
sed 's/^OmegaBaryon .*/OmegaBaryon 0/' ngenic.param > ob0.param
"$T" arepo cosmo --ngenic ob0.param --out ob0 --quiet || fail "OmegaBaryon 0"
"$T" arepo cosmo --glass glass_dmonly_8.dat --format gadget1 --files 2 --no-wiggles \
  --box 50000 --particles 16 --redshift 63 --omega-m 0.3 --omega-lambda 0.7 --omega-b 0 \
  --hubble 0.7 --ns 1.0 --sigma8 0.9 --seed 123456 --mass-unit "$MU" --lpt 1 --out ob0x --quiet \
  || fail "explicit --omega-b 0"
cmp ob0.0 ob0x.0 && cmp ob0.1 ob0x.1 || fail "OmegaBaryon 0 differs from --omega-b 0"
# --lpt 2 beside --ngenic: 2LPTic's choice, recorded and regenerated
"$T" arepo cosmo --ngenic ngenic.param --lpt 2 --out l2 --quiet || fail "--ngenic --lpt 2"
cmp -s l2.0 ICs/ics.0 && fail "--lpt 2 gave the Zel'dovich file"
"$T" regenerate l2.tbrf.h5 --out l2again --check >/dev/null || fail "regenerate --lpt 2"
printf 'Bogus 1\n' >> bad.param; cp ngenic.param b2.param; printf 'Bogus 1\n' >> b2.param
"$T" arepo cosmo --ngenic b2.param 2>err.txt; test $? = 2 && grep -q Bogus err.txt || fail "unknown key"
"$T" arepo cosmo --ngenic ngenic.param --box 3 2>err.txt; test $? = 2 && grep -q -- --box err.txt \
  || fail "--box beside --ngenic"
# WhichSpectrum 2: N-GenIC's table (log10 k, log10 Delta^2) made from tbrf's own P(k)
"$T" arepo pk --out pk.txt --omega-m 0.3 --omega-b 0.04 --hubble 0.7 --sigma8 0.9 --ns 1 --quiet \
  || fail "arepo pk"
awk '!/^#/ && NF == 2 { printf "%.10f %.10f\n", log($1)/log(10), log($1^3 * $2 / (2 * 3.141592653589793^2))/log(10) }' \
  pk.txt > input_spectrum.txt
sed 's/^WhichSpectrum .*/WhichSpectrum 2/' ngenic.param > tab.param
"$T" arepo cosmo --ngenic tab.param --out tab --quiet || fail "WhichSpectrum 2"
test -s tab.0 && test -s tab.1 || fail "WhichSpectrum 2 files"
# ... and it is the P(k) of pk.txt: the run with --table pk.txt gives the
# same particles to float32 rounding (a wrong k^3 or k unit would change
# the shape, which the Sigma8 normalisation cannot undo)
"$T" arepo cosmo --glass glass_dmonly_8.dat --format gadget1 --files 2 --table pk.txt \
  --box 50000 --particles 16 --redshift 63 --omega-m 0.3 --omega-lambda 0.7 --omega-b 0.04 \
  --hubble 0.7 --sigma8 0.9 --seed 123456 --mass-unit "$MU" --lpt 1 --out tabx --quiet \
  || fail "--table run"
for i in 0 1; do
  od -A n -v -t f4 -w4 tab.$i > a.txt && od -A n -v -t f4 -w4 tabx.$i > b.txt || fail od
  paste a.txt b.txt | awk '{ d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1;
    if (d > 1e-2 + 1e-6 * m) bad++; if (d > w) w = d }
    END { if (bad) { print bad " values differ, by up to " w; exit 1 } }' \
    || fail "WhichSpectrum 2 differs from --table (file $i)"
done
# ReNormalizeInputSpectrum 0: the table's amplitude (sigma8 0.9) kept whatever Sigma8 says
sed 's/^ReNormalizeInputSpectrum .*/ReNormalizeInputSpectrum 0/; s/^Sigma8 .*/Sigma8 0.5/' tab.param > keep.param
"$T" arepo cosmo --ngenic keep.param --out keep --quiet || fail "ReNormalizeInputSpectrum 0"
for i in 0 1; do
  od -A n -v -t f4 -w4 keep.$i > a.txt && od -A n -v -t f4 -w4 tabx.$i > b.txt || fail od
  paste a.txt b.txt | awk '{ d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1;
    if (d > 1e-2 + 1e-4 * m) bad++; if (d > w) w = d }
    END { if (bad) { print bad " values differ, by up to " w; exit 1 } }' \
    || fail "ReNormalizeInputSpectrum 0 is not the table's amplitude (file $i)"
done
echo "arepo_ngenic: ok"
