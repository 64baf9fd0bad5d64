"""Two play models side by side on the same deals: :func:`compare_play`.

The first model's advice runs as :func:`~solo_analysis.advice.advise` would (adaptively,
unless ``samples`` is given); the second plays exactly the deals the first one used (the same
seed and the same number of deals draw the same deals), so every contract's difference is
paired deal by deal: ``difference = second - first`` in the share of deals made, with its
95 % interval (:func:`~solo_analysis.stats.paired_difference`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..stats.intervals import paired_difference
from .evaluate import advise
from .result import Advice

__all__ = ["PlayComparison", "compare_play"]


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
_ADAPTIVE = frozenset(
    {"samples", "tolerance", "max_samples", "max_seconds", "max_positions", "stop_on"}
)
