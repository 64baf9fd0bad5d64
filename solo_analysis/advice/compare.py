"""Two play models side by side on the same deals: :func:`compare_play`.

The first model's advice runs as :func:`~solo_analysis.advice.advise` would (adaptively,
unless ``samples`` is given); the second plays exactly the deals the first one used (the same
seed and the same number of deals draw the same deals), so every contract's difference is
paired deal by deal: ``difference = second - first`` in the share of deals made, with its
95 % interval.

The interval of a paired difference of 0 / 1 outcomes: normal (the mean difference plus or
minus 1.96 standard errors) once at least :data:`MIN_EACH` deals went each way; with fewer,
Wilson's bounds on the shares of deals where only one model made, which hold however few the
deals (never an interval falsely exact).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..stats.intervals import Z95, wilson_interval
from .evaluate import advise
from .result import Advice

__all__ = ["MIN_EACH", "PlayComparison", "compare_play", "paired_difference"]

#: deals on which each model alone made, before the paired interval is the normal one
MIN_EACH = 10


def paired_difference(first: np.ndarray, second: np.ndarray) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)`` of ``second - first`` over the deals both settled.

    ``first`` and ``second`` are outcomes per deal (1.0 / 0.0, NaN where given up; an ``any``
    row's shares in between), paired by position; only the deals both arrays cover and both
    settled count.
    """
    k = min(first.size, second.size)
    a, b = first[:k], second[:k]
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    n = int(a.size)
    if n == 0:
        return math.nan, -1.0, 1.0, 0
    d = b - a
    mean = float(d.mean())
    up = float(np.clip(d, 0, None).sum())  # the second made where the first did not
    down = float(np.clip(-d, 0, None).sum())
    if min(up, down) >= MIN_EACH and n > 1:
        se = float(d.std(ddof=1)) / math.sqrt(n)
        return mean, max(mean - Z95 * se, -1.0), min(mean + Z95 * se, 1.0), n
    up_lo, up_hi = wilson_interval(up / n, n)
    down_lo, down_hi = wilson_interval(down / n, n)
    return mean, max(up_lo - down_hi, -1.0), min(up_hi - down_lo, 1.0), n


@dataclass(frozen=True, eq=False)
class PlayComparison:
    """Two advices of one hand on the same deals, and each contract's paired difference.

    Attributes
    ----------
    first, second : Advice
        The advice under each play model (``first.play_model``, ``second.play_model``).
    table : pandas.DataFrame
        One line per contract option: ``row, contract, title, trump, partner, choice``, the
        share made under each model (``p_first``, ``p_second``: as each advice reports it) and
        the paired difference ``diff = second - first`` of the deals both settled, with
        ``diff_low`` / ``diff_high`` (95 %) and ``paired`` (those deals).
    """

    first: Advice
    second: Advice
    table: pd.DataFrame

    def to_text(self) -> str:
        """The comparison as the command line prints it."""
        from ..report.text import comparison_text

        return comparison_text(self)

    def plot(self, ax: Any = None) -> Any:
        """Both models' chance of making each contract, side by side (a Figure)."""
        from ..report.charts import comparison_chart

        return comparison_chart(self, ax)


def compare_play(
    hand: Any,
    *,
    models: tuple[str, str] = ("double-dummy", "pimc"),
    play_options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> PlayComparison:
    """The advice of one hand under two play models, on the same deals, and their differences.

    Parameters
    ----------
    hand
        As for :func:`~solo_analysis.advice.advise`.
    models : (str, str), default ("double-dummy", "pimc")
        The two play models; the first runs as ``advise`` would, the second on the deals the
        first used.
    play_options : mapping, optional
        Options of the realistic play model (``worlds``, ``prior``...), given to whichever of
        the two takes them.
    **kwargs
        Everything else :func:`~solo_analysis.advice.advise` takes (``seat``, ``turnup``,
        ``seed``, ``samples``, ``contracts``, ...), the same for both.

    Returns
    -------
    PlayComparison

    Raises
    ------
    SoloAnalysisError
        As :func:`~solo_analysis.advice.advise` raises for either model.
    """
    from ..play import PLAY_OPTIONS

    def options(name: str) -> Mapping[str, Any] | None:
        return play_options if PLAY_OPTIONS.get(name.strip().lower()) else None

    first = advise(hand, play_model=models[0], play_options=options(models[0]), **kwargs)
    fixed = {k: v for k, v in kwargs.items() if k not in _ADAPTIVE}
    fixed["seed"] = first.seed
    fixed["samples"] = first.samples
    second = advise(hand, play_model=models[1], play_options=options(models[1]), **fixed)
    records = []
    for rec in first.table.to_dict("records"):
        row = int(rec["row"])
        other = second.table.loc[second.table["row"] == row].iloc[0]
        diff, low, high, n = paired_difference(first.outcomes[row], second.outcomes[row])
        records.append(
            {
                "row": row,
                "contract": rec["contract"],
                "title": rec["title"],
                "trump": rec["trump"],
                "partner": rec["partner"],
                "choice": rec["choice"],
                "p_first": rec["p_make"],
                "p_second": float(other["p_make"]),
                "diff": diff,
                "diff_low": low,
                "diff_high": high,
                "paired": n,
            }
        )
    table = pd.DataFrame.from_records(records)
    table["partner"] = pd.Series([r["partner"] for r in records], dtype=object)
    return PlayComparison(first, second, table)


#: the options of adaptive sampling, which the second run replaces by the first run's deals
_ADAPTIVE = frozenset({"samples", "tolerance", "max_samples", "max_seconds", "max_positions"})
