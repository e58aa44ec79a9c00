#!/usr/bin/env bash
# Boot a lab kernel in QEMU and carry the guest's verdict back.
#
#   tests/vm/run-vm.sh [options] [-- extra kernel command line]
#
# Options (or the environment variable in brackets):
#   -k FILE     bzImage to boot                       [KERNEL]
#   -i FILE     initramfs                             [INITRD]
#   -l FILE     console log                           [LOG]
#   -t SECS     hard timeout; a guest still running then is a hang [TIMEOUT=300]
#   -m MiB      guest memory                          [MEM=512]
#   -c N        guest CPUs                            [CPUS=1]
#   -a ACCEL    tcg or kvm                            [ACCEL=tcg]
#   -n          count instructions: -icount shift=0,align=off,sleep=off,
#               one guest nanosecond per guest instruction [ICOUNT=1]
#   -d FILE     a virtio disk (raw, its writes thrown away: snapshot=on)
#               before the scratch disk; again for more, in order
#               (/dev/vda, /dev/vdb, ...)                [DRIVES, spaces between]
#   -s          interactive: the console on this terminal, no timeout
#   -q          quiet: print the kernel's boot messages only when it is in
#               trouble, and everything from the lab's /init on
#
# Exit status: the guest's own (LAB-EXIT on the console; 0 when its tests
# passed), or 64 kernel panic, 65 hang (timeout), 66 the guest stopped
# without a verdict, 67 QEMU could not start.
set -euo pipefail

KERNEL=${KERNEL:-} INITRD=${INITRD:-} LOG=${LOG:-}
TIMEOUT=${TIMEOUT:-300} MEM=${MEM:-512} CPUS=${CPUS:-1}
ACCEL=${ACCEL:-tcg} ICOUNT=${ICOUNT:-0}
read -r -a drives <<<"${DRIVES:-}"
interactive=0 quiet=0

usage() { sed -n '2,/^set -e/p' "$0" | sed -e '/^set -e/d' -e 's/^# \{0,1\}//'; }
while getopts "k:i:l:t:m:c:a:d:nsqh" opt; do
	case $opt in
	k) KERNEL=$OPTARG ;; i) INITRD=$OPTARG ;; l) LOG=$OPTARG ;;
	t) TIMEOUT=$OPTARG ;; m) MEM=$OPTARG ;; c) CPUS=$OPTARG ;;
	a) ACCEL=$OPTARG ;; d) drives+=("$OPTARG") ;; n) ICOUNT=1 ;; s) interactive=1 ;; q) quiet=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
extra="$*"

die() { echo "vm: error: $*" >&2; exit 67; }
[ -r "$KERNEL" ] || die "no kernel to boot (-k): '${KERNEL}'"
[ -r "$INITRD" ] || die "no initramfs (-i): '${INITRD}'"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"

case $ACCEL in
tcg) accel=(-accel tcg) ;;
kvm)
	[ -w /dev/kvm ] || die "ACCEL=kvm but /dev/kvm is not usable here"
	[ "$ICOUNT" = 1 ] && die "instruction counting needs ACCEL=tcg"
	accel=(-accel kvm -cpu host)
	;;
*) die "ACCEL must be tcg or kvm, not '$ACCEL'" ;;
esac
mode=$ACCEL
if [ "$ICOUNT" = 1 ]; then
	# A fixed wall clock and no address randomisation leave the guest
	# nothing to vary on: two boots count the same instructions.
	accel=(-accel tcg -icount shift=0,align=off,sleep=off
		-rtc base=2026-01-01T00:00:00,clock=vm)
	extra="norandmaps $extra"
	mode="tcg, instruction counting (1 guest ns = 1 instruction)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$LOG" ] || LOG=$tmp/console.log
mkdir -p "$(dirname "$LOG")"

# A fresh ext4 scratch disk (/dev/vda) for tests that need a block
# filesystem. Not when counting instructions: its I/O completes on host
# threads, at host-dependent guest times.
disk=()
for d in "${drives[@]}"; do
	[ -r "$d" ] || die "no disk image '$d' (-d)"
	disk+=(-drive "file=$d,if=virtio,format=raw,snapshot=on")
done
if [ "$ICOUNT" != 1 ]; then
	truncate -s 64M "$tmp/scratch.img"
	mkfs.ext4 -q -F "$tmp/scratch.img"
	disk+=(-drive "file=$tmp/scratch.img,if=virtio,format=raw")
fi

# no_timer_check: under TCG on a loaded host the IO-APIC timer check at
# boot can miss its ticks and panic ("IO-APIC + timer doesn't work!")
append="console=ttyS0 panic=-1 oops=panic loglevel=4 no_timer_check $extra"
[ "$interactive" = 1 ] && append="$append lab.mode=shell"
qemu=(qemu-system-x86_64 -nodefaults -no-reboot -display none
	"${accel[@]}" -m "$MEM" -smp "$CPUS"
	-kernel "$KERNEL" -initrd "$INITRD" -append "$append" "${disk[@]}")

echo "vm: $(basename "$(dirname "$KERNEL")")/$(basename "$KERNEL"), accel=$mode, ${MEM}M, ${CPUS} cpu(s)" >&2
echo "vm: append: $append" >&2

if [ "$interactive" = 1 ]; then
	echo "vm: interactive shell; 'reboot -f' ends the guest, Ctrl-A x kills QEMU" >&2
	exec "${qemu[@]}" -serial mon:stdio -serial null
fi

# The console goes to a file, which QEMU never waits on: a pipe's
# back-pressure would make guest timing depend on the host, and the
# instruction counts with it. The terminal follows the file and sees the
# lines that matter.
set +e
raw=$tmp/console.raw
: >"$raw"
timeout -k 5 "$TIMEOUT" "${qemu[@]}" -serial "file:$raw" -serial null \
	-monitor "unix:$tmp/monitor,server=on,wait=off" </dev/null 2>"$tmp/qemu.err" &
qpid=$!
# Just before the timeout: what the vCPU is doing (qemu-state.py), for a
# hang that leaves the guest no way to say it (an idle guest whose timer
# never fires, or a spin with interrupts off).
vmlinux=$(dirname "$KERNEL")/vmlinux
[ -r "$vmlinux" ] || vmlinux=
{
	trap 'kill $! 2>/dev/null; exit 0' TERM
	sleep $((TIMEOUT > 10 ? TIMEOUT - 5 : TIMEOUT / 2)) &
	wait $! || exit 0
	"$(dirname "$0")/qemu-state.py" "$tmp/monitor" $vmlinux >"$tmp/state" 2>&1
} &
spid=$!
tail -n +1 -s 0.2 -f --pid=$qpid "$raw" | tr -d '\r' | tee "$LOG" |
	awk -v quiet="$quiet" '
		# Quiet: from LAB-START on, everything the guest prints;
		# before it, only what says the kernel is in trouble.
		/^LAB-START/ { started = 1; next }
		started || quiet != 1 { print; fflush(); next }
		/Kernel panic|BUG:|WARNING:|Oops|general protection|Call Trace:|RIP:/ {
			print "vm| " $0; fflush() }'
wait $qpid
qrc=$?
kill $spid 2>/dev/null
wait $spid 2>/dev/null
set -e

verdict=$(sed -n 's/^LAB-EXIT: \([0-9]\{1,3\}\)$/\1/p' "$LOG" | tail -n 1)
if [ -n "$verdict" ]; then
	echo "vm: guest exit status $verdict" >&2
	exit "$verdict"
fi
if grep -q 'Kernel panic' "$LOG"; then
	echo "vm: KERNEL PANIC: $(grep -m1 'Kernel panic' "$LOG" | sed 's/^.*Kernel panic/Kernel panic/') (log: $LOG)" >&2
	exit 64
fi
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "vm: GUEST HANG: no verdict after ${TIMEOUT}s (log: $LOG)" >&2
	if [ -s "$tmp/state" ]; then
		cat "$tmp/state" >>"$LOG"
		sed 's/^/vm: /' "$tmp/state" >&2
	fi
	exit 65
fi
if [ -s "$tmp/qemu.err" ] && [ ! -s "$LOG" ]; then
	echo "vm: QEMU failed: $(head -n 3 "$tmp/qemu.err")" >&2
	exit 67
fi
echo "vm: GUEST STOPPED WITHOUT A VERDICT (qemu status $qrc, log: $LOG)" >&2
exit 66
