#!/usr/bin/env bash
# Turn a bench results folder (raw.csv from bench/icount.sh) into
# report.md (tables of median instructions/op with their spread and
# ratios against nosec and stock) and plots (gnuplot, PNG and SVG).
#
#   bench/report.sh DIR
set -euo pipefail
dir=${1:?usage: bench/report.sh DIR}
csv=$dir/raw.csv
[ -s "$csv" ] || { echo "report: no $csv" >&2; exit 1; }

{
	echo "# LSM dispatch cost, instructions per operation"
	echo
	echo "Measured $(date -u +%Y-%m-%d) with QEMU TCG instruction counting"
	echo "(\`-icount shift=0,align=off,sleep=off\`): one guest nanosecond per guest"
	echo "instruction, so the figures are instructions per operation, exact and"
	echo "repeatable. They do not show the cycle price of an indirect call through"
	echo "a retpoline on real hardware. Median of the repetitions, then"
	echo "[min-max]; machine and boot lines in machine.txt and boots.txt."
	echo
	awk -F, '
		NR == 1 { next }
		{
			k = $2 "|" $3 "|" $4
			med[$1 "|" k] = $8; lo[$1 "|" k] = $7; hi[$1 "|" k] = $9
			if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
			if (!($1 in vseen)) { vseen[$1] = 1; V[++nv] = $1 }
		}
		END {
			printf "| lsm= | mitigations | workload |"
			for (i = 1; i <= nv; i++) printf " %s |", V[i]
			if ("nosec" in vseen) printf " stock/nosec | lsm/nosec |"
			if (("stock" in vseen) && ("lsm" in vseen)) printf " lsm vs stock |"
			printf "\n|---|---|---|"
			for (i = 1; i <= nv; i++) printf "---:|"
			if ("nosec" in vseen) printf "---:|---:|"
			if (("stock" in vseen) && ("lsm" in vseen)) printf "---:|"
			printf "\n"
			for (j = 1; j <= nk; j++) {
				split(keys[j], f, "|")
				gsub(/\+/, ",", f[1])
				printf "| %s | %s | %s |", f[1], f[2], f[3]
				for (i = 1; i <= nv; i++) {
					x = V[i] "|" keys[j]
					if (x in med) printf " %s [%s-%s] |", med[x], lo[x], hi[x]
					else printf " |"
				}
				n = med["nosec|" keys[j]]; s = med["stock|" keys[j]]; l = med["lsm|" keys[j]]
				if ("nosec" in vseen) {
					printf (n > 0 && s > 0) ? " %.3f |" : " |", s / (n ? n : 1)
					printf (n > 0 && l > 0) ? " %.3f |" : " |", l / (n ? n : 1)
				}
				if (("stock" in vseen) && ("lsm" in vseen))
					printf (s > 0 && l > 0) ? " %+.1f%% |" : " |", (l - s) * 100 / (s ? s : 1)
				printf "\n"
			}
		}' "$csv"
	echo
	echo "![instructions per operation](bars.png)"
} >"$dir/report.md"

# One bar group per workload+lsm line, one bar per variant (mitigations on).
awk -F, 'NR > 1 && $3 == "on" {
		k = $4 " " $2; gsub(/\+/, ",", k)
		if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
		if (!($1 in vs)) { vs[$1] = 1; V[++nv] = $1 }
		med[$1 "|" k] = $8
	}
	END {
		printf "group"; for (i = 1; i <= nv; i++) printf "\t%s", V[i]; printf "\n"
		for (j = 1; j <= nk; j++) {
			printf "\"%s\"", keys[j]
			for (i = 1; i <= nv; i++) printf "\t%s", ((V[i] "|" keys[j]) in med) ? med[V[i] "|" keys[j]] : "NaN"
			printf "\n"
		}
	}' "$csv" >"$dir/bars.dat"
nvar=$(head -1 "$dir/bars.dat" | awk -F'\t' '{print NF - 1}')
for out in png:pngcairo svg:svg; do
	gnuplot <<GP
set terminal ${out#*:} size 1200,600
set output "$dir/bars.${out%%:*}"
set title "Instructions per operation (median), mitigations on"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set ylabel "instructions/op"
set xtics rotate by -30 noenhanced
set grid ytics
set yrange [0:*]
plot for [i=2:$((nvar + 1))] "$dir/bars.dat" using i:xtic(1) title columnheader(i)
GP
done
echo "report: $dir/report.md, $dir/bars.png, $dir/bars.svg" >&2
