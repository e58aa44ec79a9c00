#!/usr/bin/env bash
# Install the Debian packages the project needs. Idempotent: packages
# already present are not reinstalled, and apt-get update runs only when
# something is missing.
#
# scripts/deps.sh lsmctl: only what building lsmctl takes (make lsmctl):
# the compilers, libbpf, bpftool, libyaml, and what fetching Debian's
# kernel for its BTF takes (kernel/debian.sh); no QEMU, AppArmor tools,
# gnuplot or the rest of the lab's test set. scripts/deps.sh userland:
# what make check-userland adds.
set -euo pipefail

lsmctl_pkgs=(
	linux-source-6.1 xz-utils cpio kmod
	make gcc git clang llvm libelf-dev zlib1g-dev libzstd-dev
	libbpf-dev bpftool libyaml-dev
)

# make check-userland's Debian image (tests/userland/image.sh)
userland_pkgs=(mmdebstrap e2fsprogs)

pkgs=(
	linux-source-6.1
	make gcc bc bison flex libelf-dev libssl-dev dwarves cpio kmod
	xz-utils rsync git ccache python3 perl
	clang llvm lld libclang-rt-14-dev
	libbpf-dev bpftool zlib1g-dev libzstd-dev libyaml-dev
	qemu-system-x86 busybox-static
	checkpolicy apparmor
	libcmocka-dev
	reiserfsprogs libcap-dev
	gnuplot-nox flake8
	iptables nftables
	bubblewrap
)

case ${1:-} in
lsmctl) pkgs=("${lsmctl_pkgs[@]}") ;;
userland) pkgs=("${userland_pkgs[@]}") ;;
esac

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run 'make deps' as root (or install them with apt-get)" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
