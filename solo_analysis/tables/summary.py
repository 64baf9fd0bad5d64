"""Summaries of a run's per-deal results: how often each contract makes, by seat and by features.

Every cell carries its 95 % Wilson interval, widened to cover either outcome of the hands the
solver gave up on, and a ``thin`` flag below :data:`THIN` hands; a cell that pools the seats of
one deal (which share the other cards) takes the design effect of that clustering into its
interval (:func:`feature_table`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import numpy as np
import pandas as pd

from ..cards import PLAY_SEATS
from ..errors import TableError
from ..rules import RuleSet, load_rules
from ..stats.intervals import paired_difference, wilson_interval
from .evaluate import result_columns, selected_contracts

__all__ = [
    "FEATURE_TABLES",
    "THIN",
    "compare_runs",
    "contract_frequencies",
    "feature_table",
    "feature_tables",
    "prop_pairs",
    "unsolved_mask",
]

#: a table cell with fewer hands than this is flagged ``thin``
THIN: int = 30


#: feature tables: (file stem, outcome column, row feature, column feature); ``prop`` uses the
#: partnership table of :func:`prop_pairs` (both partners' trumps together)
FEATURE_TABLES: tuple[tuple[str, str, str, str], ...] = (
    ("solo_by_trumps", "solo", "trump_len", "trump_honours"),
    ("royal-abundance_by_trumps", "royal-abundance", "trump_len", "trump_honours"),
    ("abundance_by_long_suit", "abundance", "long_len", "long_honours"),
    ("abundance-long_by_long_suit", "abundance_long", "long_len", "long_honours"),
    ("misere_by_long_suit", "misere", "long_len", "high_cards"),
    ("misere_by_cards", "misere", "high_cards", "low_cards"),
    ("declared_by_long_suit", "declared", "long_len", "aces"),
    ("prop_by_pair_trumps", "prop", "pair_trump_len", "pair_trump_honours"),
)


def unsolved_mask(frame: pd.DataFrame, column: str) -> np.ndarray:
    """Rows of ``frame`` whose ``column`` outcome was given up on (see :func:`evaluate_deals`)."""
    if "unsolved" not in frame.columns:
        return np.zeros(len(frame), dtype=bool)
    padded = "," + frame["unsolved"].astype(str) + ","
    return padded.str.contains(f",{column},", regex=False).to_numpy(dtype=bool)


def _interval_columns(
    table: pd.DataFrame, thin: int, deff: np.ndarray | None = None
) -> pd.DataFrame:
    """Share and its 95 % Wilson interval; ``unresolved`` hands widen it to both outcomes.

    ``deff`` (per row, >= 1): the design effect of hands that are not independent (several
    hands of one deal pooled in a cell); the interval is Wilson's at ``count / deff`` hands.
    """
    table["count"] = table["count"].astype(np.int64)
    table["makes"] = table["makes"].astype(np.int64)
    if "unresolved" not in table.columns:
        table["unresolved"] = 0
    table["unresolved"] = table["unresolved"].astype(np.int64)
    share = np.where(table["count"] > 0, table["makes"] / table["count"].clip(lower=1), np.nan)
    total = (table["count"] + table["unresolved"]).to_numpy()
    low_share = table["makes"].to_numpy() / np.maximum(total, 1)
    high_share = (table["makes"] + table["unresolved"]).to_numpy() / np.maximum(total, 1)
    effective = total if deff is None else total / np.maximum(np.asarray(deff, dtype=float), 1.0)
    lo = wilson_interval(low_share, effective)[0]
    hi = wilson_interval(high_share, effective)[1]
    table["share"] = share
    table["ci_low"] = lo
    table["ci_high"] = hi
    table["thin"] = table["count"] < thin
    return table


def contract_frequencies(
    frame: pd.DataFrame,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
    thin: int = THIN,
) -> pd.DataFrame:
    """Share of hands for which each contract (and variant) is makeable double-dummy, per seat.

    Returns
    -------
    pandas.DataFrame
        ``seat, contract, variant, count, makes, unresolved, share, ci_low, ci_high, thin``;
        ``count`` counts the hands where the question was asked and answered (a suit's column
        is null where the suit is not eligible), ``unresolved`` those given up on; the interval
        is the 95 % Wilson score interval, widened to cover either outcome of the unresolved.
    """
    records = []
    rs = load_rules(rules)
    for col, contract, variant in result_columns(rs, contracts):
        lost = unsolved_mask(frame, col)
        for seat in PLAY_SEATS:
            if rs.contract(contract).partnership and seat == variant:
                continue  # nobody partners himself
            at_seat = (frame["seat"] == seat).to_numpy()
            v = frame.loc[at_seat, col].dropna()
            records.append(
                {
                    "seat": seat,
                    "contract": contract,
                    "variant": variant,
                    "count": int(v.size),
                    "makes": int(v.astype(bool).sum()),
                    "unresolved": int((lost & at_seat).sum()),
                }
            )
    return _interval_columns(pd.DataFrame.from_records(records), thin)


def compare_runs(
    first: pd.DataFrame,
    second: pd.DataFrame,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Two runs of the same deals (two play models, one seed) compared hand by hand, per seat.

    Each hand of a seat is paired with the same deal's hand in the other run; only the hands
    both runs answered count, so the two shares and their difference describe the same hands.

    Parameters
    ----------
    first, second : pandas.DataFrame
        Per-deal frames of two runs (:func:`~solo_analysis.tables.load_run`), typically the
        double-dummy and the realistic-play tables of one rule set and seed; the second may
        cover fewer deals than the first.
    rules : RuleSet or str, default "classic"
        The rule set of both runs.
    contracts : iterable of str, optional
        The contracts to compare (default: every one both runs answered).

    Returns
    -------
    pandas.DataFrame
        ``seat, contract, variant, paired, first, second, diff, diff_low, diff_high``: the
        hands both answered, each run's share made on them, and the paired difference
        ``second - first`` with its 95 % interval (:func:`~solo_analysis.stats.paired_difference`).

    Raises
    ------
    TableError
        If the runs share no deal, or no outcome column.
    """
    keys = ["deal", "seat"]
    columns = [
        (col, contract, variant)
        for col, contract, variant in result_columns(rules, contracts)
        if col in first.columns and col in second.columns
    ]
    if not columns:
        raise TableError("the two runs share no contract to compare")
    pair = first.merge(second, on=keys, suffixes=("_1", "_2"))
    if pair.empty:
        raise TableError("the two runs share no deal to compare")
    rs = load_rules(rules)
    records = []
    for col, contract, variant in columns:
        a = _outcomes(pair, f"{col}_1", "unsolved_1", col)
        b = _outcomes(pair, f"{col}_2", "unsolved_2", col)
        for seat in PLAY_SEATS:
            if rs.contract(contract).partnership and seat == variant:
                continue
            at_seat = (pair["seat"] == seat).to_numpy()
            x, y = a[at_seat], b[at_seat]
            both = ~(np.isnan(x) | np.isnan(y))
            diff, low, high, n = paired_difference(x, y)
            records.append(
                {
                    "seat": seat,
                    "contract": contract,
                    "variant": variant,
                    "paired": n,
                    "first": float(x[both].mean()) if n else np.nan,
                    "second": float(y[both].mean()) if n else np.nan,
                    "diff": diff,
                    "diff_low": low,
                    "diff_high": high,
                }
            )
    return pd.DataFrame.from_records(records)


def _outcomes(pair: pd.DataFrame, column: str, unsolved: str, name: str) -> np.ndarray:
    """One run's 1.0 / 0.0 outcomes in a merged frame; NaN where not asked or given up on."""
    values = pair[column].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    if unsolved in pair.columns:
        lost = unsolved_mask(pair[[unsolved]].rename(columns={unsolved: "unsolved"}), name)
        values[lost] = np.nan
    return values


def prop_pairs(frame: pd.DataFrame, contract: str = "prop") -> pd.DataFrame:
    """One row per deal and (unordered) Prop-Cop partnership, with the partners' trumps together.

    Returns
    -------
    pandas.DataFrame
        ``deal, seat`` (e.g. ``"eldest+third"``), ``pair_trump_len``, ``pair_trump_honours``,
        ``prop`` (makeable, nullable boolean).
    """
    parts = []
    for a in range(4):
        for b in range(a + 1, 4):
            fa = frame[frame["seat"] == PLAY_SEATS[a]].reset_index(drop=True)
            fb = frame[frame["seat"] == PLAY_SEATS[b]].reset_index(drop=True)
            parts.append(
                pd.DataFrame(
                    {
                        "deal": fa["deal"],
                        "seat": f"{PLAY_SEATS[a]}+{PLAY_SEATS[b]}",
                        "pair_trump_len": (fa["trump_len"] + fb["trump_len"]).astype(np.int8),
                        "pair_trump_honours": (fa["trump_honours"] + fb["trump_honours"]).astype(
                            np.int8
                        ),
                        contract: fa[f"{contract}_{PLAY_SEATS[b]}"],
                        "unsolved": np.where(
                            unsolved_mask(fa, f"{contract}_{PLAY_SEATS[b]}"), contract, ""
                        ),
                    }
                )
            )
    return pd.concat(parts, ignore_index=True).sort_values(
        ["deal"], kind="stable", ignore_index=True
    )


def feature_table(
    frame: pd.DataFrame, outcome: str, row: str, column: str, thin: int = THIN
) -> pd.DataFrame:
    """Share of hands making ``outcome`` by two features, per seat and over all seats.

    Parameters
    ----------
    frame : pandas.DataFrame
        Per-deal results (:func:`evaluate_deals`, or :func:`prop_pairs` for Prop-Cop).
    outcome : str
        An outcome column, e.g. ``"solo"``.
    row, column : str
        Feature columns, e.g. ``"trump_len"``, ``"trump_honours"``.
    thin : int, default THIN
        Cells with fewer hands are flagged ``thin``.

    Returns
    -------
    pandas.DataFrame
        ``seat, <row>, <column>, count, makes, unresolved, share, ci_low, ci_high, thin`` (as for
        :func:`contract_frequencies`), plus ``deff``; ``seat = "all"`` pools the seats (for
        Prop-Cop, the partnerships).  Hands of one deal are not independent (they share the
        other cards), so a pooled cell's interval is Wilson's at ``count / deff`` hands, with
        ``deff`` the design effect of that clustering: the deal-clustered variance of the share
        over the binomial one, at least 1 (1 for the per-seat rows, one hand per deal).
    """
    f = frame[["seat", row, column, outcome]].assign(lost=unsolved_mask(frame, outcome))
    f = f[f[outcome].notna().to_numpy() | f["lost"].to_numpy()]
    known = f[outcome].notna().to_numpy()
    f = f.assign(
        seat=f["seat"].astype(str),
        made=np.where(known, f[outcome].fillna(False).astype(bool), False),
        known=known,
    )
    both = pd.concat([f, f.assign(seat="all")], ignore_index=True)
    g = (
        both.groupby(["seat", row, column], sort=True)
        .agg(count=("known", "sum"), makes=("made", "sum"), unresolved=("lost", "sum"))
        .reset_index()
    )
    order = {s: i for i, s in enumerate(list(dict.fromkeys(f["seat"])) + ["all"])}
    g = g.sort_values(
        ["seat", row, column], key=lambda s: s.map(order) if s.name == "seat" else s, kind="stable"
    )
    g = g.reset_index(drop=True)
    effect = _design_effects(frame.loc[f.index, "deal"].to_numpy(), f, row, column)
    g["deff"] = [
        effect.get((r, c), 1.0) if s == "all" else 1.0
        for s, r, c in zip(g["seat"], g[row], g[column], strict=False)
    ]
    return _interval_columns(g, thin, g["deff"].to_numpy())


def _design_effects(
    deal: np.ndarray, f: pd.DataFrame, row: str, column: str
) -> dict[tuple[int, int], float]:
    """Design effect of each ``(row, column)`` cell of the pooled rows.

    That is the deal-clustered variance of the share over the binomial variance (at least 1;
    1 where it cannot be estimated).
    """
    known = f.assign(deal=deal)[f["known"].to_numpy()]
    per_deal = known.groupby([row, column, "deal"], sort=False).agg(
        c=("known", "size"), m=("made", "sum")
    )
    per_deal = per_deal.reset_index()
    cell = per_deal.groupby([row, column], sort=False).agg(
        C=("c", "sum"), M=("m", "sum"), D=("c", "size")
    )
    per_deal = per_deal.join(cell, on=[row, column])
    p = per_deal["M"] / per_deal["C"]
    per_deal["r2"] = (per_deal["m"] - p * per_deal["c"]) ** 2
    cell["r2"] = per_deal.groupby([row, column], sort=False)["r2"].sum()
    out: dict[tuple[int, int], float] = {}
    for key, x in cell.iterrows():
        r, c = cast(tuple[int, int], key)  # the index of a two-level groupby
        share = x["M"] / x["C"]
        binomial = share * (1 - share) / x["C"]
        if x["D"] < 2 or binomial <= 0:
            continue
        clustered = x["r2"] / x["C"] ** 2 * x["D"] / (x["D"] - 1)
        out[(r, c)] = max(1.0, float(clustered / binomial))
    return out


def feature_tables(
    frame: pd.DataFrame,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
    thin: int = THIN,
) -> dict[str, pd.DataFrame]:
    """Every table of :data:`FEATURE_TABLES` that the rule set and contracts allow, by file stem."""
    rs = load_rules(rules)
    present = {col for col, _, _ in result_columns(rs, contracts)}
    names = set(selected_contracts(rs, contracts))
    out: dict[str, pd.DataFrame] = {}
    for stem, outcome, row, column in FEATURE_TABLES:
        needs_trump = any(x.startswith(("trump_", "pair_trump_")) for x in (row, column))
        if needs_trump and not rs.turnup:
            continue
        if outcome == "prop":
            if "prop" not in names or rs.contract("prop").trump != "turnup":
                continue
            out[stem] = feature_table(prop_pairs(frame), "prop", row, column, thin)
        elif outcome in present:
            out[stem] = feature_table(frame, outcome, row, column, thin)
    return out
