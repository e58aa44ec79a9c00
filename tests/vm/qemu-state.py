#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print what a running guest's vCPU is doing, from QEMU's monitor.

    tests/vm/qemu-state.py MONITOR_SOCKET [VMLINUX]

run-vm.sh calls it just before its timeout ends a guest, so that a hang
says whether the guest was idle (RIP in the idle loop: a timer that never
fired) or spinning (RIP moving in kernel text, interrupts off or on). It
reads the registers three times a second apart and the local APIC, and
names each RIP's function from VMLINUX's symbols when it has them.
"""
import bisect
import re
import socket
import subprocess
import sys
import time


def symbols(vmlinux):
    """Sorted (address, name) of VMLINUX's text symbols; [] without them."""
    try:
        out = subprocess.run(["nm", "-n", vmlinux], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    return syms


def name_of(syms, addr):
    i = bisect.bisect_right([a for a, _ in syms], addr) - 1
    return f"{syms[i][1]}+{addr - syms[i][0]:#x}" if i >= 0 else "?"


def ask(sock, command):
    """Send one monitor command; its output up to the next prompt."""
    sock.sendall(command.encode() + b"\n")
    data = b""
    deadline = time.monotonic() + 5
    while (not data.rstrip().endswith(b"(qemu)")
           and time.monotonic() < deadline):
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        data += chunk
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]|\r", "",
                  data.decode(errors="replace"))
    lines = [line for line in text.splitlines()
             if line.strip() and not line.startswith("(qemu)")]
    return [line for line in lines if line.strip() != command]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    syms = symbols(sys.argv[2]) if len(sys.argv) == 3 else []
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(1)
    try:
        sock.connect(sys.argv[1])
    except OSError as e:
        sys.exit(f"qemu-state: {sys.argv[1]}: {e}")
    ask(sock, "")  # the greeting
    for i in range(3):
        regs = ask(sock, "info registers")
        flat = " ".join(regs)
        rip = re.search(r"RIP=([0-9a-f]+)", flat)
        rfl = re.search(r"RFL=([0-9a-f]+)", flat)
        where = name_of(syms, int(rip.group(1), 16)) if rip and syms \
            else "?"
        irq = "on" if rfl and int(rfl.group(1), 16) & 0x200 else "off"
        at = rip.group(1) if rip else "?"
        print(f"qemu-state: sample {i + 1}: RIP={at} ({where}), "
              f"interrupts {irq}")
        if i == 0:
            for line in regs:
                print(f"qemu-state:   {line}")
        time.sleep(1)
    for line in ask(sock, "info lapic"):
        print(f"qemu-state: lapic: {line}")


if __name__ == "__main__":
    main()
