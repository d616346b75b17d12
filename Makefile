# ebsize - build, test, install.  `make help` lists the targets.
#
#   make                        build ./ebsize (objects under build/)
#   make test                   every test; ends with "N passed, N failed"
#   make SANITIZE=address,undefined test
#                               the same under ASan/UBSan (objects under build/san/)
#   make deps                   install the Debian packages the build and tests need
#   make install PREFIX=/usr/local DESTDIR=
#   make reports                regenerate the example report in reports/ (committed)
#   make perf                   issue 14's performance table (tests/perf/perf.py)
#   make fuzz FUZZ_SECONDS=60   libFuzzer on the parsers (clang; build/fuzz/)
#   make check-all              the gate CI runs: lint, test, the sanitizer test,
#                               valgrind memcheck, a fuzz smoke of every harness
#   make fmt                    clang-format the sources
#   make lint                   formatting, banned functions, layering
#   make man                    the man page build/ebsize.1 (from the option tables)

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
CC        ?= cc
PKG_CONFIG ?= pkg-config
PKGS      := sqlite3 libcurl libcjson xlsxwriter zlib
# libcurl and libxlsxwriter are not linked: src/http.c loads libcurl with
# dlopen() when a command needs the network, src/xlsx_export.c loads
# libxlsxwriter when a workbook is written (their headers are still needed
# to build); linked, they cost every command ~2 ms of relocations
LINK_PKGS := sqlite3 libcjson zlib

OPTFLAGS  ?= -O2 -g
# `make V=1` shows the full compiler command lines
ifeq ($(V),1)
Q :=
else
Q := @
endif
WARN      := -Wall -Wextra -Wpedantic -Wshadow -Wvla -Wformat=2 \
             -Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
             -Wpointer-arith -Wcast-qual -Wundef -Wno-unused-parameter \
             -Wno-missing-field-initializers
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
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(LINK_PKGS) 2>/dev/null)
# SQLite and zlib go into the binary when their archives are installed
# (Debian's libsqlite3-dev and zlib1g-dev ship them): as shared libraries
# their relocations were half of a short command's instructions (issue
# 14).  STATIC_LIBS=0 links them as shared libraries.
STATIC_LIBS ?= 1
STATIC_ARS := $(if $(filter 1,$(STATIC_LIBS)),$(foreach l,sqlite3 z,\
                $(if $(filter /%,$(shell $(CC) -print-file-name=lib$(l).a)),$(l))))
ifneq ($(STATIC_ARS),)
PKG_LIBS   = -Wl,-Bstatic $(STATIC_ARS:%=-l%) -Wl,-Bdynamic \
             $(filter-out $(STATIC_ARS:%=-l%),$(shell $(PKG_CONFIG) --libs $(LINK_PKGS) 2>/dev/null))
endif

ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
             -DEBSIZE_VERSION='"$(VERSION)"' -Iinclude -I$(BUILD)/gen \
             $(PKG_CFLAGS) $(WARN) $(OPTFLAGS) $(SANFLAGS) $(CFLAGS) -MMD -MP
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LIBS      = $(PKG_LIBS) -lm -ldl

SRCS      := $(wildcard src/*.c)
OBJS      := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
LIB_OBJS  := $(filter-out $(BUILD)/main.o,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%.o)
EMBED_IN  := sql/schema.sql $(sort $(wildcard sql/seed/*.sql)) pricing/snapshot.csv
# the parsers of outside input with a libFuzzer harness tests/fuzz/fuzz_NAME.c
# (`make fuzz`); `make test` replays their seeds and kept findings
FUZZ_NAMES := fio_result fio_log pricing instances burst_profile \
              bench_profile csv billing k8s offer_stream aws_config \
              volumes metrics usage
REPLAY_BINS := $(FUZZ_NAMES:%=$(BUILD)/replay/fuzz_%)

.PHONY: all test unit e2e deps install uninstall clean perf perf-extra fmt help check-deps \
        fuzz fuzz-build lint man reports check-all memcheck fuzz-smoke

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
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -O1 -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -c -o $@ $<

$(BUILD)/test-unit: $(UNIT_OBJS) $(LIB_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(LIBS)

test: all $(BUILD)/test-unit $(REPLAY_BINS)
	@EBSIZE_BIN=$(abspath $(BIN)) UNIT_BIN=$(abspath $(BUILD)/test-unit) \
	  FUZZ_REPLAY=$(abspath $(BUILD)/replay) sh tests/run.sh

unit: $(BUILD)/test-unit
	$(BUILD)/test-unit

$(BUILD)/bench-solver: tests/perf/bench_solver.c $(LIB_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

$(BUILD)/bench-xlsx: tests/perf/bench_xlsx.c $(LIB_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

$(BUILD)/bench-billing: tests/perf/bench_billing.c $(LIB_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

# the timer, the libc-only floor and the cJSON-alone parse of `make perf`
$(BUILD)/perf-spawn: tests/perf/spawn.c
	@mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -O2 -o $@ $<

$(BUILD)/perf-floor: tests/perf/floor.c
	@mkdir -p $(@D)
	$(Q)$(CC) -O2 -o $@ $<

$(BUILD)/perf-cjson: tests/perf/cjson-parse.c
	@mkdir -p $(@D)
	$(Q)$(CC) -O2 $(shell $(PKG_CONFIG) --cflags libcjson) -o $@ $< \
	  $(shell $(PKG_CONFIG) --libs libcjson)

# One table of issue 14's cases (tests/perf/perf.py, ~5 minutes);
# `make perf-extra` runs the other benchmarks (tests/perf/*.sh).
perf: all $(BUILD)/bench-solver $(BUILD)/perf-spawn $(BUILD)/perf-floor $(BUILD)/perf-cjson
	@EBSIZE_BIN=$(abspath $(BIN)) BENCH_SOLVER=$(abspath $(BUILD)/bench-solver) \
	  PERF_SPAWN=$(abspath $(BUILD)/perf-spawn) PERF_FLOOR=$(abspath $(BUILD)/perf-floor) \
	  PERF_CJSON=$(abspath $(BUILD)/perf-cjson) /usr/bin/python3 tests/perf/perf.py

perf-extra: all $(BUILD)/bench-solver $(BUILD)/bench-xlsx $(BUILD)/bench-billing
	@EBSIZE_BIN=$(abspath $(BIN)) BENCH_SOLVER=$(abspath $(BUILD)/bench-solver) \
	  BENCH_XLSX=$(abspath $(BUILD)/bench-xlsx) \
	  BENCH_BILLING=$(abspath $(BUILD)/bench-billing) sh tests/perf/run.sh

# Fuzzing (not part of `make test`): one libFuzzer binary per parser, the
# parser's sources compiled straight into it.  Seeds: tests/fixtures/ and
# tests/fuzz/corpus/NAME/; new inputs go to build/fuzz/corpus/NAME/,
# crashes to build/fuzz/crash-NAME-*.  clang's -Wformat=2 also flags the
# v*printf wrappers of util.c, hence -Wno-format-nonliteral.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
                -DEBSIZE_VERSION='"$(VERSION)"' -Iinclude \
                $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null) \
                $(WARN) -Wno-format-nonliteral -g -O1 -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CJSON   := $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null)
FUZZ_BINS    := $(FUZZ_NAMES:%=build/fuzz/fuzz_%)
# per NAME: the sources it links, -max_len, seed files from the fixtures
fuzz_src_fio_result    := src/fio_parse.c src/bench_analysis.c src/burst.c \
                          src/model.c src/util.c
fuzz_src_fio_log       := $(fuzz_src_fio_result)
fuzz_src_pricing       := src/pricing_parse.c src/json_stream.c src/strmap.c \
                          src/util.c
fuzz_src_offer_stream  := $(fuzz_src_pricing)
fuzz_src_aws_config    := src/aws_config_parse.c src/util.c
fuzz_src_batch         := src/batch_parse.c src/csv.c src/util.c
fuzz_src_instances     := src/instances_parse.c src/util.c
fuzz_src_burst_profile := src/burst.c src/model.c src/util.c
fuzz_src_bench_profile := src/bench_profile.c src/util.c
fuzz_src_csv           := src/csv.c src/util.c
fuzz_src_billing       := src/billing_parse.c src/billing_rules.c src/csv.c \
                          src/model.c src/strmap.c src/util.c
fuzz_src_k8s           := src/inventory_parse.c src/json_walk.c src/scan_k8s.c src/scan.c \
                          src/model.c src/strmap.c src/csv.c src/util.c
fuzz_src_volumes       := src/inventory_parse.c src/json_walk.c src/csv.c \
                          src/model.c src/util.c
fuzz_src_metrics       := src/metrics_parse.c src/inventory_parse.c \
                          src/json_walk.c src/csv.c src/model.c src/util.c
fuzz_src_usage         := src/inventory_parse.c src/json_walk.c src/csv.c \
                          src/model.c src/util.c
fuzz_len_fio_result    := 65536
fuzz_len_fio_log       := 16384
fuzz_len_pricing       := 65536
fuzz_len_instances     := 65536
fuzz_len_burst_profile := 4096
fuzz_len_bench_profile := 8192
fuzz_len_csv           := 4096
fuzz_len_billing       := 16384
fuzz_len_k8s           := 65536
fuzz_len_offer_stream  := 65536
fuzz_len_aws_config    := 8192
fuzz_len_batch         := 16384
fuzz_len_volumes       := 65536
fuzz_len_metrics       := 65536
fuzz_len_usage         := 4096
fuzz_seed_fio_result   := tests/fixtures/fio/*.json tests/fixtures/fio/*.json.txt
fuzz_seed_fio_log      := tests/fixtures/fio/*.log
fuzz_seed_pricing      := tests/fixtures/pricing-*.json
fuzz_seed_offer_stream := tests/fixtures/pricing-*.json
fuzz_seed_instances    := tests/fixtures/describe-instance-types-*.json
fuzz_seed_csv          := pricing/snapshot.csv
fuzz_seed_batch        := tests/fixtures/batch/*.jsonl tests/fixtures/batch/*.csv
fuzz_seed_billing      := tests/fixtures/billing/*.csv
fuzz_seed_k8s          := tests/fixtures/scan/pv.json tests/fixtures/scan/sc.json \
                          tests/fixtures/k8s/*.json
fuzz_seed_volumes      := tests/fixtures/describe-volumes-*.json \
                          tests/fixtures/scan/inv-*.json
fuzz_seed_metrics      := tests/fixtures/cloudwatch-*.json \
                          tests/fixtures/scan/metrics.json
fuzz_seed_usage        := tests/fixtures/scan/generated-usage.csv

fuzz-build: $(FUZZ_BINS)

.SECONDEXPANSION:
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(fuzz_src_$$*)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(fuzz_src_$*) $(FUZZ_CJSON) -lm

# The same harnesses with tests/fuzz/replay.c's main instead of libFuzzer,
# built by the ordinary compiler (and SANITIZE flags): `make test` replays
# the seeds and every kept finding (tests/fuzz/regress/NAME/) through them.
$(BUILD)/replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $$(fuzz_src_$$*) | $(BUILD)/gen/embedded.c
	@mkdir -p $(@D)
	@echo "  LINK    $@"
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Wno-missing-prototypes -o $@ $< \
	  tests/fuzz/replay.c $(fuzz_src_$*) $(ALL_LDFLAGS) $(LIBS)

# One fuzzer at a time (they each want a core): fuzz-run-NAME in turn.
fuzz: $(FUZZ_BINS)
	@for n in $(FUZZ_NAMES); do \
	  $(MAKE) --no-print-directory fuzz-run-$$n || exit 1; done

fuzz-run-%: build/fuzz/fuzz_%
	@mkdir -p build/fuzz/corpus/$* tests/fuzz/corpus/$*
	@for f in $(wildcard $(fuzz_seed_$*)); do cp $$f build/fuzz/corpus/$*/; done
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@$< -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	  -max_len=$(fuzz_len_$*) -timeout=10 -print_final_stats=1 \
	  -artifact_prefix=build/fuzz/crash-$*- \
	  build/fuzz/corpus/$* tests/fuzz/corpus/$* 2>build/fuzz/$*.log || \
	  { tail -40 build/fuzz/$*.log; echo "fuzz: $* failed, see build/fuzz/$*.log" >&2; exit 1; }
	@grep '^stat::number_of_executed_units' build/fuzz/$*.log

# valgrind memcheck over a representative set of commands: no error, no
# definite leak (tests/memcheck.sh).  The plain build: valgrind and ASan
# do not mix.
memcheck:
	@if [ -n "$(SANITIZE)" ]; then echo "memcheck needs the plain build (no SANITIZE)" >&2; exit 2; fi
	@$(MAKE) --no-print-directory all
	@EBSIZE_BIN=$(abspath $(BIN)) sh tests/memcheck.sh

# Every fuzz harness for FUZZ_SMOKE_SECONDS (14 harnesses: 2 minutes in all).
FUZZ_SMOKE_SECONDS ?= 8
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

# The one gate (.ci/run): make lint (formatting, banned functions,
# layering), the whole suite (with the linear-time probes, t9000), the suite again under ASan/UBSan, valgrind memcheck, and a short
# run of every fuzz harness; each step's time is printed.
check-all:
	@for step in "lint" "test" "SANITIZE=address,undefined test" "memcheck" "fuzz-smoke"; do \
	  t0=$$(date +%s); echo "check-all: make $$step"; \
	  $(MAKE) --no-print-directory $$step || { echo "check-all: make $$step failed" >&2; exit 1; }; \
	  echo "check-all: make $$step took $$(( $$(date +%s) - t0 )) s"; \
	done; echo "check-all: every step passed"

deps:
	sh tools/deps.sh

# The man page is generated from the option tables by the binary itself.
$(BUILD)/ebsize.1: $(BIN)
	@echo "  MAN     $@"
	$(Q)$(BIN) help --man >$@.tmp && mv $@.tmp $@

man: $(BUILD)/ebsize.1

# The example report, from the embedded data only (a fresh database, one
# region) and a scan of a GENERATED inventory: tools/make-reports.sh.  The
# result is committed.
reports: all
	@sh tools/make-reports.sh $(abspath $(BIN)) reports

install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ebsize
	install -m 0644 $(BUILD)/ebsize.1 $(DESTDIR)$(PREFIX)/share/man/man1/ebsize.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ebsize $(DESTDIR)$(PREFIX)/share/man/man1/ebsize.1

lint:
	@sh tools/lint.sh

fmt:
	clang-format -i src/*.c src/*.h include/ebsize/*.h tests/unit/*.c tests/unit/*.h tools/*.c

clean:
	rm -rf build ebsize

help:
	@sed -n 's/^#   //p;s/^#  //p' Makefile | head -15

-include $(OBJS:.o=.d) $(UNIT_OBJS:.o=.d)
