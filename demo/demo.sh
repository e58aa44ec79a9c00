#!/bin/sh
# The README's example, run in the guest by 'make demo': confine a shell
# in a cgroup with loader/examples/confine-shell.yaml (no reading
# /etc/lab-secret, no connecting out on port 25, no ptrace), try all
# three inside and outside, and show what lsmctl events printed.
set -u
cg=/sys/fs/cgroup/demo
policy=/lab/examples/confine-shell.yaml
say() { printf '\n\033[1m%s\033[0m\n' "$*"; }
run() { echo "# $*"; "$@"; }

echo "top secret" >/etc/lab-secret
nc -l -p 25 >/dev/null 2>&1 &		# something to connect to
listener=$!
sleep 600 &				# something to trace
victim=$!
trap 'kill $victim $listener 2>/dev/null' EXIT
mkdir -p $cg

say "The policy"
run cat $policy
run lsmctl check $policy
say "Apply it to $cg and stream its events"
sysctl -qw kernel.bpf_stats_enabled=1
run lsmctl apply $policy --cgroup $cg || exit 1
lsmctl events --cgroup $cg >/tmp/demo-events &
events=$!
run lsmctl list

try_all="lab-try read /etc/lab-secret; lab-try connect 127.0.0.1 25; lab-try ptrace $victim"
say "A shell inside $cg"
sh -c "echo \$\$ >$cg/cgroup.procs; $try_all"
say "The same shell outside"
sh -c "$try_all"
sleep 1
kill $events
say "lsmctl events --cgroup $cg printed"
cat /tmp/demo-events
say "lsmctl stats"
run lsmctl stats
say "Detach"
run lsmctl detach --cgroup $cg
sh -c "echo \$\$ >$cg/cgroup.procs; exec lab-try read /etc/lab-secret"
denials=$(grep -c ' verdict=deny ' /tmp/demo-events)
echo
echo "demo: $denials denials reported (3 expected)"
[ "$denials" -eq 3 ]
