"""What a call is worth inside an auction: the rest of the auction played by the policy.

After the player's call (a pass, or a Prop that needs a Cop), every other call is the bidding
policy's, given each seat's hand on each sampled deal (the advice's first deals, the same
stream): the hand is thrown in (worth 0), or it ends in a contract the player defends, or, after
his Prop, one he plays with the partner who accepted.  That contract is solved
on the deal with the advice's play model; a defender pays or receives what the rules say.  The
trumps of a contract whose declarer names them are his longest eligible suit (the suit the
policy's make rates assume).  The result is the share of deals thrown in, the shares of the
final contracts, and the expected units of passing, each with its 95 % interval.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..bidding.policy import finish
from ..cards import NT, play_seat_str
from ..play.questions import denominations
from ..rules import Contract
from ..sampler import DealSampler
from ..solver import Question
from ..stats.control import mean_bounds
from ..stats.intervals import wilson_interval
from .request import Request

__all__ = ["PASS_DEALS", "PASS_DEALS_PLAYED", "PassValue", "values_of_calls"]

#: deals the value of passing is measured on (the advice's first deals): double-dummy play
PASS_DEALS: int = 128
#: the same under a play model that plays each deal out (seconds a deal, not milliseconds)
PASS_DEALS_PLAYED: int = 32


@dataclass(frozen=True)
class PassValue:
    """The value of a call now, passing or proposing (see the module docstring).

    Attributes
    ----------
    call : str
        The player's call: ``"pass"`` or ``"prop"``.
    deals : int
        Deals it was measured on.
    ev_units, ev_low, ev_high : float
        The player's expected units after passing, and the 95 % interval.
    thrown_in, thrown_in_low, thrown_in_high : float
        The share of deals the hand is thrown in, and its Wilson interval.
    outcomes : pandas.DataFrame
        One row per final result (``contract``, ``declarer``: seats, ``"-"`` when thrown in),
        with ``count``, ``share``, ``ci_low``, ``ci_high`` and the player's mean ``units``
        there; most frequent first.
    unresolved : int
        Deals the play model gave up on (left out of the mean; the interval covers them).
    """

    call: str
    deals: int
    ev_units: float
    ev_low: float
    ev_high: float
    thrown_in: float
    thrown_in_low: float
    thrown_in_high: float
    outcomes: pd.DataFrame
    unresolved: int


def _longest(hand: np.ndarray, allowed: list[int]) -> int:
    """The longest suit of ``hand`` (card codes) among ``allowed`` (ties: the lower index)."""
    suits = hand.astype(np.int64) // 13
    return max(allowed, key=lambda u: (int((suits == u).sum()), -u))


def _my_units(request: Request, contract: Contract, side: tuple[int, ...], made: bool) -> float:
    """What the player wins (+) or pays (-) when ``side`` makes (or fails) ``contract``."""
    tricks = np.arange(14)
    values = np.asarray(request.rules.declarer_units(contract, tricks), dtype=float)
    ok = contract.is_made(tricks)
    won = float(values[ok][0] if made else values[~ok][0])
    if request.seat in side:
        return won
    return -won if contract.partnership else -won / 3


def values_of_calls(request: Request, calls: list[str]) -> list[PassValue]:
    """The value of each call (``"pass"``, ``"prop"``), the rest of the auction the policy's.

    The deals (the advice's first ones) and their make rates are drawn once for all the calls.
    """
    assert request.auction is not None and request.policy is not None
    n = PASS_DEALS if request.model.counts_tricks else PASS_DEALS_PLAYED
    if request.samples is not None:
        n = min(n, request.samples)
    sampler = DealSampler(
        request.hand,
        seat=request.seat,
        turnup=request.turnup,
        seed=request.seed,
        constraints=request.constraints,
    )
    deals = sampler.draw(n)
    turnups = None if request.turnup is None else np.full(n, request.turnup)
    rates = request.policy.make_rates(deals, turnups)
    return [_value_of_call(request, deals, turnups, rates, call) for call in calls]


def _value_of_call(
    request: Request,
    deals: np.ndarray,
    turnups: np.ndarray | None,
    rates: dict[str, np.ndarray],
    call: str,
) -> PassValue:
    """The value of ``call`` on ``deals`` (see :func:`values_of_calls`)."""
    assert request.auction is not None and request.policy is not None
    model = request.model
    n = deals.shape[0]
    finals = [a.result() for a in finish(request.policy, rates, request.auction, [call])]
    units = np.zeros(n)
    groups: dict[tuple[Contract, tuple[int, ...], int], list[int]] = {}
    for i, (contract, side) in enumerate(finals):
        if contract is None:
            continue
        choices = denominations(contract, request.turnup_suit)
        suits = [u for u in choices if u != NT]
        if len(choices) == 1:
            trump = choices[0]
        else:
            trump = _longest(deals[i, side[0]], suits) if suits else NT
        groups.setdefault((contract, side, trump), []).append(i)
    keys = list(groups)
    queries = []
    for c, side, trump in keys:
        leader = side[0] if c.leader == "declarer" else 0
        exposed = c.exposed and model.uses_exposure
        subset = np.asarray(groups[(c, side, trump)], dtype=np.int64)
        queries.append(Question(trump, leader, side, c.misere, c.target, subset, exposed))
    answers = model.ask(deals, queries, turnups=turnups) if queries else []
    unknown = np.zeros(n, dtype=bool)
    for key, got in zip(keys, answers, strict=True):
        c, side, _ = key
        idx = np.asarray(groups[key])
        got = np.asarray(got)
        unknown[idx[got < 0]] = True
        units[idx] = [_my_units(request, c, side, bool(g > 0)) for g in got]
    # the range of the player's result after a pass: any contract the others could declare
    rules = request.rules
    full = max(
        abs(float(v)) for c in rules.contracts for v in rules.declarer_units(c, np.arange(14))
    )
    worst, best = -full, full
    ev, lo, hi, _ = mean_bounds(units[~unknown], None, None, worst, best)
    labels = [
        ("thrown in", "-") if c is None else (c.name, " and ".join(play_seat_str(s) for s in side))
        for c, side in finals
    ]
    counts = Counter(labels)
    records = []
    for (name, declarer), count in counts.most_common():
        mask = np.array([lab == (name, declarer) for lab in labels]) & ~unknown
        low, high = wilson_interval(count / n, n)
        records.append(
            {
                "contract": name,
                "declarer": declarer,
                "count": count,
                "share": count / n,
                "ci_low": float(low),
                "ci_high": float(high),
                "units": float(units[mask].mean()) if mask.any() else float("nan"),
            }
        )
    thrown = counts.get(("thrown in", "-"), 0)
    t_low, t_high = wilson_interval(thrown / n, n)
    return PassValue(
        call=call,
        deals=n,
        ev_units=float(ev),
        ev_low=float(lo),
        ev_high=float(hi),
        thrown_in=thrown / n,
        thrown_in_low=float(t_low),
        thrown_in_high=float(t_high),
        outcomes=pd.DataFrame.from_records(
            records,
            columns=["contract", "declarer", "count", "share", "ci_low", "ci_high", "units"],
        ),
        unresolved=int(unknown.sum()),
    )
