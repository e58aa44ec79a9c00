#!/bin/sh
# lsmctl probe on the booted kernel: BPF LSM active exactly when the boot
# line's lsm= names bpf (Debian's kernel, booted without lsm=, has it by
# default), the hook slots of lsm_cgroup (10 without the lab's series, 32
# with it: kernel/config/lsm.config), every hook the engine and
# self-protection use (cgroup_attach only with the series), the exit
# status, and the slots a policy takes.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
cg=/sys/fs/cgroup/probe

lsm_arg=default
for arg in $(cat /proc/cmdline); do
	case $arg in lsm=*) lsm_arg=${arg#lsm=} ;; esac
done
case ,$lsm_arg, in
,default, | *,bpf,*) active=1 ;;
*) active=0 ;;
esac
if [ "$LAB_SERIES" = 0 ]; then
	slots=10 cgroup_text="10 of the engine's 24 hooks at once"
else
	slots=32 cgroup_text="all 24 hooks (32 hook slots"
fi

out=$($L probe 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
json=$($L probe -j 2>&1)
echo "# $json"
has() { echo "$json" | grep -q "$1"; }
links() { bpftool link list 2>&1 | grep -c '^[0-9]*: '; }

has "\"hook_slots\":$slots," && ok "$LAB_VARIANT: $slots lsm_cgroup hook slots" ||
	not_ok "$LAB_VARIANT: $slots lsm_cgroup hook slots"
has '"engine_hooks":{"total":24,"missing":\[\]}' &&
	ok "the engine's 24 hooks are all in the kernel" ||
	not_ok "the engine's 24 hooks are all in the kernel"
has '"btf":true' && has '"cgroup2":true' && has '"bpffs":true' && has '"bpf_syscall":"ok"' &&
	ok "BTF, cgroup v2, bpffs and bpf() are there" ||
	not_ok "BTF, cgroup v2, bpffs and bpf() are there"

if [ $active = 0 ]; then
	# the lsm= that adds bpf: the boot's, capability (always first) left out
	want=lsm=$(echo "$lsm_arg" | tr ',' '\n' | grep -vx capability | sed 's/$/,/' | tr -d '\n')bpf
	[ $rc -eq 4 ] && ok "lsm=$lsm_arg: probe exits 4, no backend can run" ||
		not_ok "lsm=$lsm_arg: probe exits 4, no backend can run" "status $rc"
	echo "$out" | grep -q "BPF LSM is built in but NOT active .*: boot with $want\$" &&
		ok "it says BPF LSM is not active, and to boot with $want" ||
		not_ok "it says BPF LSM is not active, and to boot with $want"
	has '"backends":{"cgroup":false,"global":false},"status":4}' &&
		ok "-j: neither backend, status 4" || not_ok "-j: neither backend, status 4"
	# apply and run refuse, changing nothing: attached, the programs would never run
	mkdir -p $cg
	printf 'name: probe\nself_protection: off\nrules:\n  - ptrace: deny\n' >/tmp/probe.yaml
	for b in cgroup global; do
		before=$(pins /sys/fs/bpf) links_before=$(links)
		err=$($L apply /tmp/probe.yaml --cgroup $cg --backend $b 2>&1)
		rc=$?
		[ $rc -eq 4 ] && echo "$err" | grep -q "BPF LSM is not active.*boot with $want" &&
			ok "$b: apply exits 4, saying to boot with $want" ||
			not_ok "$b: apply exits 4, saying to boot with $want" "status $rc: $err"
		[ "$(pins /sys/fs/bpf)" = "$before" ] && ok "$b: nothing pinned" || not_ok "$b: nothing pinned"
		links_now=$(links)
		[ "$links_now" = "$links_before" ] && ok "$b: no BPF link left ($links_now)" ||
			not_ok "$b: no BPF link left" "$links_before, then $links_now"
		$L show $cg >/dev/null 2>&1 && not_ok "$b: no policy on the cgroup" ||
			ok "$b: no policy on the cgroup"
	done
	$L run /tmp/probe.yaml -- true 2>/dev/null
	rc=$?
	[ $rc -eq 4 ] && ok "run exits 4 too, CMD not run" || not_ok "run exits 4 too" "status $rc"
	rmdir $cg
	exit 0
fi

[ $rc -eq 0 ] && ok "lsm=$lsm_arg: probe exits 0, both backends can run" ||
	not_ok "lsm=$lsm_arg: probe exits 0, both backends can run" "status $rc"
grep -qw bpf /sys/kernel/security/lsm && echo "$out" | grep -q "^  BPF LSM is active" &&
	ok "BPF LSM is active ($(cat /sys/kernel/security/lsm))" ||
	not_ok "BPF LSM is active" "$(cat /sys/kernel/security/lsm)"
echo "$out" | grep -qF "  cgroup backend can run: $cgroup_text" &&
	echo "$out" | grep -q "^  global backend can run: all 24 hooks" &&
	ok "text: the cgroup backend ($cgroup_text), the global one" ||
	not_ok "text: the cgroup backend ($cgroup_text), the global one"
# (the count is the guard's list, LAB_GUARD_HOOKS: not restated here)
# Moves within a subtree: only the series has cgroup_attach (patch 12).
if [ "$LAB_SERIES" = 0 ]; then moves=false moves_text="may NOT move"; else moves=true moves_text="may move"; fi
has '"self_protection":{"complete":true,"hooks":[1-9][0-9]*,"missing":\[\],"moves_within":'$moves',"mounts_inside":true}' &&
	ok "self-protection is complete: all its hooks are there, moves within: $moves" ||
	not_ok "self-protection is complete: all its hooks are there, moves within: $moves"
echo "$out" | grep -q "^  a guarded task $moves_text " &&
	ok "text: a guarded task $moves_text tasks within its subtree" ||
	not_ok "text: a guarded task $moves_text tasks within its subtree"
# every lab kernel can trace copy_mnt_ns(): mounts in a namespace of its own
echo "$out" | grep -q "^  a guarded task may mount in a mount namespace of its own " &&
	ok "text: a guarded task may mount in a mount namespace of its own" ||
	not_ok "text: a guarded task may mount in a mount namespace of its own"
has '"backends":{"cgroup":true,"global":true},"status":0}' &&
	ok "-j: both backends, status 0" || not_ok "-j: both backends, status 0"

# A policy on the cgroup backend takes a slot for each of its hooks.
taken() { $L probe -j | sed -n 's/.*"slots_taken":\([0-9]*\).*/\1/p'; }
before=$(taken) links_before=$(links)
mkdir -p $cg
printf 'name: probe\nself_protection: off\nrules:\n  - ptrace: deny\n' >/tmp/probe.yaml
check "apply a ptrace rule (2 hooks) on the cgroup backend" $L apply /tmp/probe.yaml --cgroup $cg --backend cgroup
# the control of "no BPF link left" where BPF LSM is not active
links_now=$(links)
[ "$links_now" -gt "$links_before" ] && ok "apply made BPF links ($links_before, then $links_now)" ||
	not_ok "apply made BPF links" "$links_before, then $links_now"
now=$(taken)
[ "$now" = $((before + 2)) ] && ok "2 more slots are taken ($before, then $now)" ||
	not_ok "2 more slots are taken" "$before, then $now"
check "detach" $L detach --cgroup $cg
now=$(taken)
[ "$now" = "$before" ] && ok "detached, $before taken again" ||
	not_ok "detached, $before taken again" "$now"
rmdir $cg
