#!/bin/sh
# The 6.1 tree's BPF LSM selftests (tools/testing/selftests/bpf's
# test_progs, pruned to test_lsm, lsm_cgroup, bpf_cookie/lsm,
# test_local_storage, test_bprm_opts and deny_namespace; built on the
# host by tests/guest/test_progs/build.py), run unmodified, one TAP line a
# test and a subtest. A test skipped must be one that
# /lab/test_progs/expected-skips names (with why), and each one named
# there must be skipped: stock and lsm are held to the same list, so that
# any difference between the kernels fails.
. /lab/lib/lab.sh
dir=/lab/test_progs
expected=$dir/expected-skips
work=/tmp/test-progs
tests=test_lsm,lsm_cgroup,bpf_cookie/lsm,test_local_storage,test_bprm_opts,deny_namespace
# The tests' root: the host's bash and rm with their libraries (the tests
# exec /bin/bash and copy /bin/rm), busybox for the rest, test_progs.
rm -rf "$work" && mkdir -p "$work" && cp -a "$dir/root/." "$work/" &&
	mkdir -p "$work/proc" "$work/sys" "$work/dev" "$work/tmp" "$work/mnt" &&
	cp /bin/busybox "$work/bin/" && cp "$dir/test_progs" "$work/" || {
	not_ok "set up $work"
	exit 1
}
for applet in $(busybox --list); do
	[ -e "$work/bin/$applet" ] || ln -s busybox "$work/bin/$applet"
done
out=$work/.out
# In a mount namespace of its own, so that the binds (and the cgroup2
# that lsm_cgroup mounts on /mnt) go with it.
unshare -m sh -c '
	set -e
	mount --make-rprivate /
	cd "$1"
	mount -t proc proc proc
	mount --rbind /sys sys
	mount --bind /dev dev
	mount -t tmpfs tmpfs tmp
	chroot . /test_progs -t "$2" >"$3" 2>&1 && echo 0 >"$3.rc" || echo $? >"$3.rc"
' sh "$work" "$tests" "$out" || not_ok "run test_progs with $work as root"
rc=$(cat "$out.rc" 2>/dev/null || echo none)

skipped=$work/.skipped
: >"$skipped"
n=0
while IFS= read -r line; do
	case $line in
	"#"*:OK | "#"*:FAIL | "#"*:SKIP) ;;
	*) continue ;;
	esac
	name=${line##* } n=$((n + 1))
	case $name in
	*:OK) ok "${name%:OK}" ;;
	*:FAIL) not_ok "${name%:FAIL}" ;;
	*:SKIP) echo "${name%:SKIP}" >>"$skipped" ;;
	esac
done <"$out"
if [ "$n" -eq 0 ] || [ "$rc" != 0 ]; then
	not_ok "test_progs ran and passed" "exit status $rc, $n result(s): $(grep -E '^(Summary|#.*:FAIL)' "$out" | tr '\n' ' ')"
	# the failures' logs, to read in the boot's TAP
	sed 's/^/# /' "$out"
fi

# Skips: exactly the expected ones.
expect_skips "$expected" "$skipped"
