#!/bin/sh
# /sys/kernel/security/lsm lists capability and then the lsm= line.
. /lab/lib/lab.sh
want=
for arg in $(cat /proc/cmdline); do
	case $arg in lsm=*) want=${arg#lsm=} ;; esac
done
if [ -z "$want" ]; then
	not_ok "the boot line has an lsm= list" "$(cat /proc/cmdline)"
	exit 1
fi
# capability is always first, and not repeated if lsm= names it.
want=capability,$(echo "$want" | tr ',' '\n' | grep -vx capability | paste -sd, -)
want=${want%,}
have=$(cat /sys/kernel/security/lsm)
if [ "$have" = "$want" ]; then
	ok "active LSMs are $have"
else
	not_ok "active LSMs are $want" "kernel says $have"
fi
