#!/bin/sh
# The kernel booted to the test runner, and it is the lab's 6.1.
. /lab/lib/lab.sh
ok "reached the guest test runner"
case $(uname -r) in
6.1.*) ok "kernel is $(uname -r)" ;;
*) not_ok "kernel is 6.1" "uname -r: $(uname -r)" ;;
esac
check "cgroup v2 is mounted" test -f /sys/fs/cgroup/cgroup.controllers
check "bpffs is mounted" grep -q ' /sys/fs/bpf bpf ' /proc/mounts
