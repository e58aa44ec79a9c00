"""The report's sections, a function a table: each section's function
returns its lines (none when its series was not measured), each
table's function its header and rows; report() joins them into
report.md's lines.
"""

import math

from .markdown import links, subsection, table
from .model import (ALL_VARIANTS, BACKENDS, CG, CONFIGS, DEBIAN, DEFAULT_SET, OPEN_CLOSE,
                    PLACES, VARIANTS, Key, baseline, commas, config_lsm, count_of, in_cgroup,
                    kernel, policy, series_key)


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
