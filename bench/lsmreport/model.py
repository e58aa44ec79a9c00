"""The report's model: a figure's key in raw.csv and the figure, the
configuration lists (kernels, places, backends, the equivalent rule
set's configurations), the keys a table looks up, and Results, raw.csv's
figures by key with the arithmetic the tables print. One source for
each: the other modules import them from here.
"""

import os
import subprocess
from collections import namedtuple

# bench/, where reference.csv is; scripts/ is next to it
BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The lab's default LSM set, joined with + as raw.csv writes lsm= lines:
# its kernels' CONFIG_LSM, which scripts/lsm-default reads (the tree's
# set, as bench/run.sh boots it).
DEFAULT_SET = subprocess.run([os.path.join(BENCH, "..", "scripts", "lsm-default")], check=True,
                             capture_output=True, text=True).stdout.strip().replace(",", "+")
REFERENCE = os.path.join(BENCH, "reference.csv")

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


def config_lsm(config, variant):
    """The lsm= line the plan boots a configuration with (debian: its own)."""
    if variant == DEBIAN:
        return DEBIAN_LSM
    if is_bpf(config) or config in ("landlock", "yama"):
        return DEFAULT_SET
    return config
