#!/bin/sh
# Namespaces and mounts inside a confined subtree, self-protection on
# (issue #27, items 2 and 4). Root inside makes namespaces of its own and
# mounts in a mount namespace it made with a user namespace of its own
# (binds, moves, unmounts, pivot_root, propagation, per-mount flags,
# tmpfs, proc, devpts, cgroup2 in a cgroup namespace of its own), and
# runs a container (bubblewrap) whose processes stay under its policy
# and get a tighter one of their own through the broker. Refused, each
# after a control that shows the same call where no policy stands: a
# mount in a mount namespace without a user namespace of its own (its
# mounts propagate out), in one a task outside made, on a mount outside
# through a descriptor, a remount of a whole filesystem, and
# filesystems off the guard's list (overlayfs, a fresh BPF filesystem);
# and a subtree rule's allow never reaches a mount made there (a tmpfs
# or a bind below an allowed folder). On each backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
O=/lab/tests/ns-own
each_backend "$@"
cg=/sys/fs/cgroup/ci-mnt-$backend
ctl=/sys/fs/cgroup/ci-mnt-$backend-ctl	# a sibling with no policy: the controls
secret=/tmp/ci-mnt-secret
mine=/tmp/ci-mnt-mine	# a folder no exec rule allows
bin=/tmp/ci-mnt-bin	# a folder whose subtree an exec rule allows
box_secret=/tmp/ci-mnt-box-secret	# the outer policy lets it be read, the box's not
sock=/run/lsmctl/broker-mnt-$backend.sock
export LSMCTL_BROKER=$sock
mkdir -p $cg/box $ctl $mine $bin/host $bin/x $bin/y /tmp/ci-mnt-l1 /tmp/ci-mnt-l2 /tmp/ci-mnt-m
echo secret >$secret
# a filesystem mounted below a denied folder before apply (its deny
# follows it wherever it is bound), and the machine's tmpfs for remounts
deny=/tmp/ci-mnt-deny
mkdir -p $deny/data /tmp/ci-mnt-host /tmp/ci-mnt-r /tmp/ci-mnt-r2
mount -t tmpfs none $deny/data && echo x >$deny/data/secret
# a folder of a filesystem mounted nowhere else, bound below it; and a
# filesystem mounted outside it, bound below it too
mkdir -p $deny/sub $deny/pub /tmp/ci-mnt-src /tmp/ci-mnt-pub
mount -t tmpfs none /tmp/ci-mnt-src && mkdir /tmp/ci-mnt-src/sub &&
	echo x >/tmp/ci-mnt-src/sub/secret && mount --bind /tmp/ci-mnt-src/sub $deny/sub &&
	umount /tmp/ci-mnt-src
mount -t tmpfs none /tmp/ci-mnt-pub && echo x >/tmp/ci-mnt-pub/f && mount --bind /tmp/ci-mnt-pub $deny/pub
mount -t tmpfs -o size=8m none /tmp/ci-mnt-host
cp /bin/busybox $mine/true	# (busybox runs the applet its name says)
# exec: an allow-list (default: deny) of the guest's programs and $bin
{
	printf 'name: ci-mnt-%s\ndefault: deny\nrules:\n' $backend
	for d in /bin /sbin /usr /lib /lib64 /lab $bin; do
		printf '  - exec: %s/**\n    action: allow\n' $d
	done
	printf '  - files: %s\n    access: read\n    action: deny\n' $secret
	printf '  - files: %s/**\n    access: read\n    action: deny\n' $deny
} >/tmp/ci-mnt-$backend.yaml
$L serve $sock 2>/tmp/ci-mnt-broker.log &
broker=$!
for _i in 1 2 3 4 5 6 7 8 9 10; do [ -S $sock ] && break; sleep 1; done
check "apply ($backend backend, self-protection on)" \
	$L apply /tmp/ci-mnt-$backend.yaml --cgroup $cg --backend $backend
inside() { in_cg $cg "$@"; }
# works WHAT CMD: CMD works in $ctl and in $cg
works() {
	control "$@" && { inside "$2" >$lab_out 2>&1 && ok "$1, inside" ||
		not_ok "$1, inside" "$(head -c 300 $lab_out)"; }
}
# denied WHAT CMD: CMD, run in $cg, fails with EPERM or EACCES
denied() {
	inside "$2" >$lab_out 2>&1
	if [ $? != 0 ] && { says_eperm $lab_out || grep -q "ermission denied" $lab_out; }; then
		ok "held: $1"
	else
		not_ok "held: $1" "$(head -c 300 $lab_out)"
	fi
}
refused() { control "$@" && denied "$@"; }
# rooted WHAT SCRIPT: SCRIPT works in $ctl, then in $cg, each in a mount
# namespace made outside whose root is a mount, as a real root
# filesystem is (pivot_root cannot leave an initramfs)
rooted() {
	if $O rooted $ctl -- sh $2 >$lab_out 2>&1; then
		ok "control: $1 works in $ctl"
		$O rooted $cg -- sh $2 >$lab_out 2>&1 && ok "$1, inside" ||
			not_ok "$1, inside" "$(head -c 300 $lab_out)"
	else
		not_ok "control: $1 works in $ctl" "it failed there too: $(head -c 300 $lab_out)"
	fi
}
# rooted_denied WHAT SCRIPT [SUB]: SCRIPT, rooted in $cg (or $cg/SUB), fails
# with EPERM or EACCES
rooted_denied() {
	$O rooted $cg${3:+/$3} -- sh $2 >$lab_out 2>&1
	if [ $? != 0 ] && { says_eperm $lab_out || grep -q "ermission denied" $lab_out; }; then
		ok "held: $1"
	else
		not_ok "held: $1" "$(head -c 300 $lab_out)"
	fi
}

# The guard is one for both backends: what it alone decides (namespaces,
# mounts) runs once a boot, on the cgroup backend's run where the boot
# has it.
case ",${LAB_BACKENDS:-cgroup,global}," in
*,cgroup,*) [ $backend = cgroup ] && guard_run=1 || guard_run=0 ;;
*) guard_run=1 ;;
esac
if [ $guard_run = 1 ]; then
	# Namespaces of its own: each kind the kernel has (stock and lsm have no
	# IPC and UTS namespaces), made by unshare(2) from inside.
	# (busybox's unshare -m always mounts: ns-own plain makes one alone)
	for ns in user:"unshare -U" mnt:"$O plain --" pid:"unshare -p -f" net:"unshare -n" \
		uts:"unshare -u" ipc:"unshare -i"; do
		if [ -e /proc/self/ns/${ns%%:*} ]; then
			works "a ${ns%%:*} namespace of its own (${ns#*:})" "${ns#*:} true"
		else
			skip "a ${ns%%:*} namespace of its own" "$LAB_VARIANT has no ${ns%%:*} namespaces"
		fi
	done

	# Mounts in namespaces of its own.
	works "a tmpfs mounted in a user and mount namespace of its own" \
		"$O user -- sh -c 'mount -t tmpfs none /tmp/ci-mnt-m && touch /tmp/ci-mnt-m/f'"
	works "its mounts made private (mount --make-rprivate /)" \
		"$O user -- mount --make-rprivate /"
	works "a bind mount, made read-only (remount,bind,ro), moved and unmounted" \
		"$O user -- sh -c 'mount --bind $mine /tmp/ci-mnt-m && mount -o remount,bind,ro /tmp/ci-mnt-m &&
			! touch /tmp/ci-mnt-m/f 2>/dev/null && mount --move /tmp/ci-mnt-m $bin/x &&
			umount $bin/x'"
	works "proc mounted in a pid namespace of its own" \
		"$O user -- unshare -p -f sh -c 'mount -t proc proc /tmp/ci-mnt-m && [ -d /tmp/ci-mnt-m/1 ]'"
	works "devpts, a new instance" \
		"$O user -- mount -t devpts -o newinstance devpts /tmp/ci-mnt-m"
	works "cgroup2 in a cgroup namespace of its own" \
		"$O user -C -- sh -c 'mount -t cgroup2 none /tmp/ci-mnt-m && [ -f /tmp/ci-mnt-m/cgroup.procs ]'"
	works "a namespace of its own made in one of its own, and a tmpfs there" \
		"$O user -- $O user -- mount -t tmpfs none /tmp/ci-mnt-m"
	cat >/tmp/ci-mnt-pivot <<-EOF
	$O user -- sh -c 'mount -t tmpfs none /tmp/ci-mnt-m && mkdir /tmp/ci-mnt-m/old &&
		cd /tmp/ci-mnt-m && pivot_root . old && /old/bin/umount -l /old && [ ! -e /old/lab ]'
	EOF
	rooted "pivot_root into a tmpfs, the old root unmounted" /tmp/ci-mnt-pivot

	# Refused where tasks outside would see it.
	refused "a tmpfs mounted in a mount namespace with no user namespace of its own" \
		"$O plain -- mount -t tmpfs none /tmp/ci-mnt-m"
	sleep 300 &
	v=$!
	$O user -- sleep 300 &
	outer=$!
	sleep 1
	touch /tmp/ci-mnt-outns
	mount --bind /proc/$outer/ns/mnt /tmp/ci-mnt-outns
	refused "a tmpfs mounted in a namespace a task outside made (setns by a bind of its ns file)" \
		"$O join /tmp/ci-mnt-outns -- mount -t tmpfs none /tmp/ci-mnt-m"
	umount /tmp/ci-mnt-outns
	kill $outer $v
	# (no control: the machine's root mount would stay shared)
	denied "the machine's root mount made shared through a descriptor opened before" "$O fdprop"
	refused "a remount of a whole filesystem it mounted (remount,size=)" \
		"$O user -- sh -c 'mount -t tmpfs none /tmp/ci-mnt-m && mount -o remount,size=1m /tmp/ci-mnt-m'"
	# As the machine's root joined (setns) to a namespace of its own, whose
	# capabilities reach the machine's superblocks: no mount at all there.
	refused "a tmpfs mounted as the machine's root, joined to a namespace of its own" \
		"$O root -- mount -t tmpfs none /tmp/ci-mnt-m"
	ur="$O root -- sh -c 'mount --bind /tmp/ci-mnt-host /tmp/ci-mnt-m && exec $O umountroot /tmp/ci-mnt-m'"
	if control "its root, a bind of the machine's tmpfs, unmounted (remounts the tmpfs read-only)" "$ur"; then
		! touch /tmp/ci-mnt-host/f 2>/dev/null && ok "control: the machine's tmpfs went read-only" ||
			not_ok "control: the machine's tmpfs went read-only"
		mount -o remount,rw /tmp/ci-mnt-host
		denied "its root, a bind of the machine's tmpfs, unmounted" "$ur"
		touch /tmp/ci-mnt-host/f && ok "the machine's tmpfs stays writable" ||
			not_ok "the machine's tmpfs stays writable"
	fi
	# a detached mount sent in (fsmount()): mount(MS_MOVE) would attach
	# any filesystem, with no move_mount hook
	attach() {	# CGROUP: a listener there attaches what ns-own detached-send sends
		rm -f /tmp/ci-mnt.sock
		in_cg $1 "$O attach /tmp/ci-mnt.sock /tmp/ci-mnt-m" >$lab_out 2>&1 &
		_l=$!
		$O detached-send /tmp/ci-mnt.sock >/dev/null 2>&1
		wait $_l
	}
	attach $ctl && grep -q "attached" $lab_out &&
		ok "control: a detached mount sent to $ctl is attached there (MS_MOVE)" ||
		not_ok "control: a detached mount sent to $ctl is attached there (MS_MOVE)" "$(cat $lab_out)"
	attach $cg
	says_eperm $lab_out && ! grep -q "attached" $lab_out &&
		ok "held: a detached mount sent in is not received" ||
		not_ok "held: a detached mount sent in is not received" "$(cat $lab_out)"
	refused "umount -f of a bind of the machine's tmpfs (a filesystem's umount_begin)" \
		"$O root -- sh -c 'mount --bind /tmp/ci-mnt-host /tmp/ci-mnt-m && umount -f /tmp/ci-mnt-m'"
	refused "a remount of the machine's tmpfs, as the machine's root in a namespace of its own" \
		"$O root -- mount -o remount,size=9m /tmp/ci-mnt-host"
	refused "a fresh BPF filesystem, as the machine's root in a namespace of its own" \
		"$O root -- mount -t bpf bpf /tmp/ci-mnt-m"
	opts=$(awk '$2 == "/sys/fs/cgroup" { print $4 }' /proc/mounts)
	refused "cgroup2 outside a cgroup namespace of its own (its options are the hierarchy's)" \
		"$O root -- mount -t cgroup2 -o $opts none /tmp/ci-mnt-m"
	if grep -qw overlay /proc/filesystems; then
		refused "an overlay of two folders (a file under an inode no rule names)" \
			"$O user -- mount -t overlay overlay -o lowerdir=/tmp/ci-mnt-l1:/tmp/ci-mnt-l2 /tmp/ci-mnt-m"
	else
		denied "an overlay (this kernel has no overlayfs: the guard refuses first)" \
			"$O user -- mount -t overlay overlay -o lowerdir=/tmp/ci-mnt-l1:/tmp/ci-mnt-l2 /tmp/ci-mnt-m"
	fi
	# FUSE: a filesystem a task serves, files under inodes no rule names
	# (inside, fd=0 is no /dev/fuse: the kernel would say EINVAL, or
	# ENODEV where it has no FUSE, as no lab kernel has; the guard says
	# EPERM before it looks)
	fuse="mount -t fuse -o rootmode=40000,user_id=0,group_id=0"
	if grep -qw fuse /proc/filesystems && [ -c /dev/fuse ]; then
		control "FUSE mounted on a /dev/fuse of its own" \
			"$O user -- sh -c 'exec 9<>/dev/fuse && $fuse,fd=9 ci /tmp/ci-mnt-m && umount /tmp/ci-mnt-m'"
	else
		skip "control: FUSE mounted on a /dev/fuse of its own" "$LAB_VARIANT has no FUSE"
	fi
	denied "FUSE mounted in a namespace of its own" "$O user -- $fuse,fd=0 ci /tmp/ci-mnt-m"
fi
umount /tmp/ci-mnt-host

# A subtree's allow does not reach a mount made in such a namespace.
mount -t tmpfs none $bin/host && cp /bin/busybox $bin/host/true
check "control: a program on a filesystem mounted outside below $bin/** runs" \
	inside "$bin/host/true"
umount $bin/host
denied "exec of a program of its own (default: deny)" "$mine/true"
refused "exec from a tmpfs it mounted below $bin/**" \
	"$O user -- sh -c 'mount -t tmpfs none $bin/x && cp $mine/true $bin/x/ && $bin/x/true'"
refused "exec through a bind of its own folder below $bin/**" \
	"$O user -- sh -c 'mount --bind $mine $bin/y && $bin/y/true'"
# ... nor one carried into a namespace the machine's user namespace owns
refused "exec from its tmpfs below $bin/**, in a copy of its namespace the machine's root makes" \
	"$O root -- unshare -m sh -c 'mount -t tmpfs none $bin/x && cp $mine/true $bin/x/ && $bin/x/true'"
carried() {	# CGROUP: a namespace of its own with a program on a tmpfs below $bin, kept
	in_cg $1 "$O user -- sh -c 'mount -t tmpfs none $bin/x && cp $mine/true $bin/x/ &&
		echo \$\$ >/tmp/ci-mnt-pid && exec sleep 60'" &
	for _i in 1 2 3 4 5; do [ -s /tmp/ci-mnt-pid ] && break; sleep 1; done
}
rm -f /tmp/ci-mnt-pid
carried $ctl
c="$O join /proc/\$(cat /tmp/ci-mnt-pid)/ns/mnt -- unshare -m $bin/x/true"
control "its tmpfs below $bin/** carried into a copy the machine's root makes, run there" "$c"
kill $(cat /tmp/ci-mnt-pid) 2>/dev/null
rm -f /tmp/ci-mnt-pid
carried $cg
denied "its tmpfs below $bin/** carried into a copy the machine's root makes, run there" "$c"
kill $(cat /tmp/ci-mnt-pid) 2>/dev/null
# ... nor one no namespace vouches for (unmounted lazily, its child still connected)
refused "exec from its tmpfs below $bin/**, kept connected by a lazy unmount" \
	"$O user -- sh -c 'mount --bind $bin /tmp/ci-mnt-r && mount -t tmpfs none /tmp/ci-mnt-r/x &&
		cp $mine/true /tmp/ci-mnt-r/x/ && exec $O user -- sh -c \"mount --rbind /tmp/ci-mnt-r /tmp/ci-mnt-r2 &&
		cd /tmp/ci-mnt-r2/x && umount -l /tmp/ci-mnt-r2 && ./true\"'"
denied "read the secret in a namespace of its own" "$O user -- cat $secret"

# A subtree deny follows a filesystem mounted below it at apply wherever it is bound.
denied "read below $deny/**, on the filesystem mounted there" "cat $deny/data/secret"
refused "read it through a bind of that filesystem elsewhere, in a namespace of its own" \
	"$O user -- sh -c 'mount --bind $deny/data /tmp/ci-mnt-m && cat /tmp/ci-mnt-m/secret'"
denied "read below $deny/**, through a bind of a folder of a filesystem mounted nowhere else" \
	"cat $deny/sub/secret"
refused "read it through a bind of that bind elsewhere, in a namespace of its own" \
	"$O user -- sh -c 'mount --bind $deny/sub /tmp/ci-mnt-m && cat /tmp/ci-mnt-m/secret'"
check "a filesystem mounted outside $deny/** and bound below it stays readable outside it" \
	inside "cat /tmp/ci-mnt-pub/f"

# Under a policy with rules on proc's files, no proc of its own (a new
# instance shows them under another device): a nested one without
# self-protection too, whose subtree the guard above judges.
views=/sys/fs/cgroup/ci-mnt-views-$backend
mkdir -p $views/in
printf 'name: ci-mnt-views\nrules:\n  - files: %s\n    access: read\n    action: deny\n' \
	$secret >/tmp/ci-mnt-views.yaml
printf 'name: ci-mnt-views-in\nself_protection: off\nrules:\n  - files: /proc/version\n    access: read\n    action: deny\n' \
	>/tmp/ci-mnt-views-in.yaml
check "apply a guarded policy to $views" \
	$L apply /tmp/ci-mnt-views.yaml --cgroup $views --backend $backend
check "apply one without self-protection, with a rule on /proc/version, to $views/in" \
	$L apply /tmp/ci-mnt-views-in.yaml --cgroup $views/in --backend $backend
in_cg $views/in "cat /proc/version" >$lab_out 2>&1 && not_ok "held: read /proc/version" ||
	ok "held: read /proc/version"
pv="$O user -- unshare -p -f sh -c 'mount -t proc proc /tmp/ci-mnt-m && cat /tmp/ci-mnt-m/version'"
control "proc of its own, its version read" "$pv"
in_cg $views/in "$pv" >$lab_out 2>&1
[ $? != 0 ] && says_eperm $lab_out && ok "held: proc of its own under a policy with rules on proc" ||
	not_ok "held: proc of its own under a policy with rules on proc" "$(head -c 300 $lab_out)"
$L detach --cgroup $views/in >/dev/null && $L detach --cgroup $views >/dev/null
rmdir $views/in $views

# A container: bubblewrap, in user, mount, pid, IPC, UTS and cgroup namespaces.
if command -v bwrap >/dev/null; then
	# (namespaces the kernel has: stock and lsm have no IPC and UTS ones)
	more=
	box='[ $$ -le 2 ] && [ -d /proc/1 ]'	# (bwrap is its pid 1, the program 2)
	[ -e /proc/self/ns/ipc ] && more="$more --unshare-ipc"
	[ -e /proc/self/ns/uts ] && more="$more --unshare-uts --hostname ci-box" &&
		box="$box && [ \$(hostname) = ci-box ]"
	bw="bwrap --unshare-user --uid 0 --gid 0 --unshare-pid --unshare-net --unshare-cgroup \
		$more --ro-bind / / --proc /proc --dev /dev --tmpfs /run --ro-bind $mine /run/mine --"
	echo "$bw sh -c '$box'" >/tmp/ci-mnt-box
	rooted "bubblewrap runs a program in a container" /tmp/ci-mnt-box
	echo "$bw cat $secret" >/tmp/ci-mnt-box-read
	rooted_denied "inside the container: read the secret" /tmp/ci-mnt-box-read
	echo "$bw /run/mine/true" >/tmp/ci-mnt-box-exec
	rooted_denied "inside the container: exec of its own program (/run/mine/true)" /tmp/ci-mnt-box-exec
	# A tighter policy of its own, applied by the confined root through
	# the broker; the container started in that cgroup. With
	# cgroup_attach the confined root moves itself there; on 6.1 as
	# released it cannot, and the task outside that set up its root
	# starts it there.
	echo box >$box_secret
	printf 'name: ci-box\nrules:\n  - files: %s\n    access: read\n    action: deny\n' \
		$box_secret >/tmp/ci-mnt-box.yaml
	inside "$L apply /tmp/ci-mnt-box.yaml --cgroup $cg/box" >$lab_out 2>&1 &&
		grep -q "the broker: applied 'ci-box' to /ci-mnt-$backend/box" $lab_out &&
		ok "the confined root gives $cg/box a policy of its own through the broker" ||
		not_ok "the confined root gives $cg/box a policy of its own through the broker" \
			"$(head -c 300 $lab_out)"
	echo "$bw cat $box_secret" >/tmp/ci-mnt-box-tight
	check "control: in $cg, outside the box, a container reads the box's secret" \
		$O rooted $cg -- sh /tmp/ci-mnt-box-tight
	if [ "$LAB_SERIES" = 1 ]; then
		echo "echo \$\$ >$cg/box/cgroup.procs && $bw cat $box_secret" >/tmp/ci-mnt-box-move
		rooted_denied "a container the confined root moved into $cg/box: the box's secret" \
			/tmp/ci-mnt-box-move
		echo "echo \$\$ >$cg/box/cgroup.procs && $bw cat $secret" >/tmp/ci-mnt-box-move
		rooted_denied "a container the confined root moved into $cg/box: the outer secret" \
			/tmp/ci-mnt-box-move
	else
		rooted_denied "a container started in $cg/box ($LAB_VARIANT: no move within): the box's secret" \
			/tmp/ci-mnt-box-tight box
		echo "$bw cat $secret" >/tmp/ci-mnt-box-read
		rooted_denied "a container started in $cg/box: the outer secret" /tmp/ci-mnt-box-read box
	fi
	inside "$L detach --cgroup $cg/box" >$lab_out 2>&1 &&
		ok "the confined root detaches the box's policy through the broker" ||
		not_ok "the confined root detaches the box's policy through the broker" \
			"$(head -c 300 $lab_out)"
else
	not_ok "bubblewrap is in the guest" "no bwrap"
fi
kill $broker

$L detach --cgroup $cg >/dev/null && ok "detach from outside" || not_ok "detach from outside"
rmdir $cg/box $cg $ctl 2>/dev/null
umount $deny/data $deny/sub $deny/pub /tmp/ci-mnt-pub
rm -rf $mine $bin $box_secret $deny /tmp/ci-mnt-r /tmp/ci-mnt-r2 /tmp/ci-mnt-src /tmp/ci-mnt-pub /tmp/ci-mnt-l1 /tmp/ci-mnt-l2 /tmp/ci-mnt-m /tmp/ci-mnt-host
