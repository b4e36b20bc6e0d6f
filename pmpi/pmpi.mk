# The PMPI interposer (docs/pmpi.md), included by the top-level Makefile.
#
#   $(OUT)/lib/libpapcoll_pmpi.so      LD_PRELOAD library: interposer objects,
#                                      the Fortran sentinel helper, libpaptrace
#                                      and libpapcoll linked in (their symbols
#                                      hidden), HDF5 and libinih shared
#   $(OUT)/build/tests/pmpi/*          the unmodified test programs of
#                                      tests/pmpi/ (plain mpicc/mpifort, no
#                                      papcoll) and papcoll-algos, which lists
#                                      the algorithms for tests/pmpi.sh
#
# --no-define-common: the Fortran helper names the MPI library's own
# MPI_IN_PLACE/MPI_BOTTOM variables; the library must refer to them, not
# define copies that LD_PRELOAD would put in front of the real ones.

FC          := mpifort
PMPI_HELPER_FFLAGS := -O2 -g -fPIC -Wall -Werror
PMPI_SRC    := $(sort $(wildcard pmpi/src/*.c))
PMPI_OBJ    := $(PMPI_SRC:%.c=$(OBJ)/%.o) $(OBJ)/pmpi/src/sentinels.o
PMPI_LIB    := $(OUT)/lib/libpapcoll_pmpi.so
PMPI_TESTS  := $(OUT)/build/tests/pmpi
PMPI_CHECKS := $(PMPI_TESTS)/check_c $(PMPI_TESTS)/split_c $(PMPI_TESTS)/inter_c $(PMPI_TESTS)/reduce_loop $(PMPI_TESTS)/check_mpif \
               $(PMPI_TESTS)/check_usempi $(PMPI_TESTS)/split_f $(PMPI_TESTS)/papcoll-algos

all: $(PMPI_LIB) $(PMPI_CHECKS)
install: install-pmpi
.PHONY: install-pmpi

install-pmpi: $(PMPI_LIB)
	install -d $(DESTDIR)$(PREFIX)/lib
	install -m 755 $(PMPI_LIB) $(DESTDIR)$(PREFIX)/lib/

# The interposer is a program of the layers below it: their public headers only.
INC_PMPI := -Ipapcoll/include -Itrace/include
$(OBJ)/pmpi/%.o: pmpi/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_PMPI) -MMD -MP -c $< -o $@

$(OBJ)/pmpi/src/sentinels.o: pmpi/src/sentinels.f90
	@mkdir -p $(dir $@)
	$(FC) $(PMPI_HELPER_FFLAGS) -J$(dir $@) -c $< -o $@

$(PMPI_LIB): $(PMPI_OBJ) $(TRACELIB) $(STATIC) pmpi/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -Wl,--no-define-common -Wl,--exclude-libs,ALL \
	    -Wl,--version-script=pmpi/exports.map -o $@ $(filter %.o %.a,$^) \
	    $(HDF5_LIBS) $(LIB_LIBS)

# The test programs are the program's own: no papcoll flags, no sanitizers.
$(PMPI_TESTS)/%: tests/pmpi/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -Werror -o $@ $<

# One Fortran source, two programs: use mpi (checked with -Wall -Werror) and
# include 'mpif.h', which declares no interfaces: gfortran then reports every
# buffer of another type or rank than the first call's as a mismatch, which
# no option but -w silences (the same source passed -Werror in the other build).
PMPI_FFLAGS := -O2 -g -Wall -Wno-unused-dummy-argument -Werror
$(PMPI_TESTS)/check_mpif: tests/pmpi/check_f.F90 $(PMPI_TESTS)/check_usempi
	@mkdir -p $(dir $@)/mpif
	$(FC) -O2 -g -fallow-argument-mismatch -w -J$(dir $@)/mpif -o $@ $<

$(PMPI_TESTS)/check_usempi: tests/pmpi/check_f.F90
	@mkdir -p $(dir $@)/usempi
	$(FC) $(PMPI_FFLAGS) -DUSE_MPI_MODULE -J$(dir $@)/usempi -o $@ $<

$(PMPI_TESTS)/split_f: tests/pmpi/split_f.F90
	@mkdir -p $(dir $@)/split_fmod
	$(FC) $(PMPI_FFLAGS) -J$(dir $@)/split_fmod -o $@ $<

$(PMPI_TESTS)/papcoll-algos: tests/pmpi/papcoll-algos.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror $(INC_PMPI) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

-include $(PMPI_SRC:%.c=$(OBJ)/%.d)
