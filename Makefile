# Thin wrapper over meson/ninja.  `make run` and `make check` set everything up
# on a fresh Debian 12 machine (see README.rst).
BUILD ?= build
NINJA ?= ninja

.PHONY: all deps run check check-unit bench install clean distclean sanitize-check tsan-check isa-doc vendor-names examples clang-check \
	fuzz fuzz-smoke format-check

all: $(BUILD)/build.ninja
	$(NINJA) -C $(BUILD)

deps:
	@sh scripts/deps.sh

$(BUILD)/build.ninja:
	@sh scripts/deps.sh
	./configure --builddir=$(BUILD)

run: deps all
	$(BUILD)/nxemu -nographic -kernel $(BUILD)/pc-bios/demo.elf

check: deps all
	meson test -C $(BUILD) --print-errorlogs --num-processes 2
	@python3 scripts/test-summary.py $(BUILD)

# The same tests in a sanitizer build (CI job).
sanitize-check: deps
	@[ -f build-san/build.ninja ] || ./configure --builddir=build-san --enable-sanitizers --disable-sdl
	$(NINJA) -C build-san
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C build-san --print-errorlogs --num-processes 2
	@python3 scripts/test-summary.py build-san

# ThreadSanitizer (issue 37): the TPC threads' tests (suite threads) built with
# -fsanitize=thread; a report fails the test (halt_on_error).  The pool's
# hand-over (softmmu/sched-threads.c) is C11 atomics and pthread mutexes and
# condition variables, which TSan sees (GLib's GMutex/GCond it does not).
tsan-check: deps
	@[ -f build-tsan/build.ninja ] || CFLAGS=-fsanitize=thread LDFLAGS=-fsanitize=thread \
	  ./configure --builddir=build-tsan --disable-sdl
	$(NINJA) -C build-tsan tools/nxemu-as tools/nxemu-tpc-run pc-bios/launcher.elf
	TSAN_OPTIONS=halt_on_error=1:exitcode=66:suppressions=$(CURDIR)/scripts/tsan.supp \
	  meson test -C build-tsan --no-rebuild --print-errorlogs --suite threads \
	  --timeout-multiplier 4

# Regenerate the TPC ISA reference from the instruction tables (docs/isa/).
isa-doc: all
	$(BUILD)/tools/nxemu-isa-doc docs/isa

# Rebuild the images under examples/ from their sources.
examples: all
	$(BUILD)/tools/nxemu-as -o examples/prog.elf examples/prog.s
	$(BUILD)/tools/nxemu-as --raw -o examples/prog.bin examples/prog.s
	for s in examples/images/*.s; do $(BUILD)/tools/nxemu-as -o $${s%.s}.elf $$s || exit 1; done

# Regenerate docs/vendor-names.rst (AWS opcode names, Habana intrinsics) from the
# tables and the vendor header beside the clone.
vendor-names: isa-doc
	python3 scripts/gen-vendor-names.py . ../shared/vendor/habana-custom-kernel/doc/tpc-intrinsics.h \
	  > docs/vendor-names.rst.tmp && mv docs/vendor-names.rst.tmp docs/vendor-names.rst

# The house style (.clang-format) on the lines changed since the merge base
# with main (on main: since the last commit), CI job; `git clang-format BASE`
# fixes what it reports (docs/architecture.rst, "Conventions").
format-check:
	@sh scripts/deps.sh clang-format
	sh scripts/check-format.sh

# The tree must also build with clang -Werror (CI job): build, then the tests.
# -march=native: the same leg runs the code the compiler vectorises for the
# host's widest units (aligned 64-byte moves on the TPC's vector state).
clang-check:
	@sh scripts/deps.sh clang
	@[ -f build-clang/build.ninja ] || CC=clang CFLAGS=-march=native ./configure --builddir=build-clang --disable-sdl
	$(NINJA) -C build-clang
	meson test -C build-clang --print-errorlogs --num-processes 2
	@python3 scripts/test-summary.py build-clang

# libFuzzer targets (docs/fuzzing.rst): `make fuzz` builds them in build-fuzz;
# `make fuzz-smoke` (CI job) runs each over its corpus for FUZZ_TIME seconds
# and fails on any crash, leak, timeout or sanitizer report.
FUZZ_TARGETS = loader dtb seq tpc gdb asm manifest mmio
FUZZ_TIME ?= 30
fuzz:
	@sh scripts/deps.sh clang libclang-rt-14-dev
	@[ -f build-fuzz/build.ninja ] || ./configure --builddir=build-fuzz --enable-fuzzing --disable-sdl
	$(NINJA) -C build-fuzz $(addprefix tests/fuzz/fuzz-,$(FUZZ_TARGETS))

fuzz-smoke: fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
	  d=$$(mktemp -d); dict=; \
	  case $$t in loader) dict=elf;; dtb) dict=fdt;; gdb|asm|manifest) dict=$$t;; esac; \
	  echo "== fuzz-$$t ($(FUZZ_TIME) s)"; \
	  build-fuzz/tests/fuzz/fuzz-$$t -max_total_time=$(FUZZ_TIME) -timeout=10 -close_fd_mask=3 \
	    -print_final_stats=1 -artifact_prefix=build-fuzz/fuzz-$$t- \
	    $${dict:+-dict=tests/fuzz/dict/$$dict.dict} $$d tests/fuzz/corpus/$$t \
	    > build-fuzz/fuzz-$$t.log 2>&1 || { tail -60 build-fuzz/fuzz-$$t.log; rm -rf $$d; exit 1; }; \
	  grep -E '^#[0-9]+.*(DONE|cov:)' build-fuzz/fuzz-$$t.log | tail -1; \
	  rm -rf $$d; \
	done

bench: all
	@for b in bench/*.sh; do echo "== $$b"; sh $$b $(BUILD) || exit 1; done

install: all
	meson install -C $(BUILD)

clean:
	-$(NINJA) -C $(BUILD) clean

distclean:
	rm -rf $(BUILD) build-san build-clang build-fuzz
