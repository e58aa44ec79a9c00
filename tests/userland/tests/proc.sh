#!/bin/sh
# A /proc reader: free, uptime, ps and df read /proc and /sys files that
# have no name on disk; the draft names them in their per-task form and
# passes the same run; another task's memory map is denied.
. /lab/lib/lab.sh
. /lab/lib/walk.sh
job='free && uptime && ps ax && df /'
walk proc "$job"
denied proc "reading PID 1's memory map" "object=maps(read" "$job && read m </proc/1/maps"
exit 0
