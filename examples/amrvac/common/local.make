# local.make — included by MPI-AMRVAC's makefile (arch/amrvac.make): links
# the user's mod_usr.t with tbrf and builds tbrf_blocks.f90 beside it. The
# examples' run.sh copies it into the problem's folder; set PKG_CONFIG_PATH
# to the installed tbrf's pkgconfig folder and TBRF_BLOCKS_DIR to this
# folder (run.sh does both).
#
# A make system needs three things from pkg-config: the module folder
# (INC_DIRS, for `use tbrf`), the libraries (LIB_DIRS, LIBS) and, since
# the .pc files give no rpath, the library folder at run time (LINK).
TBRF_BLOCKS_DIR ?= ../common
TBRF_LIBDIR := $(shell pkg-config --variable=libdir tbrf-fortran)
ifeq ($(TBRF_LIBDIR),)
$(error pkg-config finds no tbrf-fortran: set PKG_CONFIG_PATH to PREFIX/lib/pkgconfig of the installed tbrf)
endif
INC_DIRS += $(patsubst -I%,%,$(filter -I%,$(shell pkg-config --cflags tbrf-fortran)))
LIB_DIRS += $(patsubst -L%,%,$(filter -L%,$(shell pkg-config --libs-only-L tbrf-fortran)))
LIBS += $(patsubst -l%,%,$(shell pkg-config --libs-only-l tbrf-fortran))
LINK += -Wl,-rpath,$(TBRF_LIBDIR)

# the shared block loops (plain Fortran 2008), a dependency of mod_usr
tbrf_blocks.o: $(TBRF_BLOCKS_DIR)/tbrf_blocks.f90
	$(F90) $(F90FLAGS) -c $< -o $@ $(addprefix -I,$(INC_DIRS))
mod_usr.o: tbrf_blocks.o
amrvac: tbrf_blocks.o
