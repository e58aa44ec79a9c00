#!/bin/sh
# mount-rules.sh on the global backend.
exec /lab/tests/mount-rules.sh global
