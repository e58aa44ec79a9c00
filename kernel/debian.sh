#!/usr/bin/env bash
# Fetch the "debian" kernel variant: Debian 12's own packaged kernel,
# downloaded and unpacked, never built, never installed on this host and
# booted only in QEMU.
#
#   kernel/debian.sh [OUTDIR]          default: build/kernel/debian
#
# The package is the linux-image-*-amd64 that linux-image-amd64 depends
# on, at the version the archive has (apt-get update moves it), unpacked
# with dpkg-deb -x in a work folder that goes when done. In OUTDIR:
#   bzImage        its vmlinuz
#   vmlinux        the ELF inside vmlinuz (scripts/extract-vmlinux of
#                  linux-source-6.1), whose .BTF makes the lab's vmlinux.h
#   .config        its config
#   modules.cpio   an initramfs archive with the modules the guest loads
#                  (lab/modules.load lists them in load order) and
#                  lab/kernel-package; tests/run.sh
#                  appends it to the lab's initramfs
#   package        "PACKAGE VERSION"
#   inputs         the package, its version and this script's checksum:
#                  nothing is fetched again while they stay the same
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/kernel/debian}
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# What the guest needs from modules: the scratch disk (virtio on PCI) and
# its ext4, with the crc32c ext4's metadata checksums ask the crypto API
# for (the guest has no modprobe for the kernel to call); binfmt_misc,
# whose register self-protection-open tries (the lab kernels have none);
# netfilter for Debian's iptables (nft and legacy) and nft with a DNAT
# rule on OUTPUT (net-config): nf_tables with its NAT chain and
# expression, nft_compat and xt_nat for iptables-nft's DNAT target,
# ip_tables and iptable_nat for iptables-legacy, xt_tcpudp for --dport;
# sctp, as on a host that uses SCTP, for the escapes' SCTP address lists
# (connectx, bindx, SCTP_DSTADDRV4/6: loader/POLICY.md, every way to an
# address), its checksum's crc32c from crc32c_generic; crypto_user and
# nfnetlink_osf, whose netlink messages the guard refuses in a network
# namespace of the subtree's own (escapes' review6.c: the machine's crypto
# algorithms, and one fingerprint list for every namespace); af_key, whose
# PF_KEY sockets it refuses in init_net (the machine's IPsec SAs); gtp and
# nfnetlink_cthelper, whose generic netlink family and nfnetlink
# subsystem it refuses in a namespace of the subtree's own (escapes'
# review7.c: GTP names init_net's devices by a descriptor, and the
# machine has one list of userspace conntrack helpers).
modules=(virtio_pci virtio_blk ext4 crc32c_generic binfmt_misc
	nf_tables nft_chain_nat nft_nat nft_compat xt_nat xt_tcpudp
	ip_tables iptable_nat iptable_filter sctp crypto_user nfnetlink_osf af_key
	gtp nfnetlink_cthelper)

say() { printf 'kernel debian: %s\n' "$*"; }
die() { printf 'kernel debian: error: %s\n' "$*" >&2; exit 1; }

pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[^ ]*-amd64\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (apt-get update?)"
version=$(apt-cache show --no-all-versions "$pkg" | sed -n 's/^Version: //p' | head -n 1)
[ -n "$version" ] || die "apt-cache has no version of $pkg"
inputs="$pkg $version $(sha256sum <"$0" | cut -c1-16)"
if [ "$(cat "$out/inputs" 2>/dev/null)" = "$inputs" ] &&
	[ -f "$out/bzImage" ] && [ -f "$out/vmlinux" ] && [ -f "$out/modules.cpio" ]; then
	say "up to date ($pkg $version)"
	exit 0
fi
[ -r "$tarball" ] || die "$tarball missing (scripts/extract-vmlinux comes from it): run 'make deps'"

say "fetching $pkg $version"
rm -rf "$out"
work=$out/.work
mkdir -p "$work/deb" "$work/stage/lab"
trap 'rm -rf "$work"' EXIT
sandbox=()
[ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root) # _apt cannot write $work
(cd "$work/deb" && apt-get -q "${sandbox[@]}" download "$pkg=$version")
dpkg-deb -x "$work"/deb/*.deb "$work/pkg"
kver=$(basename "$(find "$work/pkg/lib/modules" -mindepth 1 -maxdepth 1 -type d)")
# The package's times: fetching the same package again remakes nothing.
cp -p "$work/pkg/boot/vmlinuz-$kver" "$out/bzImage"
cp "$work/pkg/boot/config-$kver" "$out/.config"

say "extracting vmlinux"
tar -xJOf "$tarball" linux-source-6.1/scripts/extract-vmlinux >"$work/extract-vmlinux"
sh "$work/extract-vmlinux" "$out/bzImage" >"$work/vmlinux"
touch -r "$out/bzImage" "$work/vmlinux"
mv "$work/vmlinux" "$out/vmlinux"

# modules.dep for the unpacked tree (depmod only writes files under -b),
# then each wanted module after the modules it depends on.
say "modules: ${modules[*]}"
depmod -b "$work/pkg" "$kver"
dep=$work/pkg/lib/modules/$kver/modules.dep
order=()
load_after_deps() {
	local path=$1 d
	[[ " ${order[*]} " == *" $path "* ]] && return
	for d in $(sed -n "s|^$path: *||p" "$dep"); do load_after_deps "$d"; done
	order+=("$path")
}
for m in "${modules[@]}"; do
	path=$(grep -o "^[^:]*/$m\.ko" "$dep") || die "$pkg has no module $m"
	load_after_deps "$path"
done

stage=$work/stage
for path in "${order[@]}"; do
	install -D -m 0644 "$work/pkg/lib/modules/$kver/$path" "$stage/lib/modules/$kver/$path"
	echo "/lib/modules/$kver/$path" >>"$stage/lab/modules.load"
done
echo "$pkg $version" >"$stage/lab/kernel-package"
# Uncompressed newc: it follows the lab's initramfs, which is read the same way.
(cd "$stage" && find . -print0 | sort -z | cpio --null -o -H newc --quiet -R 0:0) >"$out/modules.cpio"
echo "$pkg $version" >"$out/package"
echo "$inputs" >"$out/inputs"
say "$out: $pkg $version ($kver), ${#order[@]} module(s)"
