#!/bin/sh
# apply --follow: a policy on a cgroup path goes to each cgroup made at
# that path again (a service's restart), before any task can enter it.
# A "service" restarted $rounds times (its cgroup removed, made again, a
# task started in it whose first action is a read the policy denies):
# denied every round, the policy listed on the new cgroup. Controls: the
# read works in a sibling cgroup without policy; the same restart of a
# policy without --follow drops it, said once on stderr, and the read
# works after. A policy waiting for its path is listed as such; detach
# leaves nothing (the next cgroup at the path is unconfined); the cgroup
# backend is refused with --follow. Self-protection follows too: a
# guarded service restarted $grounds times, each new cgroup's first read
# denied and its tasks held by the guard (lsmctl detach, a signal out,
# the guard's pins) before any lsmctl command outside has seen it.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
rounds=${FOLLOW_ROUNDS:-20}
grounds=${FOLLOW_GUARD_ROUNDS:-10}
top=/sys/fs/cgroup/fo.slice
fc=$top/svc.service		# followed: level 2, as /system.slice/nginx.service
nc=$top/plain.service		# the same without --follow
ctl=$top/ctl.service		# no policy
gc=$top/guarded.service		# followed, with self-protection
mkdir -p $fc $nc $ctl
echo secret >/tmp/fo-secret
cat >/tmp/fo.yaml <<'Y'
name: fo
self_protection: off
rules:
  - files: /tmp/fo-secret
    access: read
    action: deny
Y
sed 's/name: fo/name: fo-plain/' /tmp/fo.yaml >/tmp/fo-plain.yaml
sed '/self_protection/d; s/name: fo/name: fo-guarded/' /tmp/fo.yaml >/tmp/fo-guarded.yaml

# the service's one task: its first action is the read (cat's open)
start() { sh -c "echo \$\$ >$1/cgroup.procs && exec cat /tmp/fo-secret" 2>&1; }
# remove and make the cgroup again, once its tasks are gone
restart() {
	_i=0
	while ! rmdir "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 50 ] && { echo "rmdir $1 failed"; return 1; }
		sleep 0.1
	done
	mkdir "$1"
}
cgid() { stat -c %i "$1"; }

# refusals: nothing is applied
out=$($L apply /tmp/fo.yaml --cgroup $fc --follow --backend cgroup 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -ne 0 ] && echo "$out" | grep -q "needs the global backend" && ! $L list | grep -q "^/fo.slice" &&
	ok "apply --follow --backend cgroup: refused, the reason said, nothing applied" ||
	not_ok "apply --follow --backend cgroup: refused, the reason said, nothing applied" "status $rc"
out=$($L apply /tmp/fo.yaml --cgroup $fc --follow 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -eq 0 ] && echo "$out" | grep -q "global backend" && echo "$out" | grep -q "^follows /fo.slice/svc.service" &&
	ok "apply --follow: on the global backend, following the path" ||
	not_ok "apply --follow: on the global backend, following the path" "status $rc"
out=$($L apply /tmp/fo-plain.yaml --cgroup $nc --backend global 2>&1)
[ $? -eq 0 ] && ok "apply without --follow on a sibling path" || not_ok "apply without --follow on a sibling path" "$out"

out=$(start $ctl)
[ "$out" = secret ] && ok "control: the read works in $ctl (no policy)" ||
	not_ok "control: the read works in $ctl (no policy)" "$out"
out=$(start $fc)
echo "$out" | grep -q "not permitted" && ok "the read is denied in $fc before any restart" ||
	not_ok "the read is denied in $fc before any restart" "$out"
out=$(start $nc)
echo "$out" | grep -q "not permitted" && ok "the read is denied in $nc before its restart" ||
	not_ok "the read is denied in $nc before its restart" "$out"

# the service restarted: the first read of each new cgroup is denied;
# lsmctl looks only every other round (two restarts between its calls)
denied=0 listed=0 looked=0 i=1
while [ $i -le $rounds ]; do
	restart $fc || break
	out=$(start $fc)
	if echo "$out" | grep -q "not permitted"; then
		denied=$((denied + 1))
	else
		not_ok "round $i: the new cgroup's first read is denied" "$out"
	fi
	if [ $((i % 2)) -eq 0 ]; then
		looked=$((looked + 1))
		id=$(cgid $fc)
		l=$($L list 2>&1)
		if echo "$l" | grep -q "^fo: follows /fo.slice/svc.service (cgroup $id)$"; then
			listed=$((listed + 1))
		else
			not_ok "round $i: list shows the policy on the new cgroup $id" "$(echo "$l" | tr '\n' '|')"
		fi
	fi
	i=$((i + 1))
done
[ $denied -eq $rounds ] && ok "$rounds restarts: the first read in each new cgroup was denied (EPERM)" ||
	not_ok "$rounds restarts: the first read in each new cgroup was denied" "$denied of $rounds"
[ $looked -gt 0 ] && [ $listed -eq $looked ] &&
	ok "list showed the policy on the cgroup of the moment, $listed times" ||
	not_ok "list showed the policy on the cgroup of the moment" "$listed of $looked"
out=$($L show $fc 2>&1)
echo "$out" | grep -q "^follows: /fo.slice/svc.service (cgroup $(cgid $fc) has it)" &&
	ok "show: follows the path, and which cgroup has it" || not_ok "show: follows the path" "$out"

# without --follow: the restart drops the policy, said once, and the read works
restart $nc
out=$(start $nc)
[ "$out" = secret ] && ok "control: after its restart, $nc's read works (no --follow)" ||
	not_ok "control: after its restart, $nc's read works (no --follow)" "$out"
$L list >/tmp/fo-list 2>/tmp/fo-err
cat /tmp/fo-err | sed 's/^/# /'
grep -q "policy 'fo-plain' on /fo.slice/plain.service removed: its cgroup .* is gone" /tmp/fo-err &&
	! grep -q "fo-plain" /tmp/fo-list &&
	ok "list: the policy without --follow is removed, and says so on stderr" ||
	not_ok "list: the policy without --follow is removed, and says so on stderr" "$(cat /tmp/fo-list /tmp/fo-err | tr '\n' '|')"
$L list >/dev/null 2>/tmp/fo-err
[ ! -s /tmp/fo-err ] && ok "list: said once, not again" || not_ok "list: said once, not again" "$(cat /tmp/fo-err)"

# waiting: no cgroup at the path
restart $fc && rmdir $fc
out=$($L list 2>&1)
echo "$out" | grep -q "^fo: waiting for /fo.slice/svc.service" &&
	ok "list: the policy waits for its path while no cgroup is there" ||
	not_ok "list: the policy waits for its path" "$(echo "$out" | tr '\n' '|')"
out=$($L list -j 2>&1)
echo "$out" | grep -q '"follows":"/fo.slice/svc.service","waiting":true' &&
	ok "list -j: \"waiting\": true" || not_ok "list -j: \"waiting\": true" "$out"
mkdir $fc
out=$(start $fc)
echo "$out" | grep -q "not permitted" && ok "made again after waiting: the first read is denied" ||
	not_ok "made again after waiting: the first read is denied" "$out"
out=$($L list -j 2>&1)
echo "$out" | grep -q "\"cgroup_id\":$(cgid $fc),.*\"follows\":\"/fo.slice/svc.service\",\"waiting\":false" &&
	ok "list -j: on the new cgroup, not waiting" || not_ok "list -j: on the new cgroup, not waiting" "$out"

# detach leaves nothing: no folder, and the next cgroup at the path is unconfined
id=$(cgid $fc)
out=$($L detach --cgroup $fc 2>&1)
[ $? -eq 0 ] && [ ! -e /sys/fs/bpf/lsmlab/cg-$id ] && ! $L list | grep -q "fo" &&
	ok "detach --cgroup: no policy folder, none listed" || not_ok "detach --cgroup: nothing left" "$out"
if [ -e /sys/fs/bpf/lsmlab/global ]; then
	not_ok "detach: the global instance is unloaded with its last policy" "$(ls /sys/fs/bpf/lsmlab)"
else
	ok "detach: the global instance is unloaded with its last policy (no follows entry left)"
fi
out=$(start $fc)
[ "$out" = secret ] && ok "detach: the read works in $fc" || not_ok "detach: the read works in $fc" "$out"
restart $fc
out=$(start $fc)
[ "$out" = secret ] && ok "detach: the next cgroup made at the path is unconfined" ||
	not_ok "detach: the next cgroup made at the path is unconfined" "$out"

# detach of a policy waiting for its path, with another global policy
# keeping the instance loaded: the path is no longer followed
$L apply /tmp/fo-plain.yaml --cgroup $nc --backend global >/dev/null 2>&1
out=$($L apply /tmp/fo.yaml --cgroup $fc --follow 2>&1) || not_ok "apply --follow again" "$out"
rmdir $fc
out=$($L detach --cgroup $fc 2>&1)
[ $? -eq 0 ] && ! $L list | grep -q "^fo:" && ok "detach --cgroup of a policy waiting for its path" ||
	not_ok "detach --cgroup of a policy waiting for its path" "$out"
mkdir $fc
out=$(start $fc)
[ "$out" = secret ] && ok "after it, a cgroup made at the path is unconfined (the global instance loaded)" ||
	not_ok "after it, a cgroup made at the path is unconfined" "$out"
$L detach --cgroup $nc >/dev/null 2>&1

# self-protection follows the path: the guard's own guard_follow_mkdir()
# guards each new cgroup at it from the same tracepoint as the policy's
pins=/sys/fs/bpf/lsmlab
sleep 600 &
outsider=$!
mkdir -p $gc
# its entry in the guard's guarded map (BTF: "cgroup_id": ID)
guarded_has() { bpftool map dump pinned $pins/guard/guarded 2>/dev/null | grep -q "\"cgroup_id\": $1,"; }
guarded_n() { bpftool map dump pinned $pins/guard/guarded 2>/dev/null | grep -c '"cgroup_id"'; }
out=$($L apply /tmp/fo-guarded.yaml --cgroup $gc --follow 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -eq 0 ] && echo "$out" | grep -q "^follows /fo.slice/guarded.service" &&
	[ -e $pins/guard/guard_follows ] && [ -e $pins/guard/link-cgroup_mkdir ] &&
	ok "apply --follow of a policy with self-protection: allowed, the guard follows the path" ||
	not_ok "apply --follow of a policy with self-protection: allowed" "status $rc; $(ls $pins/guard 2>&1 | tr '\n' ' ')"
control_kill() { in_cg $ctl "kill -CONT $outsider" 2>&1; }
[ -z "$(control_kill)" ] && ok "control: a task in $ctl may signal a task outside" ||
	not_ok "control: a task in $ctl may signal a task outside" "$(control_kill)"
# each round: restarted, then the new cgroup checked before lsmctl outside
# runs (list every other round: its recovery moves the record and syncs
# the guard, so two restarts go by with only what the tracepoint wrote)
gdenied=0 gmapped=0 gdetach=0 gkill=0 gpin=0 glisted=0 glooked=0 i=1
while [ $i -le $grounds ]; do
	restart $gc || break
	id=$(cgid $gc)
	guarded_has $id && gmapped=$((gmapped + 1))
	out=$(start $gc)
	echo "$out" | grep -q "not permitted" && gdenied=$((gdenied + 1)) ||
		not_ok "guarded round $i: the new cgroup's first read is denied" "$out"
	out=$(in_cg $gc "$L detach --cgroup $gc" 2>&1)
	[ $? -ne 0 ] && echo "$out" | grep -q "not permitted" && gdetach=$((gdetach + 1)) ||
		not_ok "guarded round $i: lsmctl detach from inside fails (EPERM)" "$out"
	out=$(in_cg $gc "kill -CONT $outsider" 2>&1)
	echo "$out" | grep -q "not permitted" && gkill=$((gkill + 1)) ||
		not_ok "guarded round $i: a signal to a task outside is refused (EPERM)" "$out"
	out=$(in_cg $gc "rm -f $pins/guard/guard_follows $pins/guard/link-cgroup_mkdir" 2>&1)
	echo "$out" | grep -q "not permitted" && [ -e $pins/guard/guard_follows ] &&
		[ -e $pins/guard/link-cgroup_mkdir ] && gpin=$((gpin + 1)) ||
		not_ok "guarded round $i: the guard's follows pins cannot be removed from inside" "$out"
	if [ $((i % 2)) -eq 0 ]; then
		glooked=$((glooked + 1))
		l=$($L list 2>&1)
		echo "$l" | grep -q "^fo-guarded: follows /fo.slice/guarded.service (cgroup $id)$" &&
			[ "$(guarded_n)" = 1 ] && glisted=$((glisted + 1)) ||
			not_ok "guarded round $i: list shows the policy on $id, the guard only it" \
				"$(echo "$l" | tr '\n' '|'); $(guarded_n) guarded"
	fi
	i=$((i + 1))
done
[ $gmapped -eq $grounds ] && ok "$grounds restarts: the guard's guarded map had each new cgroup before any task" ||
	not_ok "$grounds restarts: the guard's guarded map had each new cgroup" "$gmapped of $grounds"
[ $gdenied -eq $grounds ] && ok "$grounds restarts: the first read in each new guarded cgroup was denied (EPERM)" ||
	not_ok "$grounds restarts: the first read in each new guarded cgroup was denied" "$gdenied of $grounds"
[ $gdetach -eq $grounds ] && ok "$grounds restarts: lsmctl detach from inside each new cgroup failed (EPERM)" ||
	not_ok "$grounds restarts: lsmctl detach from inside each new cgroup failed" "$gdetach of $grounds"
[ $gkill -eq $grounds ] && ok "$grounds restarts: the guard refused a signal out of each new cgroup (EPERM)" ||
	not_ok "$grounds restarts: the guard refused a signal out of each new cgroup" "$gkill of $grounds"
[ $gpin -eq $grounds ] && ok "$grounds restarts: the guard's follows pins stayed (rm from inside: EPERM)" ||
	not_ok "$grounds restarts: the guard's follows pins stayed" "$gpin of $grounds"
[ $glooked -gt 0 ] && [ $glisted -eq $glooked ] &&
	ok "list moved the record, and the guard kept only the cgroup of the moment, $glisted times" ||
	not_ok "list moved the record, and the guard kept only the cgroup of the moment" "$glisted of $glooked"
# restarts with no lsmctl command between them (a service that keeps
# exiting): each new cgroup's entry takes its predecessor's place, in the
# guard's guarded map and the global instance's policies map alike
policies_n() { bpftool map dump pinned $pins/global/policies 2>/dev/null | grep -c '"cgroup_id"'; }
gn=$(guarded_n) pn=$(policies_n) i=1
while [ $i -le 12 ]; do
	restart $gc || break
	i=$((i + 1))
done
id=$(cgid $gc)
[ "$(guarded_n)" = "$gn" ] && [ "$(policies_n)" = "$pn" ] && guarded_has $id &&
	ok "12 restarts with no lsmctl between: $gn guarded and $pn policies entries, as before, the new cgroup's among them" ||
	not_ok "12 restarts with no lsmctl between: the maps' entries do not grow" \
		"guarded $gn -> $(guarded_n), policies $pn -> $(policies_n)"
out=$(start $gc)
echo "$out" | grep -q "not permitted" && ok "after them, the first read in the new cgroup is denied (EPERM)" ||
	not_ok "after them, the first read in the new cgroup is denied" "$out"
out=$(in_cg $gc "bpftool map delete pinned $pins/guard/guard_follows key 0" 2>&1)
echo "$out" | grep -q "not permitted" && [ -e $pins/guard/guard_follows ] &&
	ok "held: bpftool on the guard's follows map from inside (EPERM)" ||
	not_ok "held: bpftool on the guard's follows map from inside" "$out"
[ -z "$(control_kill)" ] && ok "control: the task in $ctl still may signal outside" ||
	not_ok "control: the task in $ctl still may signal outside" "$(control_kill)"
# detach: the guard goes with its last policy, and the next cgroup is free
out=$($L detach --cgroup $gc 2>&1)
[ $? -eq 0 ] && [ ! -e $pins/guard ] && ! $L list | grep -q "^fo-guarded" &&
	ok "detach of the guarded followed policy: the guard is unloaded, nothing listed" ||
	not_ok "detach of the guarded followed policy: nothing left" "$out; $(ls $pins 2>&1 | tr '\n' ' ')"
restart $gc
out=$(in_cg $gc "kill -CONT $outsider && cat /tmp/fo-secret" 2>&1)
[ "$out" = secret ] && ok "after detach, the next cgroup at the path signals out and reads" ||
	not_ok "after detach, the next cgroup at the path signals out and reads" "$out"
kill $outsider
rmdir $fc $nc $ctl $gc $top 2>/dev/null
exit 0
