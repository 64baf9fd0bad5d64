"""The trick-count distributions of an advice: :func:`tricks_chart`."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from ..errors import PlotError
from .parts import heading, row_labels
from .style import ReportFigure, style
from .view import AdviceView

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["tricks_chart"]

_MADE = "0.25"  # the fill of the tricks that make the contract (the advice chart's dark grey)


def _select_rows(advice: AdviceView, dist: pd.DataFrame, rows: Any) -> list[int]:
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
    advice: AdviceView,
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
            "no trick counts in this advice: "
            "run advise(..., exact=True) (CLI: --exact) to count tricks"
        )
    chosen = _select_rows(advice, dist, rows)
    if isinstance(ncols, bool) or not isinstance(ncols, (int, np.integer)) or ncols < 1:
        raise PlotError(f"ncols must be an int >= 1, got {ncols!r}")
    if ax is not None and len(chosen) != 1:
        raise PlotError(f"ax draws one row's distribution, but {len(chosen)} rows were selected")
    labels = dict(zip(advice.table["row"], row_labels(advice.table), strict=False))
    table = advice.table.set_index("row")
    tricks = np.arange(14)

    with style():
        if ax is None:
            cols = min(int(ncols), len(chosen))
            lines = math.ceil(len(chosen) / cols)
            fig: Figure = ReportFigure(
                figsize=(2.9 * cols, 0.6 + 1.9 * lines), layout="constrained"
            )
            grid = fig.subplots(lines, cols, squeeze=False).ravel()
            for extra in grid[len(chosen) :]:
                extra.set_visible(False)
            axes = list(grid[: len(chosen)])
        else:
            fig = ax.figure.figure
            axes = [ax]
            ax.set_xlabel("declarer side's tricks (double-dummy)")
        for a, r in zip(axes, chosen, strict=False):
            part = dist[dist["row"] == r].set_index("tricks").reindex(tricks)
            share = part["share"].fillna(0.0).to_numpy(dtype=float)
            rec = table.loc[r]
            made = np.asarray(
                advice.rules.contract(str(rec["contract"])).is_made(tricks), dtype=bool
            )
            a.bar(
                tricks[made],
                share[made],
                width=0.8,
                color=_MADE,
                edgecolor="0.0",
                linewidth=0.6,
            )
            a.bar(
                tricks[~made],
                share[~made],
                width=0.8,
                color="white",
                hatch="////",
                edgecolor="0.15",
                linewidth=0.6,
            )
            edge = rec["target"] + 0.5 if rec["misere"] else rec["target"] - 0.5
            a.axvline(edge, color="0.2", linestyle="--", linewidth=0.9)
            p_make = float(rec["p_make"])  # type: ignore[arg-type]  # one row: a scalar
            a.set_title(f"{labels[r].strip()}: makes {100 * p_make:.0f}%", loc="left")
            a.set_xticks(range(0, 14, 2))
            a.set_xlim(-0.6, 13.6)
            a.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
            a.grid(axis="x", visible=False)
        if ax is None:
            fig.supxlabel(
                "declarer side's tricks (double-dummy); dark bars: the contract makes, "
                "hatched: it fails; dashed line: the target",
                fontsize=8.5,
            )
            fig.suptitle(f"{heading(advice)}; {advice.samples} deals", fontsize=9)
    return fig


# --- two play models ------------------------------------------------------------------------
