#!/usr/bin/env bash
# Host unit tests of the loader's userspace code, built with ASan and
# UBSan and run here: the policy parser and rule compiler (cmocka, TAP),
# and lsmctl's command line (nothing it does here loads BPF: the host
# never runs the engine; the guest tests do).
set -u
cd "$(dirname "$0")/../.." || exit 1
out=build/unit
mkdir -p "$out"
cflags=(-std=gnu11 -Wall -Wextra -Werror -g -O1 -fsanitize=address,undefined
	-fno-sanitize-recover=all)

if ! gcc "${cflags[@]}" -DLAB_TOP="\"$PWD\"" -o "$out/test_policy" \
	tests/unit/test_policy.c loader/policy.c -lyaml -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the policy parser's unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_policy" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&policy: /'

if ! gcc "${cflags[@]}" -Ibuild/bpf -o "$out/test_compile" \
	tests/unit/test_compile.c loader/compile.c loader/devices.c loader/policy.c loader/text.c \
	-lyaml -lcmocka \
	2>"$out/build.err"; then
	echo "not ok - build the rule compiler's unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_compile" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&compile: /'

if ! gcc "${cflags[@]}" -o "$out/test_draft" tests/unit/test_draft.c loader/draft.c \
	loader/policy.c loader/utf8.c -lyaml -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the draft policies' unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_draft" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&draft: /'

if ! gcc "${cflags[@]}" -Ibuild/bpf -Iloader -o "$out/test_output" \
	tests/unit/test_output.c $(ls loader/*.c | grep -v '/\(lsmctl\|cmd_[a-z]*\)\.c$') \
	-lbpf -lyaml -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the output's unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_output" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&output: /'

if ! gcc "${cflags[@]}" -Ibuild/bpf -Iloader -o "$out/test_backend" \
	tests/unit/test_backend.c $(ls loader/*.c | grep -v '/\(lsmctl\|cmd_[a-z]*\)\.c$') \
	-lbpf -lyaml -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the backend choice's unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_backend" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&backend: /'

if ! gcc "${cflags[@]}" -Ibuild/bpf -Iloader -o "$out/test_warnings" tests/unit/test_warnings.c \
	loader/warnings.c loader/compile.c loader/devices.c loader/policy.c loader/text.c -lyaml -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the policy warnings' unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_warnings" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&warnings: /'

if ! gcc "${cflags[@]}" -Iloader -o "$out/test_broker" tests/unit/test_broker.c \
	loader/broker_proto.c -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the broker requests' unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_broker" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&broker: /'

if ! gcc "${cflags[@]}" -Ibuild/bpf -Iloader -o "$out/test_json_writer" \
	tests/unit/test_json_writer.c $(ls loader/*.c | grep -v '/\(lsmctl\|cmd_[a-z]*\)\.c$') \
	-lbpf -lyaml -lcmocka 2>"$out/build.err"; then
	echo "not ok - build the JSON writer's unit tests"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
"$out/test_json_writer" 2>&1 | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /&json_writer: /'

if ! gcc "${cflags[@]}" -Ibuild/bpf -o "$out/lsmctl" loader/*.c -lbpf -lyaml 2>"$out/build.err"; then
	echo "not ok - build lsmctl"
	sed 's/^/# /' "$out/build.err"
	exit 1
fi
expect() { # expect WHAT STATUS PATTERN -- ARGS...
	local what=$1 want=$2 pattern=$3 rc
	shift 4
	"$out/lsmctl" "$@" >"$out/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" "$out/out"; then
		echo "ok - lsmctl: $what"
	else
		echo "not ok - lsmctl: $what (status $rc, wanted $want and '$pattern')"
		sed 's/^/# /' "$out/out"
	fi
}
printf 'name: x\nrules:\n  - files: /a\n    access: [read, fly]\n    action: deny\n' >"$out/bad.yaml"
expect "check accepts the example" 0 "policy 'confine-shell', enforce, default allow, 3 rule(s)" -- \
	check loader/examples/confine-shell.yaml
expect "check names FILE:LINE:COL of an error" 1 "$out/bad.yaml:4:20: unknown access 'fly'" -- \
	check "$out/bad.yaml"
expect "--unit of no unit's name: bad usage, systemctl never asked" 2 "--unit 'a;b': not a unit name" -- \
	detach --unit 'a;b'
expect "--unit with --cgroup: bad usage" 2 "--cgroup or --unit, once" -- \
	detach --cgroup /sys/fs/cgroup --unit x.service
# (a cgroup that is none: were the draft taken, learn would fail before any BPF)
expect "learn --merge of an invalid draft: refused before anything runs" 1 \
	"--merge: $out/bad.yaml:4:20: unknown access 'fly'" -- \
	learn --merge "$out/bad.yaml" -o "$out/never.yaml" --cgroup "$out/no-such-cgroup" --timeout 1
[ ! -e "$out/never.yaml" ] && echo "ok - lsmctl: learn --merge refused: no output file" ||
	echo "not ok - lsmctl: learn --merge refused: no output file"
expect "check of a missing file" 1 "No such file or directory" -- check "$out/missing.yaml"
expect "check -j" 0 '^{"file":"loader/examples/confine-shell.yaml","policy":"confine-shell","mode":"enforce","default":"allow","closed":\[\],"rules":{"files":1,"network":1,"ptrace":1},"hooks":\["file_open","bprm_check_security","socket_connect","socket_sendmsg","ptrace_access_check","ptrace_traceme"\(,"sctp_bind_connect"\)\?\],"refusal_hooks":\["inode_rename","inode_rmdir"\],"warnings":\[.*\],"lsm_cgroup":{"hook_slots":[0-9]*,"slots_taken":\([0-9]*\|null\),"slots_needed":[89],"slots_held":[0-9]*,"fits":\(true\|false\)},"backend":"\(cgroup\|global\)","backend_why":".*"}$' -- \
	check -j loader/examples/confine-shell.yaml
printf 'name: x\nmode: strict\nrules:\n  - files: /a\n    access: [read, fly]\n    action: deny\n  - exec: %s/**\n    action: deny\n' "$PWD/README.md" >"$out/bad2.yaml"
expect "check: every error, the parser's" 1 "$out/bad2.yaml:2:7: unknown mode 'strict'" -- check "$out/bad2.yaml"
expect "check: every error, the parser's (the second)" 1 "$out/bad2.yaml:5:20: unknown access 'fly'" -- check "$out/bad2.yaml"
printf 'name: x\nrules:\n  - files: /nonexistent/lab\n    access: read\n    action: deny\n  - exec: %s/**\n    action: deny\n  - ptrace: deny\n' "$PWD/README.md" >"$out/bad3.yaml"
expect "check: every error, the compiler's" 1 "$out/bad3.yaml:6:5: $PWD/README.md/\*\* but .* is not a directory" -- check "$out/bad3.yaml"
printf 'name: x\nrules:\n  - files: /nonexistent/lab\n    access: read\n    action: deny\n  - ptrace: deny\n' >"$out/warn.yaml"
expect "check: a missing path is a warning" 0 "$out/warn.yaml:3:5: warning: /nonexistent/lab: No such file or directory" -- check "$out/warn.yaml"
printf 'name: x\nself_protection: off\nmode: audit\nrules:\n  - files: %s\n    access: read\n    action: deny\n' "$PWD/README.md" >"$out/off.yaml"
expect "check: a warning, self-protection off" 0 "^$out/off.yaml: warning: self-protection is off: a task in the subtree may undo the policy$" -- \
	check "$out/off.yaml"
expect "check: a warning, audit mode" 0 "^$out/off.yaml: warning: audit mode: the policy reports and denies nothing$" -- \
	check "$out/off.yaml"
expect "check: a warning for each class left open" 0 "^$out/off.yaml: warning: module_load is left open: no rule denies it$" -- \
	check "$out/off.yaml"
expect "check -j: the warnings in \"warnings\"" 0 "\"warnings\":\[\"$out/off.yaml: warning: self-protection is off: a task in the subtree may undo the policy\",\"$out/off.yaml: warning: audit mode: " -- \
	check -j "$out/off.yaml"
expect "check: the hooks a policy needs" 0 "^hooks: 4: file_open bprm_check_security ptrace_access_check ptrace_traceme$" -- check "$out/warn.yaml"
expect "check: whether they fit in lsm_cgroup's hook slots" 0 "^cgroup backend: .*\(fit\|no lsm_cgroup hook slots\)" -- check "$out/warn.yaml"
expect "check: the backend apply would choose" 0 "^backend: \(cgroup\|global\): " -- check "$out/warn.yaml"
expect "check --backend global: the backend forced" 0 "^backend: global (--backend global)$" -- \
	check --backend global "$out/warn.yaml"
expect "check -j: an error as JSON on stdout" 1 '^{"error":".*bad.yaml:4:20: unknown access .fly. (read, write, exec, create, unlink)"}$' -- check -j "$out/bad.yaml"
expect "check -p: the same object, indented as bpftool -p" 0 '^    "policy": "confine-shell",$' -- \
	check -p loader/examples/confine-shell.yaml
expect "check -j: a usage error is JSON too, status 2" 2 '^{"error":"unknown or misplaced option .--bogus."}$' -- \
	check -j --bogus loader/examples/confine-shell.yaml
expect "diff --mode takes audit or enforce" 2 "mode 'x': audit or enforce" -- \
	diff loader/examples/confine-shell.yaml --cgroup /sys/fs/cgroup/none --mode x
expect "stats: -j or --prometheus, not both" 2 "-j or --prometheus, not both" -- stats -j --prometheus
expect "learn takes a CMD" 2 "learn takes -- CMD" -- learn -o /dev/null
expect "learn --cgroup needs --timeout" 2 "learn takes -- CMD" -- learn --cgroup /sys/fs/cgroup
expect "learn: a CMD or a cgroup, not both" 2 "learn takes -- CMD" -- learn --cgroup /sys/fs/cgroup --timeout 1 -- true
expect "learn --help" 0 "N or more files of one folder" -- learn --help
expect "no command is a usage error" 2 "usage: lsmctl" --
expect "--help" 0 "check FILE" -- --help
expect "check --help" 0 "usage: lsmctl check FILE" -- check --help
expect "--version" 0 "^lsmctl .* (lsm-lab)$" -- --version
expect "probe --help gives its exit statuses" 0 "3 only the global backend" -- probe --help
expect "probe takes no operands" 2 "probe takes no operands" -- probe x
expect "probe has -j only" 2 "unknown or misplaced option '-x'" -- probe -x

# make lsmctl asks for lsmctl's packages only, not the lab's (QEMU, ...)
if make -s -n -B lsmctl 2>&1 | grep -q '^scripts/deps.sh lsmctl$' &&
	! make -s -n -B lsmctl 2>&1 | grep -q '^scripts/deps.sh$'; then
	echo "ok - make lsmctl: lsmctl's packages (scripts/deps.sh lsmctl), not the lab's"
else
	echo "not ok - make lsmctl: lsmctl's packages (scripts/deps.sh lsmctl), not the lab's"
fi

# make install and uninstall, into a DESTDIR (nothing is run from there)
dest=$out/destdir
rm -rf "$dest"
if make -s install DESTDIR="$dest" PREFIX=/usr >"$out/install.out" 2>&1 &&
	[ -x "$dest/usr/sbin/lsmctl" ] && [ -f "$dest/usr/share/man/man8/lsmctl.8" ] &&
	[ -f "$dest/usr/share/bash-completion/completions/lsmctl" ] &&
	cmp -s "$dest/usr/sbin/lsmctl" build/loader/lsmctl; then
	echo "ok - install: lsmctl, lsmctl(8) and its completion under DESTDIR/PREFIX"
else
	echo "not ok - install: lsmctl, lsmctl(8) and its completion under DESTDIR/PREFIX"
	sed 's/^/# /' "$out/install.out"
fi
if make -s uninstall DESTDIR="$dest" PREFIX=/usr >"$out/install.out" 2>&1 &&
	[ -z "$(find "$dest" -type f)" ]; then
	echo "ok - install: uninstall removes what install put there"
else
	echo "not ok - install: uninstall removes what install put there"
	sed 's/^/# /' "$out/install.out"
fi

# bash completion: commands and options from lsmctl's own --help
complete_line() { # complete_line CWORD WORDS...: what _lsmctl offers
	local cword=$1
	shift
	PATH=$PWD/build/loader:$PATH bash -c '. loader/lsmctl.bash-completion
		COMP_WORDS=("$@"); COMP_CWORD=$0; _lsmctl; echo "${COMPREPLY[*]}"' "$cword" "$@"
}
for t in "1|apply|lsmctl ap" "2|--mode|lsmctl apply --mo" "3|global|lsmctl apply --backend g" \
	"4|audit enforce|lsmctl run x --mode " "2|--prometheus|lsmctl stats --p"; do
	IFS='|' read -r cword want line <<<"$t"
	read -r -a words <<<"$line"
	[ "${line: -1}" = " " ] && words+=("")
	got=$(complete_line "$cword" "${words[@]}")
	if [ "$got" = "$want" ]; then
		echo "ok - completion: '$line' offers '$want'"
	else
		echo "not ok - completion: '$line' offers '$want' (got '$got')"
	fi
done
