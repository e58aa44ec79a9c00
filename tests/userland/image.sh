#!/usr/bin/env bash
# Build the Debian 12 root filesystem of make check-userland: mmdebstrap's
# minbase of bookworm with tests/userland/packages, as an ext4 image that
# boots to systemd. Built once and reused while this script and the
# package list stay the same (build/userland/inputs); the versions it got
# are in build/userland/manifest.
#
#   tests/userland/image.sh [OUTDIR]      default: build/userland
#
# Nothing of the lab is in it: tests/userland/run.sh hands lsmctl (make
# install) and the walk-through to each boot on a disk of their own, and
# boots the image read-only (QEMU's snapshot=on), so every boot starts
# from the same state.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build/userland}
here=$top/tests/userland
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

say() { printf 'userland image: %s\n' "$*"; }
die() { printf 'userland image: error: %s\n' "$*" >&2; exit 1; }

command -v mmdebstrap >/dev/null || die "mmdebstrap missing: run 'make deps-userland'"
[ "$(id -u)" -eq 0 ] || die "mmdebstrap's root mode needs root"

pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages" | tr -s ' \n' ',' | sed 's/,$//')
inputs="$suite $(cat "$here/packages" "$0" | sha256sum | cut -c1-16)"
if [ "$(cat "$out/inputs" 2>/dev/null)" = "$inputs" ] && [ -f "$out/rootfs.img" ]; then
	say "up to date ($out/rootfs.img)"
	exit 0
fi

rm -rf "$out"
mkdir -p "$out"
work=$out/.work
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

say "mmdebstrap $suite minbase + $pkgs"
# Services are not started in the chroot (policy-rc.d); what the booted
# image does at its first boot it does in every boot, the image being
# read-only. The customize hooks make it boot on the lab's console and
# disk: ttyS0, /dev/vda as /, no root password to ask for, no timers
# that would run apt or man-db under TCG.
mmdebstrap --mode=root --variant=minbase --format=directory \
	--include="$pkgs" \
	--customize-hook='echo lab-userland >"$1/etc/hostname"' \
	--customize-hook='printf "/dev/vda / ext4 defaults 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer systemd-tmpfiles-clean.timer serial-getty@ttyS0.service getty@tty1.service' \
	--customize-hook='dpkg-query -R "$1/var/lib/dpkg" -W -f "\${Package} \${Version}\n" 2>/dev/null >"$1/.manifest" || chroot "$1" dpkg-query -W -f "\${Package} \${Version}\n" >"$1/.manifest"' \
	"$suite" "$work/root" \
	"deb $mirror $suite main" "deb $mirror $suite-updates main" \
	"deb $security $suite-security main"

mv "$work/root/.manifest" "$out/manifest"
size=$(( $(du -sm "$work/root" | cut -f1) * 3 / 2 + 256 ))
say "ext4 image of ${size} MiB"
mkfs.ext4 -q -F -L lab-userland -d "$work/root" "$out/rootfs.img.tmp" "${size}M"
mv "$out/rootfs.img.tmp" "$out/rootfs.img"
echo "$inputs" >"$out/inputs"
say "$out/rootfs.img: $(wc -l <"$out/manifest") packages (manifest)"
