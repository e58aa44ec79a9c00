#!/bin/sh
# The kernel booted to the test runner, and it is the lab's 6.1 (or, on
# debian, the package kernel/debian.sh fetched: its version is recorded).
. /lab/lib/lab.sh
ok "reached the guest test runner"
case $(uname -r) in
6.1.*) ok "kernel is $(uname -r)" ;;
*) not_ok "kernel is 6.1" "uname -r: $(uname -r)" ;;
esac
if [ -r /lab/kernel-package ]; then
	read -r pkg version </lab/kernel-package
	echo "# package: $pkg $version; uname -v: $(uname -v)"
	case $(uname -v) in
	*" $version "*) ok "the kernel is $pkg $version" ;;
	*) not_ok "the kernel is $pkg $version" "uname -v: $(uname -v)" ;;
	esac
	# /init loaded /lab/modules.load (the scratch disk's, binfmt_misc)
	for m in $(sed 's|.*/||; s|\.ko$||; s|-|_|g' /lab/modules.load); do
		[ -d /sys/module/$m ] || missing="${missing:-} $m"
	done
	[ -z "${missing:-}" ] && ok "the modules kernel/debian.sh chose are loaded" ||
		not_ok "the modules kernel/debian.sh chose are loaded" "missing:$missing"
	check "the scratch disk is there (/dev/vda)" test -b /dev/vda
fi
check "cgroup v2 is mounted" test -f /sys/fs/cgroup/cgroup.controllers
check "bpffs is mounted" grep -q ' /sys/fs/bpf bpf ' /proc/mounts
