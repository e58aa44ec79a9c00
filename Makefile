# The lab's top-level build: kernels, BPF programs, guest binaries, the
# initramfs, and the tests and demo that boot them in QEMU.
#
#   make demo     build, boot, confine a shell with lsmctl
#   make check    all tests (host unit tests and guest tests on each kernel)
#   make help     the other targets

SHELL := /bin/bash
BUILD := build
KBUILD := $(BUILD)/kernel
VARIANTS ?= stock lsm debian
# The kernel whose BTF the BPF programs' vmlinux.h is dumped from (CO-RE
# relocates them against the booted kernel's BTF at load time): Debian's,
# which is downloaded, so that lsmctl needs no kernel build; make check
# loads the same objects on stock, lsm and debian.
BTF_VARIANT ?= debian
# The lab's default LSM set, the lsm= line of make demo and of the boots
# and benchmarks that say "the default set": its kernels' CONFIG_LSM
# (scripts/lsm-default reads it from kernel/config/lab.config).
LSM_DEFAULT := $(shell scripts/lsm-default)

CC := gcc
CLANG ?= clang
BPFTOOL ?= bpftool
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror
GUEST_LDLIBS := -static -lbpf -lelf -lz -lzstd

BPF_SRCS := $(wildcard bpf-progs/*/*.bpf.c)
BPF_OBJS := $(patsubst %.bpf.c,$(BUILD)/bpf/%.bpf.o,$(notdir $(BPF_SRCS)))
BPF_SKELS := $(BPF_OBJS:.bpf.o=.skel.h)
# Guest tests: one binary a tests/guest/src/*.c, and escapes from its
# folder's files (one attack surface a file); each linked with the
# guest test library, tests/guest/lib/lab_test.c.
GUEST_TEST_SRCS := $(wildcard tests/guest/src/*.c)
ESCAPES_SRCS := $(wildcard tests/guest/src/escapes/*.c)
GUEST_TESTS := $(patsubst tests/guest/src/%.c,$(BUILD)/guest/tests/%,$(GUEST_TEST_SRCS)) \
	$(BUILD)/guest/tests/escapes
GUEST_LIB := tests/guest/lib/lab_test.c
GUEST_LIB_DEPS := $(GUEST_LIB) tests/guest/lib/lab_test.h
GUEST_BIN_SRCS := $(wildcard bench/src/*.c demo/*.c)
GUEST_BINS := $(patsubst %.c,$(BUILD)/guest/bin/%,$(notdir $(GUEST_BIN_SRCS))) $(BUILD)/guest/bin/lsmctl
INITRAMFS := $(BUILD)/initramfs.cpio
# Debian's iptables and nft go in the guest (net-config), with the
# iptables extensions they load by name (not in ldd's list).
XTABLES_DIR := /usr/lib/$(shell gcc -print-multiarch)/xtables
# Policies the LSM guest tests load, compiled on the host and never
# loaded into it: AppArmor profiles (apparmor_parser -Q against the 6.1
# guest's feature set, dumped from its /sys/kernel/security/apparmor/
# features), and SELinux's dummy MLS policy from the kernel tree's mdp
# generator, built standalone (kconfig from the lsm kernel's O= folder).
AA_FEATURES := tests/guest/apparmor/features-6.1
AA_POLICIES := $(patsubst tests/guest/apparmor/%.profile,$(BUILD)/guest/apparmor/%.bin,\
	$(wildcard tests/guest/apparmor/*.profile))
KSRC := $(KBUILD)/linux
MDP := $(BUILD)/guest/mdp
SELINUX_POLICY := $(BUILD)/guest/selinux/policy.33
# The benchmark's equivalent rule set for AppArmor and SELinux
# (bench/policies/), compiled the same way; the guest has them in
# /lab/bench/build.
BENCH_POLICIES := $(BUILD)/guest/bench/opbench.aa.bin $(BUILD)/guest/bench/selinux-policy.33
GUEST_POLICIES := $(AA_POLICIES) $(SELINUX_POLICY) $(BENCH_POLICIES)
# The ACPI table the *-early kernels install from the initrd unless
# lockdown refuses (tests/guest/tests/acpi-lockdown.sh).
ACPI_TABLE := $(BUILD)/guest/acpi/lab-ssdt.aml
# The kernel tree's Landlock kselftests, built static and run unmodified
# in the guest (tests/guest/tests/landlock-kselftests.sh), against the
# uapi headers of Debian's 6.1 (linux-libc-dev).
LANDLOCK_KSFT := $(addprefix $(BUILD)/guest/landlock/,base_test fs_test ptrace_test true \
	expected-skips)
# The kernel tree's BPF selftests runner, test_progs, pruned to the BPF
# LSM's tests, built static against the tree's libbpf and bpftool and the
# lsm kernel's BTF (tests/guest/test_progs/build.py), run unmodified in
# the guest (tests/guest/tests/bpf-selftests.sh).
# lsm_cgroup's programs read the kernel's config (libbpf's __kconfig),
# which the lab's kernels do not carry in /proc: each kernel's goes along.
TEST_PROGS := $(addprefix $(BUILD)/guest/test_progs/,test_progs expected-skips \
	config-stock config-lsm)

vpath %.bpf.c $(sort $(dir $(BPF_SRCS)))

.PHONY: all help deps deps-lsmctl kernels bpf guest initramfs loader lsmctl install uninstall fuzz fuzz-draft fuzz-broker check \
	host-test check-full check-debug check-load check-userland deps-userland checkpatch bench bench-quick \
	demo vm clean distclean FORCE
.DELETE_ON_ERROR:

## all           kernels, bpf, guest, initramfs and loader: what check and demo build first
all: kernels bpf guest initramfs loader

help:
	@sed -n 's/^## //p' Makefile

## deps          install the Debian packages the lab needs (apt-get)
deps: $(BUILD)/.deps
$(BUILD)/.deps: scripts/deps.sh
	@scripts/deps.sh
	@mkdir -p $(BUILD) && touch $@
# what lsmctl alone needs (make lsmctl): no QEMU, AppArmor tools, gnuplot
deps-lsmctl: $(BUILD)/.deps-lsmctl
$(BUILD)/.deps-lsmctl: scripts/deps.sh
	@scripts/deps.sh lsmctl
	@mkdir -p $(BUILD) && touch $@

# what make check-userland adds: mmdebstrap for its Debian image
deps-userland: $(BUILD)/.deps-userland
$(BUILD)/.deps-userland: scripts/deps.sh
	@scripts/deps.sh userland
	@mkdir -p $(BUILD) && touch $@

## kernels       build the kernel variants in VARIANTS (default: stock lsm debian)
kernels: $(foreach v,$(VARIANTS),$(KBUILD)/$(v)/bzImage)
## kernel-V      build one variant: stock, lsm, nosec, nofix, stock-early or lsm-early; debian is downloaded
kernel-%: $(KBUILD)/%/bzImage ;
# kernel/build.sh decides whether anything changed; make then sees
# whether the outputs' mtimes moved.
$(KBUILD)/%/bzImage $(KBUILD)/%/vmlinux: FORCE | deps
	@kernel/build.sh $*
# Debian 12's own kernel: fetched and unpacked (kernel/debian.sh), never
# built; its modules.cpio follows the initramfs in its boots.
$(KBUILD)/debian/bzImage $(KBUILD)/debian/vmlinux $(KBUILD)/debian/modules.cpio &: FORCE | deps-lsmctl
	@kernel/debian.sh $(KBUILD)/debian
FORCE:

## bpf           BPF objects and skeletons, CO-RE against vmlinux.h
bpf: $(BPF_OBJS) $(BPF_SKELS)
$(BUILD)/bpf/vmlinux.h: $(KBUILD)/$(BTF_VARIANT)/vmlinux
	@mkdir -p $(@D)
	@echo "  BTF     $@ (from $(BTF_VARIANT))"
	@$(BPFTOOL) btf dump file $< format c >$@
$(BUILD)/bpf/%.bpf.o: %.bpf.c $(BUILD)/bpf/vmlinux.h $(wildcard bpf-progs/*/*.h)
	@echo "  CLANG   $@"
	@$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		-I$(BUILD)/bpf -c $< -o $@
$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@echo "  SKEL    $@"
	@$(BPFTOOL) gen skeleton $< name $* >$@

## guest         static guest binaries (tests, the benchmark) and LSM policies
guest: $(GUEST_TESTS) $(GUEST_BINS) $(GUEST_POLICIES) $(ACPI_TABLE) $(LANDLOCK_KSFT) \
	$(TEST_PROGS)
# The tree is unpacked by the first kernel build, after make has read
# build/kernel into its directory cache: naming the sources as targets
# made by that build keeps a cold make from deciding they do not exist.
LANDLOCK_SRCS := $(patsubst %,$(KSRC)/tools/testing/selftests/landlock/%.c,base_test fs_test \
	ptrace_test true)
$(LANDLOCK_SRCS): | $(KBUILD)/stock/bzImage ;
$(BUILD)/guest/landlock/%: $(KSRC)/tools/testing/selftests/landlock/%.c
	@mkdir -p $(@D)
	@echo "  KSFT    $@"
	@$(CC) -Wall -O2 -static -o $@ $< -lcap
$(BUILD)/guest/landlock/expected-skips: tests/guest/landlock/expected-skips
	@mkdir -p $(@D)
	@cp $< $@
$(BUILD)/guest/test_progs/test_progs: tests/guest/test_progs/build.py $(KBUILD)/lsm/vmlinux
	@echo "  KSFT    $@"
	@python3 $< $(KSRC) $(KBUILD)/lsm/vmlinux $(BUILD)/test_progs $(@D)
$(BUILD)/guest/test_progs/config-%: $(KBUILD)/%/bzImage
	@mkdir -p $(@D)
	@cp $(KBUILD)/$*/.config $@
$(BUILD)/guest/test_progs/expected-skips: tests/guest/test_progs/expected-skips
	@mkdir -p $(@D)
	@cp $< $@
$(ACPI_TABLE): tests/guest/acpi/mkssdt.py
	@mkdir -p $(@D)
	@echo "  ACPI    $@"
	@python3 $< $@
GUEST_CC = @mkdir -p $(@D) && echo "  CC      $@" && \
	$(CC) $(USER_CFLAGS) -I$(BUILD)/bpf -Itests/guest/lib -o $@ $(filter %.c,$^) $(GUEST_LDLIBS)
$(BUILD)/guest/tests/%: tests/guest/src/%.c $(GUEST_LIB_DEPS) $(BPF_SKELS)
	$(GUEST_CC)
$(BUILD)/guest/tests/escapes: $(ESCAPES_SRCS) $(wildcard tests/guest/src/escapes/*.h) \
		$(GUEST_LIB_DEPS)
	$(GUEST_CC)
vpath %.c bench/src demo
$(BUILD)/guest/bin/%: %.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(USER_CFLAGS) -o $@ $< -static
$(BUILD)/guest/apparmor/%.bin: tests/guest/apparmor/%.profile $(AA_FEATURES)
	@mkdir -p $(@D)
	@echo "  AA      $@"
	@apparmor_parser --config-file /dev/null -Q -K -q -M $(AA_FEATURES) -o $@ $<
$(BUILD)/guest/bench/opbench.aa.bin: bench/policies/opbench.apparmor $(AA_FEATURES)
	@mkdir -p $(@D)
	@echo "  AA      $@"
	@apparmor_parser --config-file /dev/null -Q -K -q -M $(AA_FEATURES) -o $@ $<
# mdp's policy, its types joined by bench/policies/selinux.te, base_t's
# process permissions less ptrace, and selinux.contexts at the end.
$(BUILD)/guest/bench/selinux-policy.33: $(MDP)/mdp bench/policies/selinux.te \
		bench/policies/selinux.contexts
	@mkdir -p $(@D) $(MDP)/bench
	@echo "  SELINUX $@"
	@$(MDP)/mdp -m $(MDP)/bench/mdp.conf $(MDP)/bench/file_contexts
	@awk -v te=bench/policies/selinux.te '{ print } \
		$$0 == "role base_r types { base_t };" { while ((getline l < te) > 0) print l; n++ } \
		END { exit n != 1 }' $(MDP)/bench/mdp.conf | \
		sed 's/^allow base_t base_t:process \*;$$/allow base_t base_t:process ~ptrace;/' \
		>$(MDP)/bench/policy.conf
	@grep -q '^allow base_t base_t:process ~ptrace;$$' $(MDP)/bench/policy.conf
	@cat bench/policies/selinux.contexts >>$(MDP)/bench/policy.conf
	@checkpolicy -U allow -M -c 33 -o $@ $(MDP)/bench/policy.conf >/dev/null
$(MDP)/mdp: $(KSRC)/scripts/selinux/mdp/mdp.c
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	@$(CC) -O2 -I$(KSRC)/include/uapi -I$(KSRC)/include \
		-I$(KSRC)/security/selinux/include -I$(KSRC)/out-lsm/include -o $@ $<
$(SELINUX_POLICY): $(MDP)/mdp
	@mkdir -p $(@D)
	@echo "  SELINUX $@"
	@$(MDP)/mdp -m $(MDP)/policy.conf $(MDP)/file_contexts
	@checkpolicy -U allow -M -c 33 -o $@ $(MDP)/policy.conf >/dev/null

## loader        lsmctl, the policy tool (static: the same binary runs in the guest);
##               builds no kernel (vmlinux.h from Debian's, downloaded)
## lsmctl        the same as loader
LOADER_SRCS := $(wildcard loader/*.c)
LOADER_HDRS := $(wildcard loader/*.h) bpf-progs/policy/engine.h bpf-progs/policy/limits.h
loader lsmctl: $(BUILD)/loader/lsmctl
$(BUILD)/loader/lsmctl: $(LOADER_SRCS) $(LOADER_HDRS) $(BUILD)/bpf/policy_cgroup.skel.h \
		$(BUILD)/bpf/policy_global.skel.h $(BUILD)/bpf/guard.skel.h $(BUILD)/bpf/journal.skel.h \
		$(BUILD)/loader/version.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(USER_CFLAGS) -I$(BUILD)/bpf -I$(BUILD)/loader -o $@ $(LOADER_SRCS) \
		$(GUEST_LDLIBS) -lyaml
# lsmctl --version: the last commit that changed its sources (loader/,
# bpf-progs/), "-dirty" when they have changes not committed; rewritten
# only when that changes, so that a commit elsewhere (docs, tests) does
# not rebuild lsmctl, the initramfs and so every boot of make check.
LSMCTL_SRC_DIRS := loader bpf-progs
$(BUILD)/loader/version.h: FORCE
	@mkdir -p $(@D)
	@c=$$(git log -1 --format=%h -- $(LSMCTL_SRC_DIRS) 2>/dev/null); \
		[ -z "$$(git status --porcelain -- $(LSMCTL_SRC_DIRS) 2>/dev/null)" ] || c=$$c-dirty; \
		v="#define LSMCTL_VERSION \"$${c:-unknown}\""; \
		[ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" >$@

## install       lsmctl, its man page and bash completion in $(DESTDIR)$(PREFIX) (default /usr/local)
PREFIX ?= /usr/local
install: $(BUILD)/loader/lsmctl loader/lsmctl.8 loader/lsmctl.bash-completion
	install -D -m 0755 $(BUILD)/loader/lsmctl $(DESTDIR)$(PREFIX)/sbin/lsmctl
	install -D -m 0644 loader/lsmctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/lsmctl.8
	install -D -m 0644 loader/lsmctl.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/lsmctl
## uninstall     remove what install put there
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/lsmctl $(DESTDIR)$(PREFIX)/share/man/man8/lsmctl.8 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/lsmctl
$(BUILD)/guest/bin/lsmctl: $(BUILD)/loader/lsmctl
	@mkdir -p $(@D)
	@cp $< $@

## fuzz          libFuzzer on the policy parser and compiler (ASan+UBSan), RUNS=10000000
RUNS ?= 10000000
fuzz: $(BUILD)/fuzz/fuzz_policy | deps
	@mkdir -p $(BUILD)/fuzz/corpus && cp -n tests/fuzz/corpus/* $(BUILD)/fuzz/corpus/
	@$< -runs=$(RUNS) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
		$(BUILD)/fuzz/corpus 2>&1 | \
		grep -E '^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|==|SUMMARY|fuzz_policy:|artifact_prefix)|runtime error:' ; \
		test $${PIPESTATUS[0]} -eq 0
# libFuzzer targets: clang with ASan and UBSan, libyaml linked static.
FUZZ_CC = $(CLANG) -std=gnu11 -Wall -Wextra -Werror -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_LIBS = -Wl,-Bstatic -lyaml -Wl,-Bdynamic
$(BUILD)/fuzz/fuzz_policy: tests/fuzz/fuzz_policy.c loader/policy.c loader/policy.h \
		loader/compile.c loader/compile.h loader/devices.c loader/devices.h loader/errors.h \
		loader/text.c loader/text.h loader/access.h bpf-progs/policy/engine.h \
		bpf-progs/policy/limits.h
	@mkdir -p $(@D)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) -o $@ tests/fuzz/fuzz_policy.c loader/policy.c loader/compile.c \
		loader/devices.c loader/text.c $(FUZZ_LIBS)

## fuzz-draft    libFuzzer on drafts: hostile names written by draft.c, parsed back exactly
fuzz-draft: $(BUILD)/fuzz/fuzz_draft | deps
	@mkdir -p $(BUILD)/fuzz/corpus-draft && cp -n tests/fuzz/corpus-draft/* $(BUILD)/fuzz/corpus-draft/
	@$< -runs=$(RUNS) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
		$(BUILD)/fuzz/corpus-draft 2>&1 | \
		grep -E '^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|==|SUMMARY|fuzz_draft:|artifact_prefix)|runtime error:' ; \
		test $${PIPESTATUS[0]} -eq 0
$(BUILD)/fuzz/fuzz_draft: tests/fuzz/fuzz_draft.c loader/draft.c loader/draft.h loader/policy.c \
		loader/policy.h loader/utf8.c loader/utf8.h loader/errors.h loader/access.h \
		bpf-progs/policy/limits.h
	@mkdir -p $(@D)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) -o $@ tests/fuzz/fuzz_draft.c loader/draft.c loader/policy.c loader/utf8.c $(FUZZ_LIBS)

## fuzz-broker   libFuzzer on the broker's request parser: refused, or written back the same
fuzz-broker: $(BUILD)/fuzz/fuzz_broker | deps
	@mkdir -p $(BUILD)/fuzz/corpus-broker && cp -n tests/fuzz/corpus-broker/* $(BUILD)/fuzz/corpus-broker/
	@$< -runs=$(RUNS) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
		$(BUILD)/fuzz/corpus-broker 2>&1 | \
		grep -E '^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|==|SUMMARY|fuzz_broker:|artifact_prefix)|runtime error:' ; \
		test $${PIPESTATUS[0]} -eq 0
$(BUILD)/fuzz/fuzz_broker: tests/fuzz/fuzz_broker.c loader/broker_proto.c loader/broker_proto.h \
		loader/errors.h
	@mkdir -p $(@D)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) -o $@ tests/fuzz/fuzz_broker.c loader/broker_proto.c

## initramfs     busybox + the lab's guest files, for every kernel
initramfs: $(INITRAMFS)
$(INITRAMFS): tests/vm/mkinitramfs.sh tests/guest/init \
		$(wildcard tests/guest/lib/* tests/guest/tests/* tests/guest/tomoyo/* demo/* loader/examples/*) \
		$(wildcard bench/guest/* bench/policies/*) \
		$(GUEST_TESTS) $(GUEST_BINS) $(GUEST_POLICIES) $(BPF_OBJS) $(ACPI_TABLE) \
		$(LANDLOCK_KSFT) $(TEST_PROGS)
	@tests/vm/mkinitramfs.sh $@ $(BUILD)/guest/tests=lab/tests \
		$(BUILD)/guest/bin=lab/bin $(BUILD)/bpf=lab/bpf +bpftool +mkreiserfs \
		+iptables-nft +iptables-legacy +nft +bwrap $(XTABLES_DIR)=$(XTABLES_DIR) \
		$(BUILD)/guest/acpi=kernel/firmware/acpi $(BUILD)/guest/landlock=lab/landlock \
		$(BUILD)/guest/test_progs=lab/test_progs \
		$(BUILD)/guest/apparmor=lab/apparmor $(BUILD)/guest/selinux=lab/selinux \
		tests/guest/tomoyo=lab/tomoyo demo=lab/demo loader/examples=lab/examples \
		bench/guest=lab/bench/guest bench/policies=lab/bench/policies \
		$(BUILD)/guest/bench=lab/bench/build

## check         all tests: host unit tests, then guest tests on each kernel
check: deps all
	@tests/run.sh $(VARIANTS)

## check-full    check, and the boots tests/boots-full adds (the long suites on stock, and on lsm's global backend)
check-full: deps all
	@BOOTS="tests/boots tests/boots-full" tests/run.sh $(VARIANTS)

## host-test     the host tests alone (tests/host/*.sh), no boot of tests/boots
host-test: deps bpf guest initramfs loader
	@BOOTS=/dev/null tests/run.sh stock

## check-debug   every lsm boot on the debug kernel (KASAN, lockdep, kmemleak; about 70 min)
check-debug: deps all $(KBUILD)/debug/bzImage
	@HOST_TESTS=0 BOOTS="tests/boots tests/boots-debug" LIKE=lsm THEN=kernel-clean \
		TIMEOUT=3600 tests/run.sh debug

## check-userland  learn, check, apply and rerun real programs (nginx under systemd, git,
##               python3, curl, a /proc reader) in a Debian 12 image on Debian's kernel
check-userland: deps deps-userland $(KBUILD)/debian/bzImage loader
	@tests/userland/run.sh $(TESTS)

## check-load    the load and fault tests at full counts on lsm (about 30 min)
check-load: deps all
	@HOST_TESTS=0 BOOTS=tests/boots-load TIMEOUT=5400 tests/run.sh lsm

## checkpatch    scripts/checkpatch.pl --strict on kernel/patches, run from the tree
# (the patches are made with diff.suppressBlankEmpty, so that checkpatch run
# from this repository, which takes tracked .patch files for source files,
# finds no trailing space on blank context lines either).
checkpatch: $(KBUILD)/stock/bzImage
	@cd $(KBUILD)/linux && for p in $(abspath $(wildcard kernel/patches/*.patch)); do \
		echo "$$(basename $$p): $$(scripts/checkpatch.pl --no-tree --strict --terse $$p | tail -n 1)"; \
	done

## demo          boot the lsm kernel and confine a shell with lsmctl (README's example)
demo: deps all
	@tests/vm/run-vm.sh -q -k $(KBUILD)/lsm/bzImage -i $(INITRAMFS) \
		-- lsm=$(LSM_DEFAULT) lab.variant=lsm lab.run=/lab/demo/demo.sh

## bench-quick   nosec/stock/lsm, default LSM set, and debian: open+close, pipe, socket; lsm_cgroup outside/inside on stock and lsm (results/)
bench-quick: deps all $(KBUILD)/nosec/bzImage
	@bench/run.sh quick
## bench         the full matrix (results/; the kept run took 71 min, bench/README.md): kernels x LSM sets x mitigations,
##               one rule set on every backend, BPF rule and cgroup counts, debian with
##               its own LSMs and the rule set on BPF and AppArmor, indirect calls
bench: deps all $(KBUILD)/nosec/bzImage
	@bench/run.sh full

## vm            interactive shell in a guest (V=stock|lsm|debian, APPEND="lsm=...")
V ?= lsm
vm: deps all
	@tests/vm/run-vm.sh -s -k $(KBUILD)/$(V)/bzImage -i $(INITRAMFS) -- $(APPEND)

## clean         remove the lab's build outputs but keep the kernel tree
clean:
	rm -rf $(BUILD)/bpf $(BUILD)/guest $(INITRAMFS)
## distclean     remove everything built, kernel tree included
distclean:
	rm -rf $(BUILD)
