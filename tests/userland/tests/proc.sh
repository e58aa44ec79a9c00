#!/bin/sh
# A /proc reader: free, uptime, ps and df read /proc and /sys files that
# have no name on disk; the draft names them in their per-task form and
# passes the same run; another task's environment is denied.
. /lab/lib/lab.sh
. /lab/lib/walk.sh
job='free && uptime && ps ax && df /'
learn proc sh -c "$job"
checks proc
show_draft proc
enforce proc
passes proc "free, uptime, ps ax, df" "$job"
denied proc "reading PID 1's environment" "object=environ(read" "$job && cat /proc/1/environ"
exit 0
