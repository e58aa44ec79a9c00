#!/bin/sh
# self-protection-open.sh on the global backend.
exec /lab/tests/self-protection-open.sh global
