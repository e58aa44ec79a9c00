#!/usr/bin/env python3
"""Turn a bench results folder into report.md and plots.

    bench/report.py DIR

report.md: instructions/op (median [min-max]) of the kernels and LSM sets
with their ratios to nosec and stock; the equivalent rule set on every
backend against no policy; BPF policies against rule count and cgroup
count, inside and outside the confined cgroups, lsm_cgroup against
global; lsm_cgroup outside and inside its cgroup on stock and lsm side
by side (series cg: bench/run.sh quick); Debian 12's own kernel (debian)
with its default LSMs, with and without the rule set; the hand-made
probe's figures (bench/reference.csv) next to the harness's; LSM hook
and indirect calls per operation (indirect/). Plots (gnuplot, PNG and
SVG; report.md links the SVGs it drew).

Reads DIR/raw.csv (bench/icount.sh; the older form without the series
and policy columns too), DIR/indirect/indirect.csv, DIR/machine.txt and
DIR/failures.txt when they are there. Each table says which mode
measured it: icount (TCG instruction counting: instructions/op, exact
and repeatable) or kvm (wall-clock ns/op). Exits 1, naming the file and
line, when raw.csv is missing or malformed, or when gnuplot fails.

This is the entry point; the work is in bench/lsmreport/, one concern a
module (its __init__.py lists them).
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no bench/lsmreport/__pycache__ in the tree
from lsmreport.model import ReportError  # noqa: E402
from lsmreport.plots import draw_plots  # noqa: E402
from lsmreport.readers import (read_indirect, read_lines, read_raw,  # noqa: E402
                               read_reference)
from lsmreport.sections import report  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="bench/report.py", description="Write DIR/report.md and its plots from DIR/raw.csv.")
    parser.add_argument("dir", help="a results folder (bench/run.sh)")
    args = parser.parse_args(argv)
    d = args.dir
    try:
        res = read_raw(os.path.join(d, "raw.csv"))
        reference = read_reference()
        indirect = read_indirect(os.path.join(d, "indirect", "indirect.csv"))
    except ReportError as e:
        print("report: %s" % e, file=sys.stderr)
        return 1
    plots, failed = draw_plots(d, res)
    failures = read_lines(os.path.join(d, "failures.txt"))
    out = os.path.join(d, "report.md")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(report(res, reference, plots, read_lines(os.path.join(d, "machine.txt")),
                                 [x for x in failures or [] if x], indirect)) + "\n")
    print("report: %s (%d plots)" % (out, len(plots)), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
