#!/bin/sh
# The lsm_cgroup hook budget: stock 6.1 has 10 hook slots system-wide
# (CGROUP_LSM_NUM), the series' CONFIG_BPF_LSM_CGROUP_HOOKS=32. A policy
# needing every one of the engine's 24 hooks (23 where the
# kernel has no SCTP) must fail cleanly on stock
# (and on Debian's kernel: $LAB_SERIES is 0 on both),
# naming what needs the hooks, and leave the cgroup's previous policy
# enforcing; on lsm it applies.
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
out=$($L apply /tmp/big.yaml --cgroup $cg 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
v=$LAB_VARIANT
if [ "$LAB_SERIES" = 0 ]; then
	[ $rc -eq 1 ] && ok "$v: an every-hook policy is refused (exit 1)" ||
		not_ok "$v: an every-hook policy is refused (exit 1)" "status $rc"
	echo "$out" | grep -q "hook slot" && echo "$out" | grep -q "nothing was changed" &&
		ok "$v: the error says hook slots ran out and nothing changed" ||
		not_ok "$v: the error says hook slots ran out and nothing changed"
	$L show $cg | grep -q "small" && ok "$v: the previous policy is still the one shown" ||
		not_ok "$v: the previous policy is still the one shown"
else
	[ $rc -eq 0 ] && ok "$v: the every-hook policy applies" ||
		not_ok "$v: the every-hook policy applies" "status $rc"
fi
in_cg $cg "exec lab-try ptrace $victim" >/tmp/out 2>&1
grep -q "Operation not permitted" /tmp/out && ok "ptrace is still denied in the cgroup" ||
	not_ok "ptrace is still denied in the cgroup" "$(cat /tmp/out)"
check "detach" $L detach --cgroup $cg
check "a 10-hook policy applies after all that" $L apply /tmp/small.yaml --cgroup $cg
$L detach --cgroup $cg >/dev/null
kill $victim
