#!/usr/bin/env bash
# Host tests of the benchmark's report generator, bench/report.py and
# its package bench/lsmreport/: they compile, and their unit tests
# (tests/unit/report/, on a small fixed results folder, and on the
# committed bench/results/*/) pass, one TAP line each; and flake8's
# style check (make deps installs flake8).
set -u
cd "$(dirname "$0")/../.." || exit 1
export PYTHONDONTWRITEBYTECODE=1
files=(bench/report.py bench/lsmreport/*.py tests/unit/report/test_report.py)
rc=0

if out=$(python3 -c 'import sys
for f in sys.argv[1:]:
    compile(open(f, encoding="utf-8").read(), f, "exec")' "${files[@]}" 2>&1); then
	echo "ok - report: bench/report.py, bench/lsmreport/ and their tests compile"
else
	echo "not ok - report: bench/report.py, bench/lsmreport/ and their tests compile"
	printf '%s\n' "$out" | sed 's/^/# /'
	exit 1
fi

if ! command -v flake8 >/dev/null; then
	echo "not ok - report: flake8 style (no flake8: make deps installs it)"
	rc=1
elif out=$(flake8 --max-line-length=100 "${files[@]}" 2>&1); then
	echo "ok - report: flake8 style"
else
	echo "not ok - report: flake8 style"
	printf '%s\n' "$out" | sed 's/^/# /'
	rc=1
fi

python3 tests/unit/report/test_report.py --tap || rc=1
exit "$rc"
