"""Charts of the bidding-odds tables (:mod:`solo_analysis.tables`): heatmaps and line charts.

Both take the long tables the runs write (one row per cell with ``count``, ``share``,
``ci_low``, ``ci_high``, ``thin``) and share one look (:data:`STYLE`): shares in per cent,
cells with fewer than ``thin`` hands greyed and hatched, intervals drawn as bands.
matplotlib is imported when a chart is drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["STYLE", "heatmap", "line_chart"]

#: the shared look of every odds chart
STYLE: dict[str, Any] = {
    "cmap": "viridis",
    "thin_colour": "#bbbbbb",
    "font_size": 8,
    "figsize": (6.0, 4.0),
}


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=STYLE["figsize"])
    return ax


def heatmap(
    table: pd.DataFrame,
    *,
    index: str,
    columns: str,
    value: str = "share",
    count: str | None = "count",
    thin: int = 30,
    ax: Any = None,
    title: str | None = None,
) -> Any:
    """Draw ``value`` as a heatmap over two features; annotate each cell, grey the thin ones.

    Parameters
    ----------
    table : pandas.DataFrame
        A long table with one row per (``index``, ``columns``) cell (filter the seat first).
    index, columns : str
        Features on the vertical and horizontal axes.
    value : str, default "share"
        Column to colour by (a share 0..1, shown in per cent).
    count : str or None, default "count"
        Column of hands per cell; cells below ``thin`` are hatched and their text greyed.
    thin : int, default 30
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    grid = table.pivot_table(index=index, columns=columns, values=value, aggfunc="first")
    counts = None if count is None else table.pivot_table(index=index, columns=columns, values=count, aggfunc="sum")
    data = grid.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(data), cmap=STYLE["cmap"], vmin=0.0, vmax=1.0, aspect="auto",
                      origin="lower")  # fmt: skip
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(r) for r in grid.index])
    ax.set_xlabel(columns.replace("_", " "))
    ax.set_ylabel(index.replace("_", " "))
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            v = data[i, j]
            if not np.isfinite(v):
                continue
            n = None if counts is None else counts.iloc[i, j]
            is_thin = n is not None and (not np.isfinite(n) or n < thin)
            colour = STYLE["thin_colour"] if is_thin else ("black" if v > 0.6 else "white")
            ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=STYLE["font_size"], color=colour)
            if is_thin:
                ax.add_patch(_hatch(j, i))
    ax.figure.colorbar(image, ax=ax, label="makes (share of hands)")
    if title:
        ax.set_title(title)
    return ax


def _hatch(x: float, y: float) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="//", edgecolor=STYLE["thin_colour"], lw=0, alpha=0.5)


def line_chart(
    table: pd.DataFrame,
    *,
    x: str,
    hue: str | None = None,
    value: str = "share",
    low: str = "ci_low",
    high: str = "ci_high",
    thin_column: str | None = "thin",
    ax: Any = None,
    title: str | None = None,
) -> Any:
    """Draw ``value`` against feature ``x``, one line per ``hue`` value, with its interval as a band.

    Thin points (``thin_column`` true) are drawn hollow.

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    groups = [(None, table)] if hue is None else list(table.groupby(hue, sort=True))
    for key, g in groups:
        g = g.sort_values(x)
        label = None if hue is None else f"{hue.replace('_', ' ')} {key}"
        (line,) = ax.plot(g[x], g[value], marker="o", label=label)
        ax.fill_between(g[x], g[low], g[high], alpha=0.2, color=line.get_color(), lw=0)
        if thin_column is not None and thin_column in g:
            t = g[g[thin_column].astype(bool)]
            ax.plot(t[x], t[value], "o", mfc="white", mec=line.get_color())
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # features are counts
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel("makes (share of hands)")
    ax.set_ylim(0, 1)
    if hue is not None:
        ax.legend(fontsize=STYLE["font_size"])
    if title:
        ax.set_title(title)
    return ax
