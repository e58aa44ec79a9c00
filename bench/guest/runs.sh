#!/bin/sh
# BPF program runs per operation, guest side: prepare a configuration
# (setup.sh), then in each place run one workload twice with different
# counts with the kernel's BPF statistics on, and print the difference of
# each program's run count per operation; and the BPF links, so that a
# BPF_LSM_MAC program sharing a hook with the lsm_cgroup ones shows.
# Its figures are counts, not instructions (the statistics add to every
# run), but boot it with instruction counting (tests/vm/run-vm.sh -n):
# bpftool shows a program's run count only when its run time is not 0,
# and without -icount's clock a short program's often is.
#
#   runs.sh [-R RULES] [-P PLACE[+PLACE]] [-w WORKLOAD] CONFIG
#
# Prints runs,CONFIG,PLACE,WORKLOAD,PROGRAM,RUNS_PER_OP, and link,LINE and
# prog,LINE: bpftool's lists of the BPF links and programs.
set -eu
(set -o pipefail) 2>/dev/null && set -o pipefail

setup=/lab/bench/guest/setup.sh
OPBENCH=/lab/bin/opbench
rules=1 places=inside+outside workload=open_close n1=100 n2=1100
while getopts "R:P:w:" opt; do
	case $opt in
	R) rules=$OPTARG ;;
	P) places=$OPTARG ;;
	w) workload=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
config=${1:?usage: runs.sh [-R RULES] [-P PLACES] [-w WORKLOAD] CONFIG}

$setup prepare "$config" -R "$rules" -G 1
bpftool link show | sed 's/^/link,/'
# id and run_cnt of every program, one line each
counts() {
	bpftool prog show | awk '/^[0-9]+: / { id = $1; name = $4 }
		/run_cnt/ { for (i = 1; i < NF; i++) if ($i == "run_cnt") print id, name, $(i + 1) }'
}
echo 1 >/proc/sys/kernel/bpf_stats_enabled
# opbench runs ITERS operations plus ITERS/10+1 of warm-up, and the
# same start-up and exit whatever ITERS is.
ops=$(((n2 + n2 / 10 + 1) - (n1 + n1 / 10 + 1)))
for place in $(echo "$places" | tr + ' '); do
	counts >/tmp/runs.0
	$setup enter "$config" "$place" -- $OPBENCH -n $n1 -r 1 -w "$workload" >/dev/null
	counts >/tmp/runs.1
	$setup enter "$config" "$place" -- $OPBENCH -n $n2 -r 1 -w "$workload" >/dev/null
	counts >/tmp/runs.2
	awk -v c="$config" -v p="$place" -v w="$workload" -v ops=$ops '
		FILENAME ~ /runs.0$/ { r0[$1] = $3; next }
		FILENAME ~ /runs.1$/ { r1[$1] = $3; next }
		{ printf "runs,%s,%s,%s,%s,%.3f\n", c, p, w, $2,
			(($3 - r1[$1]) - (r1[$1] - r0[$1])) / ops }' /tmp/runs.0 /tmp/runs.1 /tmp/runs.2
done
bpftool prog show | sed 's/^/prog,/'
echo 0 >/proc/sys/kernel/bpf_stats_enabled
