#!/usr/bin/env bash
# Make the guest's initramfs: busybox-static, the lab's /init and guest
# test runner, and whatever the tests need.
#
#   tests/vm/mkinitramfs.sh OUT.cpio [DIR=DEST ...] [+HOSTPROG ...]
#
#   DIR=DEST    copy the files of host folder DIR into the guest's DEST
#   +HOSTPROG   copy a host program (found on PATH) to the guest's
#               /usr/bin with the shared libraries it links against
set -euo pipefail

out=${1:?usage: mkinitramfs.sh OUT.cpio [DIR=DEST ...] [+HOSTPROG ...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
guest=$here/../guest

busybox=$(command -v busybox) || { echo "mkinitramfs: busybox missing: run 'make deps'" >&2; exit 1; }
file -L "$busybox" | grep -q 'statically linked' ||
	{ echo "mkinitramfs: $busybox is not static: install busybox-static" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,mnt,root,etc,lab}
# mktemp -d's 0700 would be the guest's /: no user but root could look up
# a path. / as a system has it, and /tmp a sticky world-writable one.
chmod 0755 "$root"
chmod 1777 "$root/tmp"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
install -m 0755 "$guest/init" "$root/init"
cp -r "$guest/lib" "$guest/tests" "$root/lab/"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"

copy_with_libs() {
	local prog=$1 path lib
	path=$(command -v "$prog") || { echo "mkinitramfs: host program '$prog' not found" >&2; exit 1; }
	install -D -m 0755 "$path" "$root/usr/bin/$(basename "$path")"
	# ldd lists "name => /path (addr)" and the loader as "/path (addr)".
	for lib in $(ldd "$path" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
	done
}

for arg in "$@"; do
	case $arg in
	+*) copy_with_libs "${arg#+}" ;;
	*=*)
		src=${arg%%=*} dst=${arg#*=}
		mkdir -p "$root/$dst"
		if [ -d "$src" ]; then cp -r "$src/." "$root/$dst/"; fi
		;;
	*) echo "mkinitramfs: bad argument '$arg'" >&2; exit 2 ;;
	esac
done

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet -R 0:0) >"$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs: $out ($(du -h "$out" | cut -f1))"
