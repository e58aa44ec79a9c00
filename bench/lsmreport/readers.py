"""Reading a results folder: raw.csv (bench/icount.sh, and its older
form without the series and policy columns), bench/reference.csv (the
hand-made probe), indirect/indirect.csv (bench/indirect.sh) and text
files (machine.txt, failures.txt). A file that cannot be read raises
ReportError naming it, and the line where there is one.
"""

import csv
import math
import os

from .model import (INDIRECT_COLUMNS, OLD_COLUMNS, RAW_COLUMNS, REFERENCE, REFERENCE_COLUMNS,
                    Figure, Key, ReportError, Results)


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
