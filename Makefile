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

PKGS      := inih
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS  := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS    := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fPIC -pthread \
             $(OPT) $(SAN) -Ipapcoll/include -Ipapcoll/src -Iapps/common $(PKG_CFLAGS)
LDFLAGS   := -pthread $(SAN)
LDLIBS    := $(PKG_LIBS) -lm

LIB_SRC   := $(sort $(wildcard papcoll/src/*.c papcoll/src/*/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(OBJ)/%.o)
COMMON_SRC := $(sort $(wildcard apps/common/*.c))
COMMON_OBJ := $(COMMON_SRC:%.c=$(OBJ)/%.o)
BENCH_SRC := $(sort $(wildcard apps/bench/*.c))
BENCH_OBJ := $(BENCH_SRC:%.c=$(OBJ)/%.o)
TEST_SRC  := $(sort $(wildcard tests/*.c))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(OUT)/build/tests/%)

STATIC    := $(OUT)/lib/libpapcoll.a
SHARED    := $(OUT)/lib/libpapcoll.so
BINS      := $(OUT)/bin/papbench

.PHONY: all deps run test tests asan tsan install clean help check-deps
.DEFAULT_GOAL := all

all: check-deps $(STATIC) $(SHARED) $(BINS) $(TEST_BIN)

help:
	@echo "make            build lib/libpapcoll.{a,so}, bin/papbench, test programs"
	@echo "make run        install missing OS packages (when possible), build, run the main job"
	@echo "make test       build and run the whole test suite"
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
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OUT)/bin/papbench: $(BENCH_OBJ) $(COMMON_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OUT)/build/tests/%: $(OBJ)/tests/%.o $(COMMON_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tests: all

test: all
	@OUT=$(OUT) tests/run

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
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|0.1.0|' -e 's|@LIBS@|$(PKG_LIBS) -lm|' \
	    papcoll/papcoll.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/papcoll.pc

clean:
	rm -rf build lib bin

-include $(LIB_OBJ:.o=.d) $(COMMON_OBJ:.o=.d) $(BENCH_OBJ:.o=.d)
