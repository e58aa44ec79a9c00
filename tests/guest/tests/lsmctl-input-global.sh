#!/bin/sh
# lsmctl-input.sh on the global backend.
exec /lab/tests/lsmctl-input.sh global
