#!/bin/sh
# policy-load.sh on the global backend.
exec /lab/tests/policy-load.sh global
