#!/usr/bin/env bash
# The benchmark matrix: make bench-quick and make bench. Writes a results
# folder (results/DATE-TIME/) with raw.csv, machine.txt, boots.txt,
# report.md and plots.
#
#   bench/run.sh quick    nosec/stock/lsm x the default LSM set, mitigations
#                         on: open+close, pipe, socket+close (a few minutes)
#   bench/run.sh full     every workload, LSM sets capability / default /
#                         each major LSM, mitigations on and off
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-quick}
dir=${RESULTS:-results/$(date -u +%Y%m%d-%H%M%S)-$mode}
mkdir -p "$dir"
default_set="landlock,lockdown,yama,bpf"

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "lab commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) ($(nproc) cores)"
	echo "qemu: $(qemu-system-x86_64 --version | head -1)"
	echo "mode: TCG with -icount shift=0,align=off,sleep=off (instructions, not time)"
	for v in nosec stock lsm; do
		[ -r "build/kernel/$v/commit" ] && echo "kernel $v: commit $(cut -c1-12 "build/kernel/$v/commit")"
	done
} >"$dir/machine.txt"

case $mode in
quick)
	bench/icount.sh -o "$dir" -v "nosec stock lsm" -l "$default_set" -m on -- \
		-w open_close+pipe+socket_close
	;;
full)
	bench/icount.sh -o "$dir" -v "nosec stock lsm" \
		-l "capability $default_set landlock,yama,bpf selinux smack apparmor tomoyo" -m "on off"
	;;
*) echo "usage: bench/run.sh quick|full" >&2; exit 2 ;;
esac
bench/report.sh "$dir"
echo "bench: results in $dir" >&2
