#!/bin/sh
# escapes (tests/guest/src/escapes.c) on the global backend.
exec /lab/tests/escapes --backend global
