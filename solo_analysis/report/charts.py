"""Charts of an advice: the chance and value of every contract option, and trick distributions.

* :func:`advice_chart` - per contract option, the chance of making it with its 95 % interval
  and the expected units with their interval; the recommendation in a dark fill and a bold
  label, contracts not allowed (below the bid so far) in grey.
* :func:`comparison_chart` - two play models' chances side by side, on the same deals.

The trick-count distributions are in :mod:`.tricks`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import PercentFormatter

from ..errors import PlotError
from .parts import finite, heading, row_labels, whiskers
from .style import ReportFigure, style
from .text import percent, question_budget_text, signed_units
from .view import AdviceView, ComparisonView

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["UnitsWindow", "advice_chart", "comparison_chart", "units_window"]


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


#: the units axis shows every row unless their values span more than this many times the
#: range of the decision (the recommendation, the runner-up, passing); then it zooms on that
#: range, widened by :data:`UNITS_NEAR` times itself on each side
UNITS_ZOOM: float = 3.0
UNITS_NEAR: float = 1.0
#: the narrowest range of the decision the units axis zooms on
UNITS_MIN_SPAN: float = 2.0


def _row_bounds(table: pd.DataFrame, row: Any) -> list[float]:
    """Expected units and their interval of one table row (by its ``row`` number)."""
    if row is None:
        return []
    hit = table[table["row"] == int(row)]
    if hit.empty:
        return []
    vals = [float(hit.iloc[0][k]) for k in ("ev_units", "ev_low", "ev_high")]
    return [v for v in vals if math.isfinite(v)]


class UnitsWindow(NamedTuple):
    """The zoomed units axis of :func:`advice_chart`.

    Rows with values in ``[low, high]`` are drawn as usual, the others as triangles at the axis
    limits ``left`` / ``right`` (room is kept there for their values).
    """

    low: float
    high: float
    left: float
    right: float


def units_window(advice: AdviceView, table: pd.DataFrame) -> UnitsWindow | None:
    """The range of the units axis, or ``None`` to show every row.

    The decision is between the recommendation, the runner-up and passing (0): their values
    and intervals make its range (at least :data:`UNITS_MIN_SPAN` wide).  When all the rows'
    values span at most :data:`UNITS_ZOOM` times that, every row is shown.  Otherwise the axis
    covers the decision's range and the rows whose values lie within :data:`UNITS_NEAR` times
    that range of it (with their intervals, up to that limit); the rows further off are drawn
    as triangles at the edge with their values written, so a -24 units row does not squash a
    +0.7 against 0 decision into a few pixels.
    """
    evs = finite(table["ev_units"])
    evs = evs[np.isfinite(evs)]
    if evs.size == 0:
        return None
    everything = finite(np.concatenate([table["ev_low"], table["ev_units"], table["ev_high"]]))
    everything = everything[np.isfinite(everything)]
    focus = [0.0]
    for row in (advice.recommended, advice.runner_up):
        focus += _row_bounds(advice.table, None if row is None else row["row"])
    low, high = min(focus), max(focus)
    span = max(high - low, UNITS_MIN_SPAN)
    if float(everything.max() - everything.min()) <= UNITS_ZOOM * span:
        return None
    limit = (low - UNITS_NEAR * span, high + UNITS_NEAR * span)
    ev = finite(table["ev_units"])
    near = np.isfinite(ev) & (ev >= limit[0]) & (ev <= limit[1])
    if near.any():  # the rows near the decision, with their intervals up to the limit
        reach = np.concatenate([finite(table["ev_low"])[near], finite(table["ev_high"])[near]])
        reach = np.clip(reach[np.isfinite(reach)], *limit)
        low, high = (
            min(low, float(reach.min(initial=low))),
            max(high, float(reach.max(initial=high))),
        )
    pad = 0.06 * (high - low)
    room = 0.2 * (high - low)  # for the triangles and values of the rows off the scale
    left = low - pad - (room if float(evs.min()) < low else 0.0)
    right = high + pad + (room if float(evs.max()) > high else 0.0)
    return UnitsWindow(low, high, left, right)


def _interval_note(table: pd.DataFrame) -> str:
    """Which kind of 95 % interval the rows show (control-variate, Wilson or both)."""
    if "corrected" not in table.columns:
        return "95% intervals"
    corrected = int(table["corrected"].astype(bool).sum())
    if corrected == len(table):
        return "95% intervals: control variates"
    if corrected == 0:
        return "95% intervals: Wilson (plain rates)"
    return (
        f"95% intervals: control variates on {corrected} of {len(table)} rows, "
        "Wilson on the rows with too few deals, makes or failures"
    )


def _footer(advice: AdviceView, table: pd.DataFrame) -> str:
    """The chart's footnote: deals, seed, unsolved deals, the intervals, the play model."""
    line = f"{advice.samples} deals (seed {advice.seed})"
    if advice.unresolved:
        line += (
            f", {advice.unresolved} of them unsolved for some rows{question_budget_text(advice)} "
            "(their intervals cover both outcomes)"
        )
    passing = advice.passing
    if passing is not None:
        line += (
            f"; passing: {passing.ev_units:+.1f} units ({passing.ev_low:+.1f} to "
            f"{passing.ev_high:+.1f}), thrown in {100 * passing.thrown_in:.0f}% "
            f"(policy {advice.policy}, {passing.deals} deals)"
        )
    if advice.acceptance is not None:
        line += f"; deals agree with the calls: {100 * advice.acceptance:.1f}% of those drawn"
    return f"{line}; {_interval_note(table)}\n{advice.play_note}"


def advice_chart(
    advice: AdviceView,
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
    rank above ``advice.over`` are grey (crosses).  Whiskers are 95 % intervals (control-variate
    or Wilson, as the footnote says); the dotted line at 0 units is passing.  The units axis
    zooms on the decision when far lower (or higher) rows would squash it
    (:func:`units_window`): those rows are triangles at the edge with their values written.
    """
    table = advice.table
    if candidates_only:
        table = table[table["candidate"]]
    if table.empty:
        raise PlotError("the advice has no contract rows to plot")
    all_labels = dict(zip(advice.table["row"], row_labels(advice.table), strict=False))
    best_row = None if advice.recommended is None else int(advice.recommended["row"])
    n = len(table)
    y = np.arange(n, dtype=float)

    with style():
        if ax is None:
            fig: Figure = ReportFigure(figsize=(8.0, 1.4 + 0.32 * n), layout="constrained")
            ax_p, ax_e = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1.15, 1.0]})
            offsets = (0.0, 0.0)
        elif isinstance(ax, Sequence) and not isinstance(ax, str):
            if len(ax) != 2:
                raise PlotError(f"ax must be one Axes or a pair of Axes, got {len(ax)} of them")
            ax_p, ax_e = ax
            fig = ax_p.figure.figure
            offsets = (0.0, 0.0)
        elif hasattr(ax, "twiny"):
            ax_p = ax
            ax_e = ax.twiny()
            fig = ax_p.figure.figure
            offsets = (0.15, -0.18)  # bars a little below, markers a little above the row line
        else:
            raise PlotError(
                f"ax must be a matplotlib Axes or a pair of them, got {type(ax).__name__}"
            )

        recs = table.to_dict("records")
        looks = [
            _BEST if r["row"] == best_row else (_OTHER if r["allowed"] else _BARRED) for r in recs
        ]
        p = finite(table["p_make"])
        lo, hi = finite(table["ci_low"]), finite(table["ci_high"])
        ev, ev_lo, ev_hi = (
            finite(table["ev_units"]),
            finite(table["ev_low"]),
            finite(table["ev_high"]),
        )
        bar_height = 0.62 if offsets[0] == 0 else 0.4
        window = units_window(advice, table)
        off_scale = 0
        for i, look in enumerate(looks):
            y_bar, y_mark = y[i] + offsets[0], y[i] + offsets[1]
            ax_p.barh(
                y_bar,
                p[i],
                height=bar_height,
                color=look.face,
                hatch=look.hatch,
                edgecolor=look.edge,
                linewidth=0.8,
                zorder=2,
            )
            ax_p.errorbar(
                p[i],
                y_bar,
                xerr=whiskers(p[i], lo[i], hi[i]),
                fmt="none",
                ecolor=look.edge,
                elinewidth=1.0,
                capsize=3,
                zorder=3,
            )
            if math.isfinite(p[i]):
                ax_p.text(
                    min(hi[i], 1.0) + 0.02,
                    y_bar,
                    percent(p[i]),
                    va="center",
                    ha="left",
                    fontsize=7.5,
                    color=look.text,
                )
            if (
                window is not None
                and math.isfinite(ev[i])
                and not window.low <= ev[i] <= window.high
            ):
                below = ev[i] < window.low
                edge = window.left if below else window.right
                ax_e.plot(
                    edge,
                    y_mark,
                    marker="<" if below else ">",
                    markersize=look.marker_size,
                    color=look.edge,
                    markerfacecolor=look.marker_face,
                    clip_on=False,
                    zorder=3,
                )
                ax_e.annotate(
                    signed_units(ev[i]),
                    (edge, y_mark),
                    xytext=(7 if below else -7, 0),
                    textcoords="offset points",
                    ha="left" if below else "right",
                    va="center",
                    fontsize=7.5,
                    color=look.text,
                )
                off_scale += 1
                continue
            ax_e.errorbar(
                ev[i],
                y_mark,
                xerr=whiskers(ev[i], ev_lo[i], ev_hi[i]),
                fmt=look.marker,
                markersize=look.marker_size,
                markerfacecolor=look.marker_face,
                markeredgecolor=look.edge,
                ecolor=look.edge,
                elinewidth=1.0,
                capsize=3,
                zorder=3,
            )
        ax_p.set_xlim(0, 1.16)
        ax_p.set_xticks(np.linspace(0, 1, 6))
        ax_p.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax_p.set_xlabel("chance of making (95% interval)")

        ax_e.axvline(0.0, color="0.3", linestyle=":", linewidth=1.0, zorder=1)
        units_label = "expected units (95% interval); dotted line: pass"
        if window is not None:
            ax_e.set_xlim(window.left, window.right)
            if off_scale:
                units_label += "\n◀ ▶: off the scale, value written"
        ax_e.set_xlabel(units_label)

        ax_p.set_yticks(y)
        ax_p.set_yticklabels([all_labels[r] for r in table["row"]])
        for tick, rec, look in zip(ax_p.get_yticklabels(), recs, looks, strict=False):
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
            fig.suptitle(title if title is not None else heading(advice), fontsize=9.5)
            # the footnote is the legend's title: one artist, so the layout never overlaps them
            legend = fig.legend(
                handles=handles,
                loc="outside lower center",
                ncols=len(handles),
                title=_footer(advice, table),
                title_fontsize=6.5,
            )
            legend.get_title().set_color("0.3")
        else:
            ax_p.legend(handles=handles, loc="lower right")
            if title is not None:
                ax_p.set_title(title)
    return fig


def comparison_chart(comparison: ComparisonView, ax: Axes | None = None) -> Figure:
    """Both play models' chance of making each contract option, on the same deals.

    Two bars a row, the first model's hatched and the second's dark, each with its 95 %
    interval; the paired difference (second minus first, in points) is written beside them.

    Parameters
    ----------
    comparison : PlayComparison
        From :func:`~solo_analysis.advice.compare_play`.
    ax : Axes, optional
        Where to draw; ``None``: a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PlotError
        If the comparison has no rows.
    """
    table = comparison.table
    if table.empty:
        raise PlotError("the comparison has no contract rows to plot")
    first, second = comparison.first, comparison.second
    labels = dict(zip(first.table["row"], row_labels(first.table), strict=True))
    n = len(table)
    y = np.arange(n, dtype=float)
    with style():
        if ax is None:
            fig: Figure = ReportFigure(figsize=(7.0, 1.8 + 0.42 * n), layout="constrained")
            ax = fig.subplots()
        else:
            fig = ax.figure.figure
        looks = ((first, "white", "////", -0.19), (second, "0.25", None, 0.19))
        for advice, face, hatch, offset in looks:
            rows = advice.table.set_index("row").loc[table["row"]]
            p = finite(rows["p_make"])
            lo, hi = finite(rows["ci_low"]), finite(rows["ci_high"])
            ax.barh(
                y + offset,
                p,
                height=0.36,
                color=face,
                hatch=hatch,
                edgecolor="0.0",
                linewidth=0.8,
                zorder=2,
                label=advice.play_model,
            )
            for i in range(n):
                ax.errorbar(
                    p[i],
                    y[i] + offset,
                    xerr=whiskers(p[i], lo[i], hi[i]),
                    fmt="none",
                    ecolor="0.0",
                    elinewidth=1.0,
                    capsize=2.5,
                    zorder=3,
                )
        for i, rec in enumerate(table.to_dict("records")):
            d = rec["diff"]
            if math.isfinite(d):
                text = (
                    f"{100 * d:+.0f} pts ({100 * rec['diff_low']:+.0f} .. "
                    f"{100 * rec['diff_high']:+.0f})"
                )
                ax.text(1.02, y[i], text, va="center", ha="left", fontsize=7.5, color="0.1")
        ax.set_xlim(0, 1.38)
        ax.set_xticks(np.linspace(0, 1, 6))
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel("chance of making (95% interval); right: the difference on the same deals")
        ax.set_yticks(y)
        ax.set_yticklabels([labels[r] for r in table["row"]])
        ax.set_ylim(n - 0.5, -0.5)
        ax.grid(axis="y", visible=False)
        if fig.get_layout_engine() is not None and ax is fig.axes[0]:
            fig.legend(loc="outside lower center", ncols=2)
        else:
            ax.legend(loc="lower right")
        ax.set_title(f"{heading(first)}; {first.samples} deals (seed {first.seed})", fontsize=9)
    return fig
