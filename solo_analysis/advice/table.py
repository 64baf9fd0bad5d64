"""The advice's table: estimates, intervals and the recommendation, from the rows' results.

One table row per contract option (see :mod:`solo_analysis.advice`): the share of deals on
which it makes with its interval, the expected settlement under the rule set with its
interval, and the recommendation, chosen on expected units with passing worth 0 and a close
call flagged when the paired difference of the best two cannot be told from zero.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..cards import play_seat_str, trump_str
from ..play.questions import Row
from ..rules import Contract, RuleSet
from ..stats.control import Controls, mean_bounds, mean_se, rate_bounds
from ..stats.intervals import Z95, alike_interval, widen
from .sampling import all_results, bid_rows, predictor_keys

__all__ = ["recommend", "summarise"]


def summarise(
    rows: list[Row],
    rules: RuleSet,
    seat: int,
    over: Contract | None,
    model_name: str,
    controls: Controls | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, dict[int, np.ndarray], dict[int, np.ndarray]]:
    """Build the table, the trick distributions, and each row's payoff and outcome per deal.

    A row's outcomes are 1.0 (made) / 0.0 per deal, NaN where the play model gave up, and for
    an ``any`` row the share of the partners with whom it makes.

    A row's estimates are over the deals solved for it (``solved``); its ``unsolved`` deals
    (NaN) widen its intervals to cover any outcome of theirs (:func:`widen`; for ``p_make`` the
    Wilson bounds over all the deals with every unresolved one failing, or making).

    The expected units follow the make rate: a settlement of two values maps ``p_make`` and its
    interval onto them; any other (the average over Prop partners, a settlement by the trick)
    is corrected by the control variates exactly when the rate is (``corrected``), so the two
    figures of a row come from the same estimate, and its interval falls back to Wilson's on
    the settlement's range when the deals are too few for a normal one (:func:`mean_bounds`).
    """
    arrays, chosen = all_results(rows)
    for i, k in chosen.items():
        rows[i].trump = rows[k].trump
    keys = [predictor_keys(rows, i) for i in range(len(rows))]

    records = []
    dist_records = []
    for i, row in enumerate(rows):
        made, payoff, tricks = arrays[i]
        known = ~np.isnan(made)
        unresolved = int(made.size - known.sum())
        x_all, use = (None, None) if controls is None else controls.view(keys[i], made.size)
        pm, lo, hi, corrected, _ = rate_bounds(made, x_all, use)
        x = None if x_all is None else x_all[known]
        made, payoff, tricks = made[known], payoff[known], tricks[known]
        n = made.size
        c = row.contract
        p_raw = float(made.mean()) if n else math.nan
        counted = n > 0 and bool(np.all(tricks >= 0)) and row.choice != "any"
        if row.binary and row.choice != "any":
            win = float(row.values[c.is_made(np.arange(14))][0])
            lose = float(row.values[~c.is_made(np.arange(14))][0])
            ev = lose + (win - lose) * pm if n else math.nan
            ev_low, ev_high = lose + (win - lose) * lo, lose + (win - lose) * hi
        else:
            worst, best = float(row.values.min()), float(row.values.max())
            ev, ev_low, ev_high, _ = mean_bounds(
                payoff, x if corrected else None, use if corrected else None, worst, best
            )
            ev_low, ev_high = widen(ev_low, ev_high, n, unresolved, worst, best)
        partner = None if row.partner is None else play_seat_str(row.partner)
        if row.choice == "any":
            partner = "any"
        records.append(
            {
                "row": i,
                "contract": c.name,
                "title": c.title,
                "rank": c.rank,
                "trump": trump_str(row.trump),
                "partner": partner,
                "choice": row.choice,
                "candidate": False,
                "allowed": over is None or c.rank > over.rank,
                "recommended": False,
                "target": c.target,
                "misere": c.misere,
                "leader": play_seat_str(row.leader),
                "exposed": c.exposed,
                "solved": n,
                "unsolved": unresolved,
                "samples": n,
                "unresolved": unresolved,
                "p_make": pm,
                "ci_low": float(lo),
                "ci_high": float(hi),
                "p_raw": p_raw,
                "corrected": corrected,
                "ev_units": float(ev),
                "ev_low": float(ev_low),
                "ev_high": float(ev_high),
                "tricks_mean": float(tricks.mean()) if counted else math.nan,
                "exact": counted,
                "play_model": model_name,
            }
        )
        if counted:
            counts = np.bincount(tricks.astype(np.int64), minlength=14)
            for t in range(14):
                dist_records.append(
                    {
                        "row": i,
                        "contract": c.name,
                        "trump": trump_str(row.trump),
                        "partner": partner,
                        "choice": row.choice,
                        "tricks": t,
                        "count": int(counts[t]),
                        "share": counts[t] / n,
                    }
                )
    table = pd.DataFrame.from_records(records)
    table["partner"] = pd.Series(
        [r["partner"] for r in records], dtype=object
    )  # keep None, not NaN
    # candidate: the derived row of a contract if it has one, else its only row
    candidates = set(bid_rows(rows))
    table["candidate"] = [r["row"] in candidates for r in records]
    dist_cols = ["row", "contract", "trump", "partner", "choice", "tricks", "count", "share"]
    distribution = pd.DataFrame.from_records(dist_records, columns=dist_cols)
    distribution["partner"] = pd.Series([r["partner"] for r in dist_records], dtype=object)
    payoffs = {i: arrays[i][1] for i in range(len(rows))}
    outcomes = {i: arrays[i][0] for i in range(len(rows))}
    return table, distribution, payoffs, outcomes


def recommend(
    table: pd.DataFrame,
    payoffs: Mapping[int, np.ndarray],
    ranges: Mapping[int, tuple[float, float]],
    controls: Controls | None = None,
) -> tuple[pd.Series | None, pd.Series | None, bool, tuple[float, float, float]]:
    """Best allowed candidate (or pass), runner-up, close call and the paired margin.

    The paired difference is taken over the deals solved for both (the first deals of the
    stream: an adaptive run stops each contract when its own intervals are narrow enough);
    the deals either was given up on (NaN payoffs) widen its interval by the most and least
    the difference could be on them (``ranges``: each row's lowest and highest settlement).
    Its interval is normal (corrected by the control variates where they apply).  Where every
    deal gave the same difference (one deal, or a clear-cut hand) there is no spread to measure,
    and the bounds allow a share of deals with another difference, up to Wilson's bound for
    none seen (:func:`alike_interval`): never infinite, never of zero width.  Marks the chosen
    row in ``table``'s ``recommended`` column (in place; no row for a pass).
    """
    cands = table[table["candidate"] & table["allowed"]].sort_values(
        ["ev_units", "p_make", "rank"], ascending=[False, False, True], kind="stable"
    )
    # passing is a choice worth exactly 0 on every deal
    options: list[tuple[float, float, float, pd.Series | None]] = [
        (float(r["ev_units"]), float(r["ev_low"]), float(r["ev_high"]), r)
        for _, r in cands.iterrows()
    ]
    options.append((0.0, 0.0, 0.0, None))
    # highest expected units first; at equal value passing beats bidding
    options.sort(key=lambda o: (-o[0], o[3] is not None))
    best, second = options[0], options[1] if len(options) > 1 else None
    best_row = None if best[3] is None else int(best[3]["row"])
    table["recommended"] = table["row"] == best_row
    chosen = None if best_row is None else table[table["row"] == best_row].iloc[0]
    if second is None:
        return chosen, None, False, (math.nan, math.nan, math.nan)
    a = payoffs[int(best[3]["row"])] if best[3] is not None else None
    b = payoffs[int(second[3]["row"])] if second[3] is not None else None
    if a is not None and b is not None:
        # adaptive runs stop some contracts early: pair the first deals, solved for both
        common = min(a.size, b.size)
        a, b = a[:common], b[:common]
    ref = a if a is not None else b
    n = ref.size if ref is not None else 0
    diff = (a if a is not None else np.zeros(n)) - (b if b is not None else np.zeros(n))
    known = ~np.isnan(diff)
    unresolved = int(diff.size - known.sum())
    x = None if controls is None else controls.x[: diff.size][known]
    diff = diff[known]
    n = diff.size
    ra = ranges[int(best[3]["row"])] if best[3] is not None else (0.0, 0.0)
    rb = ranges[int(second[3]["row"])] if second[3] is not None else (0.0, 0.0)
    worst, most = ra[0] - rb[1], ra[1] - rb[0]  # the difference's range
    if n and float(np.ptp(diff)) == 0:  # every deal alike (or one deal): no spread to measure
        mean = float(diff[0])
        lo, hi = alike_interval(mean, n, worst, most)
    elif n:
        mean, se = mean_se(diff, x, controls)
        lo, hi = mean - Z95 * se, mean + Z95 * se
    else:
        mean, (lo, hi) = math.nan, (worst, most)
    lo, hi = widen(lo, hi, n, unresolved, worst, most)
    margin = (mean, lo, hi)
    # close call: the two values are not told apart.  The deals are shared, so the paired
    # difference decides (sharper than comparing the two rows' own intervals).
    close = bool(margin[1] <= 0.0)
    return chosen, second[3], close, margin
