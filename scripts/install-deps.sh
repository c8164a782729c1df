#!/usr/bin/env bash
# Installs what tbrf needs to build and test from Debian's packages.
# Skips apt-get when everything is already there.
set -euo pipefail
# g++ builds the tests' CUDA emulator; dieharder runs the generators'
# statistical battery (the `long` test, skipped when it is absent); cairo
# draws the command's pictures, in DejaVu Sans through fontconfig.
# python3-meshio and python3-h5py read the XDMF side files (io_xdmf_read).
# libqhull-dev: periodic Voronoi volumes of AREPO gas ICs (c/apps/ic/voronoi.c).
# python3-xarray and python3-netcdf4 open the netCDF outputs (io_netcdf_xarray).
# python3-numpy (with python3-h5py): examples/nebula/check.py (example_nebula).
# paraview and python3-paraview (ParaView 5.11, about 120 MB, 3-5 minutes on
# a fresh machine): pvpython opens the outputs as a user would (io_paraview,
# skipped without them); it runs headless, no X server needed. python3-yt
# (yt 4.1): yt.load on the HDF5 grids (io_yt, skipped without it). xvfb
# (and xauth, for xvfb-run): an X server for ParaView's screenshots, which
# Debian's ParaView renders only with one (scripts/paraview_slice.py,
# io_paraview_screenshot).
# python3-venv, -pip, -setuptools, -wheel, -pytest, -matplotlib: the Python
# package (doc/python.md) installed offline into a venv and tested
# (python_package, skipped without them).
# Open MPI with the MPI builds of HDF5 and netCDF: the optional MPI layer
# (doc/mpi.md). Installing libhdf5-openmpi-dev makes update-alternatives
# point hdf5.pc at the MPI flavour (higher priority); the serial build must
# keep the serial one, so it is set back below (CMake finds the MPI flavour
# by path for the MPI targets only).
packages=(cmake make gcc g++ gfortran pkg-config libfftw3-dev libhdf5-dev hdf5-tools librandom123-dev
          libnetcdf-dev netcdf-bin libpng-dev libcairo2-dev libfontconfig-dev fonts-dejavu-core libxml2-utils
          ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo dieharder python3-meshio python3-h5py
          libqhull-dev python3-xarray python3-netcdf4 python3-numpy paraview python3-paraview
          python3-yt python3-venv python3-pip python3-setuptools python3-wheel python3-pytest
          python3-matplotlib xvfb xauth
          libopenmpi-dev openmpi-bin libhdf5-openmpi-dev libnetcdf-mpi-dev libfftw3-mpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
# hdf5.pc (and with it pkg-config's hdf5) stays the serial flavour
serial_pc() {
  local pc=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)/pkgconfig/hdf5-serial.pc
  if [ -e "$pc" ] && update-alternatives --query hdf5.pc 2>/dev/null | grep -q "^Value: .*hdf5-\(mpi\|openmpi\)"; then
    $sudo update-alternatives --set hdf5.pc "$pc" >/dev/null
  fi
}
if [ ${#missing[@]} -eq 0 ]; then
  serial_pc
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
serial_pc
