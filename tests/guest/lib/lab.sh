# The guest tests' shell library (lib/lab_test.c is the C one); source
# it: . /lab/lib/lab.sh
#
# TAP:
#   ok "what"                    a pass
#   not_ok "what" ["why"]        a failure
#   skip "what" ["why"]          a skip
#   check "what" CMD...          pass when CMD succeeds
#
# Confining: $cg is the test's confined cgroup and $ctl its sibling for
# the controls (paths); CMD is a shell command line, run as root.
#   in_cg CGROUP CMD...          run CMD in CGROUP
#   says_eperm FILE              FILE, a command's output, says EPERM
#   control "what" CMD...        CMD works in $ctl
#   expect_eperm "what" CMD...   CMD fails with EPERM in $cg; when it
#                                does not, $on_escape runs (a command
#                                that puts the policy back, say)
#   held "what" CMD...           control, then expect_eperm
# Each says 0 when its line passed.
#
# Pins:
#   pins [DIR]                   a digest of what is pinned below DIR
#                                (default lsmctl's, /sys/fs/bpf/lsmlab),
#                                to show a command changed nothing
#
# Backends:
#   each_backend "$@"            first thing in a test that takes the
#                                backend as $1: with one, $backend is it;
#                                without, the test runs on each backend in
#                                turn (those lab.backends= names, or both),
#                                the global run's lines starting
#                                "global: ", and its status is the worse
#                                of the runs'
ok() { echo "ok - ${LAB_PREFIX:-}$1"; }
not_ok() { echo "not ok - ${LAB_PREFIX:-}$1${2:+ ($2)}"; }
skip() { echo "ok - ${LAB_PREFIX:-}$1 # SKIP ${2:-}"; }
check() {
	_what=$1
	shift
	if _out=$("$@" 2>&1); then ok "$_what"; else not_ok "$_what" "$_out"; fi
}

pins() { ls -R "${1:-/sys/fs/bpf/lsmlab}" 2>&1 | md5sum; }

lab_out=/tmp/.lab-out.$$
in_cg() {
	_cg=$1
	shift
	sh -c "echo \$\$ >$_cg/cgroup.procs && $*"
}
# (busybox's mount says EPERM its own way)
says_eperm() { grep -q -e "not permitted" -e "permission denied (are you root?)" "$1"; }
control() {
	_what=$1
	shift
	if in_cg "$ctl" "$*" >$lab_out 2>&1; then
		ok "control: $_what works in $ctl"
	else
		not_ok "control: $_what works in $ctl" "it failed there too: $(head -c 300 $lab_out)"
		return 1
	fi
}
expect_eperm() {
	_what=$1
	shift
	in_cg "$cg" "$*" >$lab_out 2>&1
	if says_eperm $lab_out; then
		ok "held: $_what (EPERM)"
	else
		not_ok "held: $_what" "no EPERM: $(head -c 300 $lab_out)"
		${on_escape:-:}
		return 1
	fi
}
held() { control "$@" && expect_eperm "$@"; }

each_backend() {
	if [ -n "${1:-}" ]; then
		backend=$1
		return
	fi
	_rc=0
	[ -z "${LAB_BACKENDS:-}" ] || echo "# the backends this boot runs: $LAB_BACKENDS"
	case ",${LAB_BACKENDS:-cgroup,global}," in *,cgroup,*) "$0" cgroup || _rc=1 ;; esac
	case ",${LAB_BACKENDS:-cgroup,global}," in
	*,global,*) LAB_PREFIX="global: " "$0" global || _rc=1 ;;
	esac
	exit $_rc
}

# expect_skips EXPECTED SKIPPED [WHY]: the skips in SKIPPED (a name a
# line) are exactly the first fields of EXPECTED's lines ('#' comments);
# WHY NAME prints why NAME was skipped when it was not expected to be.
expect_skips() {
	_want=$(grep -v -e '^#' -e '^$' "$1" | cut -d' ' -f1 | sort)
	_have=$(sort "$2")
	for _s in $_have; do
		if echo "$_want" | grep -qx "$_s"; then
			ok "$_s skipped, as expected-skips says: $(grep "^$_s " "$1" | cut -d' ' -f2-)"
		else
			not_ok "$_s skipped" "$(${3:-echo not in expected-skips} "$_s")"
		fi
	done
	for _s in $_want; do
		echo "$_have" | grep -qx "$_s" || not_ok "$_s is skipped, as expected-skips says" "it ran"
	done
}
