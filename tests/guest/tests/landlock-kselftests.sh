#!/bin/sh
# The 6.1 tree's Landlock kselftests (tools/testing/selftests/landlock:
# base_test, fs_test, ptrace_test), built static on the host and run
# unmodified, one TAP line a subtest. A subtest skipped must be one that
# /lab/landlock/expected-skips names (with why), and each one named there
# must be skipped: stock and lsm are held to the same list, so that any
# difference between the kernels fails.
. /lab/lib/lab.sh
dir=/lab/landlock
expected=$dir/expected-skips
work=/tmp/landlock-ksft
# The tests' root: busybox, the tests in /ksft, whence they run (fs_test
# works in ./tmp and runs ./true), and a /tmp (base_test opens it).
rm -rf "$work" && mkdir -p "$work/bin" "$work/ksft" "$work/tmp" &&
	cp /bin/busybox "$work/bin/" &&
	cp "$dir/base_test" "$dir/fs_test" "$dir/ptrace_test" "$dir/true" "$work/ksft/" || {
	not_ok "set up $work"
	exit 1
}
skipped=$work/.skipped
: >"$skipped"
# fs_test pivots its root, which the initramfs's rootfs refuses: run the
# tests with a tmpfs folder as root (as switch_root makes one), in a
# mount namespace of their own.
unshare -m sh -c '
	set -e
	mount --make-rprivate /
	mount --bind "$1" "$1"
	cd "$1"
	mkdir -p proc dev
	mount -t proc proc proc
	mount --bind /dev dev
	mount --move . /
	for t in base_test fs_test ptrace_test; do
		chroot . /bin/busybox sh -c "cd /ksft && ./$t" >"./.$t.out" 2>&1 &&
			echo 0 >"./.$t.rc" || echo $? >"./.$t.rc"
	done
' sh "$work" || not_ok "run the tests with $work as root"
for t in base_test fs_test ptrace_test; do
	rc=$(cat "$work/.$t.rc" 2>/dev/null || echo none)
	n=0 name=
	while IFS= read -r line; do
		case $line in
		"#"*" OK  "* | "#"*" FAIL  "*)
			# The harness names a test on this line; a skip's TAP line
			# does not name it.
			name=${line##* }
			;;
		"ok "*"# SKIP"* | "ok "*"# skip"*)
			echo "$t:$name" >>"$skipped"
			n=$((n + 1))
			;;
		"ok "*) ok "$t: ${line#ok * }"; n=$((n + 1)) ;;
		"not ok "*) not_ok "$t: ${line#not ok * }"; n=$((n + 1)) ;;
		esac
	done <"$work/.$t.out"
	if [ "$n" -eq 0 ] || { [ "$rc" != 0 ] && ! grep -q "^not ok" "$work/.$t.out"; }; then
		not_ok "$t ran" "exit status $rc, $n result(s): $(tail -n 3 "$work/.$t.out" | tr '\n' ' ')"
	fi
done

# Skips: exactly the expected ones; an unexpected one with its SKIP line.
skip_line() { grep -B3 " ${1#*:}\$" "$work/.${1%%:*}.out" | grep -m1 SKIP; }
expect_skips "$expected" "$skipped" skip_line
