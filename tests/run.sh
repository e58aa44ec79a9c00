#!/usr/bin/env bash
# The lab's test harness: host unit tests beside every boot of tests/boots
# on each kernel variant given, then one closing "N passed, N failed".
#
#   tests/run.sh [VARIANT ...]        default: stock lsm debian
#
# A boots file's line is: variants, name, kernel command line ("-" for
# none; words between spaces), guest tests; @LSM_DEFAULT@ in the command
# line is the lab's default LSM set (scripts/lsm-default), expanded before anything else
# sees the line, so that a boot's key is that of the line written out.
#
# Environment: BOOTS=files (default tests/boots), LIKE=variant to run the
# boots listed for that variant too (check-debug runs lsm's on debug),
# THEN=test to add a test at the end of every boot, ONLY=name[,name] to run
# only those boots, JOBS guests at a time (default: one a core and one
# more), TIMEOUT per boot (default 900 s), ACCEL (tcg|kvm),
# INITRD (default build/initramfs.cpio: a copy keeps a long run apart
# from rebuilds),
# LIST=1 to print the boots and stop, HOST_TESTS=0 to skip host tests,
# FRESH=1 to run even the stages an unchanged input lets it skip:
#
# a stage (the host tests, or one boot) whose inputs are those of its last
# passing run is not run again; its TAP is read back from $RESULTS
# (default build/test-results) and counted, and the closing line says how
# many boots were reused.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(stock lsm debian)
read -r -a boots <<<"${BOOTS:-tests/boots}"
lsm_default=$(scripts/lsm-default) || exit 1
results=${RESULTS:-build/test-results}
mkdir -p "$results"
passed=0 failed=0
failures=() built=()

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "not ok - $1"; }

# Fold a TAP stream into the totals, each line prefixed with where it ran.
tally() {
	local where=$1 line
	local re='^(not )?ok( [0-9]+)? - (.*)$'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			if [ -z "${BASH_REMATCH[1]}" ]; then
				pass "$where: ${BASH_REMATCH[3]}"
			else
				fail "$where: ${BASH_REMATCH[3]}"
			fi
		elif [[ $line == "# "* ]]; then
			echo "#   $where: ${line#\# }"
		fi
	done
}

# A stage's inputs as one key: a hash over the hashes of the files given
# (a missing file hashes as its name), QEMU's version and the strings given.
qemu_version=$(qemu-system-x86_64 --version 2>/dev/null | head -n1)
# Each file is hashed once (cache_digest runs in this shell, so that the
# subshells of inputs_key see the cache).
declare -A file_digests=()
cache_digest() {
	[ -n "${file_digests[$1]:-}" ] ||
		file_digests[$1]=$( (sha256sum 2>/dev/null <"$1" || echo "missing $1") | cut -d' ' -f1)
}
file_digest() {
	cache_digest "$1"
	echo "${file_digests[$1]}"
}
inputs_key() { # inputs_key FILE... -- STRING...
	local files=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$1"); shift; done
	shift
	{
		for f in "${files[@]}"; do file_digest "$f"; done
		printf '%s\n' "$qemu_version" "$@"
	} | sha256sum | cut -d' ' -f1
}
# unchanged STAGE KEY: STAGE last passed with these very inputs.
unchanged() {
	[ "${FRESH:-0}" != 1 ] && [ "$(cat "$results/$1.key" 2>/dev/null)" = "$2" ]
}
initrd=${INITRD:-build/initramfs.cpio}
cache_digest "$initrd"
cache_digest tests/vm/run-vm.sh
reused=0

# (LIST=1 only lists the boots: it runs nothing)
host_stage=0
if [ "${HOST_TESTS:-1}" = 1 ] && [ "${LIST:-0}" != 1 ]; then
	# Every file of the tree (tracked or not, unless ignored), the BTF the
	# BPF objects are built against, and what harness.sh boots.
	tree_digest=$(git ls-files -co --exclude-standard -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
	cache_digest build/kernel/stock/bzImage
	host_key=$(inputs_key build/bpf/vmlinux.h build/kernel/stock/bzImage "$initrd" -- "$tree_digest")
	host_stage=1
fi
# The host tests, one after another, each's output and status in $results.
host_tests() {
	local t out
	for t in tests/host/*.sh; do
		[ -x "$t" ] || continue
		out=$results/$(basename "$t").out
		"$t" >"$out" 2>&1
		echo $? >"$out.rc"
	done
}
# Their results folded into the totals, after they ran (or reused).
host_tally() {
	local t name out rc failed_before=$failed
	if unchanged host "$host_key"; then
		echo "# host tests: inputs unchanged since they last passed, results reused"
	else
		echo "# host tests"
	fi
	for t in tests/host/*.sh; do
		[ -x "$t" ] || continue
		name=host/$(basename "$t" .sh)
		out=$results/$(basename "$t").out
		tally "$name" <"$out"
		unchanged host "$host_key" && continue
		rc=$(cat "$out.rc" 2>/dev/null || echo 67)
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out"; then
			fail "$name: exited with status $rc"
		fi
	done
	[ "$failed" -eq "$failed_before" ] && echo "$host_key" >"$results/host.key"
}

# One boot: its TAP, stderr, console log, exit status and time in
# $results, named VARIANT-NAME. An append of "-" is the kernel's own
# default (debian: no lsm=).
boot() {
	local v=$1 name=$2 append=$3 tests=$4 t0 rc
	t0=$(date +%s)
	local initrd=$initrd
	[ "$append" = - ] && append=
	# A downloaded kernel's modules (kernel/debian.sh) follow the initramfs.
	if [ -r "build/kernel/$v/modules.cpio" ]; then
		cat "$initrd" "build/kernel/$v/modules.cpio" >"$results/$v-$name.cpio"
		initrd=$results/$v-$name.cpio
	fi
	tests/vm/run-vm.sh -q -k "build/kernel/$v/bzImage" -i "$initrd" \
		-l "$results/$v-$name.log" -t "${TIMEOUT:-900}" -- \
		"$append" "lab.variant=$v" "lab.tests=$tests" \
		>"$results/$v-$name.tap" 2>"$results/$v-$name.err"
	rc=$?
	rm -f "$results/$v-$name.cpio"
	echo "$rc $(($(date +%s) - t0))" >"$results/$v-$name.rc"
}

# The boots to run: each line of the boots file on each variant it names,
# a line's variants side by side (the file lists the long boots first).
mapfile -t lines < <(cat "${boots[@]}")
for v in "${variants[@]}"; do
	# LIST=1 lists a variant's boots even before its kernel is built.
	if [ ! -r "build/kernel/$v/bzImage" ] && [ "${LIST:-0}" != 1 ]; then
		fail "$v: no kernel at build/kernel/$v/bzImage (make kernel-$v)"
		continue
	fi
	cache_digest "build/kernel/$v/bzImage"
	# a downloaded kernel's modules (and so its package version) too
	cache_digest "build/kernel/$v/modules.cpio"
	built+=("$v")
done
todo=()
for line in "${lines[@]}"; do
	# the tests are the last field; the command line, all between
	read -r vs name append <<<"$line"
	case $vs in '' | '#'*) continue ;; esac
	tests=${append##*[[:space:]]}
	append=${append%[[:space:]]*}
	append=${append%"${append##*[![:space:]]}"}
	append=${append//@LSM_DEFAULT@/$lsm_default}
	for v in "${built[@]}"; do
		[[ ",$vs," == *",$v,"* || ",$vs," == *",${LIKE:-$v},"* ]] || continue
		[ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$name,"* ]] || continue
		t=$tests
		[ -z "${THEN:-}" ] || t+=,$THEN
		key=$(inputs_key "build/kernel/$v/bzImage" "build/kernel/$v/modules.cpio" "$initrd" \
			tests/vm/run-vm.sh -- \
			"$append" "$t" "${ACCEL:-tcg}")
		todo+=("$key $v $name $t $append")
	done
done

if [ "${LIST:-0}" = 1 ]; then
	for b in "${todo[@]}"; do
		read -r key v name tests append <<<"$b"
		printf '%s/%s %s lab.tests=%s\n' "$v" "$name" "$append" "$tests"
	done
	exit 0
fi

# Independent guests, JOBS at a time (one a core and one more: each guest
# has one CPU, and sits idle a fifth of its time or more, waiting out the
# RCU grace periods of every BPF trampoline taken down; run-tests says how
# long each test idled), the host tests beside them; each one's output is
# kept apart and read in order afterwards. The longest run first: the
# order of the last run's times when every boot has one, else the boots
# file's (long boots first).
jobs=${JOBS:-$(($(nproc) + 1))}
order=()
for b in "${todo[@]}"; do
	read -r key v name tests append <<<"$b"
	secs=
	[ -r "$results/$v-$name.rc" ] && read -r _ secs <"$results/$v-$name.rc"
	[[ $secs =~ ^[0-9]+$ ]] || { order=(); break; }
	order+=("$secs ${#order[@]}")
done
if [ ${#order[@]} -eq ${#todo[@]} ] && [ ${#order[@]} -gt 0 ]; then
	mapfile -t order < <(printf '%s\n' "${order[@]}" | sort -k1,1nr -k2,2n | cut -d' ' -f2)
else
	mapfile -t order < <(seq 0 $((${#todo[@]} - 1)))
fi
echo "# ${#todo[@]} boot(s), $jobs at a time"
if [ "$host_stage" = 1 ] && ! unchanged host "$host_key"; then
	rm -f "$results/host.key"
	host_tests &
fi
for i in "${order[@]}"; do
	[ -n "$i" ] || continue
	read -r key v name tests append <<<"${todo[$i]}"
	unchanged "$v-$name" "$key" && continue
	rm -f "$results/$v-$name.rc" "$results/$v-$name.key"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	boot "$v" "$name" "$append" "$tests" &
done
wait
[ "$host_stage" = 1 ] && host_tally

for b in "${todo[@]}"; do
	read -r key v name tests append <<<"$b"
	where=$v/$name
	echo "# boot $where: $append"
	failed_before=$failed
	tally "$where" <"$results/$v-$name.tap"
	read -r rc secs <"$results/$v-$name.rc" || rc=67 secs=?
	if [ -f "$results/$v-$name.key" ]; then
		reused=$((reused + 1))
		echo "#   $where: inputs unchanged since it passed in ${secs}s, not booted again"
		continue
	fi
	case $rc in
	0)
		echo "#   $where: booted and passed in ${secs}s"
		[ "$failed" -eq "$failed_before" ] && echo "$key" >"$results/$v-$name.key"
		;;
	64 | 65 | 66 | 67)
		fail "$where: $(grep -m1 -E 'PANIC|HANG|WITHOUT|error' "$results/$v-$name.err" | sed 's/^vm: //')"
		# where it stopped, for a reader who has only this output (CI)
		echo "#   $where: the console's last lines:"
		tail -n 100 "$results/$v-$name.log" | sed "s|^|#   $where\| |"
		;;
	*) grep -q '^not ok' "$results/$v-$name.tap" ||
		fail "$where: guest exited with status $rc but reported no failure" ;;
	esac
done

if [ "$failed" -gt 0 ]; then
	echo "# failures:"
	printf '#   %s\n' "${failures[@]}"
fi
if [ "$reused" -gt 0 ]; then
	echo "$passed passed, $failed failed ($reused of ${#todo[@]} boots reused: inputs unchanged; FRESH=1 runs them)"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
