"""Two table runs of the same deals compared hand by hand (:func:`tables.compare_runs`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from solo_analysis import tables
from solo_analysis.errors import PlotError, TableError
from solo_analysis.report import odds
from solo_analysis.stats import paired_difference

SEATS = ["eldest", "second", "third", "dealer"]


def run_frame(misere: list[list[bool | None]], unsolved: dict[tuple[int, str], str] | None = None):
    """A per-deal frame: one row per deal and seat, ``misere`` given per deal as four seats."""
    rows = []
    for deal, outcomes in enumerate(misere):
        for seat, made in zip(SEATS, outcomes, strict=True):
            rows.append(
                {
                    "deal": deal,
                    "seat": seat,
                    "misere": made,
                    "unsolved": (unsolved or {}).get((deal, seat), ""),
                }
            )
    frame = pd.DataFrame.from_records(rows)
    frame["seat"] = frame["seat"].astype("category")
    frame["misere"] = frame["misere"].astype("boolean")
    return frame


def test_each_seat_compares_only_the_hands_both_runs_answered():
    first = run_frame(
        [[False, False, True, False], [False, True, False, False], [True, False, False, False]],
        unsolved={(1, "second"): "misere"},
    )
    second = run_frame(
        [[True, False, True, False], [False, False, False, True]],  # one deal fewer
    )
    c = tables.compare_runs(first, second, "classic", ["misere"]).set_index("seat")
    assert list(c.index) == SEATS
    assert c.loc["eldest", "paired"] == 2  # deal 2 is only in the first run
    assert c.loc["eldest", ["first", "second", "diff"]].tolist() == [0.0, 0.5, 0.5]
    assert c.loc["second", "paired"] == 1  # deal 1 was given up on in the first run
    assert c.loc["second", ["first", "second", "diff"]].tolist() == [0.0, 0.0, 0.0]
    assert c.loc["dealer", "diff"] == 0.5 and c.loc["third", "diff"] == 0.0
    # the interval is the paired one of the stats layer, never of zero width
    expect = paired_difference(np.array([0.0, 0.0]), np.array([1.0, 0.0]))
    assert tuple(c.loc["eldest", ["diff", "diff_low", "diff_high", "paired"]]) == expect
    assert (c["diff_low"] < c["diff_high"]).all()


def test_runs_without_common_deals_or_contracts_are_refused():
    first = run_frame([[False] * 4])
    second = run_frame([[True] * 4]).assign(deal=7)
    with pytest.raises(TableError, match="share no deal"):
        tables.compare_runs(first, second, "classic", ["misere"])
    with pytest.raises(TableError, match="share no contract"):
        tables.compare_runs(first, second, "classic", ["solo"])


def test_the_model_gap_chart_renders_and_checks_its_frame():
    first = run_frame([[False, False, True, False]] * 6)
    second = run_frame([[True, False, True, False]] * 6)
    c = tables.compare_runs(first, second, "classic", ["misere"])
    fig = odds.model_gap_chart(c)
    assert fig._repr_png_()[:4] == b"\x89PNG"
    assert len(fig.axes) == 1
    with pytest.raises(PlotError, match="'diff'"):
        odds.model_gap_chart(c.drop(columns="diff"))
    with pytest.raises(PlotError, match="empty"):
        odds.model_gap_chart(c.iloc[:0])
