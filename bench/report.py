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
"""

import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
# The lab's default LSM set, joined with + as raw.csv writes lsm= lines:
# its kernels' CONFIG_LSM, which scripts/lsm-default reads (the tree's
# set, as bench/run.sh boots it).
DEFAULT_SET = subprocess.run([os.path.join(HERE, "..", "scripts", "lsm-default")], check=True,
                             capture_output=True, text=True).stdout.strip().replace(",", "+")
REFERENCE = os.path.join(HERE, "reference.csv")

# A figure's key in raw.csv; the figure is min, median and max.
Key = namedtuple("Key", "series variant lsm mitigations config rules cgroups place workload")
Figure = namedtuple("Figure", "min median max")
RAW_COLUMNS = Key._fields + ("mode",) + Figure._fields
# raw.csv before the series: kernels only, no mode (instruction counting)
OLD_COLUMNS = ("variant", "lsm", "mitigations", "workload") + Figure._fields
INDIRECT_COLUMNS = ("lsm", "workload", "security_calls", "hook_calls", "indirect_calls")
REFERENCE_COLUMNS = ("configuration", "probe", "config", "place")

VARIANTS = ("stock", "lsm")
# Debian 12's own kernel, booted as Debian boots it: no lsm=, its own
# default set ("default" in raw.csv's lsm column).
DEBIAN = "debian"
DEBIAN_LSM = "default"
ALL_VARIANTS = VARIANTS + (DEBIAN,)
PLACES = ("inside", "outside")
BACKENDS = (("bpf-cgroup", "lsm_cgroup"), ("bpf-global", "global"))
# The equivalent rule set's configurations, in the tables' order: config,
# place, the name in the tables, the name in the headlines.
Config = namedtuple("Config", "config place name short")
CONFIGS = (
    Config("bpf-cgroup", "inside", "BPF lsm_cgroup inside", "BPF lsm_cgroup"),
    Config("bpf-cgroup", "outside", "BPF lsm_cgroup outside", "BPF lsm_cgroup outside"),
    Config("bpf-global", "inside", "BPF global inside", "BPF global"),
    Config("bpf-global", "outside", "BPF global outside", "BPF global outside"),
    Config("landlock", "inside", "Landlock", "Landlock"),
    Config("yama", "inside", "Yama", "Yama"),
    Config("selinux", "inside", "SELinux", "SELinux"),
    Config("apparmor", "inside", "AppArmor", "AppArmor"),
    Config("smack", "inside", "Smack", "Smack"),
    Config("tomoyo", "inside", "TOMOYO", "TOMOYO"),
)
# The workload the headlines, the reference and the series plots use.
OPEN_CLOSE = "open_close"
# The series of BPF configurations on one cgroup, outside and inside it,
# on stock and lsm side by side (bench/run.sh quick), with its own
# no-policy boots where it has them.
CG = "cg"


class ReportError(Exception):
    """A results folder's file that cannot be read: the message names it."""


def commas(lsm):
    """An lsm= line as booted (raw.csv joins its LSMs with +)."""
    return lsm.replace("+", ",")


def is_bpf(config):
    return config.startswith("bpf")


def default_lsm(variant):
    """The lsm= line a variant is compared at: the lab's default set, or
    debian's own."""
    return DEBIAN_LSM if variant == DEBIAN else DEFAULT_SET


def kernel(variant, workload, lsm=None, mitigations="on"):
    """The key of a kernel without a policy (nosec has no LSM)."""
    if variant == "nosec":
        lsm = "-"
    return Key("kernels", variant, lsm or default_lsm(variant), mitigations, "none", "-", "-",
               "-", workload)


def in_cgroup(key):
    """A kernel without a policy, measured in a cgroup of its own rather
    than the root cgroup (place cgroup: bench/guest/setup.sh)."""
    return key._replace(place="cgroup")


def baseline(res, variant, config, workload, lsm=None):
    """What a configuration is compared with: the same kernel and lsm= line
    without a policy; for BPF, whose inside and outside are cgroups, in a
    cgroup of its own where that was measured (debian: memcg charges
    there, not in the root cgroup)."""
    b = kernel(variant, workload, lsm)
    return in_cgroup(b) if is_bpf(config) and res.has(in_cgroup(b)) else b


def policy(variant, config, place, workload, lsm=None):
    """The key of the equivalent rule set (BPF: on one cgroup)."""
    lsm = lsm or default_lsm(variant)
    bpf = is_bpf(config)
    return Key("policies", variant, lsm, "on", config, "eq" if bpf else "-",
               "1" if bpf else "-", place, workload)


def series_key(series, count, variant, config, place, workload):
    """The key of a BPF series' point: count rules, or count cgroups."""
    rules, cgroups = (count, "1") if series == "rules" else ("eq", count)
    return Key(series, variant, DEFAULT_SET, "on", config, rules, cgroups, place, workload)


def count_of(key):
    """A series point's count: its rules, or its cgroups."""
    return int(key.rules if key.series == "rules" else key.cgroups)


class Results:
    """raw.csv's figures by key, the workloads in opbench's order, and
    each series' modes."""

    def __init__(self):
        self.figures = {}
        self.workloads = []
        self.modes = {}

    def add(self, key, mode, figure):
        self.figures[key] = figure
        if key.workload not in self.workloads:
            self.workloads.append(key.workload)
        modes = self.modes.setdefault(key.series, [])
        if mode not in modes:
            modes.append(mode)

    @property
    def series(self):
        return set(self.modes)

    def keys(self, **match):
        """The keys, in raw.csv's order, whose fields have these values."""
        return [k for k in self.figures
                if all(getattr(k, f) == v for f, v in match.items())]

    def has(self, key):
        return key in self.figures

    def median(self, key):
        return float(self.figures[key].median)

    def fig(self, key):
        """median [min-max], as raw.csv has them."""
        f = self.figures.get(key)
        return "%s [%s-%s]" % (f.median, f.min, f.max) if f else ""

    def ratio(self, a, b):
        if self.has(a) and self.has(b) and self.median(b) > 0:
            return "%.3f" % (self.median(a) / self.median(b))
        return ""

    def pct(self, a, b):
        if self.has(a) and self.has(b) and self.median(b) > 0:
            return "%+.1f%%" % ((self.median(a) - self.median(b)) * 100 / self.median(b))
        return ""

    def delta(self, a, b):
        if self.has(a) and self.has(b):
            return "%+.0f" % (self.median(a) - self.median(b))
        return ""

    def unit(self, series):
        mode = "+".join(self.modes.get(series, []))
        if mode == "kvm":
            return "ns/op, KVM wall clock"
        if mode == "icount":
            return "instructions/op, TCG instruction counting"
        return "mode " + mode


# Reading the results folder.

def number(value, column, where):
    try:
        x = float(value)
    except ValueError:
        x = math.nan
    if not math.isfinite(x):
        raise ReportError("%s: %s is %r, not a number" % (where, column, value))
    return x


def read_raw(path):
    """raw.csv's figures; the old form's rows become the kernels series."""
    try:
        f = open(path, newline="", encoding="utf-8")
    except FileNotFoundError:
        raise ReportError("no %s" % path) from None
    except OSError as e:
        raise ReportError("%s: %s" % (path, e.strerror)) from None
    results = Results()
    with f:
        reader = csv.DictReader(f)
        try:
            columns = reader.fieldnames
            if not columns:
                raise ReportError("%s: empty" % path)
            old = "series" not in columns and "variant" in columns
            missing = [c for c in (OLD_COLUMNS if old else RAW_COLUMNS) if c not in columns]
            if missing:
                raise ReportError("%s:1: no column %s" % (path, ", ".join(missing)))
            for row in reader:
                where = "%s:%d" % (path, reader.line_num)
                fields = fields_of(row)
                if fields != len(columns):
                    raise ReportError("%s: %d fields, the header has %d" % (
                        where, fields, len(columns)))
                if old:
                    row = old_row(row)
                key = Key(*(row[c] for c in Key._fields))
                for c in Figure._fields:
                    number(row[c], c, where)
                if key.series in ("rules", "cgroups"):
                    column = "rules" if key.series == "rules" else "cgroups"
                    if not row[column].isdigit():
                        raise ReportError("%s: %s is %r in the %s series, not a count" % (
                            where, column, row[column], key.series))
                results.add(key, row["mode"], Figure(*(row[c] for c in Figure._fields)))
        except csv.Error as e:
            raise ReportError("%s:%d: %s" % (path, reader.line_num, e)) from None
        except UnicodeDecodeError as e:
            raise ReportError("%s: not UTF-8 text (%s)" % (path, e.reason)) from None
    return results


def fields_of(row):
    """How many fields a DictReader row had: None keys the extra ones,
    None is the value of the missing ones."""
    return sum(v is not None for k, v in row.items() if k is not None) + len(row.get(None, ()))


def old_row(row):
    """An old raw.csv row (variant,lsm,mitigations,workload,...) as a new one."""
    new = dict(row, series="kernels", mode="icount", config="none",
               rules="-", cgroups="-", place="-")
    if row["variant"] == "nosec":  # no LSM, whatever lsm= it was booted with
        new["lsm"] = "-"
    return new


def read_rows(path, columns):
    """A small CSV's rows (a dict each, and its line) with these columns."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in columns if c not in (reader.fieldnames or ())]
            if missing:
                raise ReportError("%s:1: no column %s" % (path, ", ".join(missing)))
            rows = []
            for row in reader:
                if fields_of(row) != len(reader.fieldnames):
                    raise ReportError("%s:%d: %d fields, the header has %d" % (
                        path, reader.line_num, fields_of(row), len(reader.fieldnames)))
                rows.append(dict(row, line=reader.line_num))
            return rows
    except OSError as e:
        raise ReportError("%s: %s" % (path, e.strerror)) from None
    except (csv.Error, UnicodeDecodeError) as e:
        raise ReportError("%s: %s" % (path, e)) from None


def read_reference(path=REFERENCE):
    """The hand-made probe's figures: the row without a config is the
    probe without a program."""
    rows = read_rows(path, REFERENCE_COLUMNS)
    for r in rows:
        number(r["probe"], "probe", "%s:%d" % (path, r["line"]))
    if not any(r["config"] == "" for r in rows):
        raise ReportError("%s: no row without a config (the probe without a program)" % path)
    return rows


def read_indirect(path):
    """indirect.csv's rows, or None when there is none."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    rows = read_rows(path, INDIRECT_COLUMNS)
    for r in rows:
        for c in INDIRECT_COLUMNS[2:]:
            number(r[c], c, "%s:%d" % (path, r["line"]))
    return rows


def read_lines(path):
    """A text file's lines, or None when it is not there."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return None


# Markdown.

def table(header, rows):
    """A markdown table: the first column left-aligned, the others right."""
    def line(cells):
        return "|" + "".join(" %s |" % c for c in cells)
    return ([line(header), "|---|" + "---:|" * (len(header) - 1)]
            + [line(r) for r in rows])


def subsection(title, header, rows):
    """### title and its table, or nothing when the table has no row."""
    if not rows:
        return []
    return ["", "### " + title, ""] + table(header, rows)


def links(plots, figures):
    """The plots drawn among figures ((name, caption)...): their links."""
    lines = []
    for name, caption in figures:
        if name in plots:
            lines += ["![%s](%s)" % (caption, plots[name]), ""]
    return lines


# The report, a function a table.

def intro(machine, failures):
    lines = ["# LSM and BPF policy cost per operation", ""]
    if machine is not None:
        lines += ["    " + m for m in machine] + [""]
    lines += """\
opbench (bench/src/opbench.c) runs each workload ITERS times a
repetition, after a warm-up, and reports the median of the repetitions
with [min-max]. Under TCG instruction counting (`-icount
shift=0,align=off,sleep=off`) one guest nanosecond is one guest
instruction: the figures are instructions per operation, exact and the
same from run to run; the maximum is a repetition that took a timer
tick. They do not price an indirect call through a retpoline on real
hardware: `ACCEL=kvm bench/run.sh full` measures wall-clock ns/op with
the same plan, where KVM works (not on the development machine). Each
table names its mode. Boot lines: boots.txt; consoles: logs/.""".split("\n") + [""]
    if failures:
        lines += ["**Boots that failed** (their figures are missing below):", ""]
        lines += ["- " + f for f in failures] + [""]
    return lines


def geomean(pairs):
    """The geometric mean of a/b over pairs of medians."""
    return math.exp(sum(math.log(a / b) for a, b in pairs) / len(pairs))


def headline_geomeans(res, mitigations):
    """stock/nosec, lsm/nosec and lsm/stock over the workloads all three
    measured, the default set: a line or None."""
    triples = []
    for w in res.workloads:
        keys = [kernel(v, w, mitigations=mitigations) for v in ("nosec", "stock", "lsm")]
        if all(res.has(k) for k in keys):
            triples.append([res.median(k) for k in keys])
    if not triples:
        return None
    lx = geomean([(x, s) for a, s, x in triples])
    return ("- no policy, `lsm=` the default set, mitigations %s, %d workloads: stock/nosec "
            "%.3f, lsm/nosec %.3f, lsm/stock %.4f (%+.2f%%)" % (
                mitigations, len(triples), geomean([(s, a) for a, s, x in triples]),
                geomean([(x, a) for a, s, x in triples]), lx, (lx - 1) * 100))


def config_lsm(config, variant):
    """The lsm= line the plan boots a configuration with (debian: its own)."""
    if variant == DEBIAN:
        return DEBIAN_LSM
    if is_bpf(config) or config in ("landlock", "yama"):
        return DEFAULT_SET
    return config


def headline_policies(res, variant):
    """open+close: what the equivalent rule set adds on each backend."""
    added = []
    for c in CONFIGS:
        lsm = config_lsm(c.config, variant)
        x = policy(variant, c.config, c.place, OPEN_CLOSE, lsm=lsm)
        b = baseline(res, variant, c.config, OPEN_CLOSE, lsm)
        if res.has(x) and res.has(b):
            added.append("%s %s" % (c.short, res.delta(x, b)))
    if not added:
        return None
    return ("- open+close on %s, what the equivalent rule set adds over no policy: %s"
            % (variant, ", ".join(added)))


def headline_debian(res):
    """debian against nosec and stock (the lab's default set), no policy."""
    triples = []
    for w in res.workloads:
        keys = [kernel(v, w) for v in ("nosec", "stock", DEBIAN)]
        if res.has(keys[2]) and res.has(keys[1]):
            triples.append([res.median(k) if res.has(k) else None for k in keys])
    if not triples:
        return None
    ds = geomean([(d, s) for a, s, d in triples])
    nosec = [(d, a) for a, s, d in triples if a is not None]
    return ("- debian, no policy, its own LSMs (no `lsm=`), %d workloads: %sdebian/stock "
            "%.3f (%+.1f%%; stock with the lab's default set)" % (
                len(triples), "debian/nosec %.3f, " % geomean(nosec) if nosec else "",
                ds, (ds - 1) * 100))


def headline_series(res, series):
    """open+close at the series' first and last point, each column."""
    lines = []
    for v in VARIANTS:
        for config, backend in BACKENDS:
            for p in PLACES:
                keys = res.keys(series=series, variant=v, config=config, place=p,
                                workload=OPEN_CLOSE)
                if not keys:
                    continue
                lo, hi = min(keys, key=count_of), max(keys, key=count_of)
                if count_of(lo) == count_of(hi):
                    continue
                b = kernel(v, OPEN_CLOSE)
                lines.append("- open+close on %s, %s %s, %s %d -> %d: %s -> %s "
                             "(%s -> %s over no policy)" % (
                                 v, backend, p, series, count_of(lo), count_of(hi),
                                 res.figures[lo].median, res.figures[hi].median,
                                 res.delta(lo, b), res.delta(hi, b)))
    return lines


def headlines(res):
    if "kernels" not in res.series and CG not in res.series:
        return []
    lines = ["## Headlines", ""]
    if "kernels" in res.series:
        lines += ["Geometric means over the workloads measured (%s)." % res.unit("kernels"), ""]
    lines += [h for h in (headline_geomeans(res, m) for m in ("on", "off")) if h]
    lines += [h for h in (headline_debian(res),) if h]
    lines += [h for h in (headline_policies(res, v) for v in ALL_VARIANTS) if h]
    for s in ("rules", "cgroups"):
        if s in res.series:
            lines += headline_series(res, s)
    lines += headline_cg(res)
    return lines + [""]


def lsm_lines(res, mitigations):
    """The lsm= lines booted without a policy: capability first, then by name."""
    lsms = {k.lsm for k in res.keys(series="kernels", mitigations=mitigations) if k.lsm != "-"}
    return sorted(lsms, key=lambda lsm: (lsm != "capability", lsm))


def kernels_table(res, mitigations):
    """nosec, stock and lsm without a policy, each lsm= line and workload."""
    rows = []
    for lsm in lsm_lines(res, mitigations):
        for w in res.workloads:
            a = kernel("nosec", w, mitigations=mitigations)
            s = kernel("stock", w, lsm, mitigations)
            x = kernel("lsm", w, lsm, mitigations)
            if not res.has(s) and not res.has(x):
                continue
            rows.append([commas(lsm), w, res.fig(a), res.fig(s), res.fig(x),
                         res.ratio(s, a), res.ratio(x, a), res.pct(x, s)])
    return (["lsm=", "workload", "nosec", "stock", "lsm", "stock/nosec", "lsm/nosec",
             "lsm vs stock"], rows)


def kernels_geomeans(res, mitigations):
    """Geometric means over the workloads, each lsm= line."""
    rows = []
    for lsm in lsm_lines(res, mitigations):
        both, all3 = [], []
        for w in res.workloads:
            a = kernel("nosec", w, mitigations=mitigations)
            s = kernel("stock", w, lsm, mitigations)
            x = kernel("lsm", w, lsm, mitigations)
            if not res.has(s) or not res.has(x):
                continue
            both.append((res.median(x), res.median(s)))
            if res.has(a):
                all3.append((res.median(a), res.median(s), res.median(x)))
        if not both:
            continue
        lx = geomean(both)
        rows.append([commas(lsm),
                     "%.3f" % geomean([(s, a) for a, s, x in all3]) if all3 else "",
                     "%.3f" % geomean([(x, a) for a, s, x in all3]) if all3 else "",
                     "%.4f (%+.2f%%)" % (lx, (lx - 1) * 100)])
    return ["lsm=", "stock/nosec", "lsm/nosec", "lsm/stock"], rows


def kernels_section(res, plots):
    if "kernels" not in res.series:
        return []
    lines = ["## Kernels and LSM sets, no policy", "",
             "nosec is stock with `CONFIG_SECURITY=n` (no hooks at all); stock is",
             "Debian 6.1 (an indirect call per LSM per hook); lsm is stock with the",
             "static-call series. Rows: the `lsm=` line booted. Mode: %s." % res.unit("kernels")]
    for m in ("on", "off"):
        header, rows = kernels_table(res, m)
        if not rows:
            continue
        lines += ["", "### Mitigations " + m, ""] + table(header, rows)
        header, rows = kernels_geomeans(res, m)
        if rows:
            lines += ["", "Geometric means over the workloads:", ""] + table(header, rows)
    header, rows = debian_table(res)
    if rows:
        lines += ["", "### debian: Debian 12's own kernel, its default LSMs", "",
                  "Booted as Debian boots it, without `lsm=` (its `CONFIG_LSM`:",
                  "machine.txt), mitigations on; stock with the lab's default set",
                  "(%s) beside it. Measured in the root cgroup, and in a" % commas(DEFAULT_SET),
                  "cgroup of its own, where Debian's memcg charges kernel memory (the",
                  "lab kernels have no memcg): the baseline of its BPF figures, whose",
                  "inside and outside are cgroups too.", ""] + table(header, rows)
    return lines + [""] + links(plots, [("kernels", "no policy, relative to nosec")])


def debian_table(res):
    """debian without a policy, against nosec and stock; and in a cgroup of
    its own against the root cgroup."""
    rows = []
    for w in res.workloads:
        a, s, d = kernel("nosec", w), kernel("stock", w), kernel(DEBIAN, w)
        if res.has(d):
            rows.append([w, res.fig(a), res.fig(s), res.fig(d), res.ratio(d, a),
                         res.pct(d, s), res.fig(in_cgroup(d)), res.delta(in_cgroup(d), d)])
    return ["workload", "nosec", "stock", "debian", "debian/nosec", "debian vs stock",
            "debian in a cgroup", "+ over the root cgroup"], rows


def policy_configs(res, variant):
    """The configurations measured (CONFIGS' order) and each one's lsm= line:
    on stock and lsm together, or on debian."""
    variants = (DEBIAN,) if variant == DEBIAN else VARIANTS
    lsm_of = {k.config: k.lsm for k in res.keys(series="policies") if k.variant in variants}
    return [c for c in CONFIGS if c.config in lsm_of], lsm_of


def policies_figures(res, variant):
    """Each configuration's figures, and the same kernel without a policy."""
    configs, lsm_of = policy_configs(res, variant)
    cgroup = any(res.has(in_cgroup(kernel(variant, w))) for w in res.workloads)
    rows = []
    for w in res.workloads:
        keys = [policy(variant, c.config, c.place, w, lsm_of[c.config]) for c in configs]
        if any(res.has(x) for x in keys):
            rows.append([w, res.fig(kernel(variant, w))]
                        + ([res.fig(in_cgroup(kernel(variant, w)))] if cgroup else [])
                        + [res.fig(x) for x in keys])
    return (["workload", "no policy"] + (["no policy, in a cgroup"] if cgroup else [])
            + [c.name for c in configs], rows)


def times(ratio):
    return "x" + ratio if ratio else ""


def policies_added(res, variant):
    """What each configuration adds over the same kernel and lsm= line
    without a policy, and its ratio to nosec."""
    configs, lsm_of = policy_configs(res, variant)
    rows = []
    for w in res.workloads:
        a = kernel("nosec", w)
        row = [w, times(res.ratio(kernel(variant, w), a))]
        found = False
        for c in configs:
            lsm = lsm_of[c.config]
            x = policy(variant, c.config, c.place, w, lsm)
            r = res.ratio(x, a)
            row.append(res.delta(x, baseline(res, variant, c.config, w, lsm))
                       + (" (%s)" % times(r) if r else ""))
            found = found or res.has(x)
        if found:
            rows.append(row)
    return ["workload", "no policy (x nosec)"] + [c.name for c in configs], rows


def policies_lsm_vs_stock(res):
    """lsm against stock, each configuration."""
    configs, lsm_of = policy_configs(res, "stock")
    rows = []
    for w in res.workloads:
        cells = [res.pct(policy("lsm", c.config, c.place, w, lsm_of[c.config]),
                         policy("stock", c.config, c.place, w, lsm_of[c.config]))
                 for c in configs]
        if any(cells):
            rows.append([w, res.pct(kernel("lsm", w), kernel("stock", w))] + cells)
    return ["workload", "no policy"] + [c.name for c in configs], rows


def cgroup_vs_global(res):
    """What the BPF policy adds on each backend, inside and outside."""
    rows = []
    for v in ALL_VARIANTS:
        for w in res.workloads:
            b = baseline(res, v, "bpf-cgroup", w)
            ci, gi, co, go = (policy(v, c, p, w) for p in PLACES
                              for c in ("bpf-cgroup", "bpf-global"))
            if not res.has(ci) and not res.has(gi):
                continue
            # a ratio of costs only where both are well above the noise
            ratio = ""
            if res.has(ci) and res.has(gi) and res.has(b):
                dc, dg = res.median(ci) - res.median(b), res.median(gi) - res.median(b)
                if dc >= 100 and dg >= 100:
                    ratio = "%.2f" % (dg / dc)
            rows.append([v, w, res.delta(ci, b), res.delta(gi, b), ratio,
                         res.delta(co, b), res.delta(go, b)])
    return (["kernel", "workload", "lsm_cgroup inside", "global inside",
             "global/lsm_cgroup inside", "lsm_cgroup outside", "global outside"], rows)


def cg_groups(res):
    """The cg series' configurations (config, rules, cgroups) but none,
    in raw.csv's order."""
    groups = []
    for k in res.keys(series=CG):
        g = (k.config, k.rules, k.cgroups)
        if k.config != "none" and g not in groups:
            groups.append(g)
    return groups


def cg_name(config, rules):
    if config == "bpf-allow":
        return "lsm_cgroup, a program that allows at once (bpf-allow)"
    what = {"eq": "the equivalent rule set", "1": "1 rule"}.get(rules, rules + " rules")
    if config == "bpf-shared":
        return "lsm_cgroup, %s, and global's lsm/ programs on the same hooks (bpf-shared)" % what
    return "%s, %s" % (dict(BACKENDS).get(config, config), what)


def cg_baseline(res, variant, workload):
    """The cg series' own boot without a policy, or the kernels series'."""
    k = Key(CG, variant, DEFAULT_SET, "on", "none", "-", "-", "-", workload)
    return k if res.has(k) else kernel(variant, workload)


def cg_added(res, group, variant, place, workload):
    """What the configuration adds over no policy: a number or None."""
    x = Key(CG, variant, DEFAULT_SET, "on", *group, place, workload)
    b = cg_baseline(res, variant, workload)
    return res.median(x) - res.median(b) if res.has(x) and res.has(b) else None


def cg_table(res, workload):
    """Each configuration on each kernel: the figures outside and inside,
    what each adds over no policy, and lsm's added cost against stock's."""
    rows = []
    for g in cg_groups(res):
        for v in VARIANTS:
            keys = [Key(CG, v, DEFAULT_SET, "on", *g, p, workload) for p in ("outside", "inside")]
            if not any(res.has(x) for x in keys):
                continue
            b = cg_baseline(res, v, workload)
            rows.append([cg_name(g[0], g[1]), v, res.fig(b)] + [res.fig(x) for x in keys]
                        + ["%s (%s)" % (res.delta(x, b), res.pct(x, b)) if res.has(x)
                           and res.has(b) else "" for x in keys])
        added = [[cg_added(res, g, v, p, workload) for p in ("outside", "inside")]
                 for v in VARIANTS]
        if any(a is not None and s is not None for s, a in zip(*added)):
            rows.append([cg_name(g[0], g[1]), "lsm - stock", "", "", ""]
                        + ["%+.0f" % (a - s) if a is not None and s is not None else ""
                           for s, a in zip(*added)])
    return ["configuration", "kernel", "no policy", "outside", "inside", "+ outside",
            "+ inside"], rows


def cg_section(res):
    if CG not in res.series:
        return []
    lines = """\
## BPF lsm_cgroup outside and inside its cgroup, stock and lsm

A BPF configuration on one cgroup (CG/in/c1); its figures in a cgroup
outside it (CG/out) and inside it. stock runs lsm_cgroup programs
through 6.1's shim on a BPF trampoline, lsm from BPF LSM's hook
functions. Each cell: median [min-max]; + over the same kernel without
a policy (this series' own boot without one where it has it, else the
kernels series'), and lsm's + less stock's. Mitigations on,
lsm={default}. Mode: {unit}.""".format(default=commas(DEFAULT_SET), unit=res.unit(CG)).split("\n")
    for w in res.workloads:
        lines += subsection(w, *cg_table(res, w))
    return lines + [""]


def headline_cg(res):
    """open+close: what each cg configuration adds on each kernel."""
    lines = []
    for g in cg_groups(res):
        cells = []
        for v in VARIANTS:
            out, inside = (cg_added(res, g, v, p, OPEN_CLOSE) for p in ("outside", "inside"))
            if out is not None or inside is not None:
                cells.append("%s %s outside / %s inside" % (
                    v, "%+.0f" % out if out is not None else "?",
                    "%+.0f" % inside if inside is not None else "?"))
        if cells:
            lines.append("- open+close, %s, over no policy: %s" % (
                cg_name(g[0], g[1]), "; ".join(cells)))
    return lines


def policies_section(res, plots):
    if "policies" not in res.series:
        return []
    lines = """\
## The equivalent rule set on every backend

Deny reading /tmp/bench-secret, executing /tmp/bench-denied, connecting
to port 9 and ptrace (bench/policies/: what each backend cannot express
is in its README); no workload touches these objects, so the figures are
the cost of having the policy, and open+close is checked against it.
BPF: `lsmctl apply` on one cgroup, measured inside it and outside
every confined cgroup. Mitigations on. Each configuration against the
same kernel and `lsm=` line without a policy (+instructions), and
against nosec (x). `lsm=` for BPF, Landlock and Yama: the default set
({default}); for SELinux, AppArmor, Smack and TOMOYO:
that LSM alone (after capability). Mode: {unit}.""".format(
        default=commas(DEFAULT_SET), unit=res.unit("policies")).split("\n")
    variants = {k.variant for k in res.keys(series="policies")}
    if DEBIAN in variants:
        lines += ["debian (Debian 12's own kernel): every configuration with no `lsm=`,",
                  "its own default LSMs (AppArmor, BPF and the rest at once), as a",
                  "Debian machine runs: AppArmor is its default LSM."]
    for v in ALL_VARIANTS:
        if v in variants:
            lines += subsection(v + ", instructions/op", *policies_figures(res, v))
            lines += subsection(v + ", what the policy adds: +instructions over no policy "
                                "(x nosec)", *policies_added(res, v))
    if all(v in variants for v in VARIANTS):
        lines += subsection("lsm vs stock with the same policy", *policies_lsm_vs_stock(res))
    lines += [""] + links(plots, [
        ("policies-stock", "stock: the equivalent rule set, relative to nosec"),
        ("policies-lsm", "lsm: the equivalent rule set, relative to nosec"),
        ("policies-debian", "debian: the equivalent rule set, relative to nosec")])
    header, rows = cgroup_vs_global(res)
    if rows:
        lines += ["### lsm_cgroup against global", "",
                  "What the BPF policy adds over no policy on each backend, inside the",
                  "confined cgroup and outside every confined cgroup (instructions/op).",
                  ""] + table(header, rows) + [""]
    return lines


SERIES_TEXT = {
    "rules": """\
## BPF: cost against the number of rules

One file rule (reading the secret: `file_open` only) and N-1 filler
rules that match nothing (`lsmctl apply --filler`), on one cgroup.""",
    "cgroups": """\
## BPF: cost against the number of confined cgroups

The equivalent rule set applied to N sibling cgroups; measured in
the first and in a cgroup outside them all. The lsm_cgroup backend
stops at the count bench/run.sh allows it (CGROUP_BACKEND_MAX):
each of its policies has its own maps, about 36 MiB of kernel memory
(bench/README.md).""",
}


def series_columns(res, series):
    """A series' columns: (variant, config, place) measured, in order."""
    measured = {(k.variant, k.config, k.place) for k in res.keys(series=series)}
    return [(v, c, p) for v in VARIANTS for c, _ in BACKENDS for p in PLACES
            if (v, c, p) in measured]


def series_counts(res, series):
    """A series' counts (rules or cgroups), smallest first."""
    return sorted({count_of(k) for k in res.keys(series=series)})


def series_table(res, series, workload):
    """One workload of a series: the median at each count, each column,
    and what it adds over the same kernel without a policy."""
    columns = series_columns(res, series)
    rows = []
    for n in series_counts(res, series):
        row = [str(n)]
        for v, c, p in columns:
            x = series_key(series, str(n), v, c, p, workload)
            b = kernel(v, workload)
            cell = ""
            if res.has(x):
                cell = res.figures[x].median
                if res.has(b):
                    cell += " (%s)" % res.delta(x, b)
            row.append(cell)
        if any(row[1:]):
            rows.append(row)
    backend = dict(BACKENDS)
    return [series] + ["%s %s %s" % (v, backend[c], p) for v, c, p in columns], rows


def series_section(res, series, plots):
    if series not in res.series:
        return []
    lines = SERIES_TEXT[series].split("\n") + [
        "Each cell: median, then +instructions over the same kernel without a",
        "policy. Mitigations on, lsm=%s. Mode: %s." % (commas(DEFAULT_SET), res.unit(series))]
    for w in res.workloads:
        lines += subsection(w, *series_table(res, series, w))
    return lines + [""] + links(plots, [(series, series)])


def reference_table(res, reference):
    """The hand-made probe's figures, and the harness's counterparts:
    the rule-count series' one-rule policy on stock."""
    base = next(r for r in reference if r["config"] == "")
    b = kernel("stock", OPEN_CLOSE)
    rows = []
    for r in reference:
        if r is base:
            rows.append([r["configuration"], r["probe"], "",
                         res.figures[b].median if res.has(b) else "", ""])
            continue
        x = series_key("rules", "1", "stock", r["config"], r["place"], OPEN_CLOSE)
        rows.append([r["configuration"], r["probe"],
                     "%+d" % (float(r["probe"]) - float(base["probe"])),
                     res.figures[x].median if res.has(x) else "", res.delta(x, b)])
    return ["configuration", "probe", "+ over no program", "harness", "+ over no policy"], rows


def reference_section(res, reference):
    lines = """\
## Reference: the hand-made probe

Before this harness, a probe on stock 6.1 (`lsm=landlock,yama,bpf`,
one `file_open` program doing a hash lookup, open+close of another
file) counted these instructions/op (TCG instruction counting). Next
to them, the harness's counterpart: the rule-count series' one-rule
policy (`file_open` only) on stock, `lsm=` the default set, open+close
of /tmp/opbench.file (mode: {unit}).
""".format(unit=res.unit("rules")).split("\n")
    return lines + table(*reference_table(res, reference)) + [""]


def indirect_table(rows):
    """Per workload: security_*() calls, and per lsm= line hook calls
    that reach an LSM / indirect calls to LSMs."""
    lsms, workloads, cells = [], [], {}
    for r in rows:
        if r["lsm"] not in lsms:
            lsms.append(r["lsm"])
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
        cells[r["lsm"], r["workload"]] = r
    out = []
    for w in workloads:
        first = cells.get((lsms[0], w))
        row = [w, "%.1f" % float(first["security_calls"]) if first else ""]
        for lsm in lsms:
            c = cells.get((lsm, w))
            row.append("%.1f / %.1f" % (float(c["hook_calls"]), float(c["indirect_calls"]))
                       if c else "")
        out.append(row)
    return ["workload", "security_*() calls"] + [commas(lsm) for lsm in lsms], out


def indirect_section(rows):
    if rows is None:
        return []
    lines = """\
## LSM hook calls and indirect calls per operation (stock)

Counted with kprobe events on every `security_*()` function of stock
6.1 (TCG without instruction counting: these are call counts, not
time; bench/indirect.sh). Each cell: LSM hook calls that reach at
least one LSM / indirect calls to LSMs, per operation. On stock each
LSM on a hook is one indirect call (through a retpoline thunk with
mitigations on); the series makes every one of them a direct call
(a static call), so the second figure is what it removes. The LSMs
on each hook come from the lsm kernel's /sys/kernel/security/lsm_slots
booted with the same `lsm=` line (BPF LSM counts on every hook: stock
calls its stubs whether or not a program is attached); a hook that
stops at the first LSM to answer makes the figure an upper bound.
""".split("\n")
    return lines + table(*indirect_table(rows)) + [""]


def report(res, reference, plots=None, machine=None, failures=None, indirect=None):
    """report.md's lines; plots: the plots drawn, name -> file."""
    plots = plots or {}
    return (intro(machine, failures) + headlines(res) + kernels_section(res, plots)
            + policies_section(res, plots) + cg_section(res)
            + series_section(res, "rules", plots)
            + series_section(res, "cgroups", plots) + reference_section(res, reference)
            + indirect_section(indirect))


# Plots: bar groups per workload, one bar per configuration, relative to
# nosec; and the two series, median against the count. Each plot's data
# is a header and rows, None where there is no figure.

def kernels_plot(res):
    """Each kernel's default set, mitigations on and off (debian: on, its own)."""
    bars = [(v, m) for m in ("on", "off") for v in VARIANTS] + [(DEBIAN, "on")]
    header = ["workload"] + ["%s mitigations %s" % (v, m) if v != DEBIAN else
                             "debian (its own LSMs) mitigations %s" % m for v, m in bars]
    rows = [[w] + [res.ratio(kernel(v, w, mitigations=m), kernel("nosec", w, mitigations=m))
                   or None for v, m in bars]
            for w in res.workloads]
    return header, rows


def policies_plot(res, variant):
    if "policies" not in res.series:
        return ["workload"], []
    lsm_of = {k.config: k.lsm for k in res.keys(series="policies", variant=variant)}
    configs = [c for c in CONFIGS if c.config in lsm_of]
    header = ["workload", "no policy"] + [
        c.config + (" " + c.place if is_bpf(c.config) else "") for c in configs]
    rows = []
    for w in res.workloads:
        a = kernel("nosec", w)
        keys = [kernel(variant, w)] + [
            policy(variant, c.config, c.place, w, lsm_of[c.config]) for c in configs]
        rows.append([w] + [res.ratio(x, a) or None for x in keys])
    return header, rows


def series_plot(res, series):
    """open+close against the count, each column, and each kernel
    without a policy for reference."""
    backend = dict(BACKENDS)
    values = {}
    for k in res.keys(series=series, workload=OPEN_CLOSE):
        values[count_of(k), "%s %s %s" % (k.variant, backend.get(k.config, "global"),
                                          k.place)] = res.figures[k].median
    counts = sorted({n for n, _ in values})
    columns = sorted({c for _, c in values})
    if columns:
        for v in VARIANTS:
            b = kernel(v, OPEN_CLOSE)
            if res.has(b):
                columns.append(v + " no policy")
                values.update(((n, columns[-1]), res.figures[b].median) for n in counts)
    return [series] + columns, [[str(n)] + [values.get((n, c)) for c in columns]
                                for n in counts]


def drop_empty(header, rows):
    """Without the columns that hold no figure."""
    keep = [0] + [i for i in range(1, len(header)) if any(r[i] is not None for r in rows)]
    return [header[i] for i in keep], [[r[i] for i in keep] for r in rows]


# Twelve distinct colours (gnuplot's default cycles after eight).
PALETTE = "".join('set linetype %d lc rgb "#%s" lw 1.5 pt %d\n' % (i, c, i) for i, c in enumerate(
    "1f77b4 ff7f0e 2ca02c d62728 9467bd 8c564b e377c2 7f7f7f bcbd22 17becf 000000 aec7e8"
    .split(), 1))

BARS = """\
set terminal {terminal} size 1400,650 noenhanced
set output {output}
set title {title}
{palette}set datafile separator "\\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set ylabel "relative to nosec (median)"
set xtics rotate by -30
set grid ytics
set yrange [{ymin}:*]
plot for [i=2:{last}] {data} using i:xtic(1) title columnheader(i)
"""

LINES = """\
set terminal {terminal} size 1000,600 noenhanced
set output {output}
set title {title}
{palette}set datafile separator "\\t"
set logscale x
set key outside right top
set xlabel {xlabel}
set ylabel "open+close, instructions/op (median)"
set grid
set datafile missing "NaN"
plot for [i=2:{last}] {data} using 1:i with linespoints title columnheader(i)
"""


def quote(s):
    """A gnuplot string: single-quoted, nothing in it interpreted."""
    return "'" + s.replace("'", "''") + "'"


def plots_to_draw(res):
    """(name, gnuplot template, data, minimum data rows, settings) per plot."""
    default = commas(DEFAULT_SET)
    plots = [("kernels", BARS, kernels_plot(res), 1, dict(
        title=quote("No policy, lsm=%s: instructions/op relative to nosec" % default),
        ymin="0.95"))]
    for v in ALL_VARIANTS:
        plots.append(("policies-" + v, BARS, policies_plot(res, v), 1, dict(
            title=quote("%s, mitigations on: the equivalent rule set, instructions/op "
                        "relative to nosec" % v), ymin="0.8")))
    plots.append(("rules", LINES, series_plot(res, "rules"), 2, dict(
        title=quote("BPF policy: open+close against the number of rules"),
        xlabel=quote("rules (1 real + fillers)"))))
    plots.append(("cgroups", LINES, series_plot(res, "cgroups"), 2, dict(
        title=quote("BPF policy: open+close against the number of confined cgroups"),
        xlabel=quote("confined sibling cgroups"))))
    return plots


def draw_plots(directory, res, gnuplot="gnuplot"):
    """Draw each plot that has data as DIR/NAME.png and DIR/NAME.svg.
    Returns the plots drawn (name -> the SVG's file name) and whether
    gnuplot failed."""
    if shutil.which(gnuplot) is None:
        print("report: no %s: no plots" % gnuplot, file=sys.stderr)
        return {}, False
    drawn, failed = {}, False
    with tempfile.TemporaryDirectory(prefix="report.") as tmp:
        for name, template, data, min_rows, settings in plots_to_draw(res):
            header, rows = drop_empty(*data)
            if len(header) < 2 or len(rows) < min_rows:
                continue
            dat = os.path.join(tmp, name + ".dat")
            with open(dat, "w", encoding="utf-8") as f:
                for r in [header] + rows:
                    f.write("\t".join("NaN" if c is None else c for c in r) + "\n")
            ok = True
            for ext, terminal in (("png", "pngcairo"), ("svg", "svg")):
                script = template.format(
                    terminal=terminal, palette=PALETTE, last=len(header),
                    output=quote(os.path.join(directory, name + "." + ext)),
                    data=quote(dat), **settings)
                run = subprocess.run([gnuplot], input=script, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                sys.stderr.write(run.stdout)
                if run.returncode != 0:
                    print("report: gnuplot failed on %s.%s" % (name, ext), file=sys.stderr)
                    ok, failed = False, True
            if ok:
                drawn[name] = name + ".svg"
    return drawn, failed


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
