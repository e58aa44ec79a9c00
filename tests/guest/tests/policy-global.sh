#!/bin/sh
# lsmctl's policy rules, end to end (tests/guest/src/policy-rules.c), with
# the global backend: global lsm/ programs that look the task's cgroup up.
exec /lab/tests/policy-rules --backend global
