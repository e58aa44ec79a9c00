#!/usr/bin/env bash
# The docs point at what exists: in README.md, docs/*.md, loader/POLICY.md
# and bench/README.md (or the files given), every relative link resolves
# (a #anchor to a heading of its page), every `make X` in code names a
# Makefile target, and every repository path in code exists.
set -u
cd "$(dirname "$0")/../.." || exit 1
pages=("$@")
[ ${#pages[@]} -gt 0 ] || pages=(README.md docs/*.md loader/POLICY.md bench/README.md)
targets=$(sed -n 's/^\([a-z][a-z0-9% -]*\):.*/\1/p' Makefile | tr ' ' '\n')
rc=0
bad() { echo "not ok - docs: $1"; rc=1; }

# GitHub's anchors: the heading lowercased, punctuation dropped, spaces -.
anchors() {
	awk '/^```/ { f = !f } !f && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
		tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
is_target() { # "kernel-lsm" matches the rule "kernel-%"
	local t
	for t in $targets; do [[ $1 == "$t" || ($t == *% && $1 == "${t%\%}"*) ]] && return 0; done
	return 1
}
# Code: inline spans, and the lines of fenced blocks, "LINE<tab>text".
code() {
	awk '/^```/ { f = !f; next }
	     f { print FNR "\t" $0; next }
	     { s = $0; while (match(s, /`[^`]+`/)) {
		print FNR "\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$1"
}

for page in "${pages[@]}"; do
	dir=$(dirname "$page") n=0 before=$rc
	while IFS=$'\t' read -r line link; do
		n=$((n + 1)) file=${link%%#*} anchor=
		[[ $link == *#* ]] && anchor=${link#*#}
		target=$page
		[ -z "$file" ] || target=$dir/$file
		if [ ! -e "$target" ]; then
			bad "$page:$line: link $link: no $target"
		elif [ -n "$anchor" ] && ! anchors "$target" | grep -qx -- "$anchor"; then
			bad "$page:$line: link $link: no heading #$anchor in $target"
		fi
	done < <(awk '{ s = $0; while (match(s, /\]\([^) ]+\)/)) {
		print FNR "\t" substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH) } }' "$page" |
		grep -vE $'\t''([a-z]+:|#$)')
	while IFS=$'\t' read -r line text; do
		# [VAR=value]... make [VAR=value | -flag]... TARGET..., up to a shell operator
		read -ra words <<<"${text%%[;|&#]*}"
		i=0
		while [[ ${words[i]:-} == *=* ]]; do i=$((i + 1)); done
		if [ "${words[i]:-}" = make ]; then
			for w in "${words[@]:i+1}"; do
				[[ $w == *=* || $w == -* ]] && continue
				[[ $w =~ ^[a-z][a-z0-9-]*$ ]] || break
				n=$((n + 1))
				is_target "$w" || bad "$page:$line: make $w: no such target in the Makefile"
			done
		fi
		# a repository path: starts with a top-level folder, no spaces
		for w in $text; do
			[[ $w =~ ^(kernel|bpf-progs|loader|demo|tests|bench|scripts|docs)/[][A-Za-z0-9_.*/-]*$ ]] || continue
			n=$((n + 1))
			compgen -G "$w" >/dev/null || compgen -G "$dir/$w" >/dev/null ||
				bad "$page:$line: path $w does not exist"
		done
	done < <(code "$page")
	[ "$rc" != "$before" ] || echo "ok - docs: $page: $n links, targets and paths resolve"
done
exit "$rc"
