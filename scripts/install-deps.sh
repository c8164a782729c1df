#!/usr/bin/env bash
# Installs what tbrf needs to build and test from Debian's packages.
# Skips apt-get when everything is already there.
set -euo pipefail
# g++ builds the tests' CUDA emulator; dieharder runs the generators'
# statistical battery (the `long` test, skipped when it is absent); cairo
# draws the command's pictures, in DejaVu Sans through fontconfig.
# python3-meshio and python3-h5py read the XDMF side files (io_xdmf_read).
# libqhull-dev: periodic Voronoi volumes of AREPO gas ICs (src/io/voronoi.c).
# python3-numpy (with python3-h5py): examples/nebula/check.py (example_nebula).
packages=(cmake make gcc g++ gfortran pkg-config libfftw3-dev libhdf5-dev hdf5-tools librandom123-dev
          libnetcdf-dev netcdf-bin libpng-dev libcairo2-dev libfontconfig-dev fonts-dejavu-core libxml2-utils
          ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo dieharder python3-meshio python3-h5py
          libqhull-dev python3-numpy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
