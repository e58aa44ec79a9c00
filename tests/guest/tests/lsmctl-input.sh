#!/bin/sh
# Bad input changes nothing: every lsmctl command given a missing file,
# an empty file, binary garbage, a 100 MB file, a path that does not
# exist or is no cgroup, or a cgroup or file that vanishes mid-apply,
# fails with a clear message and a non-zero status, and leaves the pins
# as they were and the working policy denying. On each backend, or on
# $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
each_backend "$@"
cg=/sys/fs/cgroup/input-$backend
d=/tmp/input
mkdir -p $cg $d
echo secret >$d/secret
printf 'name: working\nrules:\n  - files: %s\n    access: read\n    action: deny\n' $d/secret >$d/working.yaml
check "apply a working policy" $L apply $d/working.yaml --cgroup $cg --backend $backend
pins() { ls -R /sys/fs/bpf/lsmlab | md5sum; }
before=$(pins)
still_fine() { # WHAT: the pins are as they were and the policy denies
	if [ "$(pins)" != "$before" ]; then
		not_ok "$1: the pins are unchanged" "$(ls /sys/fs/bpf/lsmlab)"
	elif in_cg $cg "cat $d/secret" >/dev/null 2>&1; then
		not_ok "$1: the working policy still denies"
	else
		ok "$1: pins unchanged, the working policy still denies"
	fi
}
# refused WHAT PATTERN CMD...: CMD fails, non-zero, saying PATTERN
refused() {
	_what=$1 _pattern=$2
	shift 2
	"$@" >$d/out 2>&1
	_rc=$?
	if [ $_rc -ne 0 ] && grep -q -- "$_pattern" $d/out; then
		ok "$_what: status $_rc, '$(head -1 $d/out | cut -c1-120)'"
	else
		not_ok "$_what" "status $_rc, wanted '$_pattern': $(head -3 $d/out)"
	fi
}

: >$d/empty.yaml
head -c 4096 /dev/urandom >$d/garbage.yaml
dd if=/dev/zero of=$d/huge.yaml bs=1M count=100 2>/dev/null
for f in missing empty garbage huge; do
	case $f in
	missing) want="No such file" ;;
	empty) want="empty policy" ;;
	garbage) want="$d/garbage.yaml:" ;;
	huge) want="larger than 1 MiB" ;;
	esac
	refused "check of a $f file" "$want" $L check $d/$f.yaml
	refused "apply of a $f file" "$want" $L apply $d/$f.yaml --cgroup $cg --backend $backend
	refused "run of a $f file" "$want" $L run $d/$f.yaml -- true
	still_fine "after the $f file"
done
rm -f $d/huge.yaml
for p in /sys/fs/cgroup/no-such-cgroup /tmp $d/secret; do
	refused "apply to $p" "cgroup" $L apply $d/working.yaml --cgroup $p --backend $backend
	refused "detach of $p" "cgroup" $L detach --cgroup $p
	refused "show of $p" "cgroup" $L show $p
	refused "events for $p" "cgroup" $L events --cgroup $p --timeout 1
done
refused "detach of a cgroup with no policy" "no policy" $L detach --cgroup /sys/fs/cgroup
# the engine climbs 32 cgroup levels: a deeper cgroup is refused
deep=$cg/deep
for i in $(seq 31); do deep=$deep/d; done
mkdir -p $deep
refused "apply to a cgroup 33 levels deep" "levels deep" \
	$L apply $d/working.yaml --cgroup $deep --backend $backend
while [ "$deep" != "$cg" ]; do rmdir $deep; deep=${deep%/*}; done
# seen from a cgroup namespace, a path's depth is not the cgroup's level
mkdir -p $cg-ns
refused "apply through a cgroup namespace's cgroup2 mount" "not the root of the cgroup2" \
	sh -c "echo \$\$ >$cg-ns/cgroup.procs && exec lab-try cgroupns sh -c \
		'umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup && $L apply $d/working.yaml \
		--cgroup /sys/fs/cgroup --backend $backend'"
rmdir $cg-ns
still_fine "after the bad paths"

# a cgroup that vanishes while a policy is applied to it: the apply
# fails, or it succeeds and the next lsmctl drops the orphaned policy
ok=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	mkdir -p $cg-gone
	$L apply $d/working.yaml --cgroup $cg-gone --backend $backend >/dev/null 2>&1 &
	pid=$!
	usleep $((RANDOM % 300 * 1000))
	rmdir $cg-gone
	wait $pid
	$L list -j | grep -q input-$backend-gone || ok=$((ok + 1))
done
[ $ok -eq 10 ] && ok "a cgroup removed mid-apply leaves no policy behind (10 times)" ||
	not_ok "a cgroup removed mid-apply leaves no policy behind" "$((10 - ok)) of 10 left one"
# a policy file that vanishes mid-apply: all or nothing
cp $d/working.yaml $d/vanishing.yaml
$L apply $d/vanishing.yaml --cgroup $cg --backend $backend >/dev/null 2>&1 &
rm $d/vanishing.yaml
wait $!
[ "$($L show $cg -j | grep -c '"name":"working"')" = 1 ] &&
	ok "a policy file removed mid-apply: the cgroup has a whole policy" ||
	not_ok "a policy file removed mid-apply: the cgroup has a whole policy"
before=$(pins)
still_fine "at the end"
# work-in-progress folders named for a live pid are left over all the
# same (a confined task can make a killed lsmctl's pid live again)
sleep 300 &
live=$!
mkdir /sys/fs/bpf/lsmlab/tmp-global-$live /sys/fs/bpf/lsmlab/new-1-$live
$L list >/dev/null
ls /sys/fs/bpf/lsmlab | grep -q -- "-$live\$" &&
	not_ok "folders left for a live pid are removed by the next lsmctl" "$(ls /sys/fs/bpf/lsmlab)" ||
	ok "folders left for a live pid are removed by the next lsmctl"
kill $live
check "detach" $L detach --cgroup $cg
rmdir $cg
