#!/bin/sh
# Cgroups inside a confined subtree, self-protection on (issue #27, item
# 1). Root inside makes and removes cgroups below its policy's and sets
# the limits of the controllers delegated to it, on every kernel; where
# the kernel has cgroup_attach (the lab's series, patch 12) it also moves
# its own tasks between them (cgroup.procs, cgroup.threads,
# clone3(CLONE_INTO_CGROUP)), and stays confined wherever it goes; on 6.1
# as released (stock, debian) every move stays refused, even within
# (loader/POLICY.md). On every kernel a move into the subtree from
# outside, out of it, or out of a nested guarded cgroup is refused: each
# refusal after a control that shows the same move where no policy
# stands. On each backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
each_backend "$@"
cg=/sys/fs/cgroup/ci-$backend
home=$cg/home	# the confined tasks' own cgroup: $cg holds controllers, so no task
ctl=/sys/fs/cgroup/ci-$backend-ctl	# a sibling with no policy: the controls
secret=/tmp/ci-secret
nest_secret=/tmp/ci-nest-secret
mkdir -p $home $cg/a $cg/b $cg/nest/in $ctl
echo secret >$secret
echo nest >$nest_secret
pids=0
if grep -qw pids /sys/fs/cgroup/cgroup.controllers; then
	# delegated to the subtree, before any task is in $cg
	echo +pids >/sys/fs/cgroup/cgroup.subtree_control &&
		echo +pids >$cg/cgroup.subtree_control && pids=1
fi
policy() {	# NAME FILE: self-protection on (the default), FILE unreadable
	printf 'name: %s\nrules:\n  - files: %s\n    access: read\n    action: deny\n' "$1" "$2" \
		>/tmp/$1.yaml
	$L apply /tmp/$1.yaml --cgroup "$3" --backend $backend
}
check "apply ($backend backend, self-protection on)" policy ci-$backend $secret $cg
check "apply a nested policy with self-protection to $cg/nest" \
	policy ci-nest-$backend $nest_secret $cg/nest
cgroup_of() { sed -n 's/^0:://p' /proc/$1/cgroup; }
inside() { in_cg $home "$@"; }
# denied WHAT CMD: CMD, run in $home, fails with EPERM or EACCES
denied() {
	_what=$1
	shift
	if inside "$*" >$lab_out 2>&1; then
		not_ok "held: $_what" "it worked: $(head -c 300 $lab_out)"
	elif says_eperm $lab_out || grep -q "ermission denied" $lab_out; then
		ok "held: $_what"
	else
		not_ok "held: $_what" "no EPERM or EACCES: $(head -c 300 $lab_out)"
	fi
}
sleep 300 &
outsider=$!

# Cgroups and limits below its own: every kernel.
check "make and remove a cgroup below its own" inside "mkdir $cg/new && rmdir $cg/new"
if [ $pids = 1 ]; then
	check "set the limit of a cgroup below its own (pids.max)" \
		inside "mkdir -p $cg/lim && echo 1 >$cg/lim/pids.max"
	check "control: a task in $ctl sets its own cgroup's limit (pids.max)" \
		in_cg $ctl "echo 5 >$ctl/pids.max"
	denied "set its policy's cgroup's limit (pids.max): its parent's" "echo 5 >$cg/pids.max"
else
	skip "limits below its own" "no pids controller in this kernel"
fi

if [ "$LAB_SERIES" = 1 ]; then
	# Moves within the subtree: the guard judges each at cgroup_attach.
	check "move itself to a cgroup below its own (cgroup.procs)" \
		inside "echo \$\$ >$cg/a/cgroup.procs && grep -qx '0::/ci-$backend/a' /proc/self/cgroup"
	in_cg $ctl "cat $secret" >/dev/null 2>&1 &&
		ok "control: $ctl reads the secret" || not_ok "control: $ctl reads the secret"
	denied "read the secret after moving to a cgroup below (the policy follows)" \
		"echo \$\$ >$cg/a/cgroup.procs && cat $secret"
	check "move a task of its own from one cgroup below to another" \
		inside "{ sleep 100 & p=\$!; echo \$p >$cg/a/cgroup.procs && echo \$p >$cg/b/cgroup.procs &&
			grep -qx '0::/ci-$backend/b' /proc/\$p/cgroup; r=\$?; kill \$p; exit \$r; }"
	check "move a thread into a threaded cgroup below (cgroup.threads)" \
		inside "mkdir -p $cg/t/t1 && echo threaded >$cg/t/t1/cgroup.type &&
			echo \$\$ >$cg/t/cgroup.procs && echo \$\$ >$cg/t/t1/cgroup.threads &&
			grep -qx '0::/ci-$backend/t/t1' /proc/self/cgroup"
	inside "lab-try clone-into $cg/b" >$lab_out 2>&1
	grep -q "started in 0::/ci-$backend/b\$" $lab_out &&
		ok "clone3(CLONE_INTO_CGROUP) a child into a cgroup below its own" ||
		not_ok "clone3(CLONE_INTO_CGROUP) a child into a cgroup below its own" "$(cat $lab_out)"
	if [ $pids = 1 ]; then
		# (sh -c: a fork whatever the shell runs in itself; not the last
		# command, which the shell would exec in its own place)
		inside "echo \$\$ >$cg/lim/cgroup.procs && echo moved && sh -c 'echo forked'; :" \
			>$lab_out 2>&1
		grep -qx moved $lab_out && ! grep -qx forked $lab_out &&
			grep -q "Resource temporarily unavailable" $lab_out &&
			ok "its limit holds: no fork after moving to a cgroup below with pids.max 1" ||
			not_ok "its limit holds: no fork after moving to a cgroup below with pids.max 1" \
				"$(head -c 300 $lab_out)"
	fi
	# A nested guarded cgroup holds its tasks against the root above it.
	check "move a task of its own into the nested guarded cgroup (tighter)" \
		inside "{ sleep 100 & p=\$!; echo \$p >$cg/nest/cgroup.procs &&
			grep -qx '0::/ci-$backend/nest' /proc/\$p/cgroup; r=\$?; kill \$p; exit \$r; }"
	check "a task in the nested cgroup moves within it" \
		in_cg $cg/nest "echo \$\$ >$cg/nest/in/cgroup.procs"
	sleep 300 &
	held=$!
	echo $held >$cg/nest/cgroup.procs
	denied "move a task out of the nested guarded cgroup, from above it" \
		"echo $held >$cg/a/cgroup.procs"
	[ "$(cgroup_of $held)" = /ci-$backend/nest ] && ok "the nested task stayed in place" ||
		not_ok "the nested task stayed in place" "$(cgroup_of $held)"
	kill $held
	in_cg $cg/nest "echo \$\$ >$cg/a/cgroup.procs" >$lab_out 2>&1 &&
		not_ok "held: a task of the nested cgroup moves itself out of it" ||
		ok "held: a task of the nested cgroup moves itself out of it"
	# Decided at the move, not at the open: an fd opened outside.
	in_cg $ctl "echo \$\$ >&3" 3>$ctl/cgroup.procs &&
		ok "control: a task writes itself through an fd of $ctl's cgroup.procs" ||
		not_ok "control: a task writes itself through an fd of $ctl's cgroup.procs"
	denied "move itself out through an fd of $ctl's cgroup.procs opened outside" \
		"echo \$\$ >&3" 3>$ctl/cgroup.procs
	# and one opened inside stays inside: written by a task outside, it
	# would pull a task outside in with its opener's rights
	sleep 300 &
	v3=$!
	listen() {	# CGROUP: a task there takes a descriptor on /tmp/ci.sock and writes $v3
		rm -f /tmp/ci.sock
		in_cg $1 "/lab/tests/sp-probe fd-recv-write /tmp/ci.sock $v3" >$lab_out.r 2>&1 &
		listener=$!
		for _i in 1 2 3 4 5 6 7 8 9 10; do [ -S /tmp/ci.sock ] && break; sleep 1; done
	}
	listen $ctl
	in_cg $ctl "/lab/tests/sp-probe fd-send /tmp/ci.sock $ctl/cgroup.procs" >/dev/null 2>&1
	wait $listener
	grep -q ": ok$" $lab_out.r && [ "$(cgroup_of $v3)" = /ci-$backend-ctl ] &&
		ok "control: $ctl's cgroup.procs, sent from $ctl to a task there, moves a task in" ||
		not_ok "control: $ctl's cgroup.procs, sent from $ctl to a task there, moves a task in" \
			"$(cat $lab_out.r) $(cgroup_of $v3)"
	echo $v3 >/sys/fs/cgroup/cgroup.procs
	listen $ctl
	inside "/lab/tests/sp-probe fd-send /tmp/ci.sock $cg/a/cgroup.procs" >$lab_out 2>&1
	wait $listener
	grep -q "Operation not permitted" $lab_out.r && [ "$(cgroup_of $v3)" = / ] &&
		ok "held: a cgroup.procs opened inside, sent to a task outside, pulls no task in" ||
		not_ok "held: a cgroup.procs opened inside, sent to a task outside, pulls no task in" \
			"$(cat $lab_out $lab_out.r) $(cgroup_of $v3)"
	kill $v3
else
	# 6.1 as released: no hook tells a move within from a move in.
	denied "move itself to a cgroup below its own ($LAB_VARIANT has no cgroup_attach)" \
		"echo \$\$ >$cg/a/cgroup.procs"
	denied "clone3(CLONE_INTO_CGROUP) into a cgroup below its own ($LAB_VARIANT)" \
		"lab-try clone-into $cg/b"
	skip "moves within the subtree, an fd opened outside" \
		"$LAB_VARIANT refuses every move of a guarded task at the open"
fi

# Into and out of the subtree: every kernel.
sleep 300 &
v1=$!
sleep 300 &
v2=$!
in_cg $ctl "echo $v1 >$ctl/cgroup.procs" && ok "control: a task pulls one from outside into $ctl" ||
	not_ok "control: a task pulls one from outside into $ctl"
denied "pull a task from outside into a cgroup below its own" "echo $v2 >$cg/a/cgroup.procs"
[ "$(cgroup_of $v2)" = / ] && ok "the task outside stayed outside" ||
	not_ok "the task outside stayed outside" "$(cgroup_of $v2)"
denied "move a task of its own out to $ctl" \
	"{ sleep 100 & p=\$!; echo \$p >$ctl/cgroup.procs; r=\$?; kill \$p; exit \$r; }"
denied "move itself out to $ctl" "echo \$\$ >$ctl/cgroup.procs"
in_cg $ctl "lab-try clone-into $ctl/.." >/dev/null 2>&1 &&
	ok "control: clone3(CLONE_INTO_CGROUP) from $ctl into the root cgroup" ||
	not_ok "control: clone3(CLONE_INTO_CGROUP) from $ctl into the root cgroup"
denied "clone3(CLONE_INTO_CGROUP) into $ctl" "lab-try clone-into $ctl"
kill $v1 $v2 $outsider
wait 2>/dev/null

$L detach --cgroup $cg/nest >/dev/null && $L detach --cgroup $cg >/dev/null &&
	ok "detach both policies from outside" || not_ok "detach both policies from outside"
# the cgroups' tasks are gone (each test's shell exited); remove the tree
find $cg -depth -type d -exec rmdir {} \; 2>/dev/null
rmdir $ctl 2>/dev/null
[ $pids = 1 ] && echo -pids >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
[ ! -d $cg ] && ok "the test's cgroups removed" || not_ok "the test's cgroups removed" "$(find $cg)"
