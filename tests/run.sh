#!/usr/bin/env bash
# The lab's test harness: host unit tests, then every boot of tests/boots
# on each kernel variant given, then one closing "N passed, N failed".
#
#   tests/run.sh [VARIANT ...]        default: stock lsm
#
# Environment: BOOTS=file (default tests/boots), ONLY=name[,name] to run
# only those boots, TIMEOUT per boot (default 600 s), ACCEL (tcg|kvm),
# INITRD (default build/initramfs.cpio: a copy keeps a long run apart
# from rebuilds),
# HOST_TESTS=0 to skip host tests.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(stock lsm)
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

for v in "${variants[@]}"; do
	kernel=build/kernel/$v/bzImage
	if [ ! -r "$kernel" ]; then
		fail "$v: no kernel at $kernel (make kernel-$v)"
		continue
	fi
	while read -r vs name append tests; do
		case $vs in '' | '#'*) continue ;; esac
		[[ ",$vs," == *",$v,"* ]] || continue
		[ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$name,"* ]] || continue
		where=$v/$name
		echo "# boot $where: $append"
		log=$results/$v-$name.log
		t0=$(date +%s)
		tests/vm/run-vm.sh -q -k "$kernel" -i "${INITRD:-build/initramfs.cpio}" -l "$log" \
			-t "${TIMEOUT:-600}" -- "$append" "lab.variant=$v" "lab.tests=$tests" \
			>"$results/$v-$name.tap" 2>"$results/$v-$name.err"
		rc=$?
		tally "$where" <"$results/$v-$name.tap"
		case $rc in
		0) echo "#   $where: booted and passed in $(($(date +%s) - t0))s" ;;
		64 | 65 | 66 | 67) fail "$where: $(grep -m1 -E 'PANIC|HANG|WITHOUT|error' "$results/$v-$name.err" | sed 's/^vm: //')" ;;
		*) grep -q '^not ok' "$results/$v-$name.tap" ||
			fail "$where: guest exited with status $rc but reported no failure" ;;
		esac
	done <"$boots"
done

if [ "$failed" -gt 0 ]; then
	echo "# failures:"
	printf '#   %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
