#!/usr/bin/env bash
# No indirect call is left on the LSM dispatch path of the lsm kernel.
#
# Disassembles each kernel's vmlinux and lists every security_*()
# function that dispatches to LSMs (reads security_hook_heads on stock,
# calls an LSM static call on lsm) with the indirect calls, indirect
# jumps and retpoline thunk calls in it. The lsm kernel must have none;
# stock must have them, which shows the check can fail.
set -u
cd "$(dirname "$0")/../.." || exit 1

# Indirect calls that are not LSM dispatch: function:what it calls.
allowed="security_inode_init_security:the filesystem's initxattrs() callback"

dispatchers() { # vmlinux -> "function count" lines
	objdump -d --no-show-raw-insn "$1" | awk '
		function flush() {
			if (fn != "" && dispatch) print fn, n
			fn = ""; dispatch = 0; n = 0
		}
		/^[0-9a-f]+ <[^>]+>:$/ {
			flush()
			name = $2; gsub(/[<>:]/, "", name)
			if (name ~ /^security_/) fn = name
			next
		}
		fn == "" { next }
		/<security_hook_heads(\+0x[0-9a-f]+)?>/ { dispatch = 1 }
		/<__SCT__lsm_static_call_/ { dispatch = 1 }
		/(call|jmp)[ \t]+\*/ || /(call|jmp)[ \t]+[0-9a-f]+ <__x86_indirect_(call_|jump_)?thunk/ { n++ }
		END { flush() }'
}

# a folder of this run's own: two runs at once must not share a list
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in stock lsm; do
	vmlinux=build/kernel/$v/vmlinux
	if [ ! -r "$vmlinux" ]; then
		echo "not ok - $v: no $vmlinux"
		continue
	fi
	dispatchers "$vmlinux" >"$work/disasm-$v.txt"
	total=0 excused=0 funcs=0 with=0
	while read -r fn n; do
		funcs=$((funcs + 1))
		[ "$n" -gt 0 ] || continue
		with=$((with + 1))
		why=$(printf '%s\n' "$allowed" | sed -n "s/^${fn%%.*}:\(.*\)/\1/p")
		if [ -n "$why" ] && [ "$v" = lsm ]; then
			echo "# $v: $fn: $n indirect call(s), excused: $why"
			excused=$((excused + 1))
			n=$((n - 1))
		fi
		total=$((total + n))
	done <"$work/disasm-$v.txt"
	echo "# $v: $funcs dispatching security_*() functions, $with with indirect calls, $total indirect call(s) to LSMs"
	if [ "$v" = lsm ]; then
		if [ "$total" -eq 0 ] && [ "$funcs" -gt 200 ]; then
			echo "ok - lsm: no indirect call in $funcs LSM dispatchers"
		else
			echo "not ok - lsm: no indirect call in LSM dispatchers ($total found)"
			awk '$2 > 0 { print "#   " $1 ": " $2 }' "$work/disasm-$v.txt"
		fi
	else
		if [ "$total" -gt 200 ]; then
			echo "ok - stock: the check finds $total indirect calls in $funcs LSM dispatchers"
		else
			echo "not ok - stock: the check finds the indirect calls of the list walk ($total found)"
		fi
	fi
done
