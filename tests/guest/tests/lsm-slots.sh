#!/bin/sh
# /sys/kernel/security/lsm_slots shows each hook's slots in call order,
# BPF LSM's stubs switched off, and is readable by root only.
. /lab/lib/lab.sh
f=/sys/kernel/security/lsm_slots
if [ "$LAB_SERIES" = 0 ]; then
	if [ -e $f ]; then not_ok "$LAB_VARIANT has no $f"; else ok "$LAB_VARIANT has no $f"; fi
	exit 0
fi
if [ ! -r $f ]; then
	not_ok "$f exists"
	exit 1
fi
mode=$(stat -c %a $f)
if [ "$mode" = 400 ]; then ok "$f is mode 0400"; else not_ok "$f is mode 0400" "$mode"; fi

lines=$(wc -l <$f)
bad=$(grep -cvE '^[a-z0-9_]+( [a-z]+:(on|off))*$' $f)
if [ "$lines" -gt 200 ] && [ "$bad" -eq 0 ]; then
	ok "$lines hooks, every line 'hook lsm:state ...'"
else
	not_ok "every line is 'hook lsm:state ...'" "$lines lines, $bad malformed"
	grep -vE '^[a-z0-9_]+( [a-z]+:(on|off))*$' $f | head -3 | sed 's/^/# /'
fi

# capability first, then lsm= without it.
order=capability
for arg in $(cat /proc/cmdline); do
	case $arg in
	lsm=*) order=capability,$(echo "${arg#lsm=}" | tr ',' '\n' | grep -vx capability | paste -sd, -) ;;
	esac
done

# expect HOOK "LSMs that implement it": the slots follow lsm= order.
expect() {
	want=$1
	for lsm in $(echo "$order" | tr ',' ' '); do
		case " $2 " in
		*" $lsm "*) want="$want $lsm:$(state_of "$1" "$lsm")" ;;
		esac
	done
	have=$(grep -E "^$1( |\$)" $f)
	if [ "$have" = "$want" ]; then ok "$want"; else not_ok "$want" "have: $have"; fi
}
# BPF LSM's stubs are off with no program, but for the hooks whose
# callers a skipped stub would change (security/bpf/hooks.c).
state_of() {
	[ "$2" = bpf ] || { echo on; return; }
	case $1 in sb_set_mnt_opts | getprocattr | setprocattr) echo on ;; *) echo off ;; esac
}

expect file_open "landlock selinux smack tomoyo apparmor bpf"
expect sb_set_mnt_opts "selinux smack bpf"
# patch 11: the capability checks come first; the xattr hooks' stubs switch
expect inode_xattr_skipcap "selinux smack bpf"
expect inode_setxattr "selinux smack bpf"
expect ptrace_access_check "capability landlock yama selinux smack apparmor bpf"
expect locked_down "lockdown bpf"
