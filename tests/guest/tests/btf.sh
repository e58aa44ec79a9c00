#!/bin/sh
# The kernel exposes its BTF, which CO-RE programs are relocated against.
. /lab/lib/lab.sh
f=/sys/kernel/btf/vmlinux
if [ ! -r $f ]; then
	not_ok "$f exists"
	exit 1
fi
ok "$f exists"
# struct btf_header starts with the magic 0xeB9F, little-endian.
magic=$(od -An -tx1 -N2 $f | tr -d ' ')
if [ "$magic" = 9feb ]; then ok "BTF magic"; else not_ok "BTF magic" "read $magic"; fi
size=$(wc -c <$f)
if [ "$size" -gt 100000 ]; then ok "BTF is $size bytes"; else not_ok "BTF is large" "$size bytes"; fi
