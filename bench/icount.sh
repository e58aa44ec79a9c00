#!/usr/bin/env bash
# Instructions per operation of opbench's workloads, per kernel variant
# and lsm= line, counted with the runner's instruction-counting mode.
#
#   bench/icount.sh [-o DIR] [-v "stock lsm"] [-l "capability landlock,yama,bpf"] [-- OPBENCH ARGS]
#
# Writes DIR/icount.csv (variant,lsm,workload,iters,reps,min,median,max;
# the lsm= list with + for commas)
# and prints a table of medians with lsm's change against stock. Each
# figure is exact: the same boot counts the same instructions every time.
set -euo pipefail
cd "$(dirname "$0")/.."

out=build/bench variants="stock lsm" lsms="capability landlock,yama,bpf"
while getopts "o:v:l:h" opt; do
	case $opt in
	o) out=$OPTARG ;; v) variants=$OPTARG ;; l) lsms=$OPTARG ;;
	h) sed -n '2,/^set -e/p' "$0" | sed -e '/^set -e/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
args=$(IFS=,; echo "/lab/bin/opbench${*:+,$*}")

mkdir -p "$out"
csv=$out/icount.csv
echo "variant,lsm,workload,iters,reps,min,median,max" >"$csv"
n=0 total=$(($(wc -w <<<"$variants") * $(wc -w <<<"$lsms")))
for v in $variants; do
	for l in $lsms; do
		n=$((n + 1))
		echo "bench: [$n/$total] $v lsm=$l" >&2
		tests/vm/run-vm.sh -n -q -k "build/kernel/$v/bzImage" -i build/initramfs.cpio \
			-t 900 -- "lsm=$l" "lab.run=$args" 2>/dev/null |
			sed -n "s/^opbench,/$v,${l//,/+},/p" >>"$csv"
	done
done

# Median instructions/op, and lsm against stock for the same lsm= line.
awk -F, -v variants="$variants" '
	NR == 1 { next }
	{ med[$1 "|" $2 "|" $3] = $7; if (!seen[$3]++) w[++nw] = $3
	  if (!lseen[$2]++) L[++nl] = $2 }
	END {
		nv = split(variants, V, " ")
		printf "| workload | lsm= |"
		for (i = 1; i <= nv; i++) printf " %s |", V[i]
		if (nv == 2) printf " %s vs %s |", V[2], V[1]
		printf "\n|---|---|"
		for (i = 1; i <= nv + (nv == 2); i++) printf "---:|"
		printf "\n"
		for (j = 1; j <= nw; j++) for (k = 1; k <= nl; k++) {
			printf "| %s | %s |", w[j], L[k]
			for (i = 1; i <= nv; i++) printf " %s |", med[V[i] "|" L[k] "|" w[j]]
			if (nv == 2) {
				a = med[V[1] "|" L[k] "|" w[j]]; b = med[V[2] "|" L[k] "|" w[j]]
				if (a > 0) printf " %+.1f%% |", (b - a) * 100 / a; else printf " |"
			}
			printf "\n"
		}
	}' "$csv"
echo "bench: raw figures in $csv" >&2
