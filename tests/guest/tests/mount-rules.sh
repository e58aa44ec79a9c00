#!/bin/sh
# The mount rule alone (self_protection: off, so the guard has no say):
# every way to make, change or remove a mount is refused inside, and
# works from a sibling cgroup with no policy. $1: the backend.
. /lab/lib/tap.sh
L=/lab/bin/lsmctl
P=/lab/tests/sp-probe
backend=${1:-cgroup}
cg=/sys/fs/cgroup/mr-$backend
ctl=/sys/fs/cgroup/mr-$backend-ctl
d=/tmp/mr-$backend
mkdir -p $cg $ctl $d/t $d/u
mount -t tmpfs none $d/t
printf 'name: mr-%s\nself_protection: off\nrules:\n  - mount: deny\n' "$backend" >$d/p.yaml
check "apply mount: deny ($backend backend, self_protection: off)" \
	$L apply $d/p.yaml --cgroup $cg --backend $backend
in_cg() { sh -c "echo \$\$ >$cg/cgroup.procs && $*"; }
in_ctl() { sh -c "echo \$\$ >$ctl/cgroup.procs && $*"; }
# refused WHAT CMD: CMD works from the sibling, fails with EPERM inside
# (busybox's mount says EPERM its own way)
refused() {
	_what=$1
	shift
	if ! in_ctl "$*" >$d/out 2>&1; then
		not_ok "control: $_what" "it failed outside: $(head -c 200 $d/out)"
		return
	fi
	in_cg "$*" >$d/out 2>&1
	if grep -q -e "not permitted" -e "permission denied (are you root?)" $d/out; then
		ok "refused: $_what (EPERM)"
	else
		not_ok "refused: $_what" "no EPERM: $(head -c 200 $d/out)"
	fi
}
refused "mount(2) of a tmpfs" "mount -t tmpfs none $d/u && umount $d/u"
refused "fsopen()" "$P fsopen"
refused "open_tree(OPEN_TREE_CLONE)" "$P open-tree $d/t"
refused "mount_setattr()" "$P mount-setattr $d/t"
refused "mount_setattr() named with bits above the kernel's 32" "$P mount-setattr-hi $d/t"
# pivot_root: the initramfs root cannot be pivoted (EINVAL outside): the
# rule's EPERM comes first
mkdir -p $d/t/old
in_ctl "$P pivot-root $d/t $d/t/old" >$d/out 2>&1
grep -q "not permitted" $d/out && not_ok "control: pivot_root() is not EPERM outside" ||
	ok "control: pivot_root() is not EPERM outside ($(cat $d/out))"
in_cg "$P pivot-root $d/t $d/t/old" >$d/out 2>&1
grep -q "not permitted" $d/out && ok "refused: pivot_root() (EPERM)" ||
	not_ok "refused: pivot_root()" "no EPERM: $(head -c 200 $d/out)"
# umount2: the control unmounts for real, so it is mounted again for inside
if in_ctl "umount $d/t" >$d/out 2>&1; then
	ok "control: umount2()"
	mount -t tmpfs none $d/t
	in_cg "umount $d/t" >$d/out 2>&1
	grep -q "not permitted" $d/out && ok "refused: umount2() (EPERM)" ||
		not_ok "refused: umount2()" "no EPERM: $(head -c 200 $d/out)"
else
	not_ok "control: umount2()" "$(head -c 200 $d/out)"
fi
check "detach" $L detach --cgroup $cg
umount $d/t $d/u 2>/dev/null
rmdir $cg $ctl 2>/dev/null
