#!/usr/bin/env bash
# The benchmark matrix: make bench-quick and make bench. Writes a results
# folder (results/DATE-TIME-MODE/, or $RESULTS) with raw.csv, plan.txt,
# machine.txt, boots.txt, logs/, indirect/ (full), report.md and plots.
#
#   bench/run.sh quick    nosec/stock/lsm x the default LSM set, and debian
#                         with its own, mitigations on, no policy:
#                         open+close, pipe, socket+close; and on stock and
#                         lsm, a one-rule lsm_cgroup policy, open+close
#                         outside and inside its cgroup (6 boots)
#   bench/run.sh full     every workload on nosec/stock/lsm, mitigations on
#                         and off, LSM sets capability / default / each major
#                         LSM; the equivalent rule set on every backend; BPF
#                         policies against rule count and confined cgroup
#                         count, inside and outside; Debian's own kernel
#                         with its default LSMs, without a policy and with
#                         the rule set on both BPF backends and AppArmor;
#                         LSM hook and indirect calls per operation
#                         (bench/indirect.sh)
#   bench/run.sh plan     print the full plan and its estimated time
#   bench/run.sh paths    rules by path against the same rules by inode
#                         (RULES Ni): 1 and 10k rules, both backends on
#                         stock, lsm_cgroup on lsm, and no policy;
#                         open+close and stat, inside and outside (14 boots)
#
# ACCEL=kvm runs the same plans on KVM: wall-clock ns/op instead of
# instructions/op (not tested on the development machine, whose KVM
# cannot run the guest). CGROUP_BACKEND_MAX caps the cgroup count on the
# lsm_cgroup backend (default 1000: see bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-quick}
default_set=$(scripts/lsm-default)
lsm_lines="capability $default_set landlock,yama,bpf selinux smack apparmor tomoyo"
all="-n,200,-r,11"				# every workload
# the series: open+close (file_open), tcp_connect (socket_connect), and
# stat and pipe, which no rule's hook sees
small="-n,200,-r,11,-w,open_close+stat+pipe+tcp_connect"
cgroup_max=${CGROUP_BACKEND_MAX:-1000}

full_plan() {
	echo "# series variant lsm mitigations mem_MiB weight_s config rules cgroups places opbench_args"
	echo "# No policy: the kernels, LSM sets and mitigations (nosec has no LSM)."
	for m in on off; do
		echo "kernels nosec - $m 512 14 none - - - $all"
		for v in stock lsm; do
			for l in $lsm_lines; do
				echo "kernels $v $l $m 512 15 none - - - $all"
			done
		done
	done
	echo "# The equivalent rule set on every backend (bench/policies/)."
	for v in stock lsm; do
		echo "policies $v $default_set on 512 28 bpf-cgroup eq 1 inside+outside $all"
		echo "policies $v $default_set on 512 28 bpf-global eq 1 inside+outside $all"
		for c in landlock yama; do
			echo "policies $v $default_set on 512 15 $c - - inside $all"
		done
		for c in selinux apparmor smack tomoyo; do
			echo "policies $v $c on 512 15 $c - - inside $all"
		done
	done
	echo "# Debian 12's own kernel as Debian boots it (no lsm=: its CONFIG_LSM, AppArmor"
	echo "# and BPF among them): what a Debian user pays, with no policy, the"
	echo "# equivalent rule set on both BPF backends, and as an AppArmor profile."
	echo "# No policy in the root cgroup and in a cgroup of its own (memcg charges there)."
	echo "kernels debian default on 512 60 none - - -+cgroup $all"
	echo "policies debian default on 512 60 bpf-cgroup eq 1 inside+outside $all"
	echo "policies debian default on 512 60 bpf-global eq 1 inside+outside $all"
	echo "policies debian default on 512 45 apparmor - - inside $all"
	echo "# BPF: cost against rule count (one rule and N-1 fillers)."
	for v in stock lsm; do
		for b in cgroup global; do
			for r in 1 100 10000 1000000; do
				w=10
				[ "$r" = 1000000 ] && w=25
				echo "rules $v $default_set on 1024 $w bpf-$b $r 1 inside+outside $small"
			done
		done
	done
	echo "# BPF: cost against the number of confined cgroups (equivalent rule set)."
	echo "# One memory size a series (it moves no median, but the spread a little)."
	for v in stock lsm; do
		for g in 1 100 1000; do
			if [ "$g" -le "$cgroup_max" ]; then
				echo "cgroups $v $default_set on 2048 $((10 + g * 8 / 10))" \
					"bpf-cgroup eq $g inside+outside $small"
			fi
			echo "cgroups $v $default_set on 1024 $((10 + g * 15 / 100)) bpf-global eq $g inside+outside $small"
		done
	done
}

# Rules by path (issue #14) beside the same rule and fillers by inode.
paths_plan() {
	local w="-n,200,-r,11,-w,open_close+open_denied+stat"
	echo "# series variant lsm mitigations mem_MiB weight_s config rules cgroups places opbench_args"
	for v in stock lsm; do
		for b in cgroup global; do
			[ "$v:$b" = lsm:global ] && continue
			for r in 1 1i 10000 10000i; do
				echo "paths $v $default_set on 1024 10 bpf-$b $r 1 inside+outside $w"
			done
		done
	done
	for v in stock lsm; do
		echo "paths $v $default_set on 1024 10 none - - - $w"
	done
}

if [ "$mode" = plan ]; then
	full_plan
	full_plan | awk '!/^#/ { s += $6; n++ } END { printf "# %d boots, about %d min\n", n, (s + 59) / 60 }'
	exit 0
fi

dir=${RESULTS:-results/$(date -u +%Y%m%d-%H%M%S)-$mode}
mkdir -p "$dir"
# Every boot of the run uses this copy, whatever is rebuilt meanwhile.
cp build/initramfs.cpio "$dir/initramfs.cpio"
export BENCH_INITRD=$dir/initramfs.cpio
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "lab commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) ($(nproc) cores)"
	echo "qemu: $(qemu-system-x86_64 --version | head -1)"
	if [ "${ACCEL:-tcg}" = kvm ]; then
		echo "mode: KVM, wall-clock ns per operation"
	else
		echo "mode: TCG with -icount shift=0,align=off,sleep=off (instructions, not time)"
	fi
	for v in nosec stock lsm; do
		[ -r "build/kernel/$v/commit" ] && echo "kernel $v: commit $(cut -c1-12 "build/kernel/$v/commit")"
	done
	[ -r build/kernel/debian/package ] &&
		echo "kernel debian: $(cat build/kernel/debian/package), booted without lsm=: $(grep '^CONFIG_LSM=' build/kernel/debian/.config)"
	echo "initramfs: sha256 $(sha256sum <"$BENCH_INITRD" | cut -c1-16) (build/initramfs.cpio when the run began)"
} >"$dir/machine.txt"

t0=$(date +%s)
rc=0
case $mode in
quick)
	for v in nosec stock lsm; do
		l=$default_set
		[ "$v" = nosec ] && l=-
		echo "kernels $v $l on 512 8 none - - - -w,open_close+pipe+socket_close"
	done >"$dir/plan.txt"
	echo "kernels debian default on 512 8 none - - - -w,open_close+pipe+socket_close" >>"$dir/plan.txt"
	# lsm_cgroup's cost outside and inside a confined cgroup, side by side
	for v in stock lsm; do
		echo "cg $v $default_set on 512 28 bpf-cgroup 1 1 inside+outside -w,open_close"
	done >>"$dir/plan.txt"
	bench/icount.sh -o "$dir" -p "$dir/plan.txt" || rc=$?
	;;
full)
	full_plan >"$dir/plan.txt"
	bench/icount.sh -o "$dir" -p "$dir/plan.txt" || rc=$?
	bench/indirect.sh -o "$dir/indirect" -l "$lsm_lines" || rc=$?
	;;
paths)
	paths_plan >"$dir/plan.txt"
	bench/icount.sh -o "$dir" -p "$dir/plan.txt" || rc=$?
	;;
*) echo "usage: bench/run.sh quick|full|plan|paths" >&2; exit 2 ;;
esac
echo "duration: $(($(date +%s) - t0)) s" >>"$dir/machine.txt"
rm -f "$dir/initramfs.cpio"
bench/report.py "$dir"
echo "bench: results in $dir ($(($(date +%s) - t0)) s)" >&2
exit "$rc"
