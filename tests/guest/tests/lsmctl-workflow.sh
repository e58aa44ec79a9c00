#!/bin/sh
# lsmctl for policy developers: diff and apply --dry-run say what would
# change and change nothing; --mode overrides the file's mode; -j output
# of apply, detach, diff, list, show, stats, events, run and of an error is
# JSON, -p indented JSON (json-check, a strict reader); on each backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
J=/lab/tests/json-check
each_backend "$@"
cg=/sys/fs/cgroup/wf-$backend
ctl=/sys/fs/cgroup/wf-$backend-sib
mkdir -p $cg $ctl
echo secret >/tmp/wf-secret
echo other >/tmp/wf-other
cat >/tmp/wf-a.yaml <<'Y'
name: wf-a
rules:
  - files: /tmp/wf-secret
    access: read
    action: deny
Y
cat >/tmp/wf-b.yaml <<'Y'
name: wf-b
rules:
  - files: /tmp/wf-secret
    access: read
    action: deny
  - files: /tmp/wf-other
    access: read
    action: deny
Y
json_ok() { # json_ok "what" KEY OUTPUT
	if echo "$3" | $J -k "$2" 2>/tmp/wf-jc; then ok "$1: JSON with \"$2\""; else
		not_ok "$1: JSON with \"$2\"" "$(cat /tmp/wf-jc)"; fi
}

# check: every error, warnings for missing paths, the hooks and the slot budget
cat >/tmp/wf-bad.yaml <<'Y'
name: wf bad
rules:
  - files: /tmp/wf-secret
    access: [read, fly]
    action: deny
  - files: /tmp/wf-nonexistent
    access: read
    action: deny
  - mount: sideways
Y
out=$($L check /tmp/wf-bad.yaml 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -eq 1 ] && [ "$(echo "$out" | grep -c '^/tmp/wf-bad.yaml:[0-9]*:[0-9]*: ')" -eq 3 ] &&
	ok "check: all three errors, FILE:LINE:COL each" || not_ok "check: all three errors, FILE:LINE:COL each" "status $rc"
sed -i 's/name: wf bad/name: wf-bad/; s/, fly//; s/sideways/deny/' /tmp/wf-bad.yaml
out=$($L check /tmp/wf-bad.yaml 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -eq 0 ] && echo "$out" | grep -q "^/tmp/wf-bad.yaml:6:5: warning: /tmp/wf-nonexistent: No such file" &&
	ok "check: a missing path is a warning, the policy valid" ||
	not_ok "check: a missing path is a warning, the policy valid" "status $rc"
echo "$out" | grep -q "^hooks: 7: file_open bprm_check_security ptrace_access_check sb_mount move_mount sb_umount capable$" &&
	ok "check: the hooks the policy needs" || not_ok "check: the hooks the policy needs"
slots=$($L probe -j | sed -n 's/.*"hook_slots":\([0-9]*\).*/\1/p')
if [ "${slots:-0}" -gt 0 ]; then
	echo "$out" | grep -q "^cgroup backend: 9 hook slot(s), .*this kernel has $slots, [0-9]* taken: fits$" &&
		ok "check: they fit in this kernel's $slots lsm_cgroup hook slots, refusal hooks counted" ||
		not_ok "check: they fit in this kernel's $slots lsm_cgroup hook slots, refusal hooks counted"
fi
json_ok "check -j" lsm_cgroup "$($L check -j /tmp/wf-bad.yaml)"

out=$($L apply -j /tmp/wf-a.yaml --cgroup $cg --backend $backend 2>&1)
[ $? -eq 0 ] && ok "apply -j works" || not_ok "apply -j works" "$out"
json_ok "apply -j" applied "$out"

# diff: '+' the rule only in the file, ' ' the one in both; nothing changes
before=$(pins)
out=$($L diff /tmp/wf-b.yaml --cgroup $cg 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -eq 0 ] && echo "$out" | grep -q "^+ line 6 .*wf-other" &&
	echo "$out" | grep -q "^  line 3 .*wf-secret" &&
	ok "diff: + the new rule, the shared one unmarked" ||
	not_ok "diff: + the new rule, the shared one unmarked" "status $rc"
out=$($L diff -j /tmp/wf-a.yaml --cgroup $cg 2>&1)
json_ok "diff -j" added "$out"
echo "$out" | grep -q '"added":\[\],"removed":\[\]' && ok "diff -j of the applied file: nothing added or removed" ||
	not_ok "diff -j of the applied file: nothing added or removed" "$out"
echo "$out" | grep -q '"hooks_added":\[\],"hooks_removed":\[\]' &&
	ok "diff -j of the applied file: no hook added or removed (refusal hooks counted)" ||
	not_ok "diff -j of the applied file: no hook added or removed (refusal hooks counted)" "$out"
out=$($L apply --dry-run /tmp/wf-a.yaml --cgroup $cg --backend $backend 2>&1)
echo "$out" | grep -q "^hooks \(added\|removed\)" &&
	not_ok "apply --dry-run of the applied file: no hook said added or removed" "$out" ||
	ok "apply --dry-run of the applied file: no hook said added or removed"
[ "$(pins)" = "$before" ] && ok "diff changed no pin" || not_ok "diff changed no pin"

# apply --dry-run: the same report, nothing applied
out=$($L apply --dry-run /tmp/wf-b.yaml --cgroup $cg --backend $backend 2>&1)
rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^dry run: nothing was changed" &&
	echo "$out" | grep -q "^+ line 6" && ok "apply --dry-run says what would change" ||
	not_ok "apply --dry-run says what would change" "status $rc: $out"
[ "$(pins)" = "$before" ] && ok "apply --dry-run changed no pin" || not_ok "apply --dry-run changed no pin"
$L show $cg | grep -q "wf-a" && ok "wf-a is still the policy shown" || not_ok "wf-a is still the policy shown"
# inside the subtree (wf-a's self-protection): a dry run changes nothing and
# is allowed; detach is refused, saying it is self-protection
out=$(in_cg $cg "$L apply --dry-run /tmp/wf-b.yaml --cgroup $cg --backend $backend" 2>&1)
rc=$?
echo "$out" | sed 's/^/# inside: /'
[ $rc -eq 0 ] && echo "$out" | grep -q "^dry run: nothing was changed" &&
	echo "$out" | grep -q "warning: apply would be refused: self-protection on" &&
	ok "inside: apply --dry-run is allowed, says what would change and that apply would be refused" ||
	not_ok "inside: apply --dry-run is allowed, says what would change and that apply would be refused" \
		"status $rc"
out=$(in_cg $cg "$L detach --cgroup $cg" 2>&1)
rc=$?
echo "$out" | sed 's/^/# inside: /'
[ $rc -ne 0 ] && echo "$out" | grep -q "self-protection" && echo "$out" | grep -q "from outside" &&
	ok "inside: detach is refused, saying self-protection refuses it from inside" ||
	not_ok "inside: detach is refused, saying self-protection refuses it from inside" "status $rc"
[ "$(pins)" = "$before" ] && ok "inside: nothing changed" || not_ok "inside: nothing changed"
expect_eperm "the applied policy still denies reading wf-secret" "cat /tmp/wf-secret"
in_cg $cg "cat /tmp/wf-other" >/dev/null 2>&1 && ok "and still lets wf-other be read (wf-b's rule not applied)" ||
	not_ok "and still lets wf-other be read (wf-b's rule not applied)"

# --mode audit: the file says enforce; audit reports and denies nothing
check "apply --mode audit" $L apply /tmp/wf-b.yaml --cgroup $cg --backend $backend --mode audit
$L show $cg | grep -q "^mode: *audit" && ok "show says audit" || not_ok "show says audit" "$($L show $cg)"
in_cg $cg "cat /tmp/wf-other" >/dev/null 2>&1 && ok "in audit mode reading wf-other works" ||
	not_ok "in audit mode reading wf-other works"
out=$($L events -j --cgroup $cg --timeout 5 2>&1)
json_ok "events -j" verdict "$out"
echo "$out" | grep -q '"verdict":"audit"' && ok "the read is reported, verdict audit" ||
	not_ok "the read is reported, verdict audit" "$out"
echo "$out" | grep -Eq '"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}[+-][0-9]{2}:[0-9]{2}"' &&
	ok "its time is RFC 3339 with the UTC offset" || not_ok "its time is RFC 3339 with the UTC offset" "$out"
check "apply --mode enforce" $L apply /tmp/wf-b.yaml --cgroup $cg --backend $backend --mode enforce
expect_eperm "enforced, reading wf-other is denied" "cat /tmp/wf-other"
control "reading wf-other" "cat /tmp/wf-other"
out=$($L apply /tmp/wf-b.yaml --cgroup $cg --mode sideways 2>&1)
[ $? -eq 2 ] && ok "--mode sideways is a usage error" || not_ok "--mode sideways is a usage error" "$out"

# stats --prometheus: node-exporter's textfile format
out=$($L stats --prometheus 2>&1)
bad=$(echo "$out" | grep -v '^# \(HELP\|TYPE\) lsmctl_[a-z_]* ' |
	grep -Ev '^lsmctl_[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)+\})? [0-9]+(\.[0-9]+)?$')
[ -z "$bad" ] && ok "stats --prometheus: every line a comment or a sample" ||
	not_ok "stats --prometheus: every line a comment or a sample" "$bad"
for m in $(echo "$out" | sed -n 's/^\(lsmctl_[a-z_]*\)[{ ].*/\1/p' | sort -u); do
	echo "$out" | grep -q "^# TYPE $m \(counter\|gauge\)$" || bad="$bad $m"
done
[ -z "$bad" ] && ok "stats --prometheus: a TYPE for each metric" || not_ok "stats --prometheus: a TYPE for each metric" "$bad"
echo "$out" | grep -E "^lsmctl_rule_hits_total\{cgroup=\"/wf-$backend\",policy=\"wf-b\",backend=\"$backend\",rule=\"1\",line=\"6\",text=\"files /tmp/wf-other read deny\"\} [1-9]" >/dev/null &&
	ok "stats --prometheus: the denial of wf-other counted on its rule" ||
	not_ok "stats --prometheus: the denial of wf-other counted on its rule" "$(echo "$out" | grep wf-b)"
echo "$out" | grep -q "^lsmctl_events_lost_total{cgroup=\"/wf-$backend\",policy=\"wf-b\",backend=\"$backend\"} 0$" &&
	ok "stats --prometheus: its lost events, 0" ||
	not_ok "stats --prometheus: its lost events, 0" "$(echo "$out" | grep lost)"

# -j everywhere else, an error included
json_ok "list -j" cgroup "$($L list -j)"
json_ok "show -j" applied_time "$($L show -j $cg)"
json_ok "stats -j" policies "$($L stats -j)"
out=$($L apply -j /tmp/wf-missing.yaml --cgroup $cg 2>/dev/null)
rc=$?
[ $rc -eq 1 ] && ok "apply -j of a missing file exits 1" || not_ok "apply -j of a missing file exits 1" "status $rc"
json_ok "apply -j's error" error "$out"
out=$($L show -p $cg)
if echo "$out" | $J -a 2>/tmp/wf-jc && echo "$out" | grep -q '^    "rule_list": \[$'; then
	ok "show -p: indented JSON"; else not_ok "show -p: indented JSON" "$(cat /tmp/wf-jc) $out"; fi
out=$($L show -j $cg --bogus 2>/dev/null)
rc=$?
[ $rc -eq 2 ] && ok "a usage error with -j exits 2" || not_ok "a usage error with -j exits 2" "status $rc"
json_ok "a usage error with -j" error "$out"
out=$($L detach -j --cgroup $cg)
json_ok "detach -j" detached "$out"
out=$($L run -j /tmp/wf-a.yaml --backend $backend -- true)
rc=$?
[ $rc -eq 0 ] && ok "run -j works" || not_ok "run -j works" "status $rc"
json_ok "run -j" applied "$(echo "$out" | head -n 1)"
json_ok "run -j's last line" ran "$(echo "$out" | tail -n 1)"
echo "$out" | tail -n 1 | grep -q '"status":0}$' && ok "run -j: CMD's status" || not_ok "run -j: CMD's status" "$out"

# warnings (issue 24 item 6): self-protection off, audit mode and the open
# classes, from check, apply, diff and show; wf-a (self-protection on) the control
off=/sys/fs/cgroup/wf-$backend-off
mkdir -p $off
cat >/tmp/wf-off.yaml <<'Y'
name: wf-off
self_protection: off
rules:
  - files: /tmp/wf-secret
    access: read
    action: deny
Y
warned() { # warned WHAT PATTERN OUTPUT: OUTPUT has PATTERN, as a line
	if echo "$3" | grep -q "$2"; then ok "$1"; else not_ok "$1" "$3"; fi
}
unwarned() { # unwarned WHAT PATTERN OUTPUT: OUTPUT has no such line
	if echo "$3" | grep -q "$2"; then not_ok "$1" "$3"; else ok "$1"; fi
}
spoff='warning: self-protection is off: a task in the subtree may undo the policy$'
out=$($L check /tmp/wf-off.yaml 2>&1 >/dev/null)
rc=$?
[ $rc -eq 0 ] && ok "check of a self_protection: off policy: valid" || not_ok "check of a self_protection: off policy: valid" "status $rc"
warned "check: on stderr, self-protection off" "^/tmp/wf-off.yaml: $spoff" "$out"
warned "check: on stderr, the classes left open" "^/tmp/wf-off.yaml: warning: write is left open: no rule denies it$" "$out"
unwarned "check: read, which a rule denies, is not said open" "read is left open" "$out"
unwarned "check of wf-a (self-protection on): no such warning" "self-protection is off" "$($L check /tmp/wf-a.yaml 2>&1)"
out=$($L check -j /tmp/wf-off.yaml 2>&1)
json_ok "check -j of wf-off" warnings "$out"
warned "check -j: the warning in \"warnings\"" '"warnings":\[[^]]*"/tmp/wf-off.yaml: warning: self-protection is off' "$out"
out=$($L apply /tmp/wf-off.yaml --cgroup $off --backend $backend 2>/tmp/wf-err)
rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^applied 'wf-off'" && ok "apply of wf-off" || not_ok "apply of wf-off" "status $rc: $out $(cat /tmp/wf-err)"
warned "apply: on stderr, self-protection off" "^lsmctl: $spoff" "$(cat /tmp/wf-err)"
unwarned "apply: the warnings not on stdout" "warning" "$out"
wf_cg=$cg
cg=$off
expect_eperm "wf-off, applied with its warnings, denies reading wf-secret" "cat /tmp/wf-secret"
cg=$wf_cg
control "reading wf-secret" "cat /tmp/wf-secret"
out=$($L apply -j /tmp/wf-off.yaml --cgroup $off --backend $backend 2>&1)
json_ok "apply -j of wf-off" warnings "$out"
warned "apply -j: the warning in \"warnings\"" '"warnings":\[[^]]*"self-protection is off' "$out"
warned "show: on stderr, self-protection off" "^lsmctl: $spoff" "$($L show $off 2>&1 >/dev/null)"
warned "show -j: the warning in \"warnings\"" '"warnings":\[[^]]*"self-protection is off' "$($L show -j $off)"
warned "diff: on stderr, self-protection off" "^lsmctl: $spoff" "$($L diff /tmp/wf-off.yaml --cgroup $off 2>&1 >/dev/null)"
out=$($L apply -j /tmp/wf-a.yaml --cgroup $off --backend $backend 2>&1)
json_ok "apply -j of wf-a" warnings "$out"
unwarned "apply -j of wf-a (self-protection on): no such warning" "self-protection is off" "$out"
unwarned "show of wf-a: no such warning" "self-protection is off" "$($L show $off 2>&1)"
$L detach --cgroup $off >/dev/null
rmdir $cg $ctl $off
