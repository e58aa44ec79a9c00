#!/bin/sh
# make check-load: the load and fault tests at the counts, on
# both backends: 1000 replacements under 4 hammering readers, 200
# SIGKILLed applies, 10,000 BPF LSM attach/detach rounds.
export REPLACES=1000 KILLS=200 CHURN=10000
rc=0
for t in /lab/tests/policy-load.sh /lab/tests/slot-churn; do
	$t || rc=1
done
exit $rc
