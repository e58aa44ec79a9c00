#!/bin/sh
# make demo's script, as a test: it ends non-zero unless lsmctl events
# reported the three denials the README shows.
# confine-shell needs 5 lsm_cgroup hooks (self-protection's own part is
# at file_open, the guard takes none): it fits stock 6.1's 10 too.
. /lab/lib/lab.sh
out=$(/lab/demo/demo.sh 2>&1)
rc=$?
echo "$out" | sed 's/\x1b\[[0-9;]*m//g; s/^/# /'
[ $rc -eq 0 ] && ok "the demo confines a shell and reports 3 denials" ||
	not_ok "the demo confines a shell and reports 3 denials" "status $rc"
