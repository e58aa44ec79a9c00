#!/bin/sh
# The policy engine under load and faults, on each backend (or on $1
# alone):
# - replace a cgroup's policy REPLACES times while 4 processes in the
#   cgroup read the file both policies deny, without pause: the read
#   must never succeed, and the kernel log must stay clean;
# - kill lsmctl with SIGKILL at a random point of an apply KILLS times:
#   afterwards the cgroup has the old or the new policy in full, never a
#   mix and never none, and lsmctl can always clean up.
# make check runs 30 and 12 of them, which show the paths work; the
# counts that make a race likely to show are load-full.sh's (make
# check-load): 1000 and 200.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
each_backend "$@"
replaces=${REPLACES:-30} kills=${KILLS:-12}
cg=/sys/fs/cgroup/load-$backend
mkdir -p $cg /tmp/load
a=/tmp/load/secret-a b=/tmp/load/secret-b
echo a >$a
echo b >$b
sp=""
[ "$LAB_SERIES" = 0 ] && [ "$backend" = cgroup ] && sp="self_protection: off"
mkpolicy() { # NAME FILE...: a policy denying reading each FILE
	_name=$1
	shift
	{ echo "name: $_name"; echo "$sp"; echo "rules:"
	  for f in "$@"; do printf '  - files: %s\n    access: read\n    action: deny\n' "$f"; done
	} >/tmp/load/$_name.yaml
}
mkpolicy both-1 $a $b
mkpolicy both-2 $b $a
mkpolicy only-a $a
mkpolicy only-b $b
dmesg_before=$(dmesg | grep -cE 'WARNING|BUG|Oops|leak')

# 1. replacing under load
check "apply the first policy" $L apply /tmp/load/both-1.yaml --cgroup $cg --backend $backend
leaks=/tmp/load/leaks-$backend
rm -f $leaks
hammers=
for i in 1 2 3 4; do
	# niced, so that lsmctl gets the CPU the guest has; they still never pause
	# started directly, not through in_cg, so that $! is the reader itself
	sh -c "echo \$\$ >$cg/cgroup.procs && renice -n 19 -p \$\$ >/dev/null;
		while :; do cat $a >/dev/null 2>&1 && echo leak >>$leaks; done" &
	hammers="$hammers $!"
done
t0=$(date +%s)
failed=0
i=0
while [ $i -lt "$replaces" ]; do
	p=both-$((i % 2 + 1))
	$L apply /tmp/load/$p.yaml --cgroup $cg --backend $backend >/dev/null 2>/tmp/load/err ||
		{ failed=$((failed + 1)); sed 's/^/# /' /tmp/load/err | head -3; }
	i=$((i + 1))
done
t1=$(date +%s)
kill $hammers
wait $hammers 2>/dev/null
leaks=$(cat $leaks 2>/dev/null | wc -l)
[ "$failed" -eq 0 ] && ok "$replaces replacements applied, in $((t1 - t0))s" ||
	not_ok "$replaces replacements applied" "$failed failed"
[ "$leaks" -eq 0 ] && ok "4 readers in the cgroup read the denied file 0 times during them" ||
	not_ok "4 readers in the cgroup read the denied file 0 times during them" "$leaks reads"
after=$(dmesg | grep -cE 'WARNING|BUG|Oops|leak')
[ "$after" -eq "$dmesg_before" ] && ok "the kernel log has no warning, BUG, oops or leak" ||
	not_ok "the kernel log has no warning, BUG, oops or leak" "$(dmesg | grep -E 'WARNING|BUG|Oops|leak' | tail -3)"

# 2. SIGKILL at random points of apply: somewhere in the time one takes
now_cs() { cut -d' ' -f1 /proc/uptime | tr -d .; }
t0=$(now_cs)
check "apply only-a" $L apply /tmp/load/only-a.yaml --cgroup $cg --backend $backend
span=$((($(now_cs) - t0) * 10 + 1))	# ms
echo "# an apply takes about ${span}ms here: kills land in 0..${span}ms"
mixed=0 none=0 stale=0 killed=0
i=0
while [ $i -lt "$kills" ]; do
	p=only-$( [ $((i % 2)) -eq 0 ] && echo b || echo a)
	$L apply /tmp/load/$p.yaml --cgroup $cg --backend $backend >/dev/null 2>&1 &
	pid=$!
	usleep $((RANDOM % span * 1000))
	kill -9 $pid 2>/dev/null && killed=$((killed + 1))
	wait $pid 2>/dev/null
	name=$($L show $cg -j 2>/dev/null | sed -n 's/.*"name":"\([^"]*\)".*/\1/p')
	in_cg $cg "cat $a" >/dev/null 2>&1 && ra=1 || ra=0
	in_cg $cg "cat $b" >/dev/null 2>&1 && rb=1 || rb=0
	case "$name:$ra$rb" in
	only-a:01 | only-b:10) ;;
	:11) none=$((none + 1)); echo "# round $i: no policy" ;;
	*) mixed=$((mixed + 1)); echo "# round $i: '$name' with reads a=$ra b=$rb" ;;
	esac
	ls /sys/fs/bpf/lsmlab | grep -q '^new-\|^old-' && stale=$((stale + 1))
	i=$((i + 1))
done
[ $none -eq 0 ] && [ $mixed -eq 0 ] &&
	ok "$kills applies, $killed killed midway: the cgroup always had the old or the new policy in full" ||
	not_ok "the cgroup always had the old or the new policy in full" "$mixed mixed, $none none"
[ $stale -eq 0 ] && ok "lsmctl cleaned up every folder a killed apply left" ||
	not_ok "lsmctl cleaned up every folder a killed apply left" "$stale rounds left some"
check "detach" $L detach --cgroup $cg
[ -z "$(ls /sys/fs/bpf/lsmlab | grep -v '^events$')" ] && ok "no pins left after detach" ||
	not_ok "no pins left after detach" "$(ls /sys/fs/bpf/lsmlab)"
for i in 1 2 3 4 5 6 7 8 9 10; do rmdir $cg 2>/dev/null && break; sleep 1; done
