# ebsize - build, test, install.  `make help` lists the targets.
#
#   make                        build ./ebsize (objects under build/)
#   make test                   every test; ends with "N passed, N failed"
#   make SANITIZE=address,undefined test
#                               the same under ASan/UBSan (objects under build/san/)
#   make deps                   install the Debian packages the build and tests need
#   make install PREFIX=/usr/local DESTDIR=
#   make perf                   the benchmarks under tests/perf
#   make fmt                    clang-format the sources

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
CC        ?= cc
PKG_CONFIG ?= pkg-config
PKGS      := sqlite3 libcurl libcjson xlsxwriter

OPTFLAGS  ?= -O2 -g
# `make V=1` shows the full compiler command lines
ifeq ($(V),1)
Q :=
else
Q := @
endif
WARN      := -Wall -Wextra -Wpedantic -Wshadow -Wvla -Wformat=2 \
             -Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
             -Wpointer-arith -Wcast-qual -Wundef -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN      += -Werror
endif

ifneq ($(SANITIZE),)
BUILD     := build/san
SANFLAGS  := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
BIN       := $(BUILD)/ebsize
else
BUILD     := build
SANFLAGS  :=
BIN       := ebsize
endif

PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
             -DEBSIZE_VERSION='"$(VERSION)"' -Iinclude -I$(BUILD)/gen \
             $(PKG_CFLAGS) $(WARN) $(OPTFLAGS) $(SANFLAGS) $(CFLAGS) -MMD -MP
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LIBS      = $(PKG_LIBS) -lm

SRCS      := $(wildcard src/*.c)
OBJS      := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
LIB_OBJS  := $(filter-out $(BUILD)/main.o,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%.o)
EMBED_IN  := sql/schema.sql $(sort $(wildcard sql/seed/*.sql)) pricing/snapshot.csv

.PHONY: all test unit e2e deps install uninstall clean perf fmt help check-deps

all: check-deps $(BIN)

check-deps:
	@$(PKG_CONFIG) --exists $(PKGS) || { \
	  echo "error: missing build dependencies ($(PKGS)); run 'make deps' first" >&2; exit 1; }

$(BIN): $(OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LIBS)

$(BUILD)/%.o: src/%.c | $(BUILD)/gen/embedded.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/gen/embedded.o: $(BUILD)/gen/embedded.c
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Generated: schema, seed SQL and the price snapshot as C arrays.
$(BUILD)/gen/embedded.c: $(EMBED_IN) $(BUILD)/tools/embed
	@mkdir -p $(@D)
	$(BUILD)/tools/embed $@ $(EMBED_IN)

$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(@D)
	$(CC) -O1 -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -c -o $@ $<

$(BUILD)/test-unit: $(UNIT_OBJS) $(LIB_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(LIBS)

test: all $(BUILD)/test-unit
	@EBSIZE_BIN=$(abspath $(BIN)) UNIT_BIN=$(abspath $(BUILD)/test-unit) \
	  sh tests/run.sh

unit: $(BUILD)/test-unit
	$(BUILD)/test-unit

$(BUILD)/bench-solver: tests/perf/bench_solver.c $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

perf: all $(BUILD)/bench-solver
	@EBSIZE_BIN=$(abspath $(BIN)) BENCH_SOLVER=$(abspath $(BUILD)/bench-solver) \
	  sh tests/perf/run.sh

deps:
	sh tools/deps.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ebsize

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ebsize

fmt:
	clang-format -i src/*.c src/*.h include/ebsize/*.h tests/unit/*.c tests/unit/*.h tools/*.c

clean:
	rm -rf build ebsize

help:
	@sed -n 's/^#   //p;s/^#  //p' Makefile | head -12

-include $(OBJS:.o=.d) $(UNIT_OBJS:.o=.d)
