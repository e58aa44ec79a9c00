#!/bin/sh
# Hangs on purpose after one result: booted with lab.break=hang-test, the
# harness must report the hang and run-tests' watchdog what it saw.
echo "ok - selftest-hang: a result before the hang"
while :; do sleep 60; done
