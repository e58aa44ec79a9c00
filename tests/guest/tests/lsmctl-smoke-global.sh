#!/bin/sh
# lsmctl-smoke.sh on the global backend.
exec /lab/tests/lsmctl-smoke.sh global
