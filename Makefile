# papcoll top-level build.  `make help` lists the targets.
#
# Variants: `make asan` / `make tsan` build the same tree with sanitizers into
# build/asan and build/tsan (their own lib/ and bin/), the plain build goes to
# lib/ and bin/ with objects in build/obj.

CC        := mpicc
PREFIX    ?= /usr/local
OPT       ?= -O2 -g
SAN       ?=
DEFS      ?=
OUT       ?= .
OBJ       ?= build/obj

# The version is written once, in papcoll.h (PAPCOLL_VERSION_MAJOR/MINOR/PATCH).
VERSION   := $(shell awk '$$2 == "PAPCOLL_VERSION_MAJOR" { a = $$3 } $$2 == "PAPCOLL_VERSION_MINOR" { b = $$3 } \
                          $$2 == "PAPCOLL_VERSION_PATCH" { c = $$3 } END { print a "." b "." c }' \
                      papcoll/include/papcoll.h)
ifeq ($(shell echo '$(VERSION)' | grep -xE '[0-9]+\.[0-9]+\.[0-9]+'),)
$(error cannot read PAPCOLL_VERSION_MAJOR/MINOR/PATCH from papcoll/include/papcoll.h (got '$(VERSION)'))
endif

# Libraries from pkg-config (Debian: libinih-dev libfftw3-dev libhdf5-dev libpng-dev).
# papcoll and apps/common need libinih; the programs FFTW (fft: single, pic:
# double) and libpng (pic); trace alone sees HDF5's headers.
INIH_CFLAGS := $(shell pkg-config --cflags inih 2>/dev/null)
APP_PKGS  := fftw3f fftw3 libpng
APP_CFLAGS := $(shell pkg-config --cflags $(APP_PKGS) 2>/dev/null)
HDF5_CFLAGS := $(shell pkg-config --cflags hdf5 2>/dev/null)
PKG_LIBS  := $(shell pkg-config --libs inih $(APP_PKGS) 2>/dev/null)
HDF5_LIBS := $(shell pkg-config --libs hdf5 2>/dev/null)

CFLAGS    := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fPIC -pthread -fopenmp $(OPT) $(SAN) $(DEFS)
LDFLAGS   := -pthread $(SAN)
LDLIBS    := $(PKG_LIBS) -lfftw3f_omp $(HDF5_LIBS) -lm
# libpapcoll itself needs only libinih.
LIB_LIBS  := $(shell pkg-config --libs inih 2>/dev/null) -lm

# Include paths: each module sees its own headers and the public headers of
# the layers below it, nothing above (docs/architecture.md, "Layers").
#   papcoll       its public and internal headers
#   trace         papcoll.h, its own headers, HDF5 (the only module that sees hdf5.h)
#   apps/common   its own headers, the public headers of trace and papcoll (the scaffold, app.c)
#   programs      apps/common, the public headers of trace and papcoll; those in
#                 INTERNAL_PROGRAMS, documented to print the library's internals, also papcoll/src
#   tests         whatever they test
INC_PAPCOLL := -Ipapcoll/include -Ipapcoll/src $(INIH_CFLAGS)
INC_TRACE   := -Ipapcoll/include -Itrace/include $(HDF5_CFLAGS)
INC_COMMON  := -Iapps/common -Itrace/include -Ipapcoll/include $(INIH_CFLAGS)
INC_PROGRAM := -Iapps/common -Itrace/include -Ipapcoll/include $(APP_CFLAGS)
INC_TESTS   := -Ipapcoll/include -Ipapcoll/src -Itrace/include -Iapps/common $(APP_CFLAGS)
INTERNAL_PROGRAMS := papcoll-sched

LIB_SRC   := $(sort $(wildcard papcoll/src/*.c papcoll/src/*/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(OBJ)/%.o)
TRACE_SRC := $(sort $(wildcard trace/src/*.c))
TRACE_OBJ := $(TRACE_SRC:%.c=$(OBJ)/%.o)
TEST_SRC  := $(sort $(wildcard tests/*.c))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(OUT)/build/tests/%) $(OUT)/build/tests/mpi_policy_mutant

STATIC    := $(OUT)/lib/libpapcoll.a
SHARED    := $(OUT)/lib/libpapcoll.so
TRACELIB  := $(OUT)/lib/libpaptrace.a

# Programs are discovered: every apps/NAME/main.c builds bin/NAME.  The other
# .c files of apps/NAME also go into the archive $(OBJ)/apps/NAME/libNAME.a,
# so that tests can link a program's pieces.
PROGRAMS  := $(sort $(patsubst apps/%/main.c,%,$(wildcard apps/*/main.c)))
BINS      := $(PROGRAMS:%=$(OUT)/bin/%)
APP_ARCH  := $(foreach p,$(PROGRAMS),$(OBJ)/apps/$(p)/lib$(p).a)
COMMON_SRC := $(sort $(wildcard apps/common/*.c))
COMMON_OBJ := $(COMMON_SRC:%.c=$(OBJ)/%.o)
COMMON_ARCH := $(OBJ)/apps/common/libcommon.a
ALL_SRC   := $(LIB_SRC) $(TRACE_SRC) $(COMMON_SRC) $(TEST_SRC) \
             $(foreach p,$(PROGRAMS),$(wildcard apps/$(p)/*.c))

# Link order: program pieces, then common, trace, the library, system libraries.
LINK_LIBS := $(COMMON_ARCH) $(TRACELIB) $(STATIC)

define PROGRAM_RULES
$(OBJ)/apps/$(1)/lib$(1).a: $(patsubst %.c,$(OBJ)/%.o,$(filter-out apps/$(1)/main.c,$(wildcard apps/$(1)/*.c)))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
$(OUT)/bin/$(1): $(OBJ)/apps/$(1)/main.o $(OBJ)/apps/$(1)/lib$(1).a $(LINK_LIBS)
	@mkdir -p $$(dir $$@)
	$(CC) $(LDFLAGS) -fopenmp -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call PROGRAM_RULES,$(p))))
$(foreach p,$(INTERNAL_PROGRAMS),$(eval $(OBJ)/apps/$(p)/%.o: INC_PROGRAM += -Ipapcoll/src))

# IceT, the optional peer of pic's compositing: the two libraries and headers
# that jobs/icet-fetch takes from Debian's paraview packages.  Only pic's
# icet.o sees the headers and only bin/pic links the libraries (by rpath);
# without them pic refuses icet:* names and says how to get them.
ICET_DIR  ?= $(CURDIR)/build/icet
ICET_HDR  := $(wildcard $(ICET_DIR)/include/IceT.h)
ifneq ($(ICET_HDR),)
$(patsubst ./%,%,$(OBJ)/apps/pic/icet.o): CFLAGS += -DPIC_HAVE_ICET -I$(ICET_DIR)/include
$(OBJ)/apps/pic/icet.o: $(ICET_HDR)
$(patsubst ./%,%,$(OUT)/bin/pic): LDLIBS += -L$(ICET_DIR)/lib -Wl,-rpath,$(ICET_DIR)/lib -lvtkIceTMPI -lvtkIceTCore
else
$(patsubst ./%,%,$(OUT)/bin/pic): | icet-note
endif

# OTF2, optional: bin/paptrace's otf2 command (Debian: libotf2-trace-dev,
# jobs/deps --install); without it the command says how to get it.
OTF2_LIBS := $(shell pkg-config --libs otf2 2>/dev/null)
ifneq ($(OTF2_LIBS),)
$(patsubst ./%,%,$(OBJ)/apps/paptrace/otf2.o $(OBJ)/apps/paptrace/otf2_pat.o): CFLAGS += -DPAPTRACE_HAVE_OTF2 \
    $(shell pkg-config --cflags otf2)
$(patsubst ./%,%,$(OUT)/bin/paptrace): LDLIBS += $(OTF2_LIBS)
endif

.PHONY: icet-note
icet-note:
	@echo "note: IceT not in $(ICET_DIR): bin/pic is built without the optional icet:* compositing (jobs/icet-fetch, then make)"

.PHONY: all deps run test test-full tests asan tsan smpi install clean help check-deps
.DEFAULT_GOAL := all

all: check-deps $(STATIC) $(SHARED) $(TRACELIB) $(BINS) $(TEST_BIN)

help:
	@echo "make            build lib/libpapcoll.{a,so}, lib/libpaptrace.a, bin/* (one per apps/*/main.c), tests"
	@echo "make run        install missing OS packages (when possible), build, run the main job"
	@echo "make test       build and run the test suite (normal and TSan builds, about 10 min on 2 cores)"
	@echo "make test-full  the same, nothing sampled: more process counts, every script (about 25 min)"
	@echo "make asan|tsan  sanitizer builds in build/asan, build/tsan"
	@echo "make smpi       the library, papbench, fft and pic for SimGrid SMPI in build/smpi (jobs/simcluster)"
	@echo "make install PREFIX=DIR   install library $(VERSION), headers and papcoll.pc"
	@echo "make deps       install missing OS packages (Debian/Ubuntu, as root)"

# Fails with one line naming what is missing (jobs/deps --check).
check-deps:
	@jobs/deps --check

deps:
	@jobs/deps --install

# One compile rule per module, each with its include paths (the most specific
# pattern wins: apps/common/ is not a program).
$(OBJ)/papcoll/%.o: papcoll/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_PAPCOLL) -MMD -MP -c $< -o $@

# Traces and openPMD files record the project version, `git describe` at
# build time.  The header is rewritten only when that changes, and the trace
# objects depend on it, so a new commit rebuilds them and an unchanged one
# rebuilds nothing.
GIT_VERSION_H := $(OBJ)/git-version.h
GIT_VERSION_LINE := \#define PAPCOLL_GIT_VERSION "$(shell git describe --always --dirty 2>/dev/null || echo unknown)"
$(shell mkdir -p $(OBJ) && (echo '$(GIT_VERSION_LINE)' | cmp -s - $(GIT_VERSION_H) || \
                            echo '$(GIT_VERSION_LINE)' > $(GIT_VERSION_H)))
TRACE_VERSION := -include $(GIT_VERSION_H)
$(OBJ)/trace/%.o: trace/%.c $(GIT_VERSION_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_TRACE) $(TRACE_VERSION) -MMD -MP -c $< -o $@

$(OBJ)/apps/common/%.o: apps/common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_COMMON) -MMD -MP -c $< -o $@

$(OBJ)/apps/%.o: apps/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_PROGRAM) -MMD -MP -c $< -o $@

$(OBJ)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_TESTS) -MMD -MP -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(TRACELIB): $(TRACE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(COMMON_ARCH): $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(OUT)/build/tests/%: $(OBJ)/tests/%.o $(APP_ARCH) $(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -fopenmp -o $@ $^ $(LDLIBS)

tests: all

# The test mutant tests/policy.sh must catch: mpi_policy linked with a
# monitor.c whose policies read a local value (PAPCOLL_MUTANT_LOCAL_POLICY).
# Never in the library.
MUTANT_LIB := $(OBJ)/mutant/libpapcoll.a
$(OBJ)/mutant/monitor.o: papcoll/src/monitor.c $(OBJ)/papcoll/src/monitor.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DPAPCOLL_MUTANT_LOCAL_POLICY $(INC_PAPCOLL) -c $< -o $@
$(MUTANT_LIB): $(OBJ)/mutant/monitor.o $(filter-out $(OBJ)/papcoll/src/monitor.o,$(LIB_OBJ))
	@rm -f $@
	ar rcs $@ $^
$(OUT)/build/tests/mpi_policy_mutant: $(OBJ)/tests/mpi_policy.o $(APP_ARCH) $(COMMON_ARCH) $(TRACELIB) $(MUTANT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -fopenmp -o $@ $^ $(LDLIBS)

# The whole suite: the normal build, then the background variants under
# ThreadSanitizer (docs/testing.md).  test-full: the same without sampling,
# more process counts and the scripts marked "# full: only".  The two builds
# use every core unless make already runs with its own -j (a jobserver).
PAR = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc))

test:
	@+$(MAKE) --no-print-directory $(PAR) all tsan
	@OUT=$(OUT) tests/run
	@OUT=build/tsan tests/run

test-full:
	@+$(MAKE) --no-print-directory $(PAR) all tsan
	@PAPCOLL_TEST_FULL=1 OUT=$(OUT) tests/run
	@PAPCOLL_TEST_FULL=1 OUT=build/tsan tests/run

run: deps
	@$(MAKE) --no-print-directory all
	@jobs/main-job

asan:
	@$(MAKE) --no-print-directory OUT=build/asan OBJ=build/asan/obj OPT="-O1 -g" \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" all

tsan:
	@$(MAKE) --no-print-directory OUT=build/tsan OBJ=build/tsan/obj OPT="-O1 -g" \
	    SAN="-fsanitize=thread" all

# SimGrid SMPI (docs/simulation.md): the library and the programs compiled by
# smpicc, which makes each program a module that smpirun loads; PAPCOLL_SMPI
# lets apps/common's timer sleep in simulated time.
SMPI_PROGRAMS := papbench fft pic
smpi: check-deps
	@command -v smpicc >/dev/null 2>&1 || \
	    { echo "make smpi: smpicc not found (SimGrid: jobs/deps --install, Debian package libsimgrid-dev)" >&2; exit 1; }
	@$(MAKE) --no-print-directory CC=smpicc OUT=build/smpi OBJ=build/smpi/obj DEFS=-DPAPCOLL_SMPI \
	    build/smpi/lib/libpapcoll.a build/smpi/lib/libpapcoll.so $(SMPI_PROGRAMS:%=build/smpi/bin/%)

# The library, its public headers (papcoll.h includes papcoll_ops.def) and papcoll.pc.
install: check-deps $(STATIC) $(SHARED)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 papcoll/include/papcoll.h papcoll/include/papcoll_ops.def $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS@|$(LIB_LIBS)|' \
	    papcoll/papcoll.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/papcoll.pc

clean:
	rm -rf build lib bin

# The PMPI interposer and its test programs.
include pmpi/pmpi.mk

-include $(ALL_SRC:%.c=$(OBJ)/%.d)
