"""Charts of the advice and of odds tables, in one style that reads in black and white.

Every chart is drawn on a :class:`matplotlib.figure.Figure` created without ``pyplot`` (no
global state: nothing is left open, and Jupyter shows the returned figure once), inside
:func:`style`.  Categories are told apart by fill, hatching and marker shape, never by colour
alone, so the charts survive a black-and-white printer.

* :func:`advice_chart` - per contract option, the chance of making it with its 95 % Wilson
  interval and the expected units with their interval; the recommendation in a dark fill and
  a bold label, contracts not allowed (below the bid so far) in grey.
* :func:`tricks_chart` - the double-dummy trick-count distribution of each row whose tricks
  were counted (``advise(..., exact=True)``).
* :func:`heatmap` - a generic annotated heatmap of a long (tidy) frame, for the odds tables;
  cells resting on fewer than ``thin`` deals are hatched and marked with a dagger.
* :func:`line_chart` - a share against one feature, one line (and marker shape) per value of
  another, with its interval as a band; thin points hollow.

This module imports matplotlib; nothing else in the package imports it at import time
(:meth:`Advice.plot <solo_analysis.advice.Advice.plot>` imports this module when called).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import PercentFormatter

from .cards import SUIT_SYMBOLS, SUITS, card_str
from .errors import PlotError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from .advice import Advice

__all__ = [
    "STYLE",
    "FORMATS",
    "style",
    "advice_chart",
    "tricks_chart",
    "heatmap",
    "line_chart",
    "figure_format",
    "save_figure",
    "figure_svg",
]

# --- the shared style (one place) ---------------------------------------------------------
#: rcParams applied by :func:`style`: greys, light dotted grid, a colour map whose lightness
#: rises monotonically (so it also reads in greyscale), text kept as text in SVG output
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",  # has the suit symbols
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "axes.edgecolor": "0.2",
    "axes.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "0.8",
    "grid.linestyle": ":",
    "grid.linewidth": 0.6,
    "axes.prop_cycle": mpl.cycler(color=["0.1", "0.35", "0.55", "0.75"]),
    "legend.frameon": False,
    "legend.fontsize": 8,
    "hatch.linewidth": 0.6,
    "hatch.color": "0.15",
    "image.cmap": "cividis",
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "savefig.bbox": "tight",
    "svg.fonttype": "none",
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
}

#: file extension -> matplotlib format written by :func:`save_figure`
FORMATS: dict[str, str] = {".png": "png", ".svg": "svg"}


class _Look(NamedTuple):
    """How one kind of row of the advice chart is drawn."""

    face: str  # bar fill
    hatch: str | None  # bar hatching
    edge: str  # bar edge, whiskers
    text: str  # label and value text
    marker: str  # expected-units marker
    marker_face: str
    marker_size: float
    label: str  # legend entry


_BEST = _Look("0.25", None, "0.0", "0.0", "D", "0.0", 7, "recommended")
_OTHER = _Look("white", "////", "0.0", "0.0", "o", "white", 6, "allowed")
_BARRED = _Look("0.93", None, "0.65", "0.55", "X", "0.6", 6, "not above the bid")


@contextmanager
def style() -> Iterator[None]:
    """Apply :data:`STYLE` to the figures created (and saved) inside the ``with`` block.

    Examples
    --------
    >>> from solo_analysis.plots import style
    >>> with style():
    ...     pass  # draw here
    """
    with mpl.rc_context(STYLE):
        yield


# --- labels ---------------------------------------------------------------------------------


def _sym(trump: str) -> str:
    return trump if trump == "NT" else SUIT_SYMBOLS[SUITS.index(trump)]


def _row_labels(table: pd.DataFrame) -> list[str]:
    """``"Solo"``; ``"Abundance (best: ♠)"``; ``"Abundance ♦"``; ``"Prop and Cop ♥, third"``."""
    per_contract = table.groupby("contract")["row"].transform("size")
    labels = []
    for rec, many in zip(table.to_dict("records"), per_contract):
        title = str(rec["title"])
        if rec["choice"] == "best":
            labels.append(f"{title} (best: {_sym(rec['trump'])})")
        elif rec["choice"] == "any":
            labels.append(f"{title} (any partner)")
        elif many == 1:
            labels.append(title)
        else:
            text = f"{title} {_sym(rec['trump'])}"
            if rec["partner"]:
                text += f", {rec['partner']}"
            labels.append(text)
    return labels


def _heading(advice: Advice) -> str:
    parts = str(advice.hand).split(".")
    hand = "  ".join(f"{SUIT_SYMBOLS[i]}{p or '-'}" for i, p in enumerate(parts))
    turnup = (
        "no turn-up"
        if advice.turnup is None
        else f"turn-up {card_str(advice.turnup, symbols=True)}"
    )
    over = f", over {advice.over}" if advice.over else ""
    return f"{hand}    {advice.seat}, {turnup}, {advice.rules.name} rules{over}"


def _finite(values: Any) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    return np.where(np.isfinite(arr), arr, np.nan)


def _whiskers(mid: float, low: float, high: float) -> list[list[float]]:
    """Error-bar lengths below and above ``mid`` (never negative: rounding can cross ``mid``)."""
    return [[max(mid - low, 0.0)], [max(high - mid, 0.0)]]


# --- the advice chart -----------------------------------------------------------------------


def advice_chart(
    advice: Advice,
    ax: Axes | Sequence[Axes] | None = None,
    *,
    candidates_only: bool = False,
    title: str | None = None,
) -> Figure:
    """The advice as a chart: chance of making and expected units of every contract option.

    Parameters
    ----------
    advice : Advice
        The result of :func:`~solo_analysis.advice.advise`.
    ax : Axes or pair of Axes, optional
        Where to draw.  ``None``: a new figure with two panels side by side (chance of making,
        expected units).  A pair: those two panels.  One Axes: the chance of making as bars and
        the expected units as markers on a second x axis (``ax.twiny()``) above it.
    candidates_only : bool, default False
        Show only the row that stands for each contract (``table.candidate``), not the
        per-suit / per-partner rows behind a "best" or "any" row.
    title : str, optional
        Figure title; default: the hand, seat, turn-up and rule set.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PlotError
        If ``ax`` is neither an Axes nor a pair of them, or the advice has no rows.

    Notes
    -----
    The recommendation is the dark bar (diamond marker) with a bold label, the other allowed
    options are hatched white bars (open circles), and options not allowed because they do not
    rank above ``advice.over`` are grey (crosses).  Whiskers are 95 % intervals; the dotted line
    at 0 units is passing.
    """
    table = advice.table
    if candidates_only:
        table = table[table["candidate"]]
    if table.empty:
        raise PlotError("the advice has no contract rows to plot")
    all_labels = dict(zip(advice.table["row"], _row_labels(advice.table)))
    best_row = None if advice.recommended is None else int(advice.recommended["row"])
    n = len(table)
    y = np.arange(n, dtype=float)

    with style():
        if ax is None:
            fig = Figure(figsize=(8.0, 1.4 + 0.32 * n), layout="constrained")
            ax_p, ax_e = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1.15, 1.0]})
            offsets = (0.0, 0.0)
        elif isinstance(ax, Sequence) and not isinstance(ax, str):
            if len(ax) != 2:
                raise PlotError(f"ax must be one Axes or a pair of Axes, got {len(ax)} of them")
            ax_p, ax_e = ax
            fig = ax_p.figure
            offsets = (0.0, 0.0)
        elif hasattr(ax, "twiny"):
            ax_p = ax
            ax_e = ax.twiny()
            fig = ax_p.figure
            offsets = (0.15, -0.18)  # bars a little below, markers a little above the row line
        else:
            raise PlotError(
                f"ax must be a matplotlib Axes or a pair of them, got {type(ax).__name__}"
            )

        recs = table.to_dict("records")
        looks = [
            _BEST if r["row"] == best_row else (_OTHER if r["allowed"] else _BARRED) for r in recs
        ]
        p = _finite(table["p_make"])
        lo, hi = _finite(table["ci_low"]), _finite(table["ci_high"])
        ev, ev_lo, ev_hi = (
            _finite(table["ev_units"]),
            _finite(table["ev_low"]),
            _finite(table["ev_high"]),
        )
        bar_height = 0.62 if offsets[0] == 0 else 0.4
        for i, look in enumerate(looks):
            y_bar, y_mark = y[i] + offsets[0], y[i] + offsets[1]
            ax_p.barh(y_bar, p[i], height=bar_height, color=look.face, hatch=look.hatch, edgecolor=look.edge,
                      linewidth=0.8, zorder=2)  # fmt: skip
            ax_p.errorbar(p[i], y_bar, xerr=_whiskers(p[i], lo[i], hi[i]), fmt="none", ecolor=look.edge,
                          elinewidth=1.0, capsize=3, zorder=3)  # fmt: skip
            if math.isfinite(p[i]):
                ax_p.text(min(hi[i], 1.0) + 0.02, y_bar, f"{100 * p[i]:.0f}%", va="center", ha="left",
                          fontsize=7.5, color=look.text)  # fmt: skip
            ax_e.errorbar(ev[i], y_mark, xerr=_whiskers(ev[i], ev_lo[i], ev_hi[i]), fmt=look.marker,
                          markersize=look.marker_size, markerfacecolor=look.marker_face,
                          markeredgecolor=look.edge, ecolor=look.edge, elinewidth=1.0, capsize=3, zorder=3)  # fmt: skip
        ax_p.set_xlim(0, 1.16)
        ax_p.set_xticks(np.linspace(0, 1, 6))
        ax_p.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax_p.set_xlabel("chance of making (95% Wilson interval)")

        ax_e.axvline(0.0, color="0.3", linestyle=":", linewidth=1.0, zorder=1)
        ax_e.set_xlabel("expected units (95% interval); dotted line: pass")

        ax_p.set_yticks(y)
        ax_p.set_yticklabels([all_labels[r] for r in table["row"]])
        for tick, rec, look in zip(ax_p.get_yticklabels(), recs, looks):
            tick.set_color(look.text)
            if rec["row"] == best_row:
                tick.set_fontweight("bold")
            if rec["choice"] != "fixed":
                tick.set_fontstyle("italic")
        ax_p.set_ylim(n - 0.5, -0.5)
        if ax_e is not ax_p and offsets[0] == 0.0:
            ax_e.tick_params(axis="y", left=False)
        ax_p.grid(axis="y", visible=False)
        ax_e.grid(axis="y", visible=False)

        shown = [look for look in (_BEST, _OTHER, _BARRED) if look in looks or look is not _BARRED]
        handles = [
            Patch(facecolor=k.face, hatch=k.hatch, edgecolor=k.edge, label=k.label) for k in shown
        ]
        if ax is None:
            fig.suptitle(title if title is not None else _heading(advice), fontsize=9.5)
            # the footnote is the legend's title: one artist, so the layout never overlaps them
            legend = fig.legend(handles=handles, loc="outside lower center", ncols=len(handles),
                                title=f"{advice.samples} deals (seed {advice.seed}); {advice.play_note}",
                                title_fontsize=6.5)  # fmt: skip
            legend.get_title().set_color("0.3")
        else:
            ax_p.legend(handles=handles, loc="lower right")
            if title is not None:
                ax_p.set_title(title)
    return fig


# --- the trick distribution -----------------------------------------------------------------


def _select_rows(advice: Advice, dist: pd.DataFrame, rows: Any) -> list[int]:
    present = list(dict.fromkeys(int(r) for r in dist["row"]))
    if rows is None:
        return present
    items = [rows] if isinstance(rows, (str, int, np.integer)) else list(rows)
    chosen: list[int] = []
    for item in items:
        if isinstance(item, str):
            hits = [r for r in present if dist.loc[dist["row"] == r, "contract"].iloc[0] == item]
            if not hits:
                names = sorted(set(advice.table["contract"]))
                raise PlotError(
                    f"no trick counts for contract {item!r}; contracts: {', '.join(names)}"
                )
            chosen.extend(hits)
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if int(item) not in present:
                raise PlotError(f"no trick counts for row {item!r}; rows with counts: {present}")
            chosen.append(int(item))
        else:
            raise PlotError(f"rows must be table row numbers or contract names, got {item!r}")
    return list(dict.fromkeys(chosen))


def tricks_chart(
    advice: Advice,
    rows: int | str | Iterable[int | str] | None = None,
    *,
    ncols: int = 3,
    ax: Axes | None = None,
) -> Figure:
    """Trick-count distribution of each contract option whose tricks were counted.

    Parameters
    ----------
    advice : Advice
        An advice whose :attr:`~solo_analysis.advice.Advice.distribution` is not empty, i.e. run
        with ``exact=True`` (CLI ``--exact``), or on contracts settled by the trick.
    rows : int, str or iterable of them, optional
        Table row numbers and/or contract names to show; default every row with counts.
    ncols : int, default 3
        Panels per line of the grid.
    ax : Axes, optional
        Draw a single row's distribution on this Axes (requires exactly one row).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PlotError
        No trick counts in the advice, an unknown or uncounted row / contract, ``ax`` given for
        more than one row, or a bad ``ncols``.

    Notes
    -----
    Dark bars: trick counts with which the contract makes; hatched white bars: it fails.  The
    dashed line is the contract's boundary (its target; for misère, at most the target).
    """
    dist = advice.distribution
    if dist.empty:
        raise PlotError(
            "no trick counts in this advice: run advise(..., exact=True) (CLI: --exact) to count tricks"
        )
    chosen = _select_rows(advice, dist, rows)
    if isinstance(ncols, bool) or not isinstance(ncols, (int, np.integer)) or ncols < 1:
        raise PlotError(f"ncols must be an int >= 1, got {ncols!r}")
    if ax is not None and len(chosen) != 1:
        raise PlotError(f"ax draws one row's distribution, but {len(chosen)} rows were selected")
    labels = dict(zip(advice.table["row"], _row_labels(advice.table)))
    table = advice.table.set_index("row")
    tricks = np.arange(14)

    with style():
        if ax is None:
            cols = min(int(ncols), len(chosen))
            lines = math.ceil(len(chosen) / cols)
            fig = Figure(figsize=(2.9 * cols, 0.6 + 1.9 * lines), layout="constrained")
            grid = fig.subplots(lines, cols, squeeze=False).ravel()
            for extra in grid[len(chosen) :]:
                extra.set_visible(False)
            axes = list(grid[: len(chosen)])
        else:
            fig = ax.figure
            axes = [ax]
            ax.set_xlabel("declarer side's tricks (double-dummy)")
        for a, r in zip(axes, chosen):
            part = dist[dist["row"] == r].set_index("tricks").reindex(tricks)
            share = part["share"].fillna(0.0).to_numpy(dtype=float)
            rec = table.loc[r]
            made = np.asarray(advice.rules.contract(rec["contract"]).is_made(tricks), dtype=bool)
            a.bar(
                tricks[made],
                share[made],
                width=0.8,
                color=_BEST.face,
                edgecolor="0.0",
                linewidth=0.6,
            )
            a.bar(tricks[~made], share[~made], width=0.8, color="white", hatch="////", edgecolor="0.15",
                  linewidth=0.6)  # fmt: skip
            edge = rec["target"] + 0.5 if rec["misere"] else rec["target"] - 0.5
            a.axvline(edge, color="0.2", linestyle="--", linewidth=0.9)
            a.set_title(f"{labels[r].strip()}: makes {100 * float(rec['p_make']):.0f}%", loc="left")
            a.set_xticks(range(0, 14, 2))
            a.set_xlim(-0.6, 13.6)
            a.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
            a.grid(axis="x", visible=False)
        if ax is None:
            fig.supxlabel("declarer side's tricks (double-dummy); dark bars: the contract makes, "
                          "hatched: it fails; dashed line: the target", fontsize=8.5)  # fmt: skip
            fig.suptitle(f"{_heading(advice)}; {advice.samples} deals", fontsize=9)
    return fig


# --- heatmaps -------------------------------------------------------------------------------


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
                f"{role} column {name!r} is not in the frame; columns: {', '.join(map(str, frame.columns))}"
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
            fig = Figure(figsize=(1.2 + 0.75 * len(cols) + (1.0 if colorbar else 0), 1.1 + 0.42 * len(rows)),
                         layout="constrained")  # fmt: skip
            ax = fig.subplots()
        else:
            fig = ax.figure
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
                    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                           edgecolor="0.5", linewidth=0))  # fmt: skip
                if not math.isfinite(v):
                    continue
                if sparse[i, j]:  # on a white box over the hatching: always black
                    ax.text(j, i, _format_value(fmt, v) + "†", ha="center", va="center", fontsize=8,
                            color="black", bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                                                 "edgecolor": "none"})  # fmt: skip
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


# --- output ---------------------------------------------------------------------------------


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
                f"{role} column {name!r} is not in the frame; columns: {', '.join(map(str, frame.columns))}"
            )
    if frame.empty:
        raise PlotError("line chart of an empty frame")
    groups = [(None, frame)] if hue is None else list(frame.groupby(hue, sort=True))
    with style():
        if ax is None:
            fig = Figure(figsize=(6.0, 4.0), layout="constrained")
            ax = fig.subplots()
        else:
            fig = ax.figure
        for k, (key, g) in enumerate(groups):
            g = g.sort_values(x)
            marker = _LINE_MARKERS[k % len(_LINE_MARKERS)]
            label = None if hue is None else f"{hue.replace('_', ' ')} {key}"
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
            ax.annotate("hollow: thin cell", (1, 0), xycoords="axes fraction", ha="right", va="bottom",
                        fontsize=7, color="0.4")  # fmt: skip
        if title:
            ax.set_title(title)
    return fig


def figure_format(path: str | os.PathLike[str]) -> str:
    """The output format of ``path`` by its extension: ``"png"`` or ``"svg"``.

    Raises
    ------
    PlotError
        For any other extension.
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in FORMATS:
        raise PlotError(
            f"cannot write a chart to {os.fspath(path)!r}: the file name must end in .png or .svg"
        )
    return FORMATS[ext]


def save_figure(fig: Figure, path: str | os.PathLike[str], *, dpi: float | None = None) -> None:
    """Write ``fig`` to ``path`` as PNG or SVG (by the extension), in the shared style.

    Raises
    ------
    PlotError
        An extension other than ``.png`` / ``.svg``.
    OSError
        The file cannot be written.
    """
    fmt = figure_format(path)
    with style():
        fig.savefig(path, format=fmt, dpi=dpi)


def figure_svg(fig: Figure) -> str:
    """The figure as an inline ``<svg>`` element (XML declaration and doctype dropped)."""
    buf = io.StringIO()
    with style():
        fig.savefig(buf, format="svg")
    text = buf.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text
