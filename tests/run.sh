#!/usr/bin/env bash
# The lab's test harness: host unit tests, then every boot of tests/boots
# on each kernel variant given, then one closing "N passed, N failed".
#
#   tests/run.sh [VARIANT ...]        default: stock lsm debian
#
# Environment: BOOTS=file (default tests/boots), ONLY=name[,name] to run
# only those boots, JOBS guests at a time (default: one a core), TIMEOUT
# per boot (default 600 s), ACCEL (tcg|kvm),
# INITRD (default build/initramfs.cpio: a copy keeps a long run apart
# from rebuilds),
# HOST_TESTS=0 to skip host tests.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(stock lsm debian)
boots=${BOOTS:-tests/boots}
results=${RESULTS:-build/test-results}
mkdir -p "$results"
passed=0 failed=0
failures=()

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

if [ "${HOST_TESTS:-1}" = 1 ]; then
	echo "# host tests"
	for t in tests/host/*.sh; do
		[ -x "$t" ] || continue
		name=host/$(basename "$t" .sh)
		"$t" >"$results/$(basename "$t").out" 2>&1
		rc=$?
		tally "$name" <"$results/$(basename "$t").out"
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$results/$(basename "$t").out"; then
			fail "$name: exited with status $rc"
		fi
	done
fi

# One boot: its TAP, stderr, console log, exit status and time in
# $results, named VARIANT-NAME. An append of "-" is the kernel's own
# default (debian: no lsm=).
boot() {
	local v=$1 name=$2 append=$3 tests=$4 t0 rc initrd=${INITRD:-build/initramfs.cpio}
	t0=$(date +%s)
	[ "$append" = - ] && append=
	# A downloaded kernel's modules (kernel/debian.sh) follow the initramfs.
	if [ -r "build/kernel/$v/modules.cpio" ]; then
		cat "$initrd" "build/kernel/$v/modules.cpio" >"$results/$v-$name.cpio"
		initrd=$results/$v-$name.cpio
	fi
	tests/vm/run-vm.sh -q -k "build/kernel/$v/bzImage" -i "$initrd" \
		-l "$results/$v-$name.log" -t "${TIMEOUT:-600}" -- \
		"$append" "lab.variant=$v" "lab.tests=$tests" \
		>"$results/$v-$name.tap" 2>"$results/$v-$name.err"
	rc=$?
	rm -f "$results/$v-$name.cpio"
	echo "$rc $(($(date +%s) - t0))" >"$results/$v-$name.rc"
}

# The boots to run, in the order of the boots file and the variants.
todo=()
for v in "${variants[@]}"; do
	if [ ! -r "build/kernel/$v/bzImage" ]; then
		fail "$v: no kernel at build/kernel/$v/bzImage (make kernel-$v)"
		continue
	fi
	while read -r vs name append tests; do
		case $vs in '' | '#'*) continue ;; esac
		[[ ",$vs," == *",$v,"* ]] || continue
		[ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$name,"* ]] || continue
		todo+=("$v $name $append $tests")
	done <"$boots"
done

# Independent guests, JOBS at a time (one a core: each guest has one
# CPU); each boot's output is kept apart and read in order afterwards.
jobs=${JOBS:-$(nproc)}
echo "# ${#todo[@]} boot(s), $jobs at a time"
for b in "${todo[@]}"; do
	read -r v name append tests <<<"$b"
	rm -f "$results/$v-$name.rc"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	boot "$v" "$name" "$append" "$tests" &
done
wait

for b in "${todo[@]}"; do
	read -r v name append tests <<<"$b"
	where=$v/$name
	echo "# boot $where: $append"
	tally "$where" <"$results/$v-$name.tap"
	read -r rc secs <"$results/$v-$name.rc" || rc=67 secs=?
	case $rc in
	0) echo "#   $where: booted and passed in ${secs}s" ;;
	64 | 65 | 66 | 67) fail "$where: $(grep -m1 -E 'PANIC|HANG|WITHOUT|error' "$results/$v-$name.err" | sed 's/^vm: //')" ;;
	*) grep -q '^not ok' "$results/$v-$name.tap" ||
		fail "$where: guest exited with status $rc but reported no failure" ;;
	esac
done

if [ "$failed" -gt 0 ]; then
	echo "# failures:"
	printf '#   %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
