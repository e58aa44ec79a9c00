#!/bin/sh
# The benchmark program runs every workload (tiny counts: not a timing).
. /lab/lib/tap.sh
out=$(/lab/bin/opbench -n 20 -r 3 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then ok "opbench exits 0"; else not_ok "opbench exits 0" "status $rc"; fi
for w in $(/lab/bin/opbench -l | cut -d' ' -f1); do
	if echo "$out" | grep -q "^opbench,$w,20,3,[0-9.]*,[0-9.]*,[0-9.]*$"; then
		ok "opbench measures $w"
	else
		not_ok "opbench measures $w"
	fi
done
