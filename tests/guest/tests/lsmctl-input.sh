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
# past the 1 MiB cap (lsmctl reads 1 MiB and a byte: a bigger file says no more)
dd if=/dev/zero of=$d/huge.yaml bs=1M count=2 2>/dev/null
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

# run and learn start CMD only once the kernel says it is in its cgroup
# (issue 24): from a threaded cgroup, the cgroup they make is 'domain
# invalid' and the write to its cgroup.procs fails; CMD must not run
# (it would make a file). The control: from a plain cgroup, CMD runs.
td=/sys/fs/cgroup/input-$backend-td
mkdir -p $td/t $cg-plain
echo threaded >$td/t/cgroup.type
rm -f $d/ran-*
in_td() { sh -c "echo \$\$ >$td/cgroup.procs && echo \$\$ >$td/t/cgroup.procs && exec $*"; }
in_cg $cg-plain "$L run $d/working.yaml --backend $backend -- touch $d/ran-control" >$d/out 2>&1
[ $? -eq 0 ] && [ -e $d/ran-control ] && ok "control: run from a plain cgroup runs CMD" ||
	not_ok "control: run from a plain cgroup runs CMD" "$(head -3 $d/out)"
refused "run: CMD in a cgroup it cannot enter is refused" "the command did not enter .*lsmctl-run-" \
	in_td $L run $d/working.yaml --backend $backend -- touch $d/ran-run
[ ! -e $d/ran-run ] && ok "run: and CMD did not run" || not_ok "run: and CMD did not run"
refused "learn: CMD in a cgroup it cannot enter is refused" "the command did not enter .*lsmctl-learn-" \
	in_td $L learn -o $d/ran.yaml --backend global -- touch $d/ran-learn
[ ! -e $d/ran-learn ] && ok "learn: and CMD did not run" || not_ok "learn: and CMD did not run"
rmdir $td/t/lsmctl-* 2>/dev/null
rmdir $cg-plain

# a draft is data (issue 24): a program under learn names a directory
# and itself (its comm) so that a raw draft would end a comment, turn
# self-protection off and end the document before the deny rules
n=$(printf '%s/x\nself_protection: off\n...\n_' $d); hostile=${n%_}
n=$(printf '%s/c\n...\n---\n#_' $d); script=${n%_}
rm -rf "$hostile"
printf '#!/bin/sh\nmkdir "$1" && echo hi >"$1/f" && cat "$1/f"\n' >"$script"
chmod +x "$script"
$L learn -o $d/hostile.yaml --backend global -- "$script" "$hostile" >$d/out 2>&1
[ $? -eq 0 ] && [ -e "$hostile/f" ] && ok "learn of a program that names things to end the draft" ||
	not_ok "learn of a program that names things to end the draft" "$(head -3 $d/out)"
grep -qF 'x\nself_protection: off\n...\n/**"' $d/hostile.yaml &&
	ok "the draft has the hostile name, escaped, in a rule (its subtree: made in the run)" ||
	not_ok "the draft has the hostile name, escaped, in a rule (its subtree: made in the run)" "$(grep -n files $d/hostile.yaml | head -5)"
grep -qF 'by c\n...\n---\n#' $d/hostile.yaml &&
	ok "the draft has the hostile comm, escaped, in a comment" ||
	not_ok "the draft has the hostile comm, escaped, in a comment" "$(grep -n 'by c' $d/hostile.yaml | head -3)"
grep -q '^self_protection\|^\.\.\.\|^---' $d/hostile.yaml &&
	not_ok "the draft keeps self-protection on and one document" "$(grep -n '^self\|^\.\.\.\|^---' $d/hostile.yaml)" ||
	ok "the draft keeps self-protection on and one document"
$L check $d/hostile.yaml >$d/out 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "1 module_load 1 signal\|1 module_load$" $d/out &&
	grep -q "^  - module_load: deny$" $d/hostile.yaml &&
	ok "check: the draft is valid, its deny rules after the name all there" ||
	not_ok "check: the draft is valid, its deny rules after the name all there" "status $rc: $(head -3 $d/out)"
rm -rf "$hostile" "$script"

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
