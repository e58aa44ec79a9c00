#!/bin/sh
# lsmctl events from the journal: every reader gets every event of a
# flood, or says exactly how many it lost; a reader stopped while more
# than the journal holds is written loses exactly the overflow; events
# name the cgroup, the policy and the rule as they were when they
# happened, after the cgroup is gone and the policy replaced or
# detached. On each backend, or on $1 alone; the floods on the cgroup
# backend only (both backends report through the same report() into the
# same journal: the readers' part is the backends' alike).
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
P=/lab/tests/sp-probe
SLOTS=4096	# LAB_JOURNAL_SLOTS
each_backend "$@"
cg=/sys/fs/cgroup/ev-$backend
rel=/ev-$backend
mkdir -p $cg
echo secret >/tmp/ev-secret
echo open >/tmp/ev-open
cat >/tmp/ev-a.yaml <<'Y'
name: ev-a
rules:
  - files: /tmp/ev-secret
    access: read
    action: deny
Y
cat >/tmp/ev-b.yaml <<'Y'
name: ev-b
rules:
  - files: /tmp/ev-open
    access: write
    action: deny
  - files: /tmp/ev-secret
    access: read
    action: deny
Y

# A reader in the background: lsmctl events ARGS > FILE; its pid in $reader,
# once it holds the journal (two bpf-map fds), so that no event is before it.
start_reader() {
	_out=$1
	shift
	$L events --new "$@" >$_out 2>&1 &
	reader=$!
	for _i in $(seq 100); do
		[ "$(ls -l /proc/$reader/fd 2>/dev/null | grep -c bpf-map)" -ge 2 ] && return 0
		sleep 0.1
	done
	echo "# reader $reader never opened the journal: $(cat $_out)"
}
seen() { grep -c "verdict=deny .*cgroup=$rel " "$1"; }
lost() { sed -n 's/^lost \([0-9]*\) event(s).*/\1/p' "$1" | awk '{ n += $1 } END { print n + 0 }'; }
# Wait until each FILE has seen + lost = N, or nothing came for 10 s.
settle() {
	_n=$1
	shift
	_was=-1
	_still=0
	while [ $_still -lt 20 ]; do
		_done=1
		_all=0
		for _f in "$@"; do
			_t=$(($(seen $_f) + $(lost $_f)))
			_all=$((_all + _t))
			[ $_t -ge $_n ] || _done=0
		done
		[ $_done = 1 ] && break
		[ $_all = $_was ] && _still=$((_still + 1)) || _still=0
		_was=$_all
		sleep 0.5
	done
}

check "apply ev-a to $cg ($backend)" $L apply /tmp/ev-a.yaml --cgroup $cg --backend $backend

# two readers of the cgroup and a logger of every cgroup, 10000 denials
if [ $backend = cgroup ]; then
	N=10000
	start_reader /tmp/ev-r1 --cgroup $cg; r1=$reader
	start_reader /tmp/ev-r2 --cgroup $cg; r2=$reader
	start_reader /tmp/ev-log; r3=$reader
	in_cg $cg "$P flood $N /tmp/ev-secret"
	sleep 2	# a second for the readers' last 'lost' line
	settle $N /tmp/ev-r1 /tmp/ev-r2 /tmp/ev-log
	kill $r1 $r2 $r3
	wait $r1 $r2 $r3
	for f in /tmp/ev-r1 /tmp/ev-r2 /tmp/ev-log; do
		s=$(seen $f)
		l=$(lost $f)
		[ $((s + l)) -eq $N ] && [ "$s" -gt 0 ] &&
			ok "$(basename $f): $s of the $N denials, $l said lost: every one accounted for" ||
			not_ok "$(basename $f): the $N denials, seen or said lost" "seen $s, lost $l: $(tail -3 $f)"
	done

	# a reader stopped while more than the journal holds is written
	start_reader /tmp/ev-stopped --cgroup $cg; r4=$reader
	kill -STOP $r4
	M=$((SLOTS + 900))
	in_cg $cg "$P flood $M /tmp/ev-secret"
	kill -CONT $r4
	settle $M /tmp/ev-stopped
	sleep 1.5
	kill $r4
	wait $r4
	s=$(seen /tmp/ev-stopped)
	l=$(lost /tmp/ev-stopped)
	[ "$s" -eq $SLOTS ] && [ "$l" -eq 900 ] &&
		ok "a reader stopped through $M denials reads the last $SLOTS and says the other 900 were lost" ||
		not_ok "a reader stopped through $M denials: $SLOTS read, 900 said lost" "seen $s, lost $l: $(grep lost /tmp/ev-stopped)"
	grep -q "^lost 900 event(s): this reader fell" /tmp/ev-stopped &&
		ok "it says why they were lost" || not_ok "it says why they were lost" "$(grep lost /tmp/ev-stopped)"
fi

# named as they were: a cgroup removed, a policy replaced, then detached
mkdir $cg/kid "$cg/k id"
in_cg $cg/kid "cat /tmp/ev-secret" 2>/dev/null && not_ok "the read in $rel/kid is denied" ||
	ok "the read in $rel/kid is denied"
# a denial in $cg/NAME is written with NAME as ESCAPED in the line of text
escaped_in_text() {
	in_cg "'$cg/$1'" "cat /tmp/ev-secret" 2>/dev/null
	out=$($L events --cgroup "$cg/$1" --timeout 1 2>&1 | grep "verdict=deny")
	echo "$out" | grep -qF "cgroup=$rel/$2 pid=" && ok "$3" || not_ok "$3" "$out"
}
escaped_in_text "k id" 'k\x20id' "a cgroup named with a space: written \\x20 in the line of text, one field"
# what a terminal acts on: C1's CSI (U+009B) and a right-to-left override
c1=$(printf 'k\302\2332J\342\200\256x')
mkdir "$cg/$c1"
escaped_in_text "$c1" 'k\xc2\x9b2J\xe2\x80\xaex' \
	"a cgroup named with a C1 CSI and a right-to-left override: each byte of them written \\xNN"
rmdir $cg/kid "$cg/k id" "$cg/$c1"
check "replace ev-a by ev-b" $L apply /tmp/ev-b.yaml --cgroup $cg --backend $backend
in_cg $cg "cat /tmp/ev-secret" 2>/dev/null && not_ok "the read in $rel is denied by ev-b" ||
	ok "the read in $rel is denied by ev-b"
check "detach ev-b" $L detach --cgroup $cg
out=$($L events --cgroup $cg --timeout 1 2>&1 | grep "verdict=deny")
echo "$out" | tail -3 | sed 's/^/# /'
echo "$out" | grep "cgroup=$rel/kid " | tail -1 | grep -q " rule=0 (.*ev-secret.*) policy=ev-a " &&
	ok "the removed cgroup's event names it, ev-a and ev-a's rule 0" ||
	not_ok "the removed cgroup's event names it, ev-a and ev-a's rule 0"
echo "$out" | tail -1 | grep -q "cgroup=$rel .* rule=1 (.*ev-secret.*) policy=ev-b " &&
	ok "the detached policy's event names ev-b and its rule 1" ||
	not_ok "the detached policy's event names ev-b and its rule 1"
out=$($L events -j --cgroup $cg --timeout 1 2>&1 | grep '"verdict"' | tail -1)
echo "$out" | grep -q "\"cgroup\":\"$rel\",\"policy_cgroup\":\"$rel\"" &&
	ok "events -j: the cgroup and the policy's, named as they were" ||
	not_ok "events -j: the cgroup and the policy's, named as they were" "$out"
rmdir $cg
