#!/bin/sh
# The kernel log after the boot's other tests: no KASAN, lockdep, RCU,
# sleep-in-atomic or list-corruption report, no warning, BUG or oops,
# and (where kmemleak is built in) no unreferenced object. Run last in
# each boot of make check-debug.
. /lab/lib/lab.sh

report() { # WHAT PATTERN
	n=$(dmesg | grep -cE "$2")
	if [ "$n" -eq 0 ]; then
		ok "no $1 in the kernel log"
	else
		not_ok "no $1 in the kernel log" "$n line(s): $(dmesg | grep -E "$2" | head -3)"
		dmesg | grep -E -A12 "$2" | head -40 | sed 's/^/# /'
	fi
}
report "KASAN report" 'BUG: KASAN'
report "lockdep report" 'possible recursive locking|possible circular locking|inconsistent lock state|lock held when returning|bad unlock balance|suspicious RCU usage'
report "sleep-in-atomic report" 'sleeping function called from invalid context|scheduling while atomic'
report "list corruption" 'list_(add|del) corruption|list_debug'
report "warning, BUG or oops" 'WARNING:|BUG:|Oops|general protection fault'

k=/sys/kernel/debug/kmemleak
if [ ! -e $k ]; then
	skip "no kmemleak report" "kmemleak is not built in"
elif ! head -c 1 $k >/dev/null 2>&1; then
	# lockdown (lsm-lockdown locks the kernel down) closes debugfs
	skip "no kmemleak report" "debugfs refused: lockdown $(cat /sys/kernel/security/lockdown 2>/dev/null)"
else
	# objects freed after an RCU grace period need a second scan to clear
	echo scan >$k
	sleep 2
	echo scan >$k
	n=$(grep -c 'unreferenced object' $k)
	if [ "$n" -eq 0 ]; then
		ok "kmemleak reports no unreferenced object"
	else
		not_ok "kmemleak reports no unreferenced object" "$n"
		head -60 $k | sed 's/^/# /'
	fi
fi
