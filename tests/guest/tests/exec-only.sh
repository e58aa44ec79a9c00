#!/bin/sh
# Exec allowed, read denied (issue 24, item 3; loader/POLICY.md,
# exec-only files): with `files: F, read, deny` and exec allowed, a
# confined root runs F but gets none of F's bytes. F and G are copies of
# one static program (exec-only-prog, with a marker string in it); G's
# read is allowed: each way tried on a task running F is tried on one
# running G as the control. On each backend, or on $1 alone.
#
#   running F works, reading F is EPERM
#   /proc/PID/mem, process_vm_readv, /proc/PID/map_files/ of a task
#   running F, from a sibling inside: EPERM
#   its core dump (RLIMIT_CORE, coredump_filter 0x3f, a core_pattern
#   file set from outside, SIGSEGV from a sibling): no core
#   uselib(F) (int 0x80, nr 86; debian has IA32 and USELIB): EPERM, and
#   uselib(G) an other errno (ENOEXEC: not a.out); skipped without them
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
P=/lab/tests/exec-only-prog
each_backend "$@"
cg=/sys/fs/cgroup/eo-$backend
d=/tmp/eo-$backend
mkdir -p $cg $d
cp $P $d/F && cp $P $d/G && chmod 755 $d/F $d/G
cat >$d/p.yaml <<Y
name: eo-$backend
rules:
  - files: $d/F
    access: read
    action: deny
Y
check "apply files: F read deny to $cg ($backend)" $L apply $d/p.yaml --cgroup $cg --backend $backend

rc() { in_cg $cg "timeout 20 $*" >$d/out 2>&1; echo $?; }
want() { # what, status wanted, status got
	if [ "$3" = "$2" ]; then ok "$1 (status $3)"; else not_ok "$1" "status $3, wanted $2: $(head -c 200 $d/out)"; fi
}
want "running F works inside" 100 "$(rc $d/F nothing)"
want "control: reading G works inside" 0 "$(rc "cat $d/G >/dev/null")"
expect_eperm "reading F inside" "cat $d/F >/dev/null"

# a task running X inside, its pid in $pid
start() {
	rm -f $d/pid
	in_cg $cg "echo \$\$ >$d/pid; ulimit -c unlimited; echo 0x3f >/proc/self/coredump_filter; exec $1 sleep" >$d/start.out 2>&1 &
	sleep 1
	pid=$(cat $d/pid)
}
stop() { kill -9 $pid 2>/dev/null; wait; }
for x in G F; do
	start $d/$x
	# refused: EACCES (the kernel's errno for a refused ptrace_may_access there)
	[ $x = G ] && w=0 || w=13
	want "/proc/PID/mem of a task running $x, from inside" $w "$(rc $P mem $pid)"
	# map_files asks CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE of the machine's
	# user namespace, which self-protection refuses (EPERM), after ptrace's
	# check, which refuses the task running F (EACCES)
	[ $x = G ] && m=1 || m=13
	want "/proc/PID/map_files/ of a task running $x, from inside" $m "$(rc $P mapfile $pid)"
	[ $x = G ] && w=0 || w=1	# EPERM
	v=$(rc $P vmread $pid)
	if [ "$v" = 38 ]; then
		skip "process_vm_readv of a task running $x" "ENOSYS: no CONFIG_CROSS_MEMORY_ATTACH"
	else
		want "process_vm_readv of a task running $x, from inside" $w "$v"
	fi
	stop
done

# core dumps: to a file, set from outside
old_pattern=$(cat /proc/sys/kernel/core_pattern)
echo "$d/core.%e.%p" >/proc/sys/kernel/core_pattern
for x in G F; do
	rm -f $d/core.*
	start $d/$x
	in_cg $cg "kill -SEGV $pid"
	sleep 2
	stop
	if [ $x = G ]; then
		if grep -q "lab-exec-only-marker-7f3a" $d/core.* 2>/dev/null; then
			ok "control: a task running G dumps a core with G's marker"
		else
			not_ok "control: a task running G dumps a core with G's marker" "$(ls $d)"
		fi
	elif grep -q "lab-exec-only-marker-7f3a" $d/core.* 2>/dev/null; then
		not_ok "a task running F dumps no core with F's bytes" "$(ls -l $d/core.*)"
	else
		ok "a task running F dumps no core with F's bytes ($(ls -l $d | grep core | tr -s ' ' | cut -d' ' -f5,9))"
	fi
done
echo "$old_pattern" >/proc/sys/kernel/core_pattern

# uselib(): only with IA32 emulation and CONFIG_USELIB
u=$(rc $P uselib $d/G)
if [ "$u" = 100 ] || [ "$u" = 38 ]; then
	skip "uselib(F)" "no IA32 entry or no CONFIG_USELIB (status $u)"
else
	want "control: uselib(G) inside is ENOEXEC (not a.out)" 8 "$u"
	want "uselib(F) inside is EPERM" 1 "$(rc $P uselib $d/F)"
fi
check "detach the policy" $L detach --cgroup $cg
rmdir $cg
