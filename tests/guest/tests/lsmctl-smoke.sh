#!/bin/sh
# lsmctl end to end, briefly: apply a policy to a cgroup, see a read
# denied there and not in a sibling, see the event, detach; on each
# backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
each_backend "$@"
cg=/sys/fs/cgroup/smoke-$backend
mkdir -p $cg /sys/fs/cgroup/smoke-$backend-sib
echo secret >/tmp/smoke-secret
cat >/tmp/smoke.yaml <<'Y'
name: smoke
rules:
  - files: /tmp/smoke-secret
    access: read
    action: deny
Y
check "apply to $cg ($backend, with 20000 filler rules)" $L apply /tmp/smoke.yaml --cgroup $cg --backend $backend --filler 20000
if in_cg $cg "exec cat /tmp/smoke-secret" >/dev/null 2>/tmp/err; then
	not_ok "reading the secret in the cgroup is denied"
else
	grep -q "Operation not permitted" /tmp/err && ok "reading the secret in the cgroup is denied (EPERM)" || not_ok "EPERM" "$(cat /tmp/err)"
fi
check "reading it in a sibling works" in_cg $cg-sib "exec cat /tmp/smoke-secret"
check "reading it outside works" cat /tmp/smoke-secret
out=$($L events --cgroup $cg --count 1 --timeout 3 2>&1)
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q "verdict=deny .*hook=file_open" && ok "events shows the denial" || not_ok "events shows the denial"
$L list | sed 's/^/# /'
$L show $cg | sed 's/^/# /'
$L stats | sed 's/^/# /'
check "detach" $L detach --cgroup $cg
check "after detach reading works" in_cg $cg "exec cat /tmp/smoke-secret"
[ -z "$(ls /sys/fs/bpf/lsmlab | grep -v events)" ] && ok "no pins left" || not_ok "no pins left" "$(ls -a /sys/fs/bpf/lsmlab)"
