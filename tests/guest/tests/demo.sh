#!/bin/sh
# make demo's script, as a test: it ends non-zero unless lsmctl events
# reported the three denials the README shows.
. /lab/lib/lab.sh
if [ "${LAB_VARIANT:-}" = stock ]; then
	# confine-shell's 3 rules and self-protection need 11 lsm_cgroup hooks
	ok "the demo # SKIP stock 6.1 has 10 lsm_cgroup hooks; make demo boots lsm"
	exit 0
fi
out=$(/lab/demo/demo.sh 2>&1)
rc=$?
echo "$out" | sed 's/\x1b\[[0-9;]*m//g; s/^/# /'
[ $rc -eq 0 ] && ok "the demo confines a shell and reports 3 denials" ||
	not_ok "the demo confines a shell and reports 3 denials" "status $rc"
