#!/usr/bin/env bash
# Build one kernel variant of the lab from Debian's linux-source-6.1.
#
#   kernel/build.sh VARIANT
#
#   VARIANT: stock | lsm | nosec | nofix | debug | stock-early | lsm-early
#
# One unpacked tree is kept as a git repository (build/kernel/linux):
# tag "stock" is the pristine tarball, branch "lsm" is stock plus
# kernel/patches/series.  Each variant builds in its own O= folder below
# the tree, so that srctree is ".." for every variant, the compiler
# command lines are the same and ccache hits across variants.  Switching
# the checkout only touches the files the series changes, so a variant
# rebuilds only what differs.
#
# A variant is skipped when its inputs (tarball version, series and
# patches, config fragments, this script) have not changed.
set -euo pipefail

variant=${1:?usage: kernel/build.sh stock|lsm|nosec|nofix|debug|stock-early|lsm-early}
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$top/kernel
bdir=${BUILD_DIR:-$top/build}/kernel
tree=$bdir/linux
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${JOBS:-$(nproc)}

say() { printf 'kernel %s: %s\n' "$variant" "$*"; }
die() { printf 'kernel %s: error: %s\n' "$variant" "$*" >&2; exit 1; }

# Which commit of the tree, which fragments, which patches.
fragments=("$kdir/config/lab.config")
series=()
read_series() { mapfile -t series < <(grep -v -e '^#' -e '^[[:space:]]*$' "$kdir/patches/series" || true); }
case $variant in
stock | stock-early) ;;
nosec) fragments+=("$kdir/config/nosec.config") ;;
lsm | debug | lsm-early) read_series ;;
nofix)
	# The series with the early returns that Greg Wettstein's fix
	# removes put back (patches/nofix/), to show what the fix changes.
	read_series
	series+=(nofix/0001-lsm-skip-inode_init_security-hooks-when-no-LSM-sets-.patch)
	;;
*) die "unknown variant (stock, lsm, nosec, nofix, debug, stock-early, lsm-early)" ;;
esac
[ ${#series[@]} -gt 0 ] && fragments+=("$kdir/config/lsm.config")
[ "$variant" = debug ] && fragments+=("$kdir/config/debug.config")
# Debian's early lockdown LSM and the ACPI checks setup_arch() asks it.
[[ $variant == *-early ]] && fragments+=("$kdir/config/early.config")

[ -r "$tarball" ] || die "$tarball missing: run 'make deps'"
tar_id=$(stat -c '%s-%Y' "$tarball")
for p in "${series[@]}"; do
	[ -r "$kdir/patches/$p" ] || die "kernel/patches/series names $p, which does not exist"
done

inputs_hash() {
	{
		echo "$tar_id"
		cat "$kdir/build.sh" "${fragments[@]}"
		for p in "${series[@]}"; do echo "$p"; cat "$kdir/patches/$p"; done
	} | sha256sum | cut -d' ' -f1
}
want=$(inputs_hash)
outdir=$bdir/$variant
if [ -f "$outdir/bzImage" ] && [ "$(cat "$outdir/inputs" 2>/dev/null)" = "$want" ]; then
	say "up to date ($outdir/bzImage)"
	exit 0
fi

mkdir -p "$bdir"
# One kernel build at a time: the tree's checkout is shared.
exec 9>"$bdir/.lock"
flock 9

git_tree() {
	git -C "$tree" -c user.name=lab -c user.email=lab@localhost \
		-c advice.detachedHead=false "$@"
}

# Stage 1: the unpacked tree, re-made only when the tarball changes.
if [ "$(cat "$tree/.lab-tarball" 2>/dev/null)" != "$tar_id" ]; then
	say "unpacking $(basename "$tarball")"
	rm -rf "$tree"
	mkdir -p "$tree"
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	say "recording the pristine tree as tag 'stock'"
	git_tree init -q
	printf '/out-*/\n/.lab-*\n' >>"$tree/.git/info/exclude"
	# -f: Debian's top-level .gitignore ignores everything at the top.
	git_tree add -A -f
	git_tree commit -q -m "linux-source-6.1 ($tar_id)"
	git_tree tag stock
	echo "$tar_id" >"$tree/.lab-tarball"
fi

# Stage 2: the commit this variant builds from.
if [ ${#series[@]} -eq 0 ]; then
	rev=stock
else
	# debug and lsm-early build from the same commits as lsm.
	case $variant in debug | lsm-early) rev=lsm ;; *) rev=$variant ;; esac
	series_hash=$(for p in "${series[@]}"; do echo "$p"; cat "$kdir/patches/$p"; done | sha256sum | cut -d' ' -f1)
	if [ "$(cat "$tree/.lab-series-$rev" 2>/dev/null)" != "$series_hash" ]; then
		say "applying ${#series[@]} patch(es) onto stock"
		git_tree checkout -q -f -B "$rev" stock
		for p in "${series[@]}"; do
			git_tree am -q --keep-cr "$kdir/patches/$p" ||
				{ git_tree am --abort || true; die "patch $p does not apply"; }
		done
		echo "$series_hash" >"$tree/.lab-series-$rev"
	fi
fi
if [ "$(git_tree rev-parse HEAD)" != "$(git_tree rev-parse "$rev^{commit}")" ]; then
	say "checking out $rev"
	git_tree checkout -q -f "$rev"
fi

# Stage 3: configuration, allnoconfig + fragments, then checked.
obj=out-$variant
mkdir -p "$tree/$obj"
export ARCH=x86_64
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lsm-lab/ccache}
export CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
mkdir -p "$CCACHE_DIR"
kmake=(make -C "$tree" O="$obj" -j"$jobs" CC="ccache gcc" HOSTCC="ccache gcc")

cat "${fragments[@]}" >"$tree/$obj/lab.config"
say "configuring (allnoconfig + $(basename -a "${fragments[@]}" | paste -sd+))"
"${kmake[@]}" -s KCONFIG_ALLCONFIG="$tree/$obj/lab.config" allnoconfig >/dev/null
"${kmake[@]}" -s olddefconfig >/dev/null
# Every option the fragments set must have survived; the last fragment
# wins where two set the same option.
bad=$(awk '
	FNR == NR { v = $0; sub(/^# /, "", v); sub(/ is not set$/, "=n", v)
		    if (v ~ /^CONFIG_[A-Z0-9_]+=/) { k = v; sub(/=.*/, "", k); want[k] = v }
		    next }
	{ l = $0; sub(/^# /, "", l); sub(/ is not set$/, "=n", l)
	  if (l ~ /^CONFIG_/) { k = l; sub(/=.*/, "", k); have[k] = l } }
	END { for (k in want) {
		got = (k in have) ? have[k] : k "=n"
		if (got != want[k]) print "  " want[k] " (got " got ")" } }
	' "$tree/$obj/lab.config" "$tree/$obj/.config")
if [ -n "$bad" ]; then
	# nosec drops everything that depends on CONFIG_SECURITY by design.
	[ "$variant" = nosec ] || die "config options not taken by Kconfig:
$bad"
fi

# Stage 4: build, with a progress line every few hundred objects.
log=$tree/$obj/build.log
say "building bzImage with $jobs jobs (log: $log)"
start=$(date +%s)
set +e
"${kmake[@]}" bzImage 2>&1 | tee "$log" | awk -v v="$variant" -v t0="$start" '
	/^  (CC|AS|AR|LD|BTF|OBJCOPY|HOSTCC|GEN|UPD|MKPIECE|VDSO)/ {
		n++
		if (n % 250 == 0) printf "kernel %s:   %5d steps, %ds\n", v, n, systime() - t0
		fflush()
	}
	/^  LD      vmlinux$|^  BTF     |^  BTFIDS  vmlinux|^  Kernel: / {
		printf "kernel %s:   %s\n", v, $0; fflush()
	}
	/error:|Error [0-9]/ { print "kernel " v ": " $0; fflush() }
	END { printf "kernel %s:   %d steps in all\n", v, n }'
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
	tail -n 30 "$log" >&2
	die "build failed (full log: $log)"
fi

mkdir -p "$outdir"
cp "$tree/$obj/arch/x86/boot/bzImage" "$tree/$obj/vmlinux" "$tree/$obj/.config" "$outdir/"
git_tree rev-parse HEAD >"$outdir/commit"
echo "$want" >"$outdir/inputs"
say "done in $(($(date +%s) - start))s: $outdir/bzImage"
