#!/usr/bin/env python3
"""Unit tests of bench/report.py and its package, bench/lsmreport/ (one
module a concern), on the fixed results folder next to this file
(raw.csv, machine.txt, failures.txt, indirect/indirect.csv).

    python3 tests/unit/report/test_report.py          # unittest
    python3 tests/unit/report/test_report.py --tap    # TAP (tests/host/report.sh)

expected.md is the whole report of that folder with every plot drawn;
bench/report.sh wrote the same (its last version, before report.py),
but for the links (PNG there) and an empty cell of the indirect table.
"""

import contextlib
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(TOP, "bench"))
sys.dont_write_bytecode = True  # no bench/__pycache__
from lsmreport import markdown, model, plots, readers, sections  # noqa: E402

PLOTS = ("kernels", "policies-stock", "policies-lsm", "rules", "cgroups")
DEFAULT = model.DEFAULT_SET


def fixture():
    return readers.read_raw(os.path.join(HERE, "raw.csv"))


def all_plots():
    return {p: p + ".svg" for p in PLOTS}


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test_report.")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def raw_error(self, text):
        """read_raw's error on a raw.csv with this text."""
        path = self.write("raw.csv", text)
        with self.assertRaises(model.ReportError) as e:
            readers.read_raw(path)
        return str(e.exception)


HEADER = ("series,variant,lsm,mitigations,mode,config,rules,cgroups,place,workload,"
          "iters,reps,min,median,max\n")
ROW = "kernels,nosec,-,on,icount,none,-,-,-,stat,200,11,1,2,3\n"


class ReadRaw(TempDir):
    def test_fixture(self):
        res = fixture()
        self.assertEqual(len(res.figures), 35)
        self.assertEqual(res.workloads, ["open_close", "stat"])
        self.assertEqual(res.series, {"kernels", "policies", "rules", "cgroups"})
        f = res.figures[model.kernel("stock", "open_close")]
        self.assertEqual(f, model.Figure("1090.0", "1100.0", "1400.0"))

    def test_columns_by_name(self):
        """Columns in another order, and one more, read the same."""
        with open(os.path.join(HERE, "raw.csv"), newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows, columns = list(reader), list(reversed(reader.fieldnames)) + ["extra"]
        path = os.path.join(self.tmp, "raw.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, columns, restval="x")
            writer.writeheader()
            writer.writerows(rows)
        res = readers.read_raw(path)
        self.assertEqual(res.figures, fixture().figures)
        self.assertEqual(res.workloads, fixture().workloads)

    def test_old_form(self):
        """raw.csv before the series: kernels, nosec without an LSM."""
        path = self.write("raw.csv", "variant,lsm,mitigations,workload,iters,reps,min,median,max\n"
                          "nosec,landlock+yama+bpf,on,stat,200,11,1,2,3\n"
                          "stock,capability,off,stat,200,11,4,5,6\n")
        res = readers.read_raw(path)
        self.assertEqual(sorted(res.figures), [
            model.kernel("nosec", "stat"),
            model.kernel("stock", "stat", "capability", "off")])
        self.assertEqual(res.unit("kernels"), "instructions/op, TCG instruction counting")

    def test_later_row_wins(self):
        res = readers.read_raw(self.write("raw.csv", HEADER + ROW + ROW.replace(",2,", ",7,")))
        self.assertEqual(res.fig(model.kernel("nosec", "stat")), "7 [1-3]")

    def test_missing(self):
        path = os.path.join(self.tmp, "raw.csv")
        with self.assertRaisesRegex(model.ReportError, "^no %s$" % path):
            readers.read_raw(path)

    def test_empty(self):
        self.assertRegex(self.raw_error(""), "raw.csv: empty$")

    def test_missing_column(self):
        self.assertRegex(self.raw_error(HEADER.replace(",median", ",med")),
                         r"raw.csv:1: no column median$")

    def test_short_row(self):
        self.assertRegex(self.raw_error(HEADER + ROW + ROW.replace(",3\n", "\n")),
                         r"raw.csv:3: 14 fields, the header has 15$")

    def test_long_row(self):
        self.assertRegex(self.raw_error(HEADER + ROW.replace("\n", ",4\n")),
                         r"raw.csv:2: 16 fields, the header has 15$")

    def test_not_a_number(self):
        self.assertRegex(self.raw_error(HEADER + ROW + ROW + ROW.replace(",3\n", ",x\n")),
                         r"raw.csv:4: max is 'x', not a number$")

    def test_not_a_count(self):
        row = "rules,stock,%s,on,icount,bpf-cgroup,-,1,inside,stat,200,11,1,2,3\n" % DEFAULT
        self.assertRegex(self.raw_error(HEADER + row),
                         r"raw.csv:2: rules is '-' in the rules series, not a count$")

    def test_not_text(self):
        path = os.path.join(self.tmp, "raw.csv")
        with open(path, "wb") as f:
            f.write(b"\xff\xfe\x00")
        with self.assertRaisesRegex(model.ReportError, "raw.csv: not UTF-8 text"):
            readers.read_raw(path)

    def test_indirect_errors(self):
        self.assertIsNone(readers.read_indirect(os.path.join(self.tmp, "none.csv")))
        path = self.write("i.csv", "lsm,workload,security_calls,hook_calls\n")
        with self.assertRaisesRegex(model.ReportError, r"i.csv:1: no column indirect_calls$"):
            readers.read_indirect(path)
        path = self.write("i.csv", "%s\nx,y,1,z,3\n" % ",".join(model.INDIRECT_COLUMNS))
        with self.assertRaisesRegex(model.ReportError, r"i.csv:2: hook_calls is 'z'"):
            readers.read_indirect(path)

    def test_not_finite(self):
        self.assertRegex(self.raw_error(HEADER + ROW.replace(",1,", ",nan,")),
                         r"raw.csv:2: min is 'nan', not a number$")

    def test_reference_missing(self):
        path = os.path.join(self.tmp, "r.csv")
        with self.assertRaisesRegex(model.ReportError, "r.csv: No such file or directory$"):
            readers.read_reference(path)

    def test_reference_needs_a_base(self):
        path = self.write("r.csv", "configuration,probe,config,place\nx,1,bpf-global,inside\n")
        with self.assertRaisesRegex(model.ReportError, "no row without a config"):
            readers.read_reference(path)


class Figures(unittest.TestCase):
    def setUp(self):
        self.res = fixture()

    def test_arithmetic(self):
        r, a, s = self.res, model.kernel("nosec", "stat"), model.kernel("stock", "stat")
        self.assertEqual(r.ratio(s, a), "1.100")
        self.assertEqual(r.pct(a, s), "-9.1%")
        self.assertEqual(r.delta(a, s), "-50")
        missing = model.kernel("lsm", "stat", mitigations="off")
        self.assertEqual((r.ratio(missing, a), r.pct(a, missing), r.delta(missing, a),
                          r.fig(missing)), ("", "", "", ""))

    def test_units(self):
        self.assertEqual(self.res.unit("kernels"), "instructions/op, TCG instruction counting")
        self.assertEqual(self.res.unit("cgroups"), "ns/op, KVM wall clock")
        self.assertEqual(self.res.unit("nothing"), "mode ")
        self.res.add(model.kernel("nosec", "pipe"), "kvm", model.Figure("1", "1", "1"))
        self.assertEqual(self.res.unit("kernels"), "mode icount+kvm")


class Tables(unittest.TestCase):
    def setUp(self):
        self.res = fixture()

    def test_intro(self):
        lines = sections.intro(["a: b"], ["stock: failed"])
        self.assertEqual(lines[:4], ["# LSM and BPF policy cost per operation", "", "    a: b", ""])
        self.assertEqual(lines[-4:], ["**Boots that failed** (their figures are missing below):",
                                      "", "- stock: failed", ""])
        self.assertNotIn("**Boots that failed**", "\n".join(sections.intro(None, [])))

    def test_headlines(self):
        lines = sections.headlines(self.res)
        self.assertEqual(lines[4:], [
            "- no policy, `lsm=` the default set, mitigations on, 2 workloads: stock/nosec "
            "1.100, lsm/nosec 1.045, lsm/stock 0.9500 (-5.00%)",
            "- no policy, `lsm=` the default set, mitigations off, 1 workloads: stock/nosec "
            "1.100, lsm/nosec 1.050, lsm/stock 0.9545 (-4.55%)",
            "- open+close on stock, what the equivalent rule set adds over no policy: "
            "BPF lsm_cgroup +500, BPF lsm_cgroup outside +100, BPF global +400, "
            "BPF global outside +150, Landlock +270, SELinux +100",
            "- open+close on lsm, what the equivalent rule set adds over no policy: "
            "BPF lsm_cgroup +480, BPF lsm_cgroup outside +100, BPF global +400",
            "- open+close on stock, lsm_cgroup inside, rules 1 -> 100: 1580.0 -> 1590.0 "
            "(+480 -> +490 over no policy)",
            "- open+close on stock, global inside, rules 1 -> 100: 1490.0 -> 1700.0 "
            "(+390 -> +600 over no policy)",
            "- open+close on lsm, global inside, cgroups 1 -> 10: 1440.0 -> 1460.0 "
            "(+390 -> +410 over no policy)",
            ""])

    def test_lsm_lines(self):
        self.assertEqual(sections.lsm_lines(self.res, "on"),
                         ["capability", "apparmor", DEFAULT, "selinux"])
        self.assertEqual(sections.lsm_lines(self.res, "off"), [DEFAULT])

    def test_kernels_table(self):
        header, rows = sections.kernels_table(self.res, "on")
        self.assertEqual(header[-3:], ["stock/nosec", "lsm/nosec", "lsm vs stock"])
        self.assertEqual([r[:2] for r in rows], [
            ["capability", "open_close"], ["capability", "stat"], ["apparmor", "open_close"],
            ["landlock,lockdown,yama,bpf", "open_close"], ["landlock,lockdown,yama,bpf", "stat"],
            ["selinux", "open_close"]])
        self.assertEqual(rows[0][2:], ["1000.0 [990.0-1100.0]", "1050.0 [1040.0-1300.0]",
                                       "1020.0 [1010.0-1200.0]", "1.050", "1.020", "-2.9%"])
        self.assertEqual(rows[2][3:], ["", "1200.0 [1190.0-1400.0]", "", "1.200", ""])
        self.assertEqual(rows[5][4:], ["", "1.300", "", ""])
        header, rows = sections.kernels_table(self.res, "off")
        self.assertEqual(rows[1][4:], ["", "1.100", "", ""])

    def test_kernels_geomeans(self):
        self.assertEqual(sections.kernels_geomeans(self.res, "on")[1], [
            ["capability", "1.045", "1.020", "0.9761 (-2.39%)"],
            ["landlock,lockdown,yama,bpf", "1.100", "1.045", "0.9500 (-5.00%)"]])
        self.assertEqual(sections.kernels_geomeans(self.res, "off")[1], [
            ["landlock,lockdown,yama,bpf", "1.100", "1.050", "0.9545 (-4.55%)"]])

    def test_policies_figures(self):
        header, rows = sections.policies_figures(self.res, "lsm")
        self.assertEqual(header, ["workload", "no policy", "BPF lsm_cgroup inside",
                                  "BPF lsm_cgroup outside", "BPF global inside",
                                  "BPF global outside", "Landlock", "SELinux"])
        self.assertEqual(rows, [["open_close", "1050.0 [1040.0-1250.0]", "1530.0 [1520.0-1630.0]",
                                 "1150.0 [1140.0-1250.0]", "1450.0 [1440.0-1550.0]",
                                 "", "", ""]])

    def test_policies_added(self):
        header, rows = sections.policies_added(self.res, "stock")
        self.assertEqual(header[1], "no policy (x nosec)")
        # SELinux against stock booted lsm=selinux without a policy
        self.assertEqual(rows, [
            ["open_close", "x1.100", "+500 (x1.600)", "+100 (x1.200)", "+400 (x1.500)",
             "+150 (x1.250)", "+270 (x1.370)", "+100 (x1.400)"],
            ["stat", "x1.100", "+0 (x1.100)", "", "", "", "", ""]])

    def test_policies_lsm_vs_stock(self):
        self.assertEqual(sections.policies_lsm_vs_stock(self.res)[1], [
            ["open_close", "-4.5%", "-4.4%", "-4.2%", "-3.3%", "", "", ""]])

    def test_cgroup_vs_global(self):
        header, rows = sections.cgroup_vs_global(self.res)
        self.assertEqual(len(header), 7)
        self.assertEqual(rows, [["stock", "open_close", "+500", "+400", "0.80", "+100", "+150"],
                                ["stock", "stat", "+0", "", "", "", ""],
                                ["lsm", "open_close", "+480", "+400", "0.83", "+100", ""]])

    def test_series_table(self):
        header, rows = sections.series_table(self.res, "rules", "open_close")
        self.assertEqual(header, ["rules", "stock lsm_cgroup inside", "stock lsm_cgroup outside",
                                  "stock global inside", "stock global outside"])
        self.assertEqual(rows, [["1", "1580.0 (+480)", "1190.0 (+90)", "1490.0 (+390)",
                                 "1240.0 (+140)"],
                                ["100", "1590.0 (+490)", "", "1700.0 (+600)", ""]])
        self.assertEqual(sections.series_table(self.res, "cgroups", "open_close"),
                         (["cgroups", "lsm global inside"],
                          [["1", "1440.0 (+390)"], ["10", "1460.0 (+410)"]]))
        self.assertEqual(sections.series_table(self.res, "rules", "stat")[1], [])

    def test_series_section_skips_empty_tables(self):
        text = "\n".join(sections.series_section(self.res, "rules", {}))
        self.assertIn("### open_close", text)
        self.assertNotIn("### stat", text)
        self.assertNotIn("![", text)

    def test_series_counts_numerically(self):
        self.res.add(model.series_key("rules", "20", "stock", "bpf-global", "inside",
                                      "open_close"), "icount", model.Figure("1", "1", "1"))
        self.assertEqual(sections.series_counts(self.res, "rules"), [1, 20, 100])

    def test_reference_table(self):
        header, rows = sections.reference_table(self.res, readers.read_reference())
        self.assertEqual(header[1:3], ["probe", "+ over no program"])
        self.assertEqual(rows, [
            ["no program", "4163", "", "1100.0", ""],
            ["lsm_cgroup, inside the cgroup", "4686", "+523", "1580.0", "+480"],
            ["global, inside the cgroup", "4753", "+590", "1490.0", "+390"],
            ["lsm_cgroup, outside", "4352", "+189", "1190.0", "+90"],
            ["global, outside", "4429", "+266", "1240.0", "+140"]])

    def test_indirect_table(self):
        rows = readers.read_indirect(os.path.join(HERE, "indirect", "indirect.csv"))
        self.assertEqual(sections.indirect_table(rows), (
            ["workload", "security_*() calls", "capability", "landlock,lockdown,yama,bpf"],
            [["open_close", "6.0", "0.0 / 0.0", "6.0 / 7.0"],
             ["stat", "3.0", "0.0 / 0.0", ""]]))

    def test_markdown_table(self):
        self.assertEqual(markdown.table(["a", "b", "c"], [["x", "", "1"]]),
                         ["| a | b | c |", "|---|---:|---:|", "| x |  | 1 |"])

    def test_links_only_plots_drawn(self):
        text = "\n".join(sections.report(self.res, readers.read_reference(),
                                         {"rules": "rules.svg"}))
        self.assertEqual([line for line in text.split("\n") if line.startswith("![")],
                         ["![rules](rules.svg)"])

    def test_no_series(self):
        """A quick run: no policy section, no series, the reference still."""
        res = model.Results()
        for k, f in fixture().figures.items():
            if k.series == "kernels":
                res.add(k, "icount", f)
        text = "\n".join(sections.report(res, readers.read_reference()))
        self.assertNotIn("## The equivalent rule set", text)
        self.assertNotIn("## BPF:", text)
        self.assertNotIn("### lsm_cgroup against global", text)
        self.assertIn("| no program | 4163 |  | 1100.0 |  |", text)
        self.assertIn("| lsm_cgroup, outside | 4352 | +189 |  |  |", text)

    def test_whole_report(self):
        res = fixture()
        lines = sections.report(
            res, readers.read_reference(), all_plots(),
            readers.read_lines(os.path.join(HERE, "machine.txt")),
            readers.read_lines(os.path.join(HERE, "failures.txt")),
            readers.read_indirect(os.path.join(HERE, "indirect", "indirect.csv")))
        with open(os.path.join(HERE, "expected.md"), encoding="utf-8") as f:
            self.assertEqual("\n".join(lines) + "\n", f.read())


# Debian's own kernel, booted without lsm= ("default"): no policy (in the
# root cgroup, and in one of its own), and the rule set on both BPF
# backends and AppArmor, open+close only.
DEBIAN_ROWS = """\
kernels,debian,default,on,icount,none,-,-,-,open_close,200,11,1190.0,1200.0,1500.0
kernels,debian,default,on,icount,none,-,-,cgroup,open_close,200,11,1290.0,1300.0,1600.0
policies,debian,default,on,icount,bpf-cgroup,eq,1,inside,open_close,200,11,1690.0,1700.0,1800.0
policies,debian,default,on,icount,bpf-cgroup,eq,1,outside,open_close,200,11,1290.0,1300.0,1400.0
policies,debian,default,on,icount,bpf-global,eq,1,inside,open_close,200,11,1590.0,1600.0,1700.0
policies,debian,default,on,icount,bpf-global,eq,1,outside,open_close,200,11,1340.0,1350.0,1450.0
policies,debian,default,on,icount,apparmor,-,-,inside,open_close,200,11,1390.0,1400.0,1500.0
"""


class Debian(TempDir):
    """debian's figures sit beside the lab's kernels' and change none of
    their tables."""

    def setUp(self):
        super().setUp()
        with open(os.path.join(HERE, "raw.csv"), encoding="utf-8") as f:
            self.res = readers.read_raw(self.write("raw.csv", f.read() + DEBIAN_ROWS))

    def test_keys(self):
        self.assertEqual(model.kernel("debian", "stat").lsm, "default")
        self.assertEqual(model.policy("debian", "apparmor", "inside", "stat").lsm, "default")
        self.assertEqual(model.config_lsm("apparmor", "debian"), "default")
        self.assertEqual(model.config_lsm("apparmor", "stock"), "apparmor")

    def test_lab_tables_unchanged(self):
        lab = fixture()
        for v in model.VARIANTS:
            self.assertEqual(sections.policies_figures(self.res, v),
                             sections.policies_figures(lab, v))
            self.assertEqual(sections.policies_added(self.res, v), sections.policies_added(lab, v))
        self.assertEqual(sections.policies_lsm_vs_stock(self.res),
                         sections.policies_lsm_vs_stock(lab))
        self.assertEqual(sections.kernels_table(self.res, "on")[1],
                         sections.kernels_table(lab, "on")[1])

    def test_debian_table(self):
        header, rows = sections.debian_table(self.res)
        self.assertEqual(header, ["workload", "nosec", "stock", "debian", "debian/nosec",
                                  "debian vs stock", "debian in a cgroup",
                                  "+ over the root cgroup"])
        self.assertEqual(rows, [["open_close", "1000.0 [990.0-1100.0]", "1100.0 [1090.0-1400.0]",
                                 "1200.0 [1190.0-1500.0]", "1.200", "+9.1%",
                                 "1300.0 [1290.0-1600.0]", "+100"]])

    def test_headlines(self):
        lines = sections.headlines(self.res)
        self.assertIn("- debian, no policy, its own LSMs (no `lsm=`), 1 workloads: "
                      "debian/nosec 1.200, debian/stock 1.091 (+9.1%; stock with the lab's "
                      "default set)", lines)
        # BPF against no policy in a cgroup, AppArmor in the root cgroup
        self.assertIn("- open+close on debian, what the equivalent rule set adds over no "
                      "policy: BPF lsm_cgroup +400, BPF lsm_cgroup outside +0, BPF global "
                      "+300, BPF global outside +50, AppArmor +200", lines)

    def test_policies(self):
        header, rows = sections.policies_added(self.res, "debian")
        self.assertEqual(header[2:], ["BPF lsm_cgroup inside", "BPF lsm_cgroup outside",
                                      "BPF global inside", "BPF global outside", "AppArmor"])
        self.assertEqual(rows, [["open_close", "x1.200", "+400 (x1.700)", "+0 (x1.300)",
                                 "+300 (x1.600)", "+50 (x1.350)", "+200 (x1.400)"]])
        self.assertEqual(sections.cgroup_vs_global(self.res)[1][-1],
                         ["debian", "open_close", "+400", "+300", "0.75", "+0", "+50"])
        header, rows = sections.policies_figures(self.res, "debian")
        self.assertEqual(header[1:3], ["no policy", "no policy, in a cgroup"])
        self.assertEqual(rows[0][1:3], ["1200.0 [1190.0-1500.0]", "1300.0 [1290.0-1600.0]"])
        text = "\n".join(sections.policies_section(self.res, {}))
        self.assertIn("### debian, instructions/op", text)
        self.assertIn("### debian, what the policy adds", text)

    def test_plots(self):
        header, rows = plots.drop_empty(*plots.kernels_plot(self.res))
        self.assertEqual(header[-1], "debian (its own LSMs) mitigations on")
        self.assertEqual(rows[0][-1], "1.200")
        header, rows = plots.drop_empty(*plots.policies_plot(self.res, "debian"))
        self.assertEqual(header, ["workload", "no policy", "bpf-cgroup inside",
                                  "bpf-cgroup outside", "bpf-global inside",
                                  "bpf-global outside", "apparmor"])
        self.assertEqual(rows, [["open_close", "1.200", "1.700", "1.300", "1.600", "1.350",
                                 "1.400"], ["stat", None, None, None, None, None, None]])


class CgSeries(TempDir):
    """The cg series (bench/run.sh quick): BPF configurations on one
    cgroup, outside and inside, stock and lsm side by side."""

    RAW = HEADER + "".join(
        "%s,%s,%s,on,icount,%s,200,21,%s,%s,%s\n" % (series, variant, DEFAULT, rest, lo, mid, hi)
        for series, variant, rest, lo, mid, hi in (
            ("kernels", "stock", "none,-,-,-,open_close", 990, 1000, 1100),
            ("kernels", "lsm", "none,-,-,-,open_close", 890, 900, 1000),
            ("cg", "stock", "bpf-cgroup,1,1,inside,open_close", 1590, 1600, 1700),
            ("cg", "stock", "bpf-cgroup,1,1,outside,open_close", 1170, 1175, 1300),
            ("cg", "lsm", "bpf-cgroup,1,1,inside,open_close", 1420, 1430, 1500),
            ("cg", "lsm", "bpf-cgroup,1,1,outside,open_close", 915, 920, 1000),
            ("cg", "lsm", "none,-,-,-,open_close", 900, 910, 1000),
            ("cg", "stock", "bpf-allow,-,-,inside,open_close", 1200, 1210, 1300)))

    def setUp(self):
        super().setUp()
        self.res = readers.read_raw(self.write("raw.csv", self.RAW))

    def test_groups(self):
        self.assertEqual(sections.cg_groups(self.res),
                         [("bpf-cgroup", "1", "1"), ("bpf-allow", "-", "-")])

    def test_table(self):
        """lsm against the series' own boot without a policy (910), stock
        against the kernels series' (1000); lsm - stock where both are."""
        header, rows = sections.cg_table(self.res, "open_close")
        self.assertEqual(header[2:], ["no policy", "outside", "inside", "+ outside", "+ inside"])
        self.assertEqual(rows, [
            ["lsm_cgroup, 1 rule", "stock", "1000 [990-1100]", "1175 [1170-1300]",
             "1600 [1590-1700]", "+175 (+17.5%)", "+600 (+60.0%)"],
            ["lsm_cgroup, 1 rule", "lsm", "910 [900-1000]", "920 [915-1000]",
             "1430 [1420-1500]", "+10 (+1.1%)", "+520 (+57.1%)"],
            ["lsm_cgroup, 1 rule", "lsm - stock", "", "", "", "-165", "-80"],
            ["lsm_cgroup, a program that allows at once (bpf-allow)", "stock",
             "1000 [990-1100]", "", "1210 [1200-1300]", "", "+210 (+21.0%)"]])

    def test_headline(self):
        self.assertEqual(sections.headlines(self.res)[-3:], [
            "- open+close, lsm_cgroup, 1 rule, over no policy: stock +175 outside / +600 inside; "
            "lsm +10 outside / +520 inside",
            "- open+close, lsm_cgroup, a program that allows at once (bpf-allow), over no policy: "
            "stock ? outside / +210 inside",
            ""])

    def test_section(self):
        text = "\n".join(sections.report(self.res, readers.read_reference()))
        self.assertIn("## BPF lsm_cgroup outside and inside its cgroup, stock and lsm", text)
        self.assertIn("| lsm_cgroup, 1 rule | lsm - stock |  |  |  | -165 | -80 |", text)

    def test_names(self):
        self.assertEqual(sections.cg_name("bpf-global", "eq"), "global, the equivalent rule set")
        self.assertEqual(sections.cg_name("bpf-cgroup", "100"), "lsm_cgroup, 100 rules")
        self.assertEqual(sections.cg_name("bpf-shared", "1"), "lsm_cgroup, 1 rule, and global's "
                         "lsm/ programs on the same hooks (bpf-shared)")

    def test_absent(self):
        self.assertEqual(sections.cg_section(fixture()), [])
        self.assertEqual(sections.headline_cg(fixture()), [])


class Plots(TempDir):
    def setUp(self):
        super().setUp()
        self.res = fixture()

    def test_kernels_plot(self):
        header, rows = plots.kernels_plot(self.res)
        self.assertEqual(header, ["workload", "stock mitigations on", "lsm mitigations on",
                                  "stock mitigations off", "lsm mitigations off",
                                  "debian (its own LSMs) mitigations on"])
        self.assertEqual(rows, [["open_close", "1.100", "1.050", "1.100", "1.050", None],
                                ["stat", "1.100", "1.040", "1.100", None, None]])

    def test_policies_plot(self):
        header, rows = plots.drop_empty(*plots.policies_plot(self.res, "lsm"))
        self.assertEqual(header, ["workload", "no policy", "bpf-cgroup inside",
                                  "bpf-cgroup outside", "bpf-global inside"])
        self.assertEqual(rows, [["open_close", "1.050", "1.530", "1.150", "1.450"],
                                ["stat", "1.040", None, None, None]])

    def test_series_plot(self):
        self.assertEqual(plots.series_plot(self.res, "rules"), (
            ["rules", "stock global inside", "stock global outside", "stock lsm_cgroup inside",
             "stock lsm_cgroup outside", "stock no policy", "lsm no policy"],
            [["1", "1490.0", "1240.0", "1580.0", "1190.0", "1100.0", "1050.0"],
             ["100", "1700.0", None, "1590.0", None, "1100.0", "1050.0"]]))

    def test_drop_empty(self):
        self.assertEqual(plots.drop_empty(["w", "a", "b"], [["x", None, "1"], ["y", None, None]]),
                         (["w", "b"], [["x", "1"], ["y", None]]))

    def test_draw(self):
        if shutil.which("gnuplot") is None:
            self.skipTest("no gnuplot")
        drawn, failed = plots.draw_plots(self.tmp, self.res)
        self.assertFalse(failed)
        self.assertEqual(drawn, all_plots())
        for p in PLOTS:
            for ext in ("png", "svg"):
                self.assertGreater(os.path.getsize(os.path.join(self.tmp, p + "." + ext)), 1000)

    def test_draw_without_data(self):
        """One rule count and no nosec: nothing to plot."""
        res = model.Results()
        res.add(model.series_key("rules", "1", "stock", "bpf-global", "inside", "open_close"),
                "icount", model.Figure("1", "1", "1"))
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(plots.draw_plots(self.tmp, res), ({}, False))
        self.assertEqual(os.listdir(self.tmp), [])

    def test_no_gnuplot(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(plots.draw_plots(self.tmp, self.res, "no-such-gnuplot"),
                             ({}, False))
        self.assertIn("no no-such-gnuplot: no plots", err.getvalue())

    def test_gnuplot_fails(self):
        if shutil.which("false") is None:
            self.skipTest("no false")
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(plots.draw_plots(self.tmp, self.res, "false"), ({}, True))


class CommandLine(TempDir):
    def run_report(self, *args):
        return subprocess.run([sys.executable, os.path.join(TOP, "bench", "report.py")]
                              + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)

    def test_whole_folder(self):
        d = os.path.join(self.tmp, "results")
        shutil.copytree(HERE, d, ignore=shutil.ignore_patterns("*.py", "*.md", "__pycache__"))
        run = self.run_report(d)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(d, "report.md"), encoding="utf-8") as f:
            text = f.read()
        if shutil.which("gnuplot") is None:
            self.assertNotIn("![", text)
        else:
            self.assertIn("report: %s/report.md (5 plots)" % d, run.stderr)
            with open(os.path.join(HERE, "expected.md"), encoding="utf-8") as f:
                self.assertEqual(text, f.read())

    def test_missing_raw(self):
        run = self.run_report(self.tmp)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stderr, "report: no %s/raw.csv\n" % self.tmp)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "report.md")))

    def test_malformed_raw(self):
        self.write("raw.csv", HEADER + ROW + "kernels,nosec\n")
        run = self.run_report(self.tmp)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stderr, "report: %s/raw.csv:3: 2 fields, the header has 15\n"
                         % self.tmp)

    def test_usage(self):
        run = self.run_report()
        self.assertEqual(run.returncode, 2)
        self.assertIn("usage: bench/report.py", run.stderr)


def committed_files(directory):
    """The files git tracks in a folder, or those there without git."""
    try:
        run = subprocess.run(["git", "-C", directory, "ls-files", "."], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, check=True)
        return set(run.stdout.split())
    except (OSError, subprocess.CalledProcessError):
        return set(os.listdir(directory))


class CommittedResults(unittest.TestCase):
    """bench/results/*/report.md: what report.py writes from the folder,
    linking plots that are committed."""

    def folders(self):
        results = os.path.join(TOP, "bench", "results")
        folders = sorted(os.path.join(results, d) for d in os.listdir(results)
                         if os.path.isfile(os.path.join(results, d, "report.md")))
        self.assertTrue(folders)
        return folders

    def test_links_committed(self):
        """Every plot a report links is committed; some report links plots
        (a run with no plot to draw, as debian's quick one, links none)."""
        links = 0
        for d in self.folders():
            with open(os.path.join(d, "report.md"), encoding="utf-8") as f:
                linked = re.findall(r"^!\[[^]]*\]\(([^)]*)\)$", f.read(), re.M)
            links += len(linked)
            self.assertEqual([p for p in linked if p not in committed_files(d)], [], d)
        self.assertTrue(links)

    def test_regenerated(self):
        """Without indirect/ (not committed), up to the indirect table."""
        for d in self.folders():
            files = committed_files(d)
            drawn = {p: p + ".svg" for p in PLOTS if p + ".svg" in files}
            indirect = readers.read_indirect(os.path.join(d, "indirect", "indirect.csv"))
            lines = sections.report(readers.read_raw(os.path.join(d, "raw.csv")),
                                    readers.read_reference(), drawn,
                                    readers.read_lines(os.path.join(d, "machine.txt")),
                                    readers.read_lines(os.path.join(d, "failures.txt")), indirect)
            with open(os.path.join(d, "report.md"), encoding="utf-8") as f:
                committed = f.read()
            if indirect is None:
                committed = committed.split("## LSM hook calls")[0]
            self.assertEqual("\n".join(lines) + "\n", committed, d)


def tap(suite):
    """Run the tests, one TAP line each ("ok - report: ..."): the number
    that failed."""
    failed = 0

    def name(test):
        return "%s.%s" % (type(test).__name__, test._testMethodName)

    def tests(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                yield from tests(t)
            else:
                yield t

    for test in tests(suite):
        result = unittest.TestResult()
        test.run(result)
        problems = result.failures + result.errors
        if problems:
            failed += 1
            print("not ok - report: %s" % name(test))
            for _, trace in problems:
                for line in trace.rstrip("\n").split("\n"):
                    print("# " + line)
        elif result.skipped:
            print("ok - report: %s # SKIP %s" % (name(test), result.skipped[0][1]))
        else:
            print("ok - report: %s" % name(test))
        sys.stdout.flush()
    return failed


if __name__ == "__main__":
    if sys.argv[1:] == ["--tap"]:
        try:
            loaded = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
        except Exception:
            print("not ok - report: load the tests")
            print("".join("# " + line for line in traceback.format_exc().splitlines(True)))
            sys.exit(1)
        sys.exit(1 if tap(loaded) else 0)
    unittest.main()
