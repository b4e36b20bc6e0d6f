# papcoll top-level build.  `make help` lists the targets.
#
# Variants: `make asan` / `make tsan` build the same tree with sanitizers into
# build/asan and build/tsan (their own lib/ and bin/), the plain build goes to
# lib/ and bin/ with objects in build/obj.

CC        := mpicc
PREFIX    ?= /usr/local
OPT       ?= -O2 -g
SAN       ?=
OUT       ?= .
OBJ       ?= build/obj

# Libraries from pkg-config (Debian: libinih-dev libfftw3-dev libhdf5-dev libpng-dev).
# HDF5's flags are only needed by trace/, the one module that includes hdf5.h.
PKGS      := inih fftw3f fftw3 libpng
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS  := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
HDF5_CFLAGS := $(shell pkg-config --cflags hdf5 2>/dev/null)
HDF5_LIBS := $(shell pkg-config --libs hdf5 2>/dev/null)

CFLAGS    := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fPIC -pthread -fopenmp \
             $(OPT) $(SAN) -Ipapcoll/include -Ipapcoll/src -Iapps/common -Itrace/include \
             $(PKG_CFLAGS)
LDFLAGS   := -pthread $(SAN)
LDLIBS    := $(PKG_LIBS) -lfftw3f_omp $(HDF5_LIBS) -lm
# libpapcoll itself needs only libinih.
LIB_LIBS  := $(shell pkg-config --libs inih 2>/dev/null) -lm

LIB_SRC   := $(sort $(wildcard papcoll/src/*.c papcoll/src/*/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(OBJ)/%.o)
TRACE_SRC := $(sort $(wildcard trace/src/*.c))
TRACE_OBJ := $(TRACE_SRC:%.c=$(OBJ)/%.o)
TEST_SRC  := $(sort $(wildcard tests/*.c))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(OUT)/build/tests/%)

STATIC    := $(OUT)/lib/libpapcoll.a
SHARED    := $(OUT)/lib/libpapcoll.so
TRACELIB  := $(OUT)/lib/libpaptrace.a

# Programs: NAME:DIR.  Every .c file of DIR but main.c also goes into the
# archive $(OBJ)/DIR/libNAME.a, so that tests can link a program's pieces.
# A program whose directory has no sources yet is left out.
PROGRAMS  := papbench:apps/bench fft:apps/fft pic:apps/pic paptrace:trace/paptrace \
             papcoll-sched:apps/sched
PROG_NAME  = $(word 1,$(subst :, ,$(1)))
PROG_DIR   = $(word 2,$(subst :, ,$(1)))
PROGRAMS  := $(foreach p,$(PROGRAMS),$(if $(wildcard $(call PROG_DIR,$(p))/*.c),$(p)))
BINS      := $(foreach p,$(PROGRAMS),$(OUT)/bin/$(call PROG_NAME,$(p)))
APP_ARCH  := $(foreach p,$(PROGRAMS),$(OBJ)/$(call PROG_DIR,$(p))/lib$(call PROG_NAME,$(p)).a)
COMMON_SRC := $(sort $(wildcard apps/common/*.c))
COMMON_OBJ := $(COMMON_SRC:%.c=$(OBJ)/%.o)
COMMON_ARCH := $(OBJ)/apps/common/libcommon.a
ALL_SRC   := $(LIB_SRC) $(TRACE_SRC) $(COMMON_SRC) $(TEST_SRC) \
             $(foreach p,$(PROGRAMS),$(wildcard $(call PROG_DIR,$(p))/*.c))

# Link order: program pieces, then trace, common, the library, system libraries.
LINK_LIBS := $(TRACELIB) $(COMMON_ARCH) $(STATIC)

define PROGRAM_RULES
$(OBJ)/$(2)/lib$(1).a: $(patsubst %.c,$(OBJ)/%.o,$(filter-out $(2)/main.c,$(wildcard $(2)/*.c)))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
$(OUT)/bin/$(1): $(OBJ)/$(2)/main.o $(OBJ)/$(2)/lib$(1).a $(LINK_LIBS)
	@mkdir -p $$(dir $$@)
	$(CC) $(LDFLAGS) -fopenmp -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call PROGRAM_RULES,$(call PROG_NAME,$(p)),$(call PROG_DIR,$(p)))))

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

.PHONY: icet-note
icet-note:
	@echo "note: IceT not in $(ICET_DIR): bin/pic is built without the optional icet:* compositing (jobs/icet-fetch, then make)"

.PHONY: all deps run test tests asan tsan install clean help check-deps
.DEFAULT_GOAL := all

all: check-deps $(STATIC) $(SHARED) $(TRACELIB) $(BINS) $(TEST_BIN)

help:
	@echo "make            build lib/libpapcoll.{a,so}, bin/papbench, test programs"
	@echo "make run        install missing OS packages (when possible), build, run the main job"
	@echo "make test       build and run the whole test suite (normal and TSan builds)"
	@echo "make asan|tsan  sanitizer builds in build/asan, build/tsan"
	@echo "make install PREFIX=DIR   install library, header and papcoll.pc"
	@echo "make deps       install missing OS packages (Debian/Ubuntu, as root)"

# Fails with one line naming what is missing (jobs/deps --check).
check-deps:
	@jobs/deps --check

deps:
	@jobs/deps --install

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

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

# trace/ alone sees HDF5's headers; traces record the project version.
TRACE_VERSION := -DPAPCOLL_GIT_VERSION='"$(shell git describe --always --dirty 2>/dev/null || echo unknown)"'
$(OBJ)/trace/%.o: trace/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HDF5_CFLAGS) $(TRACE_VERSION) -MMD -MP -c $< -o $@

$(OUT)/build/tests/%: $(OBJ)/tests/%.o $(APP_ARCH) $(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -fopenmp -o $@ $^ $(LDLIBS)

tests: all

# The whole suite: the normal build, then the background variants under
# ThreadSanitizer (docs/testing.md).
test: all tsan
	@OUT=$(OUT) tests/run
	@OUT=build/tsan tests/run

run: deps
	@$(MAKE) --no-print-directory all
	@jobs/main-job

asan:
	@$(MAKE) --no-print-directory OUT=build/asan OBJ=build/asan/obj OPT="-O1 -g" \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" all

tsan:
	@$(MAKE) --no-print-directory OUT=build/tsan OBJ=build/tsan/obj OPT="-O1 -g" \
	    SAN="-fsanitize=thread" all

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 papcoll/include/papcoll.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|0.1.0|' -e 's|@LIBS@|$(LIB_LIBS)|' \
	    papcoll/papcoll.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/papcoll.pc

clean:
	rm -rf build lib bin

-include $(ALL_SRC:%.c=$(OBJ)/%.d)
