#!/bin/bash
# The command's rules between what a run reads and what it writes, and its
# bounded readers (doc/guarantees-inputs.md, doc/guarantees-outputs.md):
# an input (a --turbgen file, an --ngenic file and the files it names) is
# never an output; outputs are checked before the work (a folder, a
# missing or read-only folder, `ulimit -f`, the free space), with the
# system's reason; N-GenIC, TurbGen and transfer files stop at their first
# binary byte or bound (never /dev/zero to its end); N-GenIC refusals name
# their own key; `info` of a corrupt Gadget member exits 1; numbers in
# messages stay short. Every refusal exits with its own status, so in the
# sanitizer build a leak on a refusal path (LeakSanitizer's exit) fails.
# usage: test_reliability.sh TBRF DATA_DIR WORK_DIR
set -u
T=$1; DATA=$2; W=$3
rm -rf "$W" && mkdir -p "$W/ICs" && cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect RC MESSAGE-REGEX CMD...: the exit status and a line of stderr
expect() {
  local rc=$1 re=$2; shift 2
  "$@" >out.txt 2>err.txt; local got=$?
  test "$got" = "$rc" || fail "$*: exit $got, not $rc: $(cat err.txt)"
  grep -Eq -- "$re" err.txt || fail "$*: no '$re' in: $(cat err.txt)"
}
cp "$DATA/ngenic/ngenic.param" p.param && cp "$DATA/turbgen/TurbGen.par" tg.par || exit 1
# the 8-point format-1 glass p.param names (as arepo_ngenic.sh makes it)
{
  printf '\000\001\000\000\000\000\000\000\010\000\000\000'; head -c 88 /dev/zero
  printf '\000\000\000\000\010\000\000\000'; head -c 16 /dev/zero
  printf '\000\000\000\000\001\000\000\000\000\000\000\000\000\100\217\100'
  head -c 120 /dev/zero; printf '\000\001\000\000\140\000\000\000'
  for k in 0 1; do for j in 0 1; do for i in 0 1; do for c in $i $j $k; do
    if [ "$c" = 0 ]; then printf '\000\000\000\000'; else printf '\000\000\372\103'; fi
  done; done; done; done
  printf '\140\000\000\000'
} > glass_dmonly_8.dat

# --- inputs are never outputs
cksum tg.par p.param glass_dmonly_8.dat > sums.txt
expect 2 "drive: --out tg.par is the --turbgen input" \
  "$T" drive --turbgen tg.par --out tg.par --times 0:1:0.5 --grid 4x4x4
ln tg.par tg_link.par
expect 2 "is the --turbgen input" \
  "$T" drive --turbgen tg.par --out tg_link.par --times 0:1:0.5 --grid 4x4x4
expect 2 "arepo cosmo: --out p.param is the --ngenic parameter file" \
  "$T" arepo cosmo --ngenic p.param --out p.param --files 1
expect 2 "the --ngenic file's GlassFile" \
  "$T" arepo cosmo --ngenic p.param --out glass_dmonly_8.dat --files 1
cksum tg.par p.param glass_dmonly_8.dat | cmp -s - sums.txt || fail "an input changed"
sed 's/^WhichSpectrum .*/WhichSpectrum 2/; s/^FileWithInputSpectrum .*/FileWithInputSpectrum sp.txt/' \
  p.param > sp.param
printf '%s\n' '-2 -6' '-1 -3' '0 -1' '1 0' > sp.txt
cp sp.txt sp.keep
expect 2 "the --ngenic file's FileWithInputSpectrum" \
  "$T" arepo cosmo --ngenic sp.param --out sp.txt --files 1
cmp -s sp.txt sp.keep || fail "the spectrum file changed"

# --- bounded readers, stopping at the first binary byte
sed 's/^WhichSpectrum .*/WhichSpectrum 2/; s|^FileWithInputSpectrum .*|FileWithInputSpectrum /dev/zero|' \
  p.param > zero.param
expect 2 "FileWithInputSpectrum /dev/zero:1: byte 1 is 0x00, no text" \
  timeout 20 "$T" arepo cosmo --ngenic zero.param --out z
printf 'Nmesh 16\000\n' > nul.param
expect 2 "nul.param:1: byte 9 is 0x00, no text" "$T" arepo cosmo --ngenic nul.param --out z
mkdir folder.param
expect 2 "folder.param: cannot be read: it is a folder" "$T" arepo cosmo --ngenic folder.param --out z
head -c 2000000 /dev/zero | tr '\0' 'x' > long.param
expect 2 "long.param:1: line longer than 4095 bytes" "$T" arepo cosmo --ngenic long.param --out z
expect 2 "turbgen: the text is longer than|larger than 1 MiB" \
  timeout 20 "$T" drive --turbgen /dev/zero --out z.h5 --times 0:1:0.5 --grid 4x4x4
printf 'ndim = 3\nL = 1.0\000garbage\n' > nul.par
expect 2 "nul.par: line 2, byte 8: a NUL byte" \
  "$T" drive --turbgen nul.par --out z.h5 --times 0:1:0.5 --grid 4x4x4
expect 2 "folder.param: cannot be read: Is a directory" \
  "$T" drive --turbgen folder.param --out z.h5 --times 0:1:0.5 --grid 4x4x4
printf 'ndim = 3\nL = 1\001.0\n' > bin.par
expect 2 "line 2, byte 6: 0x01 is no text" \
  "$T" drive --turbgen bin.par --out z.h5 --times 0:1:0.5 --grid 4x4x4
A="--box 50000 --particles 8 --redshift 63 --omega-m 0.3 --omega-b 0.04 --hubble 0.7 --sigma8 0.8"
# a transfer file of NULs: refused at its first bytes, not digested to its
# end (a sparse 8 GiB file: seconds to read through)
truncate -s 8G zeros.txt 2>/dev/null || head -c 64M /dev/zero > zeros.txt
expect 2 "--transfer zeros.txt: a NUL byte" timeout 5 "$T" arepo cosmo $A --transfer zeros.txt --out z
rm -f zeros.txt
printf '# k/h CDM baryon photon nu mass_nu total\n1 2 3 4 5 6 7\n\001\n' > bin.txt
expect 2 "bin.txt line 3, byte 1: 0x01 is no text" "$T" arepo cosmo $A --transfer bin.txt --out z
ls z.hdf5 z.h5 z.0 2>/dev/null && fail "a refused run wrote an output"

# --- N-GenIC refusals name their own key
refuse() { # KEY VALUE MESSAGE
  sed "s/^$1 .*/$1 $2/" p.param > bad.param
  expect 2 "$3" "$T" arepo cosmo --ngenic bad.param --out bad
}
refuse Nsample -16 "Nsample -16: need an integer 2 <= Nsample <= 2048"
refuse Nmesh 8 "Nmesh 8: need an integer Nmesh >= Nsample"
refuse Seed -3 "Seed -3: need an integer"
refuse NumFiles 0 "NumFiles 0: need an integer 1 .. 65536"
refuse GlassTileFac 0.5 "GlassTileFac 0.5: need an integer 1 .. 2048"
refuse UnitMass_in_g 0 "UnitMass_in_g 0: must be > 0"
refuse Box -1 "Box -1: must be > 0"

# --- outputs checked before the work, with the system's reason
expect 2 "drive: --out \. is a directory" "$T" drive --turbgen tg.par --out . --times 0:1:0.5 --grid 4x4x4
expect 2 "arepo cosmo: --out \. is a directory" "$T" arepo cosmo $A --format gadget1 --files 1 --out .
expect 2 "arepo gas: --out \. is a directory" \
  "$T" arepo gas --box 1 --temperature 100 --lattice 4 --format gadget1 --files 1 --out .
expect 1 "cannot write in the folder nodir: No such file or directory" \
  "$T" drive --turbgen tg.par --out nodir/s.h5 --times 0:1:0.5 --grid 4x4x4
expect 1 "cannot write in the folder nodir: No such file or directory" "$T" arepo cosmo $A --out nodir/x
if [ "$(id -u)" != 0 ]; then # root writes anywhere
  mkdir ro && chmod 555 ro
  expect 1 "cannot write in the folder ro: Permission denied" "$T" arepo cosmo $A --out ro/x
fi
(ulimit -f 100
 expect 1 "would exceed the file-size limit of 100 KiB \(RLIMIT_FSIZE" \
   "$T" drive --turbgen tg.par --out big.h5 --times 0:1:0.1 --grid 32x32x32
 expect 1 "would exceed the file-size limit" \
   "$T" arepo cosmo ${A/--particles 8/--particles 48} --out big
 expect 1 "arepo gas: --out big.hdf5: a file of .* would exceed the file-size limit" \
   "$T" arepo gas --box 1 --temperature 100 --lattice 32 --out big
 expect 1 "generate: --out big.h5: a file of .* would exceed the file-size limit" \
   "$T" generate --model gaussian --length 0.1 --grid 64x64x64 --out big.h5) || exit 1
TBRF_TEST_FREE_SPACE=1000 expect 1 "big.hdf5: the output needs" \
  "$T" arepo cosmo ${A/--particles 8/--particles 32} --out big
ls big.h5 big.hdf5 2>/dev/null && fail "a refused run left an output"

# --- info of a corrupt Gadget member: listed, then refused (exit 1)
"$T" arepo cosmo $A --format gadget1 --files 1 --out g --quiet || fail "gadget set"
printf '\377\377\377\177' | dd of=g bs=1 seek=264 conv=notrunc 2>/dev/null
expect 1 "a record's markers do not frame it" "$T" info g
grep -q "Gadget format 1" out.txt || fail "info listed nothing: $(cat out.txt)"

# --- generate's and sample's --table and --points readers: bounded before they parse
mkdir -p adir
expect 1 "adir is a folder, not a spectrum table" \
  "$T" generate --model table --table adir --grid 8x8x8 --out a.h5
printf '0.1 1\n0.2 2\n' > huge.txt && truncate -s 300M huge.txt
expect 1 "huge.txt is 300 MiB, more than the 256 MiB of a spectrum table" \
  "$T" generate --model table --table huge.txt --grid 8x8x8 --out a.h5
# a pipe is counted: 300 MB of comment lines end after 256 MiB, not at their end
expect 1 "more than 256 MiB read: not a spectrum table" \
  sh -c "yes '# a comment line of the kind a spectrum table may have, again and again' | head -c 300000000 | \"$T\" generate --model table --table /dev/stdin --grid 8x8x8 --out a.h5"
rm -f huge.txt
expect 1 "model table: /dev/zero:1: not a text line" \
  "$T" generate --model table --table /dev/zero --grid 8x8x8 --out a.h5
expect 1 "/dev/zero:1: not a text line" "$T" generate --model gaussian --length 0.1 --points /dev/zero --out a.h5
printf '0.1 0.2 0.3\n0.2 0.3\000\n' > pnul.txt
expect 1 "pnul.txt:2: not a text line" "$T" generate --model gaussian --length 0.1 --points pnul.txt --out a.h5
expect 1 "adir: it is a directory" "$T" generate --model gaussian --length 0.1 --points adir --out a.h5
# text points are bounded in bytes too (4 bytes for each byte of the memory
# budget, + 1 MiB): a larger file refused before it is read, a pipe once
# that much has passed (under a 1 MiB budget: 5 MiB); a pipe's points are
# read whole (probing its format would eat its first bytes)
yes "# a comment line, as a points file may have $(printf '%0160d' 0)" | \
  head -c 6000000 > big.txt
expect 1 "big.txt: 5.72 MiB of text, more than the 5 MiB a points file may hold" \
  env TBRF_MEMORY_BUDGET=1M "$T" generate --model gaussian --length 0.1 --points big.txt --out a.h5
expect 1 "more than 5 MiB of text read" \
  sh -c "cat big.txt | TBRF_MEMORY_BUDGET=1M \"$T\" generate --model gaussian --length 0.1 --points /dev/stdin --out a.h5"
rm -f big.txt
printf '0.1 0.2 0.3\n0.4 0.5 0.6\n' > two.txt
sh -c "cat two.txt | \"$T\" generate --model gaussian --length 0.1 --points /dev/stdin --out p.h5 --quiet" \
  || fail "points from a pipe"
"$T" generate --model gaussian --length 0.1 --points two.txt --out q.h5 --quiet || fail "points"
"$T" regenerate p.h5 --out r.h5 --quiet 2>/dev/null; h5dump -d /value p.h5 | tail -n +2 > pv.txt
h5dump -d /value q.h5 | tail -n +2 > qv.txt; cmp -s pv.txt qv.txt || fail "a pipe's points differ from the file's"
rm -f p.h5 q.h5 r.h5 pv.txt qv.txt two.txt
"$T" generate --model gaussian --length 0.1 --grid 8x8x8 --out s.h5 --quiet || fail "generate"
expect 1 "/dev/zero:1: not a text line" "$T" sample s.h5 --points /dev/zero --out b.h5
ls a.h5 b.h5 2>/dev/null && fail "a refused run left an output"

# --- numbers in messages in %g form
"$T" generate --model gaussian --length 0.1 --grid 16x16x16 --anis 1,1e300,1 --method fft \
  --out a.h5 --quiet 2>err.txt
grep -q "of the model's variance" err.txt || fail "no FFT warning: $(cat err.txt)"
grep -Eq "[0-9]{20}" err.txt && fail "a 20-digit number: $(cat err.txt)"
echo "reliability: ok"
