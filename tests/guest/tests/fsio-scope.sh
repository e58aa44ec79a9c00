#!/bin/sh
# Files, directories and block devices by scope (issue 24, item 2): a
# guarded task's ioctls on them pass the guard's allow-list only —
# queries, and the writes its descriptor is open for. Freezing or
# trimming the file system, flushing the device's buffers, chattr on a
# file opened read-only are refused; the control is a sibling cgroup
# with no policy, where the same calls work. On the ext4 scratch disk
# (run-vm.sh's /dev/vda). On each backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
P=/lab/tests/fsio-probe
each_backend "$@"
cg=/sys/fs/cgroup/fsio-$backend
ctl=/sys/fs/cgroup/fsio-$backend-ctl
d=/tmp/fsio
mkdir -p $cg $ctl $d/disk
if ! grep -q " $d/disk " /proc/mounts && ! mount -t ext4 /dev/vda $d/disk 2>/tmp/fsio.err; then
	not_ok "the scratch disk mounts" "$(cat /tmp/fsio.err)"
	exit 0
fi
echo data >$d/disk/f
cat >$d/policy.yaml <<Y
name: fsio-$backend
self_protection: on
rules:
  - files: /tmp/fsio-secret
    access: read
    action: deny
Y
check "apply ($backend backend, self-protection on)" \
	$L apply $d/policy.yaml --cgroup $cg --backend $backend

# in CG, fsio-probe ARGS: its output in $d/out
probe() {
	_in=$1
	shift
	in_cg "$_in" "$P $*" >$d/out 2>&1
}
says() {
	if grep -qx "fsio-probe: $1: $2" $d/out; then
		ok "$3"
	else
		not_ok "$3" "$(tr '\n' ' ' <$d/out | head -c 300)"
	fi
}
EPERM="Operation not permitted"

# the file system: refused inside, works from the sibling
probe $cg $d/disk r freeze trim getflags fsgetxattr
says freeze "$EPERM" "FIFREEZE on the disk's root from inside: EPERM"
says trim "$EPERM" "FITRIM on the disk from inside: EPERM"
says getflags ok "FS_IOC_GETFLAGS on a directory from inside works (a query)"
says fsgetxattr ok "FS_IOC_FSGETXATTR on a directory from inside works (a query)"
probe $ctl $d/disk r freeze trim
says freeze ok "control: FIFREEZE (then FITHAW) from $ctl works"
if grep -qx "fsio-probe: trim: $EPERM" $d/out; then
	not_ok "control: FITRIM from $ctl is not refused" "$(tr '\n' ' ' <$d/out)"
else
	ok "control: FITRIM from $ctl is not refused ($(sed -n 's/^fsio-probe: trim: //p' $d/out))"
fi

# a file: its flags by a descriptor open for writing only
probe $cg $d/disk/f r setflags getflags tcgets fionread
says setflags "$EPERM" "FS_IOC_SETFLAGS by a read-only descriptor from inside: EPERM"
says getflags ok "FS_IOC_GETFLAGS by a read-only descriptor from inside works"
says tcgets "Inappropriate ioctl for device" "TCGETS (isatty) on a file from inside: the file system's ENOTTY"
says fionread ok "FIONREAD on a file from inside works"
probe $cg $d/disk/f w setflags
says setflags ok "FS_IOC_SETFLAGS by a descriptor open for writing from inside works"
probe $ctl $d/disk/f r setflags
says setflags ok "control: FS_IOC_SETFLAGS by a read-only descriptor from $ctl works"

# a namespace file is a regular file: lsns's queries pass
probe $cg /proc/self/ns/net r nstype
says nstype ok "NS_GET_NSTYPE on a namespace file from inside works (a query)"

# the block device: the guard refuses its open, so a descriptor opened
# before the move (as one held from before apply, or passed in):
# queries pass, its buffers are the machine's
blk() {
	sh -c "exec 3</dev/vda; echo \$\$ >$1/cgroup.procs && $P fd:3 r $2" >$d/out 2>&1
}
blk $cg "size64 flsbuf"
says size64 ok "BLKGETSIZE64 on /dev/vda from inside works (a query)"
says flsbuf "$EPERM" "BLKFLSBUF on /dev/vda from inside: EPERM"
blk $ctl flsbuf
says flsbuf ok "control: BLKFLSBUF on /dev/vda from $ctl works"
probe $cg /dev/vda r size64
says open "$EPERM" "opening /dev/vda from inside: EPERM (self-protection)"

if $L events --cgroup $cg --timeout 1 2>/dev/null | grep -q "hook=file_ioctl"; then
	ok "the guard reported the refused ioctls"
else
	not_ok "the guard reported the refused ioctls" "$($L events --cgroup $cg --timeout 1 2>&1 | tail -3)"
fi

$L detach --cgroup $cg >/dev/null 2>&1
rmdir $cg $ctl 2>/dev/null
exit 0
