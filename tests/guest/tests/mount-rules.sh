#!/bin/sh
# The mount rule alone (self_protection: off, so the guard has no say):
# every way to make, change or remove a mount is refused inside, and
# works from a sibling cgroup with no policy. On each backend, or on $1
# alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
P=/lab/tests/sp-probe
each_backend "$@"
cg=/sys/fs/cgroup/mr-$backend
ctl=/sys/fs/cgroup/mr-$backend-ctl
d=/tmp/mr-$backend
mkdir -p $cg $ctl $d/t $d/u
mount -t tmpfs none $d/t
printf 'name: mr-%s\nself_protection: off\nrules:\n  - mount: deny\n' "$backend" >$d/p.yaml
check "apply mount: deny ($backend backend, self_protection: off)" \
	$L apply $d/p.yaml --cgroup $cg --backend $backend
held "mount(2) of a tmpfs" "mount -t tmpfs none $d/u && umount $d/u"
held "fsopen()" "$P fsopen"
held "open_tree(OPEN_TREE_CLONE)" "$P open-tree $d/t"
held "mount_setattr()" "$P mount-setattr $d/t"
held "mount_setattr() named with bits above the kernel's 32" "$P mount-setattr-hi $d/t"
# pivot_root: the initramfs root cannot be pivoted (EINVAL outside): the
# rule's EPERM comes first
mkdir -p $d/t/old
in_cg $ctl "$P pivot-root $d/t $d/t/old" >$d/out 2>&1
grep -q "not permitted" $d/out && not_ok "control: pivot_root() is not EPERM outside" ||
	ok "control: pivot_root() is not EPERM outside ($(cat $d/out))"
expect_eperm "pivot_root()" "$P pivot-root $d/t $d/t/old"
# umount2: the control unmounts for real, so it is mounted again for inside
if control "umount2()" "umount $d/t"; then
	mount -t tmpfs none $d/t
	expect_eperm "umount2()" "umount $d/t"
fi
check "detach" $L detach --cgroup $cg
umount $d/t $d/u 2>/dev/null
rmdir $cg $ctl 2>/dev/null
