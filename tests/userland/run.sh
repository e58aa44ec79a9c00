#!/usr/bin/env bash
# make check-userland: the policy developer's workflow on a real Debian 12
# userland (tests/userland/image.sh), booted with Debian's own kernel
# (build/kernel/debian) under QEMU to its systemd, lsmctl installed by
# make install.
#
#   tests/userland/run.sh [TEST,...]      default: every tests/userland/tests/*
#
# Environment: TIMEOUT (default 1800 s), MEM (2048 MiB), RESULTS (the
# console log's folder, default build/test-results/userland).
# Exit status: the guest's (0 when every test passed), or run-vm.sh's.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/userland
build=$top/build
results=${RESULTS:-$build/test-results/userland}
kernel=$build/kernel/debian

die() { echo "userland: error: $*" >&2; exit 1; }
[ -r "$kernel/bzImage" ] && [ -r "$kernel/modules.cpio" ] || die "no debian kernel: make kernels"
[ -x "$build/loader/lsmctl" ] || die "no lsmctl: make loader"

"$here/image.sh" "$build/userland"

tests=${1:-$(cd "$here/tests" && ls | sed 's/\.sh$//' | paste -sd,)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The payload disk: what the initramfs copies into the image's /.
root=$work/payload/root
make -s -C "$top" install DESTDIR="$root" PREFIX=/usr/local >/dev/null
mkdir -p "$root/lab/lib" "$root/lab/tests" "$root/etc/systemd/system/multi-user.target.wants"
cp "$top/tests/guest/lib/lab.sh" "$top/tests/guest/lib/run-tests" "$here/walk.sh" "$root/lab/lib/"
cp "$here"/tests/* "$root/lab/tests/"
install -m 0755 "$here/boot-tests" "$root/lab/boot-tests"
cp "$here/lab-userland.service" "$root/etc/systemd/system/"
ln -s ../lab-userland.service "$root/etc/systemd/system/multi-user.target.wants/"
mkfs.ext4 -q -F -d "$work/payload" "$work/payload.img" 64M

# The initramfs: busybox, the init that mounts the image, the kernel's
# modules for the disks.
mkdir -p "$work/initrd/bin" "$work/initrd/lab"
busybox=$(command -v busybox) || die "busybox missing: make deps"
cp "$busybox" "$work/initrd/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$work/initrd/bin/$applet" ] || ln -s busybox "$work/initrd/bin/$applet"
done
install -m 0755 "$here/init" "$work/initrd/init"
(cd "$work/initrd" && find . -print0 | sort -z | cpio --null -o -H newc --quiet -R 0:0) >"$work/initrd.cpio"
cat "$kernel/modules.cpio" >>"$work/initrd.cpio"

mkdir -p "$results"
echo "userland: $(cat "$kernel/package"), $(wc -l <"$build/userland/manifest") packages, tests: $tests"
DRIVES="$build/userland/rootfs.img $work/payload.img" \
	KERNEL=$kernel/bzImage INITRD=$work/initrd.cpio LOG=$results/console.log \
	TIMEOUT=${TIMEOUT:-1800} MEM=${MEM:-2048} \
	"$top/tests/vm/run-vm.sh" -q -- "systemd.show_status=0 lab.tests=$tests"
