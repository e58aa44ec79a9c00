#!/usr/bin/env bash
# LSM hook calls and indirect calls per operation on stock 6.1, for each
# lsm= line: what the series turns into direct calls.
#
#   bench/indirect.sh [-o DIR] [-l "LSM_LINE ..."]
#
# (default: capability, and the default set, scripts/lsm-default).
#
# For each lsm= line, two boots without instruction counting (kprobes
# perturb the counts that mode measures):
#   - lsm: /sys/kernel/security/lsm_slots, the LSMs registered on each
#     hook (every LSM's, BPF's stubs included, whether on or off);
#   - stock: a kprobe event on every security_*() function, each opbench
#     workload run twice, and the difference of the hit counts per
#     operation (bench/guest/kprobes.sh).
# The hooks each security_*() function dispatches come from stock's
# security/security.c (call_int_hook, call_void_hook, and the loops over
# security_hook_heads). On stock every LSM on a hook is one indirect call
# (a retpoline thunk with mitigations on), so per operation
#   indirect calls = sum over functions f of calls(f) x sum over the hooks
#                    h that f dispatches of LSMs(h).
# An upper bound where a hook stops at the first LSM that answers
# (call_int_hook stops at a non-zero return; no workload is denied).
#
# BENCH_INITRD names the initramfs (default build/initramfs.cpio).
# Writes DIR/slots-SET.txt, DIR/calls-SET.csv, DIR/hookmap.txt and
# DIR/indirect.csv: lsm,workload,security_calls,hook_calls,indirect_calls
# (per operation; hook_calls counts the calls of hooks with an LSM on them).
set -euo pipefail
cd "$(dirname "$0")/.."

out=build/bench/indirect lsms="capability $(scripts/lsm-default)"
while getopts "o:l:h" opt; do
	case $opt in
	o) out=$OPTARG ;; l) lsms=$OPTARG ;;
	h) sed -n '2,/^set -e/p' "$0" | sed -e '/^set -e/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
mkdir -p "$out/logs"

# security_FUNCTION HOOK... for every function of stock's security.c
git -C build/kernel/linux show stock:security/security.c 2>/dev/null | awk '
	/^[a-z].*[ *]security_[a-z0-9_]+\(/ && !/;[ \t]*$/ {
		match($0, /security_[a-z0-9_]+\(/)
		cur = substr($0, RSTART, RLENGTH - 1); fn[cur] = 1; next
	}
	/^}/ { cur = ""; next }
	cur != "" {
		s = $0
		while (match(s, /(call_int_hook|call_void_hook)\([a-z0-9_]+/)) {
			h = substr(s, RSTART, RLENGTH); sub(/.*\(/, "", h)
			if (!((cur, h) in seen)) { seen[cur, h] = 1; hooks[cur] = hooks[cur] " " h }
			s = substr(s, RSTART + RLENGTH)
		}
		s = $0
		while (match(s, /security_hook_heads\.[a-z0-9_]+/)) {
			h = substr(s, RSTART + 20, RLENGTH - 20)
			if (!((cur, h) in seen)) { seen[cur, h] = 1; hooks[cur] = hooks[cur] " " h }
			s = substr(s, RSTART + RLENGTH)
		}
	}
	END { for (f in fn) print f hooks[f] }' | sort >"$out/hookmap.txt"
[ -s "$out/hookmap.txt" ] ||
	{ echo "indirect: no stock security/security.c in build/kernel/linux (make kernel-stock)" >&2; exit 1; }

initrd=${BENCH_INITRD:-build/initramfs.cpio}
boot() { # VARIANT LSM LOG CMD
	tests/vm/run-vm.sh -q -k "build/kernel/$1/bzImage" -i "$initrd" -l "$3" -t 1200 \
		-- "lsm=$2" "lab.run=$4" >/dev/null 2>&1
}

n=0 total=$(wc -w <<<"$lsms") t0=$(date +%s) failed=0
echo "lsm,workload,security_calls,hook_calls,indirect_calls" >"$out/indirect.csv"
for l in $lsms; do
	n=$((n + 1))
	set=${l//,/+}
	left=""
	[ "$n" -gt 1 ] && left=", about $((($(date +%s) - t0) * (total - n + 1) / (n - 1) / 60 + 1)) min left"
	echo "bench: indirect calls [$n/$total] lsm=$l$left" >&2
	if ! boot lsm "$l" "$out/logs/slots-$set.log" /lab/bench/guest/kprobes.sh,slots ||
		! boot stock "$l" "$out/logs/calls-$set.log" /lab/bench/guest/kprobes.sh,calls; then
		echo "bench: indirect calls for lsm=$l failed; logs in $out/logs" >&2
		failed=1
		continue
	fi
	sed -n 's/^slots,//p' "$out/logs/slots-$set.log" >"$out/slots-$set.txt"
	sed -n 's/^kprobe,//p' "$out/logs/calls-$set.log" >"$out/calls-$set.csv"
	awk -v set="$set" '
		FILENAME ~ /hookmap/ { for (i = 2; i <= NF; i++) hooks[$1] = hooks[$1] " " $i; next }
		FILENAME ~ /slots-/ { lsms[$1] = NF - 1; next }
		{
			split($0, f, ",")	# workload,function,calls
			w = f[1]; c = f[3]
			if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
			if (!(f[2] in hooks) || c < 0.005) next
			sec[w] += c
			nh = split(hooks[f[2]], hs, " ")
			for (i = 1; i <= nh; i++)
				if (lsms[hs[i]] > 0) { hc[w] += c; ind[w] += c * lsms[hs[i]] }
		}
		END {
			for (i = 1; i <= nw; i++)
				printf "%s,%s,%.2f,%.2f,%.2f\n", set, order[i], sec[order[i]],
					hc[order[i]], ind[order[i]]
		}' "$out/hookmap.txt" "$out/slots-$set.txt" "$out/calls-$set.csv" >>"$out/indirect.csv"
done
echo "bench: indirect calls for $total lsm= lines in $(($(date +%s) - t0))s: $out/indirect.csv" >&2
exit "$failed"
