#!/bin/sh
# The broker (lsmctl serve, issue #27 item 3): a confined root, which may
# not load BPF, applies, replaces and detaches policies on cgroups below
# its subtree through it, with the same lsmctl apply and detach; they add
# to its own policy, which an audit-mode child cannot soften; it cannot
# reach its own cgroup, a sibling, the root, or a policy the root outside
# applied; the LAB_BROKER_* limits hold; hostile requests (no pidfd,
# another's pidfd, a dead one's, two, garbage, a trickle) get an error
# and leave the broker serving; each request is logged with its
# requester. The subtree's own policy on each backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
R=/lab/tests/broker-raw
each_backend "$@"
cg=/sys/fs/cgroup/br-$backend
ctl=/sys/fs/cgroup/br-$backend-ctl
sock=/run/lsmctl/broker-$backend.sock
export LSMCTL_BROKER=$sock
mkdir -p $cg/home $cg/kid $cg/kid2 $cg/admin $ctl /tmp/br
echo secret >/tmp/br/secret
echo kid >/tmp/br/kid-secret
rule() {	# NAME FILE [MODE] [ACTION]: a policy denying (or ACTION) reads of FILE
	printf 'name: %s\nmode: %s\nrules:\n  - files: %s\n    access: read\n    action: %s\n' \
		"$1" "${3:-enforce}" "$2" "${4:-deny}"
}
rule br-$backend /tmp/br/secret >/tmp/br/top.yaml
rule kid /tmp/br/kid-secret >/tmp/br/kid.yaml
rule kid2 /tmp/br/secret audit allow >/tmp/br/kid2-audit.yaml
rule admin /tmp/br/kid-secret >/tmp/br/admin.yaml
$L serve $sock 2>/tmp/br/broker.log &
broker=$!
for _i in 1 2 3 4 5 6 7 8 9 10; do [ -S $sock ] && break; sleep 1; done
check "the broker listens on $sock" test -S $sock
check "apply the subtree's policy ($backend backend, self-protection on)" \
	$L apply /tmp/br/top.yaml --cgroup $cg --backend $backend
check "the root outside applies a policy below the subtree" \
	$L apply /tmp/br/admin.yaml --cgroup $cg/admin
inside() { in_cg $cg/home "$@"; }
# refused WHAT CMD: CMD inside fails, the broker's error naming why
refused() {
	_what=$1
	shift
	if inside "$*" >$lab_out 2>&1; then
		not_ok "held: $_what" "it worked: $(head -c 300 $lab_out)"
	elif grep -q "the broker: " $lab_out; then
		ok "held: $_what ($(sed -n 's/.*the broker: //p' $lab_out | head -c 120))"
	else
		not_ok "held: $_what" "not the broker's refusal: $(head -c 300 $lab_out)"
	fi
}

# Applied from inside, through the broker, by the same command.
inside "$L apply /tmp/br/kid.yaml --cgroup $cg/kid" >$lab_out 2>&1 &&
	grep -q "the broker: applied 'kid' to /br-$backend/kid (global backend" $lab_out &&
	ok "a confined root applies a policy to a cgroup below its own" ||
	not_ok "a confined root applies a policy to a cgroup below its own" "$(cat $lab_out)"
$L show $cg/kid >$lab_out 2>&1 && grep -q kid $lab_out &&
	ok "show (outside) has the policy on $cg/kid" ||
	not_ok "show (outside) has the policy on $cg/kid" "$(head -c 300 $lab_out)"
in_cg $cg/kid2 "cat /tmp/br/kid-secret" >/dev/null 2>&1 &&
	ok "control: a sibling below reads kid-secret" || not_ok "control: a sibling below reads kid-secret"
expect_denied() {	# WHAT CGROUP FILE
	if in_cg $2 "cat $3" >$lab_out 2>&1; then
		not_ok "held: $1" "it read $3"
	elif says_eperm $lab_out || grep -q "ermission denied" $lab_out; then
		ok "held: $1"
	else
		not_ok "held: $1" "$(head -c 300 $lab_out)"
	fi
}
expect_denied "the nested policy denies kid-secret in its cgroup" $cg/kid /tmp/br/kid-secret
expect_denied "the subtree's own policy still denies the secret there" $cg/kid /tmp/br/secret
# a child in audit mode that allows cannot soften the enforced parent
inside "$L apply /tmp/br/kid2-audit.yaml --cgroup $cg/kid2" >$lab_out 2>&1 &&
	ok "apply an audit-mode policy allowing the secret below" ||
	not_ok "apply an audit-mode policy allowing the secret below" "$(cat $lab_out)"
expect_denied "the secret stays denied under an audit-mode child that allows it" \
	$cg/kid2 /tmp/br/secret
check "replace the nested policy from inside" inside "$L apply /tmp/br/kid.yaml --cgroup $cg/kid"

# What it may not reach.
refused "apply to its own subtree's cgroup" "$L apply /tmp/br/kid.yaml --cgroup $cg"
refused "apply to a sibling cgroup outside" "$L apply /tmp/br/kid.yaml --cgroup $ctl"
refused "apply to the root cgroup" "$L apply /tmp/br/kid.yaml --cgroup /sys/fs/cgroup"
refused "replace the policy the root outside applied below" \
	"$L apply /tmp/br/kid.yaml --cgroup $cg/admin"
refused "detach the policy the root outside applied below" "$L detach --cgroup $cg/admin"
refused "detach its own subtree's policy" "$L detach --cgroup $cg"
$L show $cg/admin >$lab_out 2>&1 && grep -q admin $lab_out &&
	ok "the root outside's policy below is still there" ||
	not_ok "the root outside's policy below is still there" "$(head -c 300 $lab_out)"
inside "$L apply /tmp/br/kid.yaml --cgroup $cg/kid --backend cgroup" >$lab_out 2>&1 &&
	not_ok "held: --backend cgroup through the broker" ||
	ok "held: --backend cgroup through the broker (usage: the global backend only)"

# Limits: LAB_BROKER_MAX_POLICIES (8) at once, LAB_BROKER_MAX_RULES (256) a policy.
for i in 3 4 5 6 7 8; do
	mkdir -p $cg/kid$i
	inside "$L apply /tmp/br/kid.yaml --cgroup $cg/kid$i" >/dev/null 2>&1
done
mkdir -p $cg/kid9
refused "a ninth policy through the broker" "$L apply /tmp/br/kid.yaml --cgroup $cg/kid9"
grep -q "most it may" $lab_out && ok "it says the subtree has the most it may" ||
	not_ok "it says the subtree has the most it may" "$(cat $lab_out)"
check "detach one from inside" inside "$L detach --cgroup $cg/kid8"
check "then the ninth applies" inside "$L apply /tmp/br/kid.yaml --cgroup $cg/kid9"
# nested scopes count against the top one: each policy above has
# self-protection, so a root in kid is a scope of its own
mkdir -p $cg/kid/deeper
in_cg $cg/kid "$L apply /tmp/br/kid.yaml --cgroup $cg/kid/deeper" >$lab_out 2>&1 &&
	not_ok "held: a policy from a nested scope past the top scope's limit" "$(cat $lab_out)" ||
	{ grep -q "nested ones included" $lab_out &&
		ok "held: a policy from a nested scope past the top scope's limit" ||
		not_ok "held: a policy from a nested scope past the top scope's limit" "$(cat $lab_out)"; }
check "the top scope detaches one of its own" inside "$L detach --cgroup $cg/kid9"
check "then the nested scope applies below itself" \
	in_cg $cg/kid "$L apply /tmp/br/kid.yaml --cgroup $cg/kid/deeper"
check "the top scope detaches the nested scope's policy" inside "$L detach --cgroup $cg/kid/deeper"
in_cg $cg/kid "$L detach --cgroup $cg/kid2" >$lab_out 2>&1 &&
	not_ok "held: the nested scope detaches a sibling's policy" ||
	{ grep -q "not below your subtree" $lab_out &&
		ok "held: the nested scope detaches a sibling's policy" ||
		not_ok "held: the nested scope detaches a sibling's policy" "$(cat $lab_out)"; }
{
	printf 'name: many\nrules:\n'
	i=0
	while [ $i -lt 257 ]; do printf '  - files: /tmp/br/f%d\n    access: read\n    action: deny\n' $i; i=$((i + 1)); done
} >/tmp/br/many.yaml
refused "a policy of 257 rules" "$L apply /tmp/br/many.yaml --cgroup $cg/kid"

# Hostile requests: an error each, and the broker serves on.
raw() {	# WHAT HOW BYTES...: broker-raw's reply, from inside, must be an error
	_what=$1 _how=$2
	shift 2
	printf "$@" >/tmp/br/raw
	inside "$R $sock $_how </tmp/br/raw" >$lab_out 2>&1
	grep -q "^error " $lab_out && ok "hostile: $_what ($(head -c 100 $lab_out))" ||
		not_ok "hostile: $_what" "$(head -c 300 $lab_out)"
}
id=$(stat -c %i $cg/kid)
raw "garbage" ok 'GET / HTTP/1.0\n\n'
raw "no pidfd" nofd 'lsmctl-broker 1\nverb detach\ncgroup %s\n\n' $id
raw "two descriptors" twofds 'lsmctl-broker 1\nverb detach\ncgroup %s\n\n' $id
raw "the pidfd of pid 1, outside" otherpid 'lsmctl-broker 1\nverb detach\ncgroup %s\n\n' $id
raw "the pidfd of a task gone" gone 'lsmctl-broker 1\nverb detach\ncgroup %s\n\n' $id
raw "a length past the limit" ok 'lsmctl-broker 1\nverb apply\ncgroup %s\nmode file\nname x\nlength 70000\n\n' $id
raw "a policy shorter than its length, then silence" slow \
	'lsmctl-broker 1\nverb apply\ncgroup %s\nmode file\nname x\nlength 100\n\nname: x\n' $id
raw "an invalid policy" ok 'lsmctl-broker 1\nverb apply\ncgroup %s\nmode file\nname x\nlength 9\n\nrules: [\n' $id
printf 'lsmctl-broker 1\nverb detach\ncgroup %s\n\n' $id >/tmp/br/raw
inside "$R $sock ownns </tmp/br/raw" >$lab_out 2>&1
grep -q "^error 18 .*mount namespace or root of its own" $lab_out &&
	ok "held: a requester in a mount namespace of its own (its paths are not the broker's)" ||
	not_ok "held: a requester in a mount namespace of its own" "$(head -c 300 $lab_out)"
# a task inside listening on a socket of its own is no broker
rm -f /tmp/br/fake.sock
inside "/lab/tests/sp-probe fd-recv-write /tmp/br/fake.sock x" >/dev/null 2>&1 &
fake=$!
for _i in 1 2 3 4 5 6 7 8 9 10; do [ -S /tmp/br/fake.sock ] && break; sleep 1; done
inside "LSMCTL_BROKER=/tmp/br/fake.sock $L detach --cgroup $cg/kid" >$lab_out 2>&1 &&
	not_ok "held: a confined task posing as the broker" "$(cat $lab_out)" ||
	{ grep -q "not a broker" $lab_out && ok "held: a confined task posing as the broker" ||
		not_ok "held: a confined task posing as the broker" "$(cat $lab_out)"; }
kill $fake 2>/dev/null
$L show $cg/kid >$lab_out 2>&1 && grep -q "kid" $lab_out &&
	ok "the invalid policy left the working one on $cg/kid" ||
	not_ok "the invalid policy left the working one on $cg/kid" "$(head -c 300 $lab_out)"
printf 'lsmctl-broker 1\nverb detach\ncgroup %s\n\n' $id >/tmp/br/raw
in_cg $ctl "$R $sock ok </tmp/br/raw" >$lab_out 2>&1
grep -q "^error .*in no subtree with self-protection" $lab_out &&
	ok "held: a requester in no guarded subtree is refused" ||
	not_ok "held: a requester in no guarded subtree is refused" "$(head -c 300 $lab_out)"
kill -0 $broker 2>/dev/null && ok "the broker still serves" || not_ok "the broker still serves"
check "a request after them all works" inside "$L apply /tmp/br/kid.yaml --cgroup $cg/kid9"

# The audit trail names each requester.
grep -q "pid [0-9]* uid 0 in /br-$backend/home (scope /br-$backend): apply cgroup [0-9]*: ok applied 'kid'" \
	/tmp/br/broker.log && ok "the broker's log names the requester, its scope and the answer" ||
	not_ok "the broker's log names the requester, its scope and the answer" \
		"$(head -c 600 /tmp/br/broker.log)"

kill $broker
wait $broker 2>/dev/null
for d in kid/deeper kid kid2 kid3 kid4 kid5 kid6 kid7 kid9 admin; do $L detach --cgroup $cg/$d >/dev/null 2>&1; done
check "detach the subtree's policy from outside" $L detach --cgroup $cg
find $cg -depth -type d -exec rmdir {} \; 2>/dev/null
rmdir $ctl
