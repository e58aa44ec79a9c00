#!/bin/sh
# The benchmark's policy configurations, guest side: put the equivalent
# rule set (bench/policies/README.md) in force for one backend, check
# that it denies what it should in the measured process's context, and
# start the measured process in that context.
#
#   setup.sh prepare CONFIG [-R RULES] [-G CGROUPS]
#   setup.sh check CONFIG PLACE
#   setup.sh enter CONFIG PLACE -- CMD [ARG...]
#   setup.sh cleanup CONFIG
#
# CONFIG   none, bpf-cgroup, bpf-global (lsmctl, on that backend), selinux,
#          apparmor, smack, tomoyo, landlock, yama; bpf-allow: no policy,
#          one lsm_cgroup program on file_open that allows everything
#          (/lab/bpf/cgroup_allow.bpf.o, attached with bpftool), what the
#          kernel's dispatch of an lsm_cgroup program costs alone;
#          bpf-shared: bpf-cgroup, and the same rules on the global
#          backend for CG/other, whose lsm/ (BPF_LSM_MAC) programs then
#          share the hooks with the lsm_cgroup ones for every task
# RULES    BPF only: eq (the equivalent rule set, the default) or a number
#          N: one file rule by path (policies/one-rule.yaml) and N-1 filler
#          rules by path; Ni: the rule and its fillers by inode
#          (policies/one-rule-inode.yaml)
# CGROUPS  BPF only: the policy goes on N sibling cgroups (default 1),
#          CG/in/c1..cN
# PLACE    inside (the measured process is in CG/in/c1, or confined as
#          the backend confines) or outside (BPF: CG/out, no policy);
#          none: - (the root cgroup) or cgroup (CG/none, a cgroup of its
#          own: what any task off the root cgroup pays, memcg's charging
#          on a kernel with it, as BPF's inside and outside pay it too)
#
# prepare creates the objects the rules name (the secret file, the
# denied binary: no workload touches them) and loads the policy; check
# runs opbench --try for each rule and fails unless exactly the rules
# this backend can express deny; enter makes this process what the
# backend confines (cgroup, Smack label, Landlock options) and execs
# CMD. cleanup undoes what can be undone, for the tests.
set -eu
(set -o pipefail) 2>/dev/null && set -o pipefail

B=/lab/bench
POL=$B/policies
OPBENCH=/lab/bin/opbench
SECRET=/tmp/bench-secret
DENIED=/tmp/bench-denied
DENIED_ADDR=192.0.2.1
DENIED_PORT=9
CG=/sys/fs/cgroup/lab-bench
SECFS=/sys/kernel/security
STATE=/run/lab-bench.rules	# prepare_bpf: the RULES it applied
ALLOW_PIN=/sys/fs/bpf/bench-allow	# prepare_allow's program

die() { echo "bench: setup: $*" >&2; exit 1; }
say() { echo "bench: $*" >&2; }

# The objects the rules name, created afresh (labels are set at creation).
make_objects() {
	rm -f $SECRET $DENIED
	echo secret >$SECRET
	cat $OPBENCH >$DENIED
	chmod 755 $DENIED
}

# Write a file to a kernel interface in one write() (AppArmor and
# SELinux take a policy only whole).
load_whole() {
	dd if="$1" of="$2" bs=4M 2>/dev/null || die "load $1 into $2 failed"
}

mem_available() { sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo; }

prepare_bpf() {
	backend=${1#bpf-} rules=$2 cgroups=$3
	make_objects
	mkdir -p $CG/in $CG/out
	policy=$POL/equivalent.yaml filler=0
	case $rules in
	eq) ;;
	*i) policy=$POL/one-rule-inode.yaml filler=$((${rules%i} - 1)) ;;
	*) policy=$POL/one-rule.yaml filler=$((rules - 1)) ;;
	esac
	echo "$rules" >$STATE
	mem0=$(mem_available)
	i=1
	while [ $i -le "$cgroups" ]; do
		mkdir -p $CG/in/c$i
		lsmctl apply $policy --cgroup $CG/in/c$i --backend "$backend" \
			--filler $filler >/dev/null ||
			die "lsmctl apply $policy to $CG/in/c$i ($backend backend, filler $filler) failed"
		[ $((i % 100)) -eq 0 ] && say "policy applied to $i of $cgroups cgroups"
		i=$((i + 1))
	done
	say "$(lsmctl list | grep -m 1 "^/lab-bench/in/c1 ")"
	say "$cgroups cgroup(s), $rules rule(s), $1: MemAvailable fell by $(((mem0 - $(mem_available)) / 1024)) MiB"
}

# bpf-allow: the program that allows everything, on CG/in/c1 only.
prepare_allow() {
	make_objects
	mkdir -p $CG/in/c1 $CG/out
	bpftool prog load /lab/bpf/cgroup_allow.bpf.o $ALLOW_PIN ||
		die "bpftool could not load /lab/bpf/cgroup_allow.bpf.o"
	bpftool cgroup attach $CG/in/c1 lsm_cgroup pinned $ALLOW_PIN ||
		die "bpftool could not attach $ALLOW_PIN to $CG/in/c1"
	n=$(bpftool cgroup show $CG/in/c1 | grep -c bench_allow_open || true)
	[ "$n" = 1 ] || die "bpf-allow: $n programs on $CG/in/c1, not 1"
	say "bpf-allow: bench_allow_open on $CG/in/c1"
}

prepare_selinux() {
	[ -e /sys/fs/selinux/load ] || mount -t selinuxfs selinuxfs /sys/fs/selinux ||
		die "SELinux is not active (boot with lsm=selinux)"
	load_whole $B/build/selinux-policy.33 /sys/fs/selinux/load
	[ "$(cat /sys/fs/selinux/enforce)" = 1 ] || die "SELinux is not enforcing"
	# New files take the type in fscreate; this shell opens them. (A
	# context written with a trailing newline is ignored; a newline
	# alone clears it.)
	rm -f $SECRET $DENIED
	printf %s user_u:object_r:bench_secret_t:s0 >/proc/self/attr/fscreate
	echo secret >$SECRET
	printf %s user_u:object_r:bench_noexec_t:s0 >/proc/self/attr/fscreate
	cat $OPBENCH >$DENIED
	printf '\n' >/proc/self/attr/fscreate
	chmod 755 $DENIED
}

prepare_apparmor() {
	[ -e $SECFS/apparmor/.replace ] || die "AppArmor is not active (boot with lsm=apparmor)"
	make_objects
	load_whole $B/build/opbench.aa.bin $SECFS/apparmor/.replace
	grep -q '^bench-opbench (enforce)' $SECFS/apparmor/profiles ||
		die "the bench-opbench profile is not loaded in enforce mode"
}

prepare_smack() {
	smackfs=/sys/fs/smackfs
	[ -e $smackfs/load2 ] || mount -t smackfs smackfs $smackfs ||
		die "Smack is not active (boot with lsm=smack)"
	while read -r rule; do
		echo "$rule" >$smackfs/load2 || die "Smack rule '$rule' refused"
	done <$POL/smack.rules
	echo "$DENIED_ADDR/32 NoNet" >$smackfs/netlabel || die "Smack host label refused"
	# New files take this shell's label: relabel it (root may) around each.
	rm -f $SECRET $DENIED /tmp/opbench.file
	echo Secret >/proc/self/attr/current
	echo secret >$SECRET
	echo NoExec >/proc/self/attr/current
	cat $OPBENCH >$DENIED
	chmod 755 $DENIED
	# opbench's own file (it truncates, keeping the label): not the
	# measured task's label, so every access looks its rule up.
	echo Data >/proc/self/attr/current
	: >/tmp/opbench.file
	echo _ >/proc/self/attr/current
}

prepare_tomoyo() {
	t=$SECFS/tomoyo
	[ -e $t/domain_policy ] || die "TOMOYO is not active (boot with lsm=tomoyo)"
	make_objects
	# Before activation anyone may write policy; after it, only the
	# managers tests/guest/tomoyo/tomoyo-init names.
	{ cat $POL/tomoyo.profile >$t/profile &&
		cat $POL/tomoyo.exception >$t/exception_policy &&
		cat $POL/tomoyo.domain >$t/domain_policy; } 2>/dev/null ||
		die "TOMOYO refused the policy: was it activated already (another test)?"
	/lab/tomoyo/activate
	grep -q '^use_profile 5' $t/domain_policy || die "the bench domain is not in TOMOYO's policy"
}

prepare_yama() {
	make_objects
	echo 2 >/proc/sys/kernel/yama/ptrace_scope || die "Yama is not active"
}

prepare() {
	config=$1 rules=eq cgroups=1
	shift
	while getopts "R:G:" opt; do
		case $opt in
		R) rules=$OPTARG ;;
		G) cgroups=$OPTARG ;;
		*) die "usage: setup.sh prepare CONFIG [-R RULES] [-G CGROUPS]" ;;
		esac
	done
	case $config in
	none | landlock) make_objects ;;
	bpf-cgroup | bpf-global) prepare_bpf "$config" "$rules" "$cgroups" ;;
	bpf-allow) prepare_allow ;;
	bpf-shared)
		prepare_bpf bpf-cgroup "$rules" "$cgroups"
		mkdir -p $CG/other
		lsmctl apply "$policy" --cgroup $CG/other --backend global --filler "$filler" \
			>/dev/null || die "lsmctl apply $policy to $CG/other (global backend) failed"
		;;
	selinux | apparmor | smack | tomoyo | yama) prepare_$config ;;
	*) die "unknown configuration '$config'" ;;
	esac
}

# The rules each backend expresses (bench/policies/README.md says why
# the others are missing): these must deny, the others must not.
expected() {
	case $1:$2 in
	bpf-allow:*) echo "" ;;
	bpf-*:inside)
		# the rule-count series has one rule, on reading the secret
		if [ "$(cat $STATE)" = eq ]; then echo "read exec connect ptrace"; else echo read; fi
		;;
	selinux:*) echo "read exec connect ptrace" ;;
	apparmor:*) echo "read exec ptrace" ;;
	smack:* | tomoyo:*) echo "read exec connect" ;;
	landlock:*) echo "read exec" ;;
	yama:*) echo "ptrace" ;;
	*) echo "" ;;
	esac
}

check() {
	config=$1 place=$2 failed=0
	want=" $(expected "$config" "$place") "
	for probe in "read $SECRET" "exec $DENIED" "connect $DENIED_ADDR $DENIED_PORT" ptrace; do
		set +e
		# shellcheck disable=SC2086 # the probe is words
		out=$("$0" enter "$config" "$place" -- $OPBENCH --try $probe 2>&1)
		rc=$?
		set -e
		case $rc in 1 | 13) got=denied ;; *) got=allowed ;; esac
		[ -n "$out" ] || out="it ran"
		case $want in *" ${probe%% *} "*) exp=denied ;; *) exp=allowed ;; esac
		if [ $got = $exp ]; then
			say "$config $place: ${probe%% *} $got, as expected ($out)"
		else
			say "$config $place: ${probe%% *} $got, expected $exp ($out)"
			failed=1
		fi
	done
	[ $failed -eq 0 ] || die "$config: the policy does not deny what it should in $place"
}

enter() {
	config=$1 place=$2
	shift 2
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || die "usage: setup.sh enter CONFIG PLACE -- CMD [ARG...]"
	case $config:$place in
	bpf-*:inside) echo $$ >$CG/in/c1/cgroup.procs ;;
	bpf-*:outside) echo $$ >$CG/out/cgroup.procs ;;
	none:cgroup) mkdir -p $CG/none && echo $$ >$CG/none/cgroup.procs ;;
	smack:inside) echo Bench >/proc/self/attr/current ;;
	landlock:inside)
		[ "$1" = $OPBENCH ] && set -- "$@" --landlock-read $SECRET --landlock-exec $DENIED
		;;
	*:inside | none:*) ;;
	*) die "$config has no place '$place'" ;;
	esac
	exec "$@"
}

cleanup() {
	case $1 in
	bpf-allow)
		bpftool cgroup detach $CG/in/c1 lsm_cgroup pinned $ALLOW_PIN ||
			die "bpftool could not detach $ALLOW_PIN"
		rm -f $ALLOW_PIN
		rmdir $CG/in/c1 $CG/in $CG/out $CG 2>/dev/null || true
		;;
	bpf-*)
		for cg in $CG/in/c*; do
			[ -d "$cg" ] || continue
			lsmctl detach --cgroup "$cg" >/dev/null || die "lsmctl detach --cgroup $cg failed"
			rmdir "$cg"
		done
		if [ -d $CG/other ]; then
			lsmctl detach --cgroup $CG/other >/dev/null ||
				die "lsmctl detach --cgroup $CG/other failed"
			rmdir $CG/other
		fi
		rm -f $STATE
		rmdir $CG/in $CG/out $CG 2>/dev/null || true
		;;
	yama) echo 0 >/proc/sys/kernel/yama/ptrace_scope ;;
	apparmor) printf %s bench-opbench >$SECFS/apparmor/.remove ;;
	esac
	rm -f $SECRET $DENIED
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
prepare | check | enter | cleanup) [ $# -gt 0 ] || die "$cmd needs a CONFIG"; $cmd "$@" ;;
*) sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
