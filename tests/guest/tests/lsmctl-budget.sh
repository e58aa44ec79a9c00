#!/bin/sh
# The lsm_cgroup hook budget: stock 6.1 has 10 hook slots system-wide
# (CGROUP_LSM_NUM), the series' CONFIG_BPF_LSM_CGROUP_HOOKS=32. A policy
# needing every one of the engine's hooks (but sctp_bind_connect where
# the kernel has no SCTP), forced on the cgroup
# backend, must be refused at once on stock (and on Debian's kernel:
# $LAB_SERIES is 0 on both), naming what works, and leave the cgroup's
# previous policy enforcing; on lsm it applies. Without --backend, check
# and apply choose the same backend: global on stock, cgroup on lsm.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
cg=/sys/fs/cgroup/budget
mkdir -p $cg /tmp/budget
sleep 300 &
victim=$!

printf 'name: small\nrules:\n  - ptrace: deny\n' >/tmp/small.yaml
cat >/tmp/big.yaml <<'Y'
name: big
rules:
  - files: /tmp/budget/**
    access: [read, write, exec, create, unlink]
    action: deny
  - network: socket
    family: inet6
    action: deny
  - network: bind
    ports: 1-1023
    action: deny
  - network: connect
    ports: 25
    action: deny
  - ptrace: deny
  - mount: deny
  - module_load: deny
  - signal: deny
  - capability: net_raw
    action: deny
Y
check "apply a one-rule policy" $L apply /tmp/small.yaml --cgroup $cg
$L show -j $cg | grep -q '"backend":"cgroup"' &&
	ok "a one-rule policy (2 hooks) goes on the cgroup backend by itself" ||
	not_ok "a one-rule policy (2 hooks) goes on the cgroup backend by itself" "$($L show $cg)"
taken() { $L probe -j | sed -n 's/.*"slots_taken":\([0-9]*\).*/\1/p'; }
taken_before=$(taken)
start=$(date +%s)
out=$($L apply /tmp/big.yaml --cgroup $cg --backend cgroup 2>&1)
rc=$?
secs=$(($(date +%s) - start))
echo "$out" | sed 's/^/# /'
v=$LAB_VARIANT
if [ "$LAB_SERIES" = 0 ]; then
	want=global
	[ $rc -eq 1 ] && ok "$v: an every-hook policy forced on the cgroup backend is refused (exit 1)" ||
		not_ok "$v: an every-hook policy forced on the cgroup backend is refused (exit 1)" "status $rc"
	echo "$out" | grep -q "hook slot" && echo "$out" | grep -q "nothing was changed" &&
		echo "$out" | grep -q -- "--backend global" &&
		ok "$v: the error says hook slots ran out, nothing changed, and --backend global" ||
		not_ok "$v: the error says hook slots ran out, nothing changed, and --backend global"
	# refused before anything is loaded: no slot was taken, within seconds
	taken_now=$(taken)
	[ -n "$taken_now" ] && [ "$taken_now" = "$taken_before" ] && [ $secs -le 2 ] &&
		ok "$v: refused at once ($secs s), no hook slot taken ($taken_now)" ||
		not_ok "$v: refused at once, no hook slot taken" \
			"$secs s, taken $taken_before then $taken_now"
	$L show $cg | grep -q "small" && ok "$v: the previous policy is still the one shown" ||
		not_ok "$v: the previous policy is still the one shown"
	$L check /tmp/big.yaml --backend cgroup >/dev/null 2>&1 &&
		not_ok "$v: check --backend cgroup says so too (exit 1)" ||
		ok "$v: check --backend cgroup says so too (exit 1)"
else
	want=cgroup
	[ $rc -eq 0 ] && ok "$v: the every-hook policy applies" ||
		not_ok "$v: the every-hook policy applies" "status $rc"
fi
# the one backend choice: check's verdict is apply's
chk=$($L check -j /tmp/big.yaml 2>/dev/null | sed -n 's/.*"backend":"\([a-z]*\)".*/\1/p')
got=$($L apply -j /tmp/big.yaml --cgroup $cg 2>/dev/null | sed -n 's/.*"backend":"\([a-z]*\)".*/\1/p')
[ "$chk" = $want ] && [ "$got" = $want ] &&
	ok "$v: without --backend, check and apply both choose $want for every hook" ||
	not_ok "$v: without --backend, check and apply both choose $want for every hook" \
		"check $chk, apply $got"
$L show -j $cg | grep -q "\"backend\":\"$want\"" &&
	ok "$v: the policy is on the $want backend" || not_ok "$v: the policy is on the $want backend"
in_cg $cg "exec lab-try ptrace $victim" >/tmp/out 2>&1
grep -q "Operation not permitted" /tmp/out && ok "ptrace is still denied in the cgroup" ||
	not_ok "ptrace is still denied in the cgroup" "$(cat /tmp/out)"
check "detach" $L detach --cgroup $cg
check "a 2-hook policy applies after all that" $L apply /tmp/small.yaml --cgroup $cg
$L detach --cgroup $cg >/dev/null
kill $victim
