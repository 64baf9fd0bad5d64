"""The bidding policy: what a player calls with a hand, at a point of the auction.

A policy is any object with :meth:`BiddingPolicy.make_rates` (each contract's chance of
success for every hand of a batch of deals) and the rule that turns those chances into a
call: :meth:`BiddingPolicy.calls`.  The advice conditions its deals on the other players'
calls through it (a seat that passed holds no hand the policy would have called with; a seat
that called Solo holds a hand the policy calls Solo with), so it must be deterministic: the
same hand at the same point of the auction always gets the same call.

The default, :class:`FittedPolicy`, reads its chances from a small logistic model per contract
of the hand's features (:mod:`~solo_analysis.bidding.features`, with the seat), fitted on the
project's odds tables by ``tools/fit_bidding_policy.py`` and shipped as
``solo_analysis/bidding/policy_classic.json`` with its fit statistics.  It calls, among the
calls the rules allow, the contract (or Cop) of highest expected units per opponent,
``units * multiplier * (2 p - 1)``, if that is positive, and passes otherwise: a risk-neutral
player who knows the make rates of hands like his.  Over/under-trick payments are left out
of that expectation, and a contract the model has no data for (the slams) is never called.

Encodings: deals ``int[n, 4, 13]`` card codes by seat in play order (0 eldest .. 3 dealer),
turn-ups ``int[n]`` card codes or None.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import PolicyError
from ..rules import RuleSet
from .auction import COP, PASS, Auction, Call
from .features import hand_features

__all__ = [
    "DEFAULT_POLICY_FILE",
    "LOW_FEATURES",
    "POLICY_FEATURES",
    "BiddingPolicy",
    "FittedPolicy",
    "auction_predicate",
    "consistent",
    "default_policy",
    "finish",
    "low_features",
    "policy_matrix",
]

#: the file of the default policy, inside the package
DEFAULT_POLICY_FILE = "policy_classic.json"

#: the model's inputs, in order: hand features (:data:`~solo_analysis.bidding.features.FEATURES`
#: and :data:`LOW_FEATURES`), then the seat (eldest leads; the dealer holds the turn-up)
POLICY_FEATURES: tuple[str, ...] = (
    "hcp",
    "high_cards",
    "low_cards",
    "aces",
    "kings",
    "voids",
    "singletons",
    "long_len",
    "long_honours",
    "second_len",
    "trump_len",
    "trump_honours",
    "trump_top",
    "twos",
    "low_three",
    "mid_cards",
    "open_suits",
    "is_eldest",
    "is_dealer",
)

#: the features that read a Misère hand, beyond the odds tables' cuts
LOW_FEATURES: dict[str, str] = {
    "twos": "deuces held",
    "low_three": "cards 4 or lower (2 to 4)",
    "mid_cards": "cards 7 to 10",
    "open_suits": "suits held whose lowest card is a 6 or higher (no low card to duck with)",
}


def low_features(deals: np.ndarray) -> dict[str, np.ndarray]:
    """The :data:`LOW_FEATURES` of every hand, ``int[n, 4]`` each."""
    d = np.asarray(deals).astype(np.int64)
    suit, rank = d // 13, d % 13
    lowest = np.stack(
        [np.where(suit == u, rank, 13).min(axis=-1) for u in range(4)], axis=-1
    )  # [n, 4 seats, 4 suits]; 13 for a void
    return {
        "twos": (rank == 0).sum(axis=-1),
        "low_three": (rank <= 2).sum(axis=-1),
        "mid_cards": ((rank >= 5) & (rank <= 8)).sum(axis=-1),
        "open_suits": ((lowest >= 4) & (lowest < 13)).sum(axis=-1),
    }


def policy_matrix(deals: np.ndarray, turnups: np.ndarray | None) -> np.ndarray:
    """The model inputs of every hand: ``float64[n, 4, len(POLICY_FEATURES)]``."""
    d = np.asarray(deals)
    feats = hand_features(d, turnups) | low_features(d)
    n = d.shape[0]
    seat = np.broadcast_to(np.arange(4), (n, 4))
    columns = []
    for name in POLICY_FEATURES:
        if name == "is_eldest":
            columns.append(seat == 0)
        elif name == "is_dealer":
            columns.append(seat == 3)
        else:
            columns.append(np.maximum(feats[name], 0))
    return np.stack(columns, axis=-1).astype(np.float64)


@runtime_checkable
class BiddingPolicy(Protocol):
    """What a bidding policy provides (see the module docstring)."""

    @property
    def name(self) -> str:
        """Shown in reports."""
        ...

    def make_rates(self, deals: np.ndarray, turnups: np.ndarray | None) -> dict[str, np.ndarray]:
        """Contract name -> ``float[n, 4]``: the chance each hand makes it as declarer."""
        ...

    def calls(
        self, rates: Mapping[str, np.ndarray], auction: Auction, seat: int
    ) -> tuple[list[str], np.ndarray]:
        """The call of ``seat`` at this point of ``auction`` on every deal.

        Returns the options (legal calls) and ``int[n]`` indices into them.
        """
        ...


def _multiplier(rules: RuleSet, partnership: bool) -> int:
    if partnership:
        return 2 if rules.prop_style == "pairwise" else 1
    return 3


@dataclass(frozen=True)
class FittedPolicy:
    """A risk-neutral bidder reading each contract's make rate from a logistic model.

    Attributes
    ----------
    name : str
        Shown in reports.
    coefficients : dict of str to tuple of float
        Contract name -> intercept then one weight per :data:`POLICY_FEATURES`.
    source : dict
        Where the model came from and how well it fits (free form; see the JSON file).
    """

    name: str
    coefficients: Mapping[str, tuple[float, ...]]
    source: Mapping[str, Any]

    @classmethod
    def from_file(cls, path: str | Path) -> FittedPolicy:
        """Read a policy written by ``tools/fit_bidding_policy.py``.

        Raises
        ------
        PolicyError
            If the file cannot be read or does not hold a policy for these features.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise PolicyError(f"cannot read bidding policy {str(path)!r}: {err}") from None
        return cls.from_dict(data, str(path))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], origin: str = "policy") -> FittedPolicy:
        """Build a policy from the dict form of its JSON file."""
        try:
            features = tuple(data["features"])
            models = data["models"]
            name = str(data.get("name", "fitted"))
        except (KeyError, TypeError):
            raise PolicyError(
                f"{origin}: not a bidding policy (needs features and models)"
            ) from None
        if features != POLICY_FEATURES:
            raise PolicyError(
                f"{origin}: fitted on features {', '.join(features)}; this version reads "
                f"{', '.join(POLICY_FEATURES)}"
            )
        coefficients = {}
        for contract, model in models.items():
            coef = tuple(float(v) for v in model["coefficients"])
            if len(coef) != len(POLICY_FEATURES) + 1 or not all(np.isfinite(coef)):
                raise PolicyError(f"{origin}: model {contract!r} has bad coefficients")
            coefficients[contract] = coef
        stats = {
            k: {kk: vv for kk, vv in m.items() if kk != "coefficients"} for k, m in models.items()
        }
        source = {k: v for k, v in data.items() if k != "models"} | {"models": stats}
        return cls(name, coefficients, source)

    def make_rates(self, deals: np.ndarray, turnups: np.ndarray | None) -> dict[str, np.ndarray]:
        """Contract name -> ``float[n, 4]``: each hand's modelled chance to make it."""
        x = policy_matrix(deals, turnups)
        out = {}
        for contract, coef in self.coefficients.items():
            c = np.asarray(coef)
            z = c[0] + x @ c[1:]
            out[contract] = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
        return out

    def values(
        self, rates: Mapping[str, np.ndarray], auction: Auction, seat: int
    ) -> tuple[list[str], np.ndarray]:
        """The legal calls of ``seat`` and each one's expected units per opponent, ``[n, k]``.

        Pass is worth 0; a contract without a model, minus infinity (never called).
        """
        rules = auction.rules
        options = auction.legal_calls()
        n = next(iter(rates.values())).shape[0] if rates else 0
        table = np.zeros((n, len(options)))
        for k, call in enumerate(options):
            if call == PASS:
                continue
            contract = rules.contract("prop") if call == COP else rules.contract(call)
            p = rates.get(contract.name)
            if p is None:
                table[:, k] = -np.inf
                continue
            units = contract.units * _multiplier(rules, contract.partnership)
            table[:, k] = units * (2.0 * p[:, seat] - 1.0)
        return options, table

    def calls(
        self, rates: Mapping[str, np.ndarray], auction: Auction, seat: int
    ) -> tuple[list[str], np.ndarray]:
        """The call of ``seat`` now on every deal: the legal call of highest expected units.

        Ties go to the earlier option (pass first), so a hand with nothing above 0 passes.
        """
        options, table = self.values(rates, auction, seat)
        return options, np.argmax(table, axis=1)


@lru_cache(maxsize=1)
def default_policy() -> FittedPolicy:
    """The policy shipped with the package (fitted on the ``classic`` odds tables)."""
    text = resources.files(__package__).joinpath(DEFAULT_POLICY_FILE).read_text(encoding="utf-8")
    return FittedPolicy.from_dict(json.loads(text), DEFAULT_POLICY_FILE)


def consistent(
    policy: BiddingPolicy,
    deals: np.ndarray,
    turnups: np.ndarray | None,
    auction: Auction,
    seat: int,
) -> np.ndarray:
    """Whether each deal agrees with every call of the auction made by a seat other than ``seat``.

    The auction is replayed call by call; a deal is kept where the policy, given that seat's
    hand, makes the call that was made.
    """
    n = deals.shape[0]
    keep = np.ones(n, dtype=bool)
    others = [call for call in auction.calls if call.seat != seat]
    if not others or n == 0:
        return keep
    rates = policy.make_rates(deals, turnups)
    replay = Auction(auction.rules)
    for call in auction.calls:
        if call.seat != seat:
            options, chosen = policy.calls(rates, replay, call.seat)
            keep &= chosen == options.index(call.call)
        replay.add(call)
    return keep


def auction_predicate(
    policy: BiddingPolicy, auction: Auction, seat: int, turnup: int | None
) -> Callable[[np.ndarray], np.ndarray]:
    """A sampler predicate (:class:`~solo_analysis.sampler.Constraints`): :func:`consistent`.

    ``turnup`` is the turn-up card code of every deal (``None``: none).
    """

    def agrees(deals: np.ndarray) -> np.ndarray:
        turnups = None if turnup is None else np.full(deals.shape[0], turnup)
        return consistent(policy, deals, turnups, auction, seat)

    return agrees


def finish(
    policy: BiddingPolicy,
    rates: Mapping[str, np.ndarray],
    auction: Auction,
    calls: Sequence[str] = (),
) -> list[Auction]:
    """Each deal's auction played to its end by the policy after ``calls`` of the next seats.

    ``rates`` is :meth:`BiddingPolicy.make_rates` of the deals; ``calls`` are made first, in
    turn, whatever the hands (e.g. the advised player's own pass).
    """
    start = auction.copy()
    for call in calls:
        assert start.next_seat is not None
        start.add(Call(start.next_seat, call))
    n = next(iter(rates.values())).shape[0]
    out = []
    for i in range(n):
        one = {k: v[i : i + 1] for k, v in rates.items()}
        a = start.copy()
        while not a.over:
            assert a.next_seat is not None
            options, chosen = policy.calls(one, a, a.next_seat)
            a.add(Call(a.next_seat, options[int(chosen[0])]))
        out.append(a)
    return out
