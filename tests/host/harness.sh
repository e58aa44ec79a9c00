#!/usr/bin/env bash
# The harness itself must fail when the guest does: a failing guest test,
# a kernel panic and a hang each give their own exit status and message,
# a hung test what the guest's watchdog saw, a hung guest where its vCPU
# was (QEMU's monitor), and the instruction-counting mode is repeatable.
set -u
cd "$(dirname "$0")/../.." || exit 1
kernel=build/kernel/stock/bzImage initrd=build/initramfs.cpio
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

boot() { # boot TIMEOUT ARGS... -> status in $rc, stderr in $tmp/err
	local t=$1
	shift
	tests/vm/run-vm.sh -q -k "$kernel" -i "$initrd" -t "$t" -- "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}
expect() { # expect WHAT STATUS PATTERN
	if [ "$rc" -eq "$2" ] && grep -q "$3" "$tmp/err" "$tmp/out"; then
		echo "ok - $1 (status $rc)"
	else
		echo "not ok - $1 (status $rc, wanted $2 and '$3')"
		sed 's/^/# /' "$tmp/err"
	fi
}

boot 120 lab.tests=boot lab.break=fail
expect "a failing guest test fails the boot" 1 '^not ok .*deliberately failing'
boot 120 lab.tests=boot lab.break=panic
expect "a kernel panic is reported as such" 64 'KERNEL PANIC'
boot 20 lab.tests=boot lab.break=hang
expect "a hung guest is reported as such" 65 'GUEST HANG'
expect "a hung guest's vCPU state is read before the timeout" 65 'qemu-state: sample 3: RIP=[0-9a-f]* ([a-z_]'
boot 60 lab.tests=boot lab.break=hang-test lab.watchdog=5
expect "a hung test is reported as such" 65 'GUEST HANG'
expect "the watchdog shows a hung test's output so far" 65 \
	'^# selftest-hang: still running after 5 s; its output so far:'
expect "the watchdog shows the line the hung test printed" 65 '^#   | ok - selftest-hang: a result before the hang'
expect "the watchdog shows the kernel's blocked tasks" 65 'sysrq: Show Blocked State'

# Instruction counting: two boots, the same figures to the instruction.
for i in 1 2; do
	ICOUNT=1 tests/vm/run-vm.sh -q -k "$kernel" -i "$initrd" -t 300 -- \
		lsm=capability "lab.run=/lab/bin/opbench" >"$tmp/icount$i" 2>&1
done
grep '^opbench,' "$tmp/icount1" | sed 's/^/# /'
if grep -q '^opbench,' "$tmp/icount1" && cmp -s <(grep '^opbench,' "$tmp/icount1") <(grep '^opbench,' "$tmp/icount2"); then
	echo "ok - instruction counting gives identical figures on two boots"
else
	echo "not ok - instruction counting gives identical figures on two boots"
	diff <(grep '^opbench,' "$tmp/icount1") <(grep '^opbench,' "$tmp/icount2") | sed 's/^/# /'
fi
