#!/bin/sh
# Fails on purpose: booted with lab.break=fail, the harness must report it.
echo "not ok - deliberately failing test (lab.break=fail)"
exit 1
