# Makefile — builds gsearch and runs its tests.
#
#   make                 build/gsearch (libuv, SQLite, jansson, xxhash and zlib linked statically)
#   make test            build, unit tests, include layers, CLI golden tests, bad-input
#                        table, emulated sweeps, Slurm, the documentation's commands; last line
#                        "N passed, N failed[, N skipped]", non-zero exit status if
#                        anything failed, or was skipped on a host that has NVRTC.
#                        The first one fetches Python tools from PyPI (build/pyenv)
#   make test OFFLINE=1  the same without PyPI: the cases that need build/pyenv are
#                        skipped when it is not made yet
#   GS_TEST_SLOW=N make test    every time limit of the tests times N (default: 3,
#                        times the load per core when above 1; tests/slow-factor.sh)
#   make SAN=1 test      the same against an ASan+UBSan build in build/san/
#   GOLDEN_UPDATE=1 make test    rewrite the expected output of the golden cases
#   make test-docs       only the documentation's commands (tests/docs/run.sh);
#                        DOCS_UPDATE=1 rewrites the outputs the documentation shows
#   make check-static    verify build/gsearch needs no shared library beyond libc/libm/libdl/libpthread
#   make fuzz            libFuzzer on the space language, the T1 importer and the
#                        option values of run and query, FUZZ_SECONDS (60) each;
#                        FUZZ_TARGET=t1 (or space, options) runs one of them;
#                        make fuzz-build only builds them
#   make clean           remove build/
#   make V=1 ...         show the full compiler command lines
#
# Missing Debian build dependencies are installed by scripts/install-deps.sh the
# first time they are needed.

GS_BASE_VERSION := 0.1.0

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra
CUDA_HOME ?= /usr/local/cuda

# CUDA headers are used by the device code when present; without them the
# driver still builds (libcuda and NVRTC are loaded with dlopen at run time).
CUDA_INC := $(if $(wildcard $(CUDA_HOME)/include/cuda.h),-I$(CUDA_HOME)/include)

# Short "  CC file" lines unless V=1.
ifeq ($(V),1)
say :=
else
say = @printf '  %-6s %s\n' $(1) $(2);
endif

# --- build trees --------------------------------------------------------------
# A sanitized build lives in its own tree so that it never clobbers the normal
# binary (and the other way round).
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
ifeq ($(SAN),1)
B        := build/san
SANFLAGS := $(SANITIZE)
else
B        := build
SANFLAGS :=
endif

BIN  := $(B)/gsearch
SRCS := $(shell find driver -name '*.c' 2>/dev/null | LC_ALL=C sort)
OBJS := $(patsubst driver/%.c,$(B)/obj/%.o,$(SRCS))
# Everything but main() — what unit tests and the fuzzer link against.
LIB_OBJS := $(filter-out $(B)/obj/main.o,$(OBJS))

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRCS))

# --- version ------------------------------------------------------------------
# "0.1.0+<commit>[-dirty]".  Not `git describe --dirty`: that refreshes and
# rewrites .git/index under its lock, which races with git commands run beside
# a build.  `git status` with GIT_OPTIONAL_LOCKS=0 looks without writing.
GIT_DESC  := $(shell git describe --always 2>/dev/null)
GIT_DIRTY := $(if $(GIT_DESC),$(if $(shell GIT_OPTIONAL_LOCKS=0 git status --porcelain --untracked-files=no 2>/dev/null | head -1),-dirty))
GS_VERSION := $(GS_BASE_VERSION)$(if $(GIT_DESC),+$(GIT_DESC)$(GIT_DIRTY))

# Only the files that use GS_VERSION are recompiled when it changes: they
# depend on $(B)/version, which is rewritten only when its content differs.
VERSION_OBJS := $(patsubst driver/%.c,$(B)/obj/%.o,$(shell grep -l GS_VERSION $(SRCS) /dev/null 2>/dev/null))

# --- flags --------------------------------------------------------------------
ALL_CPPFLAGS := -Idriver $(CUDA_INC) -DGS_VERSION='"$(GS_VERSION)"' $(CPPFLAGS)
ALL_CFLAGS   := -std=gnu11 $(CFLAGS) $(WARN) $(if $(WERROR),-Werror) -pthread $(SANFLAGS)
ALL_LDFLAGS  := -pthread $(SANFLAGS) $(LDFLAGS)

# Static archives by full path, so the binary runs on hosts without these
# libraries (Ubuntu 24.04 has none of them).  Recursively expanded: looked up
# when linking, after install-deps.sh has had its chance to install them.
static_lib = $(shell $(CC) -print-file-name=$(1))
STATIC_LIBS = $(call static_lib,libuv_a.a) $(call static_lib,libsqlite3.a) \
	      $(call static_lib,libjansson.a) $(call static_lib,libxxhash.a) \
	      $(call static_lib,libz.a)
# What those archives need from the C library; --as-needed drops the glibc
# stubs (libdl, libpthread are part of libc since glibc 2.34).
SYS_LIBS := -Wl,--as-needed -lm -ldl -lpthread -Wl,--no-as-needed
LIBS = $(STATIC_LIBS) $(SYS_LIBS)

CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS   = $(shell pkg-config --libs check)

# Shared libraries build/gsearch may need (check-static).
ALLOWED_NEEDED := libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 ld-linux-x86-64.so.2

# --- build dependencies -------------------------------------------------------
# Checked with $(wildcard) and one `command -v` loop, so that a set-up machine
# pays nothing; a missing piece runs the installer before the first compile.
DEP_HEADERS := uv.h sqlite3.h jansson.h xxhash.h zlib.h check.h
DEP_TOOLS   := pkg-config python3 sqlite3 gnuplot
DEPS_MISSING := $(strip $(foreach h,$(DEP_HEADERS),$(if $(wildcard /usr/include/$(h)),,$(h))) \
	$(shell for t in $(DEP_TOOLS); do command -v $$t >/dev/null || echo $$t; done))

.PHONY: all sweep deps test unit test-docs check-static fuzz fuzz-deps clean FORCE
.DEFAULT_GOAL := all

all: $(BIN)

# The main job: the running example's sweep into results/matmul.db, measured
# on every GPU of the host, or on the emulated device (emu:sm_90: validated at
# the space's emulator sizes, timed by the model at the real ones) where there
# is none.
SWEEP_SPACE ?= spaces/matmul.space
sweep: $(BIN)
	$(BIN) run $(SWEEP_SPACE)

deps:
ifneq ($(DEPS_MISSING),)
	@echo "missing build dependencies: $(DEPS_MISSING)"
	scripts/install-deps.sh
endif

# --- gsearch ------------------------------------------------------------------
$(BIN): $(OBJS)
	$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LIBS)

$(B)/obj/%.o: driver/%.c | deps
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(VERSION_OBJS): $(B)/version

# the bundled device profiles are compiled in (.incbin), from the repository root
PROFILES := $(wildcard profiles/*.profile)
$(B)/obj/dev/emu/profiles_embed.o: $(PROFILES)

$(B)/version: FORCE
	@mkdir -p $(@D); v='$(GS_VERSION)'; \
	[ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@

FORCE:

# --- unit tests (Check) -------------------------------------------------------
# One executable per tests/unit/test_*.c, linked with every driver object but
# main.o; driver headers are included as in the driver, harness.h directly.
$(UNIT_BINS): $(B)/unit/%: $(B)/unit/%.o $(LIB_OBJS)
	$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB_OBJS) $(CHECK_LIBS) $(LIBS)

$(B)/unit/%.o: tests/unit/%.c | deps
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(ALL_CPPFLAGS) -Itests/unit $(CHECK_CFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# A host where NVRTC loads (where gs_nvrtc_load looks) must run every unit
# test: there a skipped test fails (tests/run-unit.sh).
NVRTC_HERE := $(wildcard $(CUDA_HOME)/lib64/libnvrtc.so* /usr/local/cuda/lib64/libnvrtc.so*)
NO_SKIP := GS_NO_SKIP=$(if $(NVRTC_HERE),1,0)

unit: $(UNIT_BINS)
	@$(NO_SKIP) tests/run-unit.sh $(UNIT_BINS)

# --- check-static ---------------------------------------------------------------
# Every NEEDED entry of the binary must be in ALLOWED_NEEDED.  A sanitized
# binary needs libasan/libubsan, so the check applies to the normal build only.
# Kept as a shell snippet so that `make test` runs it without a recursive make.
define CHECK_STATIC_SH
needed=$$(readelf -d $(BIN) | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); \
bad=; for n in $$needed; do \
	case " $(ALLOWED_NEEDED) " in *" $$n "*) ;; *) bad="$$bad $$n";; esac; \
done; \
if [ -n "$$bad" ]; then \
	echo "check-static: FAIL: $(BIN) needs shared$$bad (allowed: $(ALLOWED_NEEDED))"; false; \
else \
	echo "check-static: ok: $(BIN) needs only" $$needed; \
fi
endef

check-static: $(BIN)
ifeq ($(SAN),1)
	@echo "check-static: skipped for a sanitized build (SAN=1)"
else
	@$(CHECK_STATIC_SH)
endif

# --- make test ------------------------------------------------------------------
# Each part writes "<passed> <failed>" (the unit part "<passed> <failed>
# <skipped>") to $(RESULTS)/<part>; a part that leaves no result (its runner
# broke) counts as one failure.  The parts run in order
# even when an earlier one fails.
RESULTS := $(B)/test-results
TEST_PARTS := unit $(if $(filter 1,$(SAN)),,static) layers cli bad emu slurm docs
# verify_asan_link_order=0: the docs part runs each command under stdbuf,
# whose preloaded library would otherwise stop a sanitized gsearch at start.
TEST_ENV := GSEARCH=$(CURDIR)/$(BIN) \
	$(if $(filter 1,$(OFFLINE)),GS_OFFLINE=1) $(if $(GS_TEST_SLOW),GS_TEST_SLOW=$(GS_TEST_SLOW)) \
	CK_FORK=yes CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-30} \
	$(if $(filter 1,$(SAN)),CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-3}) \
	ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1:verify_asan_link_order=0} \
	UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1}

test: $(BIN) $(UNIT_BINS)
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
	@echo "== unit tests"; \
	$(TEST_ENV) $(NO_SKIP) GS_RESULT=$(RESULTS)/unit tests/run-unit.sh $(UNIT_BINS) || true
ifneq ($(SAN),1)
	@echo "== static linking"; \
	if ( $(CHECK_STATIC_SH) ); then r="1 0"; else r="0 1"; fi; echo "$$r" > $(RESULTS)/static
endif
	@echo "== include layers of driver/"; \
	GS_RESULT=$(RESULTS)/layers tests/layers.sh || true
	@echo "== Python tools of the interoperability cases (build/pyenv, made once)"; \
	$(TEST_ENV) scripts/pyenv.sh build/pyenv >/dev/null; \
	case $$? in 0) ;; 77) echo "pyenv: the cases that run Kernel Tuner are skipped";; \
	*) echo "pyenv: failed; the cases that run Kernel Tuner will fail";; esac
	@echo "== CLI golden tests"; \
	$(TEST_ENV) GS_RESULT=$(RESULTS)/cli tests/cli/run.sh || true
	@echo "== bad-input table"; \
	$(TEST_ENV) GS_RESULT=$(RESULTS)/bad tests/bad/run.sh || true
	@echo "== every bundled space on the emulated device"; \
	$(TEST_ENV) GS_RESULT=$(RESULTS)/emu tests/emu/sweeps.sh $(BIN) || true
	@echo "== a sweep as a Slurm job array, merged"; \
	$(TEST_ENV) GS_RESULT=$(RESULTS)/slurm tests/slurm/run.sh || true
	@echo "== every command the documentation shows"; \
	$(TEST_ENV) GS_RESULT=$(RESULTS)/docs tests/docs/run.sh || true
	@p=0; f=0; s=0; for part in $(TEST_PARTS); do \
		if read a b c 2>/dev/null < $(RESULTS)/$$part && [ -n "$$b" ]; then \
			p=$$((p + a)); f=$$((f + b)); s=$$((s + $${c:-0})); \
		else \
			echo "$$part: runner left no result, counted as a failure"; f=$$((f + 1)); \
		fi; \
	done; \
	if [ $$s -gt 0 ]; then echo "$$p passed, $$f failed, $$s skipped"; \
	else echo "$$p passed, $$f failed"; fi; [ $$f -eq 0 ]

# The documentation's commands alone (a part of `make test` too).
test-docs: $(BIN)
	@$(TEST_ENV) tests/docs/run.sh

# --- fuzz -------------------------------------------------------------------------
# clang with libFuzzer, ASan and UBSan; every driver object is rebuilt by clang
# into build/fuzz/ (main.o excluded).  Not part of `make test`.  -Wno-psabi:
# the emulator passes 32-lane vectors between functions of one build, so the
# ABI note clang gives for each of them (no AVX-512) says nothing.
FUZZ_B       := build/fuzz
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   ?=
FUZZ_CFLAGS  := $(ALL_CPPFLAGS) -std=gnu11 -O1 -g $(WARN) -Wno-psabi -pthread -fsanitize=fuzzer-no-link $(SANITIZE)
FUZZ_OBJS    := $(patsubst driver/%.c,$(FUZZ_B)/obj/%.o,$(filter-out driver/main.c,$(SRCS)))
# One target per tests/fuzz/fuzz_NAME.c: space (the space language), t1 (the
# T1 importer), options (the option values of run and query).
FUZZ_TARGETS := space t1 options
FUZZ_TARGET  ?= $(FUZZ_TARGETS)
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)
FUZZ_SEEDS_space   = $(wildcard spaces/*.space tests/bad/cases/*/input.space)
FUZZ_SEEDS_t1      = $(wildcard tests/t1/*.json spaces/*.json tests/bad/cases/*/input.json)
FUZZ_SEEDS_options = $(wildcard tests/fuzz/options/*)

# A compiler alone is not enough: Debian packages the libFuzzer and sanitizer
# runtimes apart from clang, so the check links a trivial fuzz target.
fuzz-deps: deps
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' | \
	$(FUZZ_CC) -fsanitize=fuzzer $(SANITIZE) -x c -o /dev/null - >/dev/null 2>&1 || \
	scripts/install-deps.sh --fuzz

$(FUZZ_B)/obj/%.o: driver/%.c | fuzz-deps
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_B)/obj/dev/emu/profiles_embed.o: $(PROFILES)

$(FUZZ_B)/fuzz_%.o: tests/fuzz/fuzz_%.c | fuzz-deps
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_BINS): $(FUZZ_B)/fuzz_%: $(FUZZ_B)/fuzz_%.o $(FUZZ_OBJS)
	$(call say,LINK,$@)$(FUZZ_CC) -pthread -fsanitize=fuzzer $(SANITIZE) -o $@ $^ \
		$(STATIC_LIBS) $(SYS_LIBS)

.PHONY: fuzz-build
fuzz-build: $(FUZZ_BINS)

# Every target is built; those of FUZZ_TARGET run one after the other, each
# for FUZZ_SECONDS.  The seed corpus is copied fresh each run; what libFuzzer
# finds accumulates in build/fuzz/corpus-NAME, crashing inputs land in
# build/fuzz/crashes/NAME-*.  A crash stops that target (the others still
# run) and makes the status non-zero; FUZZ_FLAGS='-fork=1 -ignore_crashes=1'
# goes on past a known one.
fuzz: $(FUZZ_BINS)
	@set -e; rc=0; for t in $(FUZZ_TARGET); do \
		case " $(FUZZ_TARGETS) " in *" $$t "*) ;; \
		*) echo "fuzz: unknown FUZZ_TARGET '$$t' ($(FUZZ_TARGETS))"; exit 2;; esac; \
	done; \
	for t in $(FUZZ_TARGET); do \
		rm -rf $(FUZZ_B)/seed-$$t; mkdir -p $(FUZZ_B)/seed-$$t $(FUZZ_B)/corpus-$$t $(FUZZ_B)/crashes; \
		case $$t in \
		space) seeds="$(FUZZ_SEEDS_space)";; t1) seeds="$(FUZZ_SEEDS_t1)";; \
		options) seeds="$(FUZZ_SEEDS_options)";; esac; \
		for f in $$seeds; do cp "$$f" "$(FUZZ_B)/seed-$$t/$$(echo "$$f" | tr / _)"; done; \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
		$(FUZZ_B)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=60 -rss_limit_mb=2048 \
			-max_len=16384 -print_final_stats=1 -dict=tests/fuzz/$$t.dict $(FUZZ_FLAGS) \
			-artifact_prefix=$(FUZZ_B)/crashes/$$t- \
			$(FUZZ_B)/corpus-$$t $(FUZZ_B)/seed-$$t || rc=1; \
	done; \
	exit $$rc

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(UNIT_BINS:=.d) $(FUZZ_OBJS:.o=.d) $(FUZZ_BINS:=.d)

# --- GPU smoke test ---------------------------------------------------------------
# tests/gpu/dev_smoke.c drives the CUDA backend end to end on GPU 0 with the
# kernels of tests/gpu/ (needs a GPU and NVRTC; not part of `make test`).  It
# prints PASS/FAIL lines and "N passed, M failed".  On a GPU host without the
# build dependencies, build here and run build/gpu/dev_smoke there.
GPU_SMOKE := $(B)/gpu/dev_smoke

$(B)/gpu/dev_smoke.o: tests/gpu/dev_smoke.c | deps
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(GPU_SMOKE): $(B)/gpu/dev_smoke.o $(LIB_OBJS)
	$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

.PHONY: test-gpu-smoke
test-gpu-smoke: $(GPU_SMOKE)
	$(GPU_SMOKE)

-include $(B)/gpu/dev_smoke.d

# --- GPU tests ------------------------------------------------------------------
# Every outcome on a real GPU, a kernel of known duration, two runs agreeing;
# not part of `make test` (CI has no GPU).  No prerequisites: on a GPU host
# without the build dependencies, build here and carry build/.
.PHONY: test-gpu
test-gpu:
	tests/gpu/run.sh $(BIN)

# --- bench ------------------------------------------------------------------------
# The enumeration benchmark: scripts/bench/enum_bench.c linked with every
# driver object but main.o, run by scripts/bench/run-enum-bench.sh on the
# synthetic T1 spaces of scripts/bench/gen_t1.py.  Not part of `make test`.
BENCH_B := $(B)/bench

$(BENCH_B)/enum_bench: scripts/bench/enum_bench.c $(LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

.PHONY: bench
bench: $(BENCH_B)/enum_bench
	scripts/bench/run-enum-bench.sh $(BENCH_B)/enum_bench

# The interpreter benchmark: scripts/bench/emu_bench.c (needs NVRTC at run
# time), run by scripts/bench/run-emu-bench.sh.  Not part of `make test`.
$(BENCH_B)/emu_bench: scripts/bench/emu_bench.c $(LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

.PHONY: emu-bench
emu-bench: $(BENCH_B)/emu_bench
	scripts/bench/run-emu-bench.sh $(BENCH_B)/emu_bench

# --- Slurm ------------------------------------------------------------------------
# scripts/slurm/ on a real Slurm set up on this machine (munge, slurmctld,
# slurmd; installed when missing): a 4-task array, the merge, compared with a
# single-process sweep.  Also a part of `make test`.
.PHONY: test-slurm
test-slurm: $(BIN)
	GSEARCH=$(CURDIR)/$(BIN) tests/slurm/run.sh
