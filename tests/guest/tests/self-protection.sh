#!/bin/sh
# Self-protection: root inside a confined cgroup tries to undo or step
# around its policy, each way in turn; every attempt must fail, and the
# policy must still deny afterwards. $1: the backend (default cgroup).
. /lab/lib/tap.sh
L=/lab/bin/lsmctl
backend=${1:-cgroup}
cg=/sys/fs/cgroup/sp-$backend
secret=/tmp/sp-secret
mkdir -p $cg $cg/inner /tmp/sp
echo secret >$secret
sleep 300 &
outsider=$!
# Yama would refuse the ptrace attempt below by itself
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null)
[ -n "$scope" ] && echo 0 >/proc/sys/kernel/yama/ptrace_scope
cat >/tmp/sp.yaml <<Y
name: sp-$backend
self_protection: ${SP:-on}
rules:
  - files: $secret
    access: read
    action: deny
Y
in_cg() { sh -c "echo \$\$ >$cg/cgroup.procs && $*"; }
# A successful attempt may have broken the policy: put it back, so that
# each attempt meets it whole (SP=off shows which attempts would work).
restore() {
	$L detach --cgroup $cg >/dev/null 2>&1
	rm -rf /sys/fs/bpf/lsmlab 2>/dev/null
	$L apply /tmp/sp.yaml --cgroup $cg --backend $backend >/dev/null
}
# attempt WHAT CMD: CMD (run as root in the cgroup) must fail
attempt() {
	_what=$1
	shift
	if in_cg "$*" >/tmp/sp.out 2>&1; then
		not_ok "held: $_what" "it worked: $(head -c 300 /tmp/sp.out)"
		restore
	else
		ok "held: $_what"
	fi
}
# attempt_eperm WHAT CMD: CMD must fail with EPERM (where the kernel
# would refuse later anyway, with another errno, without the policy)
attempt_eperm() {
	_what=$1
	shift
	in_cg "$*" >/tmp/sp.out 2>&1
	if grep -q "not permitted" /tmp/sp.out; then
		ok "held: $_what (EPERM)"
	else
		not_ok "held: $_what" "no EPERM: $(head -c 300 /tmp/sp.out)"
		restore
	fi
}
still_enforced() {
	if in_cg "cat $secret" >/dev/null 2>&1; then
		not_ok "the policy still denies reading the secret ($1)"
	else
		ok "the policy still denies reading the secret ($1)"
	fi
}
[ "$LAB_VARIANT" = stock ] && [ "$backend" = cgroup ] &&
	echo "# stock: self-protection's 9 hooks and this rule fit in 10"
check "apply ($backend backend, self-protection on by default)" \
	$L apply /tmp/sp.yaml --cgroup $cg --backend $backend
pins=$(ls -R /sys/fs/bpf/lsmlab | wc -l)

# leaving the subtree
attempt "move itself to the root cgroup (cgroup.procs)" "echo \$\$ >/sys/fs/cgroup/cgroup.procs"
attempt_eperm "open the root's cgroup.threads to move a thread" "exec 3>/sys/fs/cgroup/cgroup.threads"
attempt "move an outside task in a cgroup outside" "echo $outsider >/sys/fs/cgroup/cgroup.procs"
attempt "clone3(CLONE_INTO_CGROUP) into the root cgroup" "lab-try clone-into /sys/fs/cgroup"
# held by the kernel's design too: the namespace's root is the cgroup itself
attempt "a cgroup namespace and a fresh cgroup2 mount, then the root's cgroup.procs" \
	"lab-try cgroupns sh -c 'mkdir -p /tmp/sp/cg && mount -t cgroup2 none /tmp/sp/cg && echo \$\$ >/tmp/sp/cg/../cgroup.procs && cat $secret'"
ok "moving inside the subtree still works: $(in_cg "echo \$\$ >$cg/inner/cgroup.procs && cat /proc/self/cgroup")"
still_enforced "after the cgroup attempts"

# undoing the policy
link=$(ls /sys/fs/bpf/lsmlab/*/link-file_open | head -1)
attempt "unlink the policy's link pin" "rm -f $link"
attempt "rename over the link pin" "mv /sys/fs/bpf/lsmlab/events $link"
attempt "remove the pins folder" "rm -rf /sys/fs/bpf/lsmlab"
attempt "detach with lsmctl" "$L detach --cgroup $cg"
attempt "replace with lsmctl" "printf 'name: x\nrules:\n  - ptrace: deny\n' >/tmp/sp/x.yaml && $L apply /tmp/sp/x.yaml --cgroup $cg"
attempt "detach the link with bpftool" "bpftool link detach pinned $link"
id=$($L show $cg -j | sed 's/.*"policy_id":\([0-9]*\).*/\1/')
confs=$(ls -d /sys/fs/bpf/lsmlab/cg-*/confs /sys/fs/bpf/lsmlab/global/confs 2>/dev/null | head -1)
attempt "delete the policy's configuration from its map with bpftool" \
	"bpftool map delete pinned $confs key $((id & 255)) $((id >> 8 & 255)) 0 0"
attempt "load a BPF program" "bpftool prog load /lab/bpf/deny_inet_socket.bpf.o /sys/fs/bpf/sp-prog"
# held by the kernel's design too: each bpffs mount is a new, empty instance
attempt "a second bpffs, then unlink there" "mkdir -p /tmp/sp/bpf && mount -t bpf bpf /tmp/sp/bpf && rm -rf /tmp/sp/bpf/lsmlab && ls /tmp/sp/bpf/lsmlab"
attempt "bind-mount the bpffs, then unlink through it" "mkdir -p /tmp/sp/b2 && mount --bind /sys/fs/bpf /tmp/sp/b2 && rm $(echo $link | sed 's|/sys/fs/bpf|/tmp/sp/b2|')"
umount /tmp/sp/b2 /tmp/sp/bpf 2>/dev/null
[ "$(ls -R /sys/fs/bpf/lsmlab | wc -l)" = "$pins" ] && ok "every pin is still there" ||
	not_ok "every pin is still there"
still_enforced "after the attempts on its pins"

# the kernel and other tasks
attempt "ptrace a task outside" "lab-try ptrace $outsider"
attempt "signal a task outside" "kill -STOP $outsider"
head -c 4096 /dev/zero >/tmp/sp/m.ko
attempt_eperm "load a kernel module (finit_module)" "insmod /tmp/sp/m.ko"
mknod /tmp/sp/mem c 1 1 2>/dev/null
attempt_eperm "open /dev/mem" "exec 3</tmp/sp/mem"
attempt "write /proc/sysrq-trigger" "echo h >/proc/sysrq-trigger"
attempt "sysctl kernel.unprivileged_bpf_disabled" "echo 2 >/proc/sys/kernel/unprivileged_bpf_disabled"
attempt "sysctl kernel.sysrq" "echo 1 >/proc/sys/kernel/sysrq"
if in_cg "echo 1 >/proc/sys/kernel/bpf_stats_enabled"; then
	ok "sysctl kernel.bpf_stats_enabled is allowed"
else
	not_ok "sysctl kernel.bpf_stats_enabled is allowed"
fi
still_enforced "at the end"
out=$($L events --cgroup $cg --timeout 1 2>&1)
echo "$out" | tail -3 | sed 's/^/# /'
echo "$out" | grep -q "rule=self" && ok "events reports self-protection denials (rule=self)" ||
	not_ok "events reports self-protection denials (rule=self)"

# self_protection: off gives all of that back
printf 'name: sp-off\nself_protection: off\nrules:\n  - ptrace: deny\n' >/tmp/sp/off.yaml
check "apply with self_protection: off" $L apply /tmp/sp/off.yaml --cgroup $cg --backend $backend
if in_cg "echo \$\$ >/sys/fs/cgroup/cgroup.procs"; then
	ok "with self_protection: off, leaving the cgroup works"
else
	not_ok "with self_protection: off, leaving the cgroup works"
fi
check "detach" $L detach --cgroup $cg
kill -CONT $outsider
kill $outsider
[ -n "$scope" ] && echo "$scope" >/proc/sys/kernel/yama/ptrace_scope
rmdir $cg/inner $cg 2>/dev/null
