#!/bin/sh
# LSM hook calls per operation, guest side (bench/indirect.sh): a kprobe
# event on every security_*() function, each workload run twice with
# different counts, and the difference of the hit counts per operation.
# Not for instruction counting: the probes cost far more than the hooks.
#
#   kprobes.sh calls [N1 N2]    print kprobe,WORKLOAD,FUNCTION,CALLS_PER_OP
#   kprobes.sh slots            print slots,LINE for each line of lsm_slots
set -eu
(set -o pipefail) 2>/dev/null && set -o pipefail

T=/sys/kernel/tracing
OPBENCH=/lab/bin/opbench

slots() {
	f=/sys/kernel/security/lsm_slots
	[ -r $f ] || { echo "bench: no $f (not the lsm kernel?)" >&2; exit 1; }
	sed 's/^/slots,/' $f
}

calls() {
	n1=${1:-10} n2=${2:-510}
	[ -e $T/kprobe_events ] || mount -t tracefs tracefs $T
	echo 0 >$T/tracing_on
	echo >$T/kprobe_events
	probed=0 refused=0
	for f in $(awk '$2 ~ /^[tT]$/ && $3 ~ /^security_[a-z0-9_]*$/ { print $3 }' /proc/kallsyms |
		sort -u); do
		if echo "p:lab/$f $f" >>$T/kprobe_events 2>/dev/null; then
			probed=$((probed + 1))
		else
			refused=$((refused + 1))
		fi
	done
	echo 1 >$T/events/lab/enable
	echo "bench: kprobes on $probed security_* functions ($refused refused: init code, notrace)" >&2
	# opbench runs ITERS operations plus ITERS/10+1 of warm-up, and
	# the same start-up and exit whatever ITERS is.
	ops=$(((n2 + n2 / 10 + 1) - (n1 + n1 / 10 + 1)))
	for w in $($OPBENCH -l | cut -d' ' -f1); do
		cat $T/kprobe_profile >/tmp/kp.0
		$OPBENCH -n "$n1" -r 1 -w "$w" >/dev/null
		sleep 0.2
		cat $T/kprobe_profile >/tmp/kp.1
		$OPBENCH -n "$n2" -r 1 -w "$w" >/dev/null
		sleep 0.2
		cat $T/kprobe_profile >/tmp/kp.2
		# (run 2 - run 1): the reads of kprobe_profile cancel out too
		awk -v w="$w" -v ops=$ops '
			FILENAME ~ /kp.0$/ { h0[$1] = $2; next }
			FILENAME ~ /kp.1$/ { h1[$1] = $2; next }
			{
				d = ($2 - h1[$1]) - (h1[$1] - h0[$1])
				if (d != 0) printf "kprobe,%s,%s,%.3f\n", w, $1, d / ops
			}' /tmp/kp.0 /tmp/kp.1 /tmp/kp.2
	done
	echo 0 >$T/events/lab/enable
	echo >$T/kprobe_events
}

case ${1:-} in
slots) slots ;;
calls) shift; calls "$@" ;;
*) sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
