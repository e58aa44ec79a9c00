# The policy developer's walk, as make check-userland takes each program
# through it (source it after lab.sh: . /lab/lib/walk.sh):
#
#   learn NAME CMD...          lsmctl learn -o $D/NAME.yaml -- CMD: CMD
#                              exits 0, a draft is written, lsmctl exits 0
#   learn_cgroup NAME CG S DRIVER...  lsmctl learn --cgroup CG for S s,
#                              DRIVER run once learning has started
#   checks NAME                lsmctl check passes the draft
#   enforce NAME [APPLY-ARGS]  the draft applied to the cgroup $W/NAME
#                              (made here), as apply chooses the backend
#   passes NAME "what" CMD...  CMD run in $W/NAME exits 0
#   denied NAME "what" PATTERN CMD...  CMD run in $W/NAME fails, and an
#                              event of the cgroup's names PATTERN
#   draft_lacks NAME "what" REGEX   no rule line of the draft matches
#   walk NAME JOB              learn, checks, enforce and passes of the
#                              shell command line JOB: the walk up to
#                              its variants
#
# $W is the test's own cgroup (lab-userland.service delegates its
# subtree), $D the folder of drafts and outputs.
W=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
D=/tmp/walk
mkdir -p $D

learn() {
	_n=$1
	shift
	_t0=$(date +%s)
	lsmctl learn -o $D/$_n.yaml -- "$@" >$D/$_n.learn 2>&1
	_rc=$?
	sed 's/^/# learn: /' $D/$_n.learn | tail -n 5
	[ $_rc -eq 0 ] && [ -s $D/$_n.yaml ] && grep -q "^lsmctl learn: .* exited 0;" $D/$_n.learn &&
		ok "$_n: the run passed while learning, and learn wrote a draft ($(($(date +%s) - _t0)) s)" ||
		not_ok "$_n: the run passed while learning, and learn wrote a draft" "status $_rc"
}

learn_cgroup() {
	_n=$1 _cg=$2 _s=$3
	shift 3
	_t0=$(date +%s)
	lsmctl learn -o $D/$_n.yaml --cgroup "$_cg" --timeout "$_s" >$D/$_n.learn 2>&1 &
	_pid=$!
	_i=0
	while ! grep -q "^lsmctl learn: learning" $D/$_n.learn && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	"$@" >$D/$_n.driver 2>&1 || echo "# $_n: the driver failed: $(tail -n 3 $D/$_n.driver)"
	wait $_pid
	_rc=$?
	sed 's/^/# learn: /' $D/$_n.learn | tail -n 5
	[ $_rc -eq 0 ] && [ -s $D/$_n.yaml ] &&
		ok "$_n: learn --cgroup wrote a draft ($(($(date +%s) - _t0)) s)" ||
		not_ok "$_n: learn --cgroup wrote a draft" "status $_rc"
}

checks() {
	if lsmctl check $D/$1.yaml >$D/$1.check 2>&1; then
		ok "$1: check passes the draft"
	else
		not_ok "$1: check passes the draft" "$(tail -n 3 $D/$1.check | tr '\n' '|')"
	fi
	sed 's/^/# check: /' $D/$1.check | tail -n 4
}

enforce() {
	_n=$1
	shift
	mkdir -p $W/$_n
	if lsmctl apply $D/$_n.yaml --cgroup $W/$_n "$@" >$D/$_n.apply 2>&1; then
		ok "$_n: apply"
	else
		not_ok "$_n: apply" "$(tail -n 3 $D/$_n.apply | tr '\n' '|')"
	fi
	sed 's/^/# apply: /' $D/$_n.apply | tail -n 3
}

passes() {
	_n=$1 _what=$2
	shift 2
	if in_cg $W/$_n "$*" >$D/$_n.out 2>&1; then
		ok "$_n: under its draft, $_what"
	else
		not_ok "$_n: under its draft, $_what" "status $?: $(tail -n 3 $D/$_n.out | tr '\n' '|')"
	fi
}

denied() {
	_n=$1 _what=$2 _pat=$3
	shift 3
	if in_cg $W/$_n "$*" >$D/$_n.out 2>&1; then
		not_ok "$_n: under its draft, $_what is denied" "it worked: $(tail -n 2 $D/$_n.out | tr '\n' '|')"
		return 1
	fi
	lsmctl events --cgroup $W/$_n --timeout 3 >$D/$_n.events 2>&1
	if grep -q -- "$_pat" $D/$_n.events; then
		ok "$_n: under its draft, $_what is denied, and an event names $_pat"
	else
		not_ok "$_n: under its draft, $_what is denied, and an event names $_pat" \
			"events: $(head -c 400 $D/$_n.events | tr '\n' '|')"
	fi
}

draft_lacks() {
	if grep -v '^ *#' $D/$1.yaml | grep -q -E -- "$3"; then
		not_ok "$1: the draft has no rule $2" "$(grep -v '^ *#' $D/$1.yaml | grep -E -- "$3" | head -n 3 | tr '\n' '|')"
	else
		ok "$1: the draft has no rule $2"
	fi
}

show_draft() { grep -v '^ *# [^-]' $D/$1.yaml | sed "s/^/# $1.yaml: /"; }

walk() {
	learn $1 sh -c "$2"
	checks $1
	show_draft $1
	enforce $1
	passes $1 "the same run" "$2"
}
