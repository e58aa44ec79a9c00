#!/usr/bin/env bash
# Boot kernels and run opbench in each configuration of a plan, one
# boot a line, with the runner's instruction-counting mode (one guest
# nanosecond per guest instruction: the figures are instructions per
# operation), or wall-clock nanoseconds with ACCEL=kvm.
#
#   bench/icount.sh [-o DIR] -p PLAN
#   bench/icount.sh [-o DIR] [-v "stock lsm"] [-l "capability landlock,yama,bpf"]
#                   [-m "on off"] [-- OPBENCH ARGS]
#
# A plan line (# comments):
#   SERIES VARIANT LSM MITIGATIONS MEM_MIB WEIGHT CONFIG RULES CGROUPS PLACES OPBENCH_ARGS
# SERIES names the part of the matrix the figures belong to (the report
# reads each table from one); LSM is the lsm= list (- for none: nosec;
# default for no lsm= on a kernel with LSMs: debian, Debian's own set);
# CONFIG, RULES, CGROUPS and
# PLACES go to bench/guest/run.sh (- for its default); OPBENCH_ARGS are
# comma-separated (- for none); WEIGHT estimates the boot's seconds, for
# the time-left estimate. The second form makes a plan of every variant x
# lsm= line x mitigations setting with no policy.
#
# Appends to DIR/raw.csv:
#   series,variant,lsm,mitigations,mode,config,rules,cgroups,place,workload,iters,reps,min,median,max
# (lsm with + for commas; mode icount: instructions/op, or kvm: ns/op);
# the boot lines to DIR/boots.txt, each boot's console to DIR/logs/,
# and a boot that fails to DIR/failures.txt (the run goes on). Exits 1
# if any boot failed. BENCH_INITRD names the initramfs to boot (default
# build/initramfs.cpio).
set -euo pipefail
cd "$(dirname "$0")/.."

out=build/bench plan='' variants="stock lsm" lsms="capability landlock,yama,bpf" mits=on
while getopts "o:p:v:l:m:h" opt; do
	case $opt in
	o) out=$OPTARG ;; p) plan=$OPTARG ;;
	v) variants=$OPTARG ;; l) lsms=$OPTARG ;; m) mits=$OPTARG ;;
	h) sed -n '2,/^set -e/p' "$0" | sed -e '/^set -e/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift

mkdir -p "$out/logs"
if [ -z "$plan" ]; then
	plan=$out/plan.txt
	args=$(IFS=,; echo "${*:--}")
	for v in $variants; do
		for l in $lsms; do
			for m in $mits; do
				echo "kernels $v $l $m 512 30 none - - - $args"
			done
		done
	done >"$plan"
fi

# Under instruction counting, two boot parameters take a boot from about
# 20 s to 3 s here and change no median: QEMU's local APIC timer is slow
# to emulate with -icount (the kernel ticks from the PIT instead), and
# the crypto self-tests run half a billion instructions at boot.
ACCEL=${ACCEL:-tcg}
if [ "$ACCEL" = kvm ]; then
	mode=kvm vmflags=() boot=()
else
	mode=icount vmflags=(-n) boot=(noapictimer cryptomgr.notests=1)
fi

initrd=${BENCH_INITRD:-build/initramfs.cpio}
[ -r "$initrd" ] || { echo "bench: no $initrd: make initramfs" >&2; exit 1; }
csv=$out/raw.csv
[ -s "$csv" ] ||
	echo "series,variant,lsm,mitigations,mode,config,rules,cgroups,place,workload,iters,reps,min,median,max" >"$csv"
mapfile -t lines < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$plan")
total=${#lines[@]}
wtotal=0
for line in "${lines[@]}"; do
	read -r _ _ _ _ _ w _ <<<"$line"
	wtotal=$((wtotal + w))
done
echo "bench: $total boots, estimated $((wtotal / 60)) min (mode $mode)" >&2

n=0 wdone=0 failed=0 t0=$(date +%s)
for line in "${lines[@]}"; do
	read -r series v l m mem w config rules cgroups places args <<<"$line"
	n=$((n + 1))
	[ -r "build/kernel/$v/bzImage" ] || { echo "bench: no kernel $v: make kernel-$v" >&2; exit 1; }
	cmd=/lab/bench/guest/run.sh
	[ "$rules" = - ] || cmd+=",-R,$rules"
	[ "$cgroups" = - ] || cmd+=",-G,$cgroups"
	[ "$places" = - ] || cmd+=",-P,$places"
	cmd+=",$config"
	[ "$args" = - ] || cmd+=",--,$args"
	append=("${boot[@]}" "lab.run=$cmd")
	case $l in - | default) ;; *) append=("lsm=$l" "${append[@]}") ;; esac
	[ "$m" = off ] && append=(mitigations=off "${append[@]}")

	left=""
	if [ "$wdone" -gt 0 ]; then
		spent=$(($(date +%s) - t0))
		left=", about $(((spent * (wtotal - wdone) / wdone + 59) / 60)) min left"
	fi
	what="$v lsm=$l mitigations=$m $config"
	[ "$config" = none ] || what+=" rules=$rules cgroups=$cgroups"
	echo "bench: [$n/$total] $what$left" >&2
	echo "$v: -m $mem ${append[*]}" >>"$out/boots.txt"

	log=$(printf '%s/logs/%03d-%s-%s-%s.log' "$out" "$n" "$v" "$config" "$m")
	tb=$(date +%s)
	set +e
	tests/vm/run-vm.sh "${vmflags[@]}" -q -m "$mem" -k "build/kernel/$v/bzImage" \
		-i "$initrd" -l "$log" -t $((w * 10 + 600)) -- "${append[@]}" \
		>"${log%.log}.vm" 2>&1
	rc=$?
	set -e
	sed -n "s/^bench,/$series,$v,${l//,/+},$m,$mode,/p" "$log" >>"$csv"
	if [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		echo "bench: boot $n failed (status $rc): $what; console in $log" >&2
		{ grep -h '^bench: setup:\|^opbench:' "$log" || true; grep -h '^vm: .*[A-Z][A-Z]\|^vm: error' "${log%.log}.vm" || true; } |
			sed 's/^/bench:   /' >&2
		echo "$what: status $rc, $log" >>"$out/failures.txt"
	fi
	wdone=$((wdone + w))
	echo "bench:   done in $(($(date +%s) - tb))s (estimated ${w}s)" >&2
done
echo "bench: $total boots in $(($(date +%s) - t0))s, $failed failed; figures in $csv" >&2
[ "$failed" -eq 0 ]
