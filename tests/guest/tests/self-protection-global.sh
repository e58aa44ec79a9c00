#!/bin/sh
# self-protection.sh on the global backend.
exec /lab/tests/self-protection.sh global
