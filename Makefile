# mlxcel build. `make` builds the binaries; `make run` is the main job on the default device;
# `make test` installs what it needs and runs every test; `make check` runs the offline tests only.
# See README.md and tests/README.md.

include scripts/iree/pin.env

CC       ?= cc
BUILD    ?= build
JANSSON_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
JANSSON_LIBS   := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
OPT      ?= -O2 -g
PCRE2_LIBS     := $(shell pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
# utf8proc: Unicode normalization (NFC) for tokenizers whose tokenizer.json asks for it (Qwen's).
UTF8PROC_LIBS  := $(shell pkg-config --libs libutf8proc 2>/dev/null || echo -lutf8proc)
CFLAGS   += $(OPT) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-format-truncation -Isrc $(JANSSON_CFLAGS) \
            -DMX_IREE_VERSION='"$(MLXCEL_IREE_VERSION)"' \
            -DMX_SOURCE_WORKER='"$(CURDIR)/src/device/worker/mlxcel_worker.py"'
MHD_LIBS       := $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)
LDLIBS   += $(JANSSON_LIBS) $(PCRE2_LIBS) $(UTF8PROC_LIBS) $(MHD_LIBS) -lpthread -lm

# Library sources by module (DESIGN.md data flow); cli/ holds the front end only.
LIB_SRC  := $(wildcard src/base/*.c src/format/*.c src/model/*.c src/tokenizer/*.c src/template/*.c src/hlo/*.c src/compiler/*.c src/device/*.c src/engine/*.c src/server/*.c src/qualify/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all bench-sampler deps run test check test-unit test-asan test-integration clean \
        iree iree-env iree-cpu iree-cuda iree-rocm unit-bins asan-bins tsan-bins test-tsan bundle model fuzz fuzz-run oracle \
        compile-matrix

all: $(BUILD)/mlxcel $(BUILD)/mlxcel-worker.py $(BUILD)/mlxcel-server

# Each compile also writes a .d file naming the headers its source includes (-MMD: ours, not the
# system's; -MP: an empty rule per header, so a deleted header does not stop the build), so touching
# a header rebuilds only what includes it. The flags above go into every object: hence the Makefile.
DEPFLAGS := -MMD -MP
$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# The IREE pin is compiled into toolchain.o alone (-DMX_IREE_VERSION; everything else asks
# mx_toolchain_version()), so a new pin rebuilds that object and relinks the rest.
$(BUILD)/src/base/toolchain.o: scripts/iree/pin.env

# The commit is compiled into build_info.o alone, rebuilt when a source or git's HEAD or index changes (a commit,
# a checkout, an add); "-dirty" marks uncommitted changes to tracked files at build time.
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
$(BUILD)/src/base/build_info.o: CFLAGS += -DMX_GIT_COMMIT='"$(GIT_COMMIT)"' -DMX_BUILD_DATE='"$(shell date -u +%Y-%m-%dT%H:%MZ)"'
$(BUILD)/src/base/build_info.o: $(wildcard .git/HEAD .git/index) $(filter-out src/base/build_info.c,$(LIB_SRC)) $(CLI_SRC)

$(BUILD)/libmlxcel.a: $(LIB_OBJ)
	ar rcs $@ $^

$(BUILD)/mlxcel: $(CLI_OBJ) $(BUILD)/libmlxcel.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# mlxcel-server is mlxcel itself under another name (main.c dispatches on it).
$(BUILD)/mlxcel-server: $(BUILD)/mlxcel
	ln -sf mlxcel $@

# The worker travels beside the binary, so a copied build directory still finds it.
$(BUILD)/mlxcel-worker.py: src/device/worker/mlxcel_worker.py
	@mkdir -p $(dir $@)
	cp $< $@

# A unit test is its own object (the rule above; a test includes testutil.h from its own folder)
# linked with the library. A static pattern, so that no other target is mistaken for a test.
$(filter-out $(BUILD)/tests/test_options,$(UNIT_BIN)): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libmlxcel.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lcmocka

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_OBJ:.o=.d)

# The option parser and the session rows belong to the front end, which libmlxcel.a leaves out:
# their test links those two objects beside the library (a static pattern of its own, so the
# generic test rule above leaves it alone).
CLI_TESTED_OBJ := $(BUILD)/src/cli/options.o $(BUILD)/src/cli/common.o
$(BUILD)/tests/test_options: $(BUILD)/tests/unit/test_options.o $(CLI_TESTED_OBJ) $(BUILD)/libmlxcel.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lcmocka

# Debian packages the build and the tests need (idempotent; quiet when all are present).
deps:
	@scripts/install-deps.sh

# The default model, SmolLM2-135M-Instruct GGUF Q4_1, into ~/.cache/mlxcel/models/ (idempotent).
model:
	@scripts/fetch-model.sh >/dev/null

# Regenerates the HF oracle fixtures and diffs them with the committed ones (needs torch: GPU machine).
oracle: all
	@tests/oracle/regenerate.sh

# The full compile matrix: the 16-layer Llama-3.2-1B graph for every qualified target and precision.
compile-matrix: all
	@scripts/xla/compile_matrix.sh --layers 16 --context 512

# --- pinned IREE toolchain -------------------------------------------------------------------
iree:
	@scripts/iree/select.sh --setup
iree-env:
	@scripts/iree/select.sh --info
iree-cpu:
	@scripts/iree/setup-cpu.sh
iree-cuda:
	@scripts/iree/setup-cuda.sh
iree-rocm:
	@scripts/iree/setup-rocm.sh

# --- the main job: SmolLM2-135M-Instruct generates text on the default device (CPU) -------------
PROMPT ?= Explain in two sentences why the sky is blue.
run: deps iree model
	@$(MAKE) --no-print-directory all
	MLXCEL_BACKEND=xla $(BUILD)/mlxcel generate -m "$$(scripts/fetch-model.sh 2>/dev/null)" -p "$(PROMPT)" -n 96 --stats

# --- tests: the tiers are in tests/README.md ---------------------------------------------------
test: deps iree model
	@$(MAKE) --no-print-directory all unit-bins fuzz asan-bins tsan-bins
	@tests/run_tests.sh $(BUILD) build-asan build-tsan

# The offline tier: the unit suites that need no IREE toolchain, no model and no network, in both
# builds. It installs nothing: the Debian packages it builds with come from `make deps`, once.
check: unit-bins asan-bins
	@tests/run_tests.sh --tier check $(BUILD) build-asan

# One tier of `make test` alone, after the same set-up.
test-unit: deps iree model
	@$(MAKE) --no-print-directory unit-bins
	@tests/run_tests.sh --tier unit $(BUILD)
test-asan: deps iree model
	@$(MAKE) --no-print-directory asan-bins
	@tests/run_tests.sh --tier asan $(BUILD) build-asan
test-tsan: deps iree model
	@$(MAKE) --no-print-directory tsan-bins
	@tests/run_tests.sh --tier tsan $(BUILD) build-asan build-tsan
test-integration: deps iree model
	@$(MAKE) --no-print-directory all $(BUILD)/fake-hip/libamdhip64.so
	@tests/run_tests.sh --tier integration $(BUILD)

# The unit tests again, built with ASan and UBSan into build-asan/.
ASAN_OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan-bins:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="$(ASAN_OPT)" unit-bins

# The unit tests and the binary again, built with ThreadSanitizer into build-tsan/, for the suites and
# the live server that start threads (tests/run_tests.sh --tier tsan). TSan cannot be combined with
# ASan, hence a third build.
TSAN_OPT := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
tsan-bins:
	@$(MAKE) --no-print-directory BUILD=build-tsan OPT="$(TSAN_OPT)" unit-bins

unit-bins: $(UNIT_BIN) $(BUILD)/mlxcel $(BUILD)/mlxcel-worker.py $(BUILD)/fake-hip/libamdhip64.so $(BUILD)/tests/dequant_dump \
  $(BUILD)/tests/sampler_dump

# GGUF block dequantization as a command, for the gguf package's parity test (tests/oracle/dequant_parity.py).
$(BUILD)/tests/dequant_dump: tests/tools/dequant_dump.c $(BUILD)/libmlxcel.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# The host sampler's cost per pick against a full sort of the row (a command that prints a table).
bench-sampler: $(BUILD)/bench/sampler_bench
$(BUILD)/bench/sampler_bench: bench/sampler_bench.c tests/unit/sampler_reference.h $(BUILD)/libmlxcel.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) bench/sampler_bench.c $(BUILD)/libmlxcel.a -o $@ $(LDLIBS)

# The sampler's candidates and draws as a command, for HF's warpers (tests/oracle/warpers_parity.py).
$(BUILD)/tests/sampler_dump: tests/tools/sampler_dump.c $(BUILD)/libmlxcel.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# A HIP runtime that loads but has no GPU, for the ROCm diagnostics tests (tests/fixtures/fake_hip.c).
$(BUILD)/fake-hip/libamdhip64.so: tests/fixtures/fake_hip.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -w $< -o $@

# A relocatable build for hosts without this machine's libraries (the GPU machine): jansson, PCRE2
# and utf8proc linked statically, the worker script beside the binary; glibc, libm and libmicrohttpd (below) stay dynamic.
# libmicrohttpd cannot be linked statically without a static GnuTLS chain, so its shared library
# travels beside the binary (found through an $$ORIGIN rpath); it needs libgnutls.so.30, which
# Debian and Ubuntu hosts have.
MHD_SO := $(shell $(CC) -print-file-name=libmicrohttpd.so.12)
bundle:
	@$(MAKE) --no-print-directory BUILD=build-bundle \
	  JANSSON_LIBS="-Wl,-Bstatic -ljansson -Wl,-Bdynamic" PCRE2_LIBS="-Wl,-Bstatic -lpcre2-8 -Wl,-Bdynamic" \
	  UTF8PROC_LIBS="-Wl,-Bstatic -lutf8proc -Wl,-Bdynamic" \
	  MHD_LIBS="-lmicrohttpd -Wl,-rpath,'\$$\$$ORIGIN'" all
	cp -L $(MHD_SO) build-bundle/
	@echo "bundle: build-bundle/mlxcel (+ mlxcel-server link) + build-bundle/mlxcel-worker.py + libmicrohttpd.so.12"

# --- fuzzing (libFuzzer, clang) ----------------------------------------------------------------
FUZZ_TARGETS := fuzz_safetensors fuzz_gguf fuzz_tokenizer fuzz_tokenizer_json fuzz_jinja fuzz_baseline fuzz_api_request
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=c11 -D_GNU_SOURCE \
                -Isrc -Itests $(JANSSON_CFLAGS) -DMX_IREE_VERSION='"$(MLXCEL_IREE_VERSION)"'
FUZZ_LIB_SRC := $(wildcard src/base/*.c src/format/*.c src/model/*.c src/tokenizer/*.c src/template/*.c)

build-fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_SRC) $(wildcard src/*/*.h) tests/unit/gguf_writer.h
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_LIB_SRC) -o $@ $(JANSSON_LIBS) $(PCRE2_LIBS) $(UTF8PROC_LIBS) -lm

# The phase-0 parsers live with the kit's runner (baseline.c reads /proc and runs tools too).
QUALIFY_FUZZ_SRC := src/qualify/baseline.c src/qualify/run.c
build-fuzz/fuzz_baseline: tests/fuzz/fuzz_baseline.c $(FUZZ_LIB_SRC) $(QUALIFY_FUZZ_SRC) $(wildcard src/*/*.h)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_LIB_SRC) $(QUALIFY_FUZZ_SRC) -o $@ $(JANSSON_LIBS) $(PCRE2_LIBS) $(UTF8PROC_LIBS) -lm

# The server's request parser, with the sampler's range checks and the schema compiler it calls.
API_FUZZ_SRC := src/server/openai.c src/server/openai_chat.c src/server/openai_embeddings.c src/server/tools.c src/engine/sampler.c src/engine/json_schema.c src/engine/json_constraint.c
build-fuzz/fuzz_api_request: tests/fuzz/fuzz_api_request.c $(FUZZ_LIB_SRC) $(API_FUZZ_SRC) $(wildcard src/*/*.h)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_LIB_SRC) $(API_FUZZ_SRC) -o $@ $(JANSSON_LIBS) $(PCRE2_LIBS) $(UTF8PROC_LIBS) -lm

build-fuzz/make_seeds: tests/fuzz/make_seeds.c $(FUZZ_LIB_SRC) tests/unit/gguf_writer.h
	@mkdir -p build-fuzz
	$(CC) -O1 -std=c11 -D_GNU_SOURCE -Isrc -Itests $(JANSSON_CFLAGS) -DMX_IREE_VERSION='"$(MLXCEL_IREE_VERSION)"' \
	  $< $(FUZZ_LIB_SRC) -o $@ $(JANSSON_LIBS) $(PCRE2_LIBS) $(UTF8PROC_LIBS) -lm

fuzz: $(FUZZ_TARGETS:%=build-fuzz/%) build-fuzz/make_seeds

# Runs every fuzzer for FUZZ_SECONDS from its seed corpus; findings (crash-*) land in build-fuzz/.
fuzz-run: fuzz
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf build build-asan build-bundle build-fuzz
