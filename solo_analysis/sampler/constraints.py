"""Conditions on a sampled deal: suit lengths, high-card points, cards placed, a predicate.

:class:`Constraints` is what a user writes; :class:`Limits` is its numeric form for the
compiled sampler (inclusive bounds per seat and suit), checked at once for conditions that can
never hold (:meth:`Limits.check_feasible`) so that an impossible request fails before any deal
is drawn.  Seats are codes 0..3 (any name :func:`~solo_analysis.cards.parse_seat` reads: the
play-order names eldest, second, third, dealer are the usual ones here); suits 0..3 = S H D C.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np

from ..cards import HCP, PLAY_SEATS, SUIT_NAMES, parse_seat, parse_suit
from ..errors import CardError, ConstraintError
from ..hand import CardsLike

__all__ = [
    "DEFAULT_MIN_ACCEPTANCE",
    "DEFAULT_TRIAL_BUDGET",
    "MAX_HCP",
    "Bounds",
    "Constraints",
    "Limits",
    "Predicate",
    "SeatLike",
]

#: candidates tried before a too-rare constraint set is given up on
DEFAULT_TRIAL_BUDGET: int = 1_000_000
#: acceptance rate below which, once the budget is spent, sampling gives up
DEFAULT_MIN_ACCEPTANCE: float = 1e-5
#: AKQ in every suit and one jack: the most high-card points a 13-card hand can hold
MAX_HCP: int = 37

SeatLike: TypeAlias = str | int
#: ``k`` (exactly k) or ``(low, high)`` with ``None`` for an open end, both inclusive
Bounds: TypeAlias = int | tuple[int | None, int | None]
Predicate: TypeAlias = Callable[[np.ndarray], np.ndarray]


def _is_int(x: object) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _hcp_of(code: int) -> int:
    return HCP[code % 13]


def _parse_bounds(spec: object, what: str, top: int) -> tuple[int, int]:
    """``k`` -> (k, k); ``(lo, hi)`` with None for an open end -> (lo, hi)."""
    if _is_int(spec):
        lo = hi = int(spec)  # type: ignore[call-overload]
    elif isinstance(spec, tuple | list) and len(spec) == 2:
        a, b = spec
        if not all(x is None or _is_int(x) for x in (a, b)):
            raise ConstraintError(f"{what}: bounds must be ints or None, got {spec!r}")
        lo = 0 if a is None else int(a)
        hi = top if b is None else int(b)
    else:
        raise ConstraintError(f"{what}: expected an int or a (min, max) pair, got {spec!r}")
    if not (0 <= lo <= top and 0 <= hi <= top):
        raise ConstraintError(f"{what}: bounds {spec!r} outside 0..{top}")
    if lo > hi:
        raise ConstraintError(f"{what}: min > max in {spec!r}")
    return lo, hi


def _constraint_suit(spec: object) -> int:
    try:
        return parse_suit(spec)  # type: ignore[arg-type]
    except CardError:
        raise ConstraintError(
            f"unknown suit {spec!r}: expected S, H, D, C (or a name, symbol, 0..3)"
        ) from None


@dataclass(frozen=True)
class Constraints:
    """Conditions on the deal, for auction inferences and what-if questions.

    Seats are play-seat names (``"eldest"``, ``"second"``, ``"third"``,
    ``"dealer"``, any case) or indices 0..3; suits are ``"S" "H" "D" "C"``
    (or ``"spades"``, ``"♠"``, 0..3...).  Bounds are inclusive: an int ``k``
    means exactly ``k``; a pair ``(lo, hi)`` means ``lo <= x <= hi`` with
    ``None`` for an open end, so ``(5, None)`` is "at least five".

    Attributes
    ----------
    length : mapping seat -> mapping suit -> bounds
        Suit lengths of a whole hand (the dealer's includes the turn-up), e.g.
        ``{"second": {"S": (5, None)}, "third": {"H": (None, 1)}}``.
    hcp : mapping seat -> bounds
        Milton high-card points (A=4, K=3, Q=2, J=1), e.g. ``{"eldest": (12, None)}``.
    holds : mapping seat -> cards
        Cards the seat certainly holds ("West has the ♠A").  These are *placed*,
        not rejected on, which gives exactly the same (uniform) conditional
        distribution at no cost.  Same forms as ``known`` of :class:`DealSampler`.
    predicate : callable, optional
        ``f(deals) -> bool array``: given an ``(k, 4, 13)`` batch of candidates
        (already meeting the other conditions), returns which to keep.
    trial_budget, min_acceptance : int, float
        Once ``trial_budget`` candidates have been tried, sampling raises
        :class:`ConstraintError` if the acceptance rate is below ``min_acceptance``.

    A plain dict with these keys, or a bare callable (taken as ``predicate``),
    is accepted wherever a ``Constraints`` is.
    """

    length: Mapping[SeatLike, Mapping[Any, Bounds]] = field(default_factory=dict)
    hcp: Mapping[SeatLike, Bounds] = field(default_factory=dict)
    holds: Mapping[SeatLike, CardsLike] = field(default_factory=dict)
    predicate: Predicate | None = None
    trial_budget: int = DEFAULT_TRIAL_BUDGET
    min_acceptance: float = DEFAULT_MIN_ACCEPTANCE

    @classmethod
    def coerce(cls, spec: object) -> Constraints:
        """A Constraints, a dict of its fields, a callable (predicate) or None."""
        if spec is None:
            return cls()
        if isinstance(spec, cls):
            return spec
        if isinstance(spec, Mapping):
            unknown = set(spec) - set(cls.__dataclass_fields__)
            if unknown:
                raise ConstraintError(
                    f"unknown constraint keys {sorted(map(str, unknown))}: expected "
                    f"{', '.join(cls.__dataclass_fields__)}"
                )
            return cls(**spec)
        if callable(spec):
            return cls(predicate=spec)
        raise ConstraintError(f"cannot read constraints from {spec!r}")


@dataclass(frozen=True, eq=False)
class Limits:
    """The length and high-card bounds of :class:`Constraints`, as the compiled sampler reads them.

    Attributes
    ----------
    len_lo, len_hi : numpy.ndarray
        ``int8[4, 4]``: inclusive bounds on the length of suit ``[seat, suit]``.
    hcp_lo, hcp_hi : numpy.ndarray
        ``int64[4]``: inclusive bounds on each seat's high-card points.
    active : bool
        Whether any bound excludes a deal at all (``False``: the kernel skips the checks).
    """

    len_lo: np.ndarray
    len_hi: np.ndarray
    hcp_lo: np.ndarray
    hcp_hi: np.ndarray
    active: bool

    @classmethod
    def of(cls, cons: Constraints) -> Limits:
        """The bounds that ``cons`` sets (the tightest, where a seat and suit is named twice).

        Raises
        ------
        ConstraintError
            A malformed bound, seat or suit.
        """
        len_lo = np.zeros((4, 4), dtype=np.int8)
        len_hi = np.full((4, 4), 13, dtype=np.int8)
        hcp_lo = np.zeros(4, dtype=np.int64)
        hcp_hi = np.full(4, MAX_HCP, dtype=np.int64)
        if not isinstance(cons.length, Mapping) or not isinstance(cons.hcp, Mapping):
            raise ConstraintError(f"length and hcp must be mappings keyed by seat, got {cons!r}")
        for seat_spec, suits in cons.length.items():
            s = parse_seat(seat_spec)
            if not isinstance(suits, Mapping):
                raise ConstraintError(
                    f"length[{seat_spec!r}] must map suits to bounds, got {suits!r}"
                )
            for suit_spec, b in suits.items():
                u = _constraint_suit(suit_spec)
                lo, hi = _parse_bounds(b, f"length of {suit_spec!r} for {seat_spec!r}", 13)
                len_lo[s, u] = max(len_lo[s, u], lo)
                len_hi[s, u] = min(len_hi[s, u], hi)
        for seat_spec, b in cons.hcp.items():
            s = parse_seat(seat_spec)
            lo, hi = _parse_bounds(b, f"hcp for {seat_spec!r}", 40)
            hcp_lo[s] = max(hcp_lo[s], lo)
            hcp_hi[s] = min(hcp_hi[s], hi)
        active = bool(
            (len_lo > 0).any()
            or (len_hi < 13).any()
            or (hcp_lo > 0).any()
            or (hcp_hi < MAX_HCP).any()
        )
        return cls(len_lo, len_hi, hcp_lo, hcp_hi, active)

    def check_feasible(self, owner: np.ndarray, nfree: np.ndarray) -> None:
        """Necessary conditions for the bounds to be satisfiable with the cards already placed.

        ``owner`` is ``int8[52]``, the seat of every placed card (-1: still to deal); ``nfree``
        the cards each seat still receives.

        Raises
        ------
        ConstraintError
            Naming the seat, suit or points that cannot be had.
        """
        pool = np.flatnonzero(owner < 0)
        fixed_len = np.zeros((4, 4), dtype=np.int64)
        fixed_hcp = np.zeros(4, dtype=np.int64)
        for c in np.flatnonzero(owner >= 0):
            fixed_len[owner[c], c // 13] += 1
            fixed_hcp[owner[c]] += _hcp_of(int(c))
        pool_len = np.bincount(pool // 13, minlength=4)
        pool_hcp = sorted((_hcp_of(int(c)) for c in pool), reverse=True)
        lo = np.maximum(self.len_lo, fixed_len)
        hi = np.minimum(self.len_hi, fixed_len + np.minimum(pool_len[None, :], nfree[:, None]))
        for s in range(4):
            for u in range(4):
                if lo[s, u] > hi[s, u]:
                    raise ConstraintError(
                        f"impossible: {PLAY_SEATS[s]!r} cannot hold "
                        f"{self.len_lo[s, u]}..{self.len_hi[s, u]} {SUIT_NAMES[u]} "
                        f"({fixed_len[s, u]} known there, {pool_len[u]} unseen)"
                    )
            if lo[s].sum() > 13 or hi[s].sum() < 13:
                raise ConstraintError(
                    f"impossible: suit-length bounds for {PLAY_SEATS[s]!r} "
                    f"(min {list(map(int, lo[s]))}, max {list(map(int, hi[s]))}) "
                    "cannot make 13 cards"
                )
        for u in range(4):
            if lo[:, u].sum() > 13 or hi[:, u].sum() < 13:
                raise ConstraintError(
                    f"impossible: length bounds on {SUIT_NAMES[u]} "
                    f"(min per seat {list(map(int, lo[:, u]))}, max {list(map(int, hi[:, u]))}) "
                    "cannot account for 13 cards"
                )
        hlo = np.maximum(self.hcp_lo, fixed_hcp)
        hhi = np.array(
            [
                min(int(self.hcp_hi[s]), int(fixed_hcp[s]) + sum(pool_hcp[: nfree[s]]))
                for s in range(4)
            ]
        )
        for s in range(4):
            if hlo[s] > hhi[s]:
                raise ConstraintError(
                    f"impossible: {PLAY_SEATS[s]!r} cannot hold "
                    f"{self.hcp_lo[s]}..{self.hcp_hi[s]} HCP "
                    f"({fixed_hcp[s]} known there, at most {hhi[s]} reachable)"
                )
        if hlo.sum() > 40 or hhi.sum() < 40:
            raise ConstraintError(
                f"impossible: HCP bounds (min {list(map(int, hlo))}, max {list(map(int, hhi))}) "
                "cannot account for the 40 points in the pack"
            )
