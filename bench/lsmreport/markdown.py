"""Markdown primitives: a table, a subsection with its table, and the
links to the plots drawn.
"""


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
