#!/usr/bin/env bash
# Instructions per operation of opbench's workloads, for every kernel
# variant x lsm= line x mitigations setting, with the runner's
# instruction-counting mode (one guest nanosecond per instruction).
#
#   bench/icount.sh [-o DIR] [-v "stock lsm"] [-l "capability landlock,yama,bpf"]
#                   [-m "on off"] [-- OPBENCH ARGS]
#
# Appends to DIR/raw.csv (variant,lsm,mitigations,workload,iters,reps,
# min,median,max; the lsm= list with + for commas) and writes the boot
# lines to DIR/boots.txt. Each figure repeats exactly from run to run.
# Prints progress with an estimate of the time left.
set -euo pipefail
cd "$(dirname "$0")/.."

out=build/bench variants="stock lsm" lsms="capability landlock,yama,bpf" mits=on
while getopts "o:v:l:m:h" opt; do
	case $opt in
	o) out=$OPTARG ;; v) variants=$OPTARG ;; l) lsms=$OPTARG ;; m) mits=$OPTARG ;;
	h) sed -n '2,/^set -e/p' "$0" | sed -e '/^set -e/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
args=$(IFS=,; echo "/lab/bin/opbench${*:+,$*}")

mkdir -p "$out"
csv=$out/raw.csv
[ -s "$csv" ] || echo "variant,lsm,mitigations,workload,iters,reps,min,median,max" >"$csv"
n=0 total=$(($(wc -w <<<"$variants") * $(wc -w <<<"$lsms") * $(wc -w <<<"$mits")))
t0=$(date +%s)
for v in $variants; do
	[ -r "build/kernel/$v/bzImage" ] || { echo "bench: no kernel $v: make kernel-$v" >&2; exit 1; }
	for l in $lsms; do
		for m in $mits; do
			n=$((n + 1))
			extra=()
			[ "$m" = off ] && extra=(mitigations=off)
			left=""
			if [ "$n" -gt 1 ]; then
				per=$((($(date +%s) - t0) / (n - 1)))
				left=", about $((per * (total - n + 1)))s left"
			fi
			echo "bench: [$n/$total] $v lsm=$l mitigations=$m$left" >&2
			echo "$v: lsm=$l ${extra[*]} lab.run=$args" >>"$out/boots.txt"
			tests/vm/run-vm.sh -n -q -k "build/kernel/$v/bzImage" -i build/initramfs.cpio \
				-t 1800 -- "lsm=$l" "${extra[@]}" "lab.run=$args" 2>/dev/null |
				sed -n "s/^opbench,/$v,${l//,/+},$m,/p" >>"$csv"
		done
	done
done
echo "bench: $total boots in $(($(date +%s) - t0))s; raw figures in $csv" >&2
