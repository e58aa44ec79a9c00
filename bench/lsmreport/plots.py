"""The plots: bar groups per workload, one bar per configuration,
relative to nosec; and the two series, median against the count. Each
plot's data is a header and rows, None where there is no figure.
draw_plots() writes them with gnuplot as PNG and SVG.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from .model import (ALL_VARIANTS, BACKENDS, CONFIGS, DEBIAN, DEFAULT_SET, OPEN_CLOSE, VARIANTS,
                    commas, count_of, is_bpf, kernel, policy)


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
