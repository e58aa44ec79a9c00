#!/bin/sh
# Self-protection at open (issue #12): the files through which the kernel
# runs a program of the writer's choosing, as root, outside every cgroup.
# From a cgroup whose policy has self-protection, writing them must fail
# with EPERM; the same writes from a sibling whose policy says
# self_protection: off are the controls. On each backend, or on $1 alone.
#
#   a cgroup v1 hierarchy's release_agent and notify_on_release
#   binfmt_misc's register
#   sysfs' /sys/kernel/uevent_helper
#
# What the lab kernels do not have is skipped, saying why.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
each_backend "$@"
cg=/sys/fs/cgroup/spo-$backend
off=/sys/fs/cgroup/spo-$backend-off
ctl=$off	# the controls: the same writes with self_protection: off
d=/tmp/spo-$backend
v1=$d/v1
bm=$d/binfmt
mkdir -p $cg $off $v1 $bm
echo secret >$d/secret
for sp in on off; do
	cat >$d/$sp.yaml <<Y
name: spo-$backend-$sp
self_protection: $sp
rules:
  - files: $d/secret
    access: read
    action: deny
Y
done
check "apply self_protection: on to $cg ($backend)" $L apply $d/on.yaml --cgroup $cg --backend $backend
check "apply self_protection: off to $off ($backend)" $L apply $d/off.yaml --cgroup $off --backend $backend

# cgroup v1: a named hierarchy with no controller, as a container runtime might leave
if mount -t cgroup -o none,name=lab-spo-$backend none $v1 2>$d/out; then
	ok "mount a cgroup v1 hierarchy (none,name=lab-spo-$backend)"
	held "write a cgroup v1 release_agent" "echo /bin/true >$v1/release_agent"
	held "write a cgroup v1 notify_on_release" "echo 1 >$v1/notify_on_release"
	if in_cg $cg "cat $v1/release_agent" >$d/out 2>&1; then
		ok "reading a cgroup v1 file is still allowed"
	else
		not_ok "reading a cgroup v1 file is still allowed" "$(head -c 300 $d/out)"
	fi
	echo >$v1/release_agent
	umount $v1
else
	skip "cgroup v1 release_agent and notify_on_release" \
		"mount -t cgroup failed: $(head -c 200 $d/out)"
fi

# binfmt_misc: CONFIG_BINFMT_MISC
if mount -t binfmt_misc none $bm 2>$d/out; then
	ok "mount binfmt_misc"
	held "register a binfmt_misc handler" \
		"echo ':lab-spo:E::labspo::/bin/true:' >$bm/register"
	[ -e $bm/lab-spo ] && echo -1 >$bm/lab-spo
	umount $bm
else
	skip "binfmt_misc register" "no binfmt_misc in this kernel (CONFIG_BINFMT_MISC; not in kernel/config/lab.config): $(head -c 100 $d/out)"
fi

# uevent_helper: CONFIG_UEVENT_HELPER
if [ -e /sys/kernel/uevent_helper ]; then
	was=$(cat /sys/kernel/uevent_helper)
	held "write /sys/kernel/uevent_helper" "echo /bin/true >/sys/kernel/uevent_helper"
	echo "$was" >/sys/kernel/uevent_helper
else
	skip "write /sys/kernel/uevent_helper" "no /sys/kernel/uevent_helper in this kernel (CONFIG_UEVENT_HELPER; not in kernel/config/lab.config nor Debian's)"
fi

check "detach $cg" $L detach --cgroup $cg
check "detach $off" $L detach --cgroup $off
rmdir $cg $off $v1 $bm 2>/dev/null
rm -rf $d
