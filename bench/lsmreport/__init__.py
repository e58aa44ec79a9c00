"""bench/report.py's package, one concern a module:

    model     a figure's key and the figure, the configuration lists,
              Results (raw.csv's figures by key)
    readers   the results folder: raw.csv, reference.csv, indirect/,
              machine.txt and failures.txt
    markdown  tables, subsections, links to plots
    sections  report.md's sections, a function a table; report()
    plots     the plots' data and gnuplot scripts; draw_plots()
"""
