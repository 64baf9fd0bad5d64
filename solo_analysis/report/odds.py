"""Charts of the odds tables: annotated heatmaps and lines with their intervals.

* :func:`heatmap` - a generic annotated heatmap of a long (tidy) frame; cells resting on fewer
  than ``thin`` deals are hatched and marked with a dagger.
* :func:`line_chart` - a share against one feature, one line (and marker shape) per value of
  another, with its interval as a band; thin points hollow.
* :func:`model_gap_chart` - two play models' shares of the same hands, per contract and seat,
  with the paired difference written beside each pair
  (:func:`~solo_analysis.tables.compare_runs`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import PercentFormatter

from ..errors import PlotError
from .style import STYLE, ReportFigure, style

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["heatmap", "line_chart", "model_gap_chart"]


def _format_value(fmt: str | Callable[[float], str], v: float) -> str:
    return fmt(v) if callable(fmt) else fmt.format(v)


def heatmap(
    frame: pd.DataFrame,
    *,
    index: str,
    columns: str,
    value: str,
    count: str | None = None,
    thin: int | None = 30,
    ax: Axes | None = None,
    fmt: str | Callable[[float], str] = "{:.0%}",
    cmap: Any = None,
    vmin: float | None = None,
    vmax: float | None = None,
    colorbar: bool = True,
    title: str | None = None,
) -> Figure:
    """An annotated heatmap of a long (tidy) frame, e.g. an odds table.

    Each cell is one row of ``frame``: its position is given by the ``index`` (vertical) and
    ``columns`` (horizontal) columns, its shade and text by ``value``.  Rows and columns keep
    the order in which their labels first appear in ``frame`` (sort the frame to reorder).

    Parameters
    ----------
    frame : pandas.DataFrame
        Long frame with at most one row per (``index``, ``columns``) pair; missing pairs and NaN
        values are left blank.
    index, columns, value : str
        Column names: the vertical category, the horizontal category, the number shown.
    count : str, optional
        Column with the number of deals behind each cell.  Cells with ``count < thin`` are
        hatched and their text gets a dagger (†), explained under the x axis.
    thin : int or None, default 30
        The count below which a cell is marked; ``None`` or 0 marks nothing.
    ax : Axes, optional
        Draw on this Axes (default: a new figure).
    fmt : str or callable, default "{:.0%}"
        Cell text: a ``str.format`` pattern or a function of the value.
    cmap, vmin, vmax
        Colour map (default from :data:`STYLE`: ``cividis``, readable in greyscale) and limits.
    colorbar : bool, default True
        Draw a colour bar labelled with ``value``.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PlotError
        A named column is missing, the frame is empty, an (index, columns) pair occurs twice,
        ``value`` / ``count`` is not numeric, or ``thin`` is negative.

    Examples
    --------
    >>> import pandas as pd
    >>> from solo_analysis.plots import heatmap
    >>> odds = pd.DataFrame({"trumps": [4, 4, 5, 5], "seat": ["eldest", "dealer"] * 2,
    ...                      "p_make": [0.31, 0.42, 0.55, 0.63], "deals": [400, 12, 250, 90]})
    >>> fig = heatmap(odds, index="trumps", columns="seat", value="p_make", count="deals")
    """
    if not isinstance(frame, pd.DataFrame):
        raise PlotError(f"heatmap needs a pandas DataFrame, got {type(frame).__name__}")
    for role, name in (("index", index), ("columns", columns), ("value", value), ("count", count)):
        if name is not None and name not in frame.columns:
            raise PlotError(
                f"{role} column {name!r} is not in the frame; "
                f"columns: {', '.join(map(str, frame.columns))}"
            )
    if frame.empty:
        raise PlotError("heatmap of an empty frame")
    if thin is not None and (
        isinstance(thin, bool) or not isinstance(thin, (int, np.integer)) or thin < 0
    ):
        raise PlotError(f"thin must be an int >= 0 or None, got {thin!r}")
    dup = frame.duplicated([index, columns])
    if dup.any():
        first = frame.loc[dup, [index, columns]].iloc[0].tolist()
        raise PlotError(f"more than one {value!r} for {index}={first[0]!r}, {columns}={first[1]!r}")
    for name in (value, count):
        if name is not None and not pd.api.types.is_numeric_dtype(frame[name]):
            raise PlotError(f"column {name!r} must be numeric, got dtype {frame[name].dtype}")

    rows = list(pd.unique(frame[index]))
    cols = list(pd.unique(frame[columns]))
    cells = frame.set_index([index, columns])
    grid = cells[value].unstack(columns).reindex(index=rows, columns=cols).to_numpy(dtype=float)
    if count is not None and thin:
        counts = (
            cells[count].unstack(columns).reindex(index=rows, columns=cols).to_numpy(dtype=float)
        )
        sparse = np.isfinite(counts) & (counts < thin)
    else:
        sparse = np.zeros(grid.shape, dtype=bool)

    with style():
        if ax is None:
            fig: Figure = ReportFigure(
                figsize=(1.2 + 0.75 * len(cols) + (1.0 if colorbar else 0), 1.1 + 0.42 * len(rows)),
                layout="constrained",
            )
            ax = fig.subplots()
        else:
            fig = ax.figure.figure
        colour_map = mpl.colormaps[cmap or STYLE["image.cmap"]] if not hasattr(cmap, "N") else cmap
        colour_map = colour_map.with_extremes(bad="white")
        masked = np.ma.masked_invalid(grid)
        image = ax.imshow(
            masked, cmap=colour_map, vmin=vmin, vmax=vmax, aspect="auto", interpolation="nearest"
        )
        norm = image.norm
        for i in range(len(rows)):
            for j in range(len(cols)):
                v = grid[i, j]
                if sparse[i, j]:
                    ax.add_patch(
                        Rectangle(
                            (j - 0.5, i - 0.5),
                            1,
                            1,
                            fill=False,
                            hatch="///",
                            edgecolor="0.5",
                            linewidth=0,
                        )
                    )
                if not math.isfinite(v):
                    continue
                if sparse[i, j]:  # on a white box over the hatching: always black
                    ax.text(
                        j,
                        i,
                        _format_value(fmt, v) + "†",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="black",
                        bbox={
                            "boxstyle": "square,pad=0.1",
                            "facecolor": "white",
                            "edgecolor": "none",
                        },
                    )
                    continue
                r, g, b, _ = colour_map(norm(v))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(
                    j,
                    i,
                    _format_value(fmt, v),
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if dark else "black",
                )
        ax.set_xticks(range(len(cols)))
        ax.set_xticklabels([str(c) for c in cols])
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([str(r) for r in rows])
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        xlabel = str(columns)
        if sparse.any():
            xlabel += f"\n† hatched: fewer than {thin} deals"
        ax.set_xlabel(xlabel)
        ax.set_ylabel(str(index))
        if title is not None:
            ax.set_title(title)
        if colorbar:
            fig.colorbar(image, ax=ax, label=str(value), shrink=0.9)
    return fig


#: marker shapes of :func:`line_chart`, one per line (with the greys of the colour cycle)
_LINE_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def line_chart(
    frame: pd.DataFrame,
    *,
    x: str,
    hue: str | None = None,
    value: str = "share",
    low: str | None = "ci_low",
    high: str | None = "ci_high",
    thin: str | None = "thin",
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """A share against one feature, one line per value of another, with intervals as bands.

    Parameters
    ----------
    frame : pandas.DataFrame
        Long frame, e.g. one seat's rows of an odds table (``features_*.csv``).
    x : str
        The feature on the horizontal axis (integer counts such as trump length).
    hue : str, optional
        One line per value of this column (told apart by grey level and marker shape).
    value, low, high : str
        The share (0..1) and its interval bounds (``None``: no band).
    thin : str or None, default "thin"
        Boolean column: points resting on too few deals are drawn hollow.
    ax : Axes, optional
        Draw on this Axes (default: a new figure).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PlotError
        A named column is missing or the frame is empty.
    """
    if not isinstance(frame, pd.DataFrame):
        raise PlotError(f"line_chart needs a pandas DataFrame, got {type(frame).__name__}")
    for role, name in (
        ("x", x),
        ("hue", hue),
        ("value", value),
        ("low", low),
        ("high", high),
        ("thin", thin),
    ):
        if name is not None and name not in frame.columns:
            raise PlotError(
                f"{role} column {name!r} is not in the frame; "
                f"columns: {', '.join(map(str, frame.columns))}"
            )
    if frame.empty:
        raise PlotError("line chart of an empty frame")
    groups = [(None, frame)] if hue is None else list(frame.groupby(hue, sort=True))
    with style():
        if ax is None:
            fig: Figure = ReportFigure(figsize=(6.0, 4.0), layout="constrained")
            ax = fig.subplots()
        else:
            fig = ax.figure.figure
        for k, (key, g) in enumerate(groups):
            g = g.sort_values(x)
            marker = _LINE_MARKERS[k % len(_LINE_MARKERS)]
            label = None if hue is None else f"{hue.replace('_', ' ')} {key!s}"
            (line,) = ax.plot(g[x], g[value], marker=marker, label=label)
            if low is not None and high is not None:
                ax.fill_between(g[x], g[low], g[high], alpha=0.15, color=line.get_color(), lw=0)
            if thin is not None:
                t = g[g[thin].astype(bool)]
                ax.plot(
                    t[x],
                    t[value],
                    linestyle="none",
                    marker=marker,
                    mfc="white",
                    mec=line.get_color(),
                )
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlabel(x.replace("_", " "))
        ax.set_ylabel(value.replace("_", " ") + (" (95% interval)" if low and high else ""))
        ax.set_ylim(0, 1)
        if hue is not None:
            ax.legend()
        if thin is not None:
            ax.annotate(
                "hollow: thin cell",
                (1, 0),
                xycoords="axes fraction",
                ha="right",
                va="bottom",
                fontsize=7,
                color="0.4",
            )
        if title:
            ax.set_title(title)
    return fig


def model_gap_chart(
    compared: pd.DataFrame,
    *,
    labels: tuple[str, str] = ("double-dummy", "pimc"),
    title: str | None = None,
) -> Figure:
    """Two play models' chance of making each contract on the same hands, seat by seat.

    One panel per contract, one line per seat: the first model's share (hollow circle) and
    the second's (filled square), each with its 95 % Wilson interval, and the paired
    difference ``second - first`` with its interval written at the right.

    Parameters
    ----------
    compared : pandas.DataFrame
        The frame of :func:`~solo_analysis.tables.compare_runs` (``seat, contract, variant,
        paired, first, second, diff, diff_low, diff_high``); rows of a variant other than
        ``""`` / ``"any"`` are left out.
    labels : (str, str), default ("double-dummy", "pimc")
        The names of the two models in the legend.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PlotError
        A needed column is missing or no row is left to draw.
    """
    from ..stats.intervals import wilson_interval

    if not isinstance(compared, pd.DataFrame):
        raise PlotError(f"model_gap_chart needs a pandas DataFrame, got {type(compared).__name__}")
    needed = ("seat", "contract", "variant", "paired", "first", "second", "diff")
    missing = [c for c in (*needed, "diff_low", "diff_high") if c not in compared.columns]
    if missing:
        raise PlotError(
            f"column {missing[0]!r} is not in the frame (model_gap_chart draws the frame of "
            "tables.compare_runs)"
        )
    rows = compared[compared["variant"].isin(["", "any"]) & (compared["paired"] > 0)]
    if rows.empty:
        raise PlotError("model gap chart of an empty comparison")
    contracts = list(dict.fromkeys(rows["contract"]))
    with style():
        fig: Figure = ReportFigure(figsize=(3.0 * len(contracts) + 0.6, 2.6), layout="constrained")
        axes = np.atleast_1d(fig.subplots(1, len(contracts), sharey=True))
        for ax, contract in zip(axes, contracts, strict=True):
            part = rows[rows["contract"] == contract].reset_index(drop=True)
            y = np.arange(len(part))[::-1]
            n = part["paired"].to_numpy(dtype=float)
            top = 0.0
            for k, (col, marker, face) in enumerate(
                (("first", "o", "white"), ("second", "s", None))
            ):
                share = part[col].to_numpy(dtype=float)
                lo, hi = wilson_interval(share, n)
                top = max(top, float(np.max(hi)))
                ax.errorbar(
                    share,
                    y + (0.12 if k == 0 else -0.12),
                    xerr=[share - lo, hi - share],
                    fmt=marker,
                    mfc=face,
                    color="0.1" if k else "0.45",
                    capsize=2,
                    label=labels[k],
                )
            right = max(top * 1.15, 0.02)
            for yy, rec in zip(y, part.to_dict("records"), strict=True):
                ax.annotate(
                    f"{100 * rec['diff']:+.1f} ({100 * rec['diff_low']:+.1f}.."
                    f"{100 * rec['diff_high']:+.1f})",
                    (1.0, yy),
                    xycoords=("axes fraction", "data"),
                    ha="right",
                    va="center",
                    fontsize=7,
                    color="0.3",
                )
            ax.set_xlim(0, right * 1.9)
            ax.set_yticks(y, list(part["seat"]))
            ax.xaxis.set_major_formatter(PercentFormatter(1.0))
            ax.set_title(contract)
            ax.set_xlabel("made (95% interval)")
        axes[0].legend(loc="lower left", bbox_to_anchor=(0, 1.08), ncols=2)
        fig.suptitle(
            title or f"{labels[1]} - {labels[0]} on the same hands (points, 95% interval)",
            fontsize=9,
        )
    return fig
