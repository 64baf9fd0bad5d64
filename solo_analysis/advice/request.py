"""An advice request, checked: every input of :func:`~solo_analysis.advice.advise` read once.

:meth:`Request.build` turns what a user passes (text, names, numbers) into plain values and
objects, or raises the one-line error that names the bad input; the evaluation itself then
works on a :class:`Request` only.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bidding import COP, PASS, Auction
from ..bidding.policy import BiddingPolicy, FittedPolicy, auction_predicate, default_policy
from ..cards import card_code, parse_seat, play_seat_str
from ..errors import AdviceError, AuctionError, CardCountError, PlayModelError, TurnupError
from ..hand import Hand, parse_hand
from ..play import PlayModel, make_play_model
from ..play.questions import pays_by_the_trick
from ..rules import Contract, RuleSet, load_rules
from ..sampler import Constraints, check_seed

__all__ = [
    "AUCTION_MIN_ACCEPTANCE",
    "DEFAULT_MAX_POSITIONS",
    "DEFAULT_MAX_QUESTION_POSITIONS",
    "DEFAULT_MAX_SAMPLES",
    "DEFAULT_TOLERANCE",
    "MAX_SAMPLES",
    "STOP_ON",
    "Request",
    "Stopping",
]

# --- tunables (one place) -----------------------------------------------------------------
#: stop sampling once every row's reported 95 % half-width on p_make is at most this (see
#: :data:`~solo_analysis.advice.sampling.WIDEN_SHARE` for a row with unsolved deals)
DEFAULT_TOLERANCE: float = 0.02
#: most deals an adaptive run samples
DEFAULT_MAX_SAMPLES: int = 2000
#: positions the solver may visit for one question on one deal before ``advise`` gives up on
#: the deal (about a second of one core): its intervals then cover both outcomes
DEFAULT_MAX_QUESTION_POSITIONS: int = 5_000_000
#: search positions a whole adaptive run may spend (all deals and questions) before it stops
#: short of the tolerance: the default advice's bound on its own time, the same on every machine
DEFAULT_MAX_POSITIONS: int = 60_000_000
#: the most deals one advice may use (``samples``, ``max_samples``): every deal's results stay
#: in memory for the intervals, about 1.2 kB a deal at the peak with every contract (measured:
#: 300,000 deals 0.23 GB more than 100,000), and a million deals take the solver hours
MAX_SAMPLES: int = 1_000_000
#: which rows adaptive sampling brings to the tolerance: every fixed row (each Prop and Cop
#: partner, each trump suit), or only the rows the recommendation reads (a contract's
#: ``any`` / ``best`` row, else its only row)
STOP_ON: tuple[str, ...] = ("rows", "bid")
#: the share of drawn deals below which the deals that agree with an auction are too rare to
#: sample (checked once a million candidates have been drawn)
AUCTION_MIN_ACCEPTANCE: float = 1e-4


def _check_int(value: Any, what: str, low: int) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or int(value) < low:
        raise AdviceError(f"{what} must be an int >= {low}, got {value!r}")
    return int(value)


def _check_samples(value: Any, what: str) -> int:
    """A deal count in ``1 .. MAX_SAMPLES``."""
    n = _check_int(value, what, 1)
    if n > MAX_SAMPLES:
        raise AdviceError(
            f"{what} must be at most {MAX_SAMPLES:,}, got {n:,}: every deal's results are kept "
            "in memory for the intervals, and a million deals already take hours"
        )
    return n


@dataclass(frozen=True)
class Stopping:
    """When adaptive sampling stops (see :func:`~solo_analysis.advice.advise`).

    Attributes
    ----------
    tolerance : float
        Target 95 % half-width of every row's ``p_make`` (as reported, widened for unsolved
        deals, where the widening is small enough to allow it).
    max_samples : int
        Most deals.
    max_seconds : float or None
        A time limit (``None``: none).
    max_positions : int or None
        A cap on the search positions of the whole run (``None``: none).
    stop_on : str
        Which rows must reach the tolerance: ``"rows"`` every fixed row, ``"bid"`` the rows
        the recommendation reads (:data:`STOP_ON`).
    """

    tolerance: float
    max_samples: int
    max_seconds: float | None
    max_positions: int | None
    stop_on: str = "rows"


@dataclass(frozen=True, eq=False)
class Request:
    """Everything :func:`~solo_analysis.advice.advise` was asked, checked and parsed.

    ``samples`` is ``None`` for adaptive sampling, which ``stopping`` then ends; ``only`` is
    ``None`` for every contract of the rule set; ``turnup`` a card code or ``None``.
    """

    rules: RuleSet
    hand: Hand
    seat: int
    turnup: int | None
    over: Contract | None
    only: frozenset[str] | None
    samples: int | None
    seed: int
    exact: bool | None
    control_variates: bool
    constraints: Constraints
    stopping: Stopping
    model: PlayModel
    auction: Auction | None = None
    policy: BiddingPolicy | None = None
    #: whether the deals are conditioned on the other seats' calls
    evidence: bool = False
    #: the proposer of the open Prop the seat may accept (Cop), else None
    cop_partner: int | None = None

    @property
    def turnup_suit(self) -> int | None:
        """The suit (0..3) of the turn-up, the usual trumps (``None`` without one)."""
        return None if self.turnup is None else self.turnup // 13

    @classmethod
    def build(
        cls,
        hand: Hand | str,
        *,
        seat: str | int,
        turnup: str | int | None,
        rules: str | RuleSet,
        samples: int | None,
        seed: int | None,
        over: str | None,
        constraints: Any,
        tolerance: float,
        max_samples: int,
        play_model: str | PlayModel,
        play_options: Mapping[str, Any] | None,
        exact: bool | None,
        contracts: str | Iterable[str] | None,
        max_question_positions: int | None,
        control_variates: bool,
        max_seconds: float | None,
        max_positions: int | None,
        stop_on: str = "rows",
        auction: Any = None,
        policy: BiddingPolicy | str | None = None,
        auction_evidence: bool = True,
    ) -> Request:
        """Check and parse the arguments of :func:`~solo_analysis.advice.advise`.

        Raises
        ------
        SoloAnalysisError
            The subclass that names the bad input (see :func:`~solo_analysis.advice.advise`).
        """
        rule_set = load_rules(rules)
        the_hand = hand if isinstance(hand, Hand) else parse_hand(hand)
        if len(the_hand) != 13:
            raise CardCountError(f"hand {str(the_hand)!r} has {len(the_hand)} cards, expected 13")
        the_seat = parse_seat(seat)
        turnup_code = None
        if turnup is None:
            if rule_set.turnup:
                raise TurnupError(
                    f"rule set {rule_set.name!r} turns up a trump card: give the turn-up card"
                )
        else:
            turnup_code = card_code(turnup)
            if not rule_set.turnup:
                raise TurnupError(
                    f"rule set {rule_set.name!r} plays without a turn-up, got turn-up {turnup!r}"
                )
        over_contract = None if over is None else rule_set.contract(over)
        only = None
        if contracts is not None:
            names = [contracts] if isinstance(contracts, str) else list(contracts)
            if not names:
                raise AdviceError("contracts must name at least one contract")
            only = frozenset(rule_set.contract(name).name for name in names)
        the_auction = None
        cop_partner = None
        if auction is not None:
            if over is not None:
                raise AdviceError(
                    "give over or auction, not both (the auction says the bid so far)"
                )
            the_auction = _auction_for(rule_set, auction, the_seat)
            legal = the_auction.legal_calls()
            bids = {name for name in legal if name not in (PASS, COP)}
            if COP in legal:
                bids.add("prop")
                cop_partner = the_auction.proposer
            chosen = bids if only is None else bids & only
            if not chosen:
                raise AuctionError(
                    f"none of the contracts asked for is a legal call after "
                    f"{the_auction.describe()!r}: {play_seat_str(the_seat)} may call "
                    f"{', '.join(legal)}"
                )
            only = frozenset(chosen)
        if auction_evidence not in (True, False):
            raise AdviceError(f"auction_evidence must be True or False, got {auction_evidence!r}")
        if the_auction is None and (policy is not None or not auction_evidence):
            what = "policy" if policy is not None else "auction_evidence=False"
            raise AdviceError(f"{what} applies inside an auction only: give the auction too")
        the_policy = _policy(policy) if the_auction is not None else None
        if samples is not None:
            samples = _check_samples(samples, "samples")
        max_samples = _check_samples(max_samples, "max_samples")
        if (
            isinstance(tolerance, bool)
            or not isinstance(tolerance, numbers.Real)
            or not 0 < float(tolerance) <= 0.5
        ):
            raise AdviceError(f"tolerance must be a number in (0, 0.5], got {tolerance!r}")
        if exact not in (None, True, False):
            raise AdviceError(f"exact must be True, False or None, got {exact!r}")
        if control_variates not in (True, False):
            raise AdviceError(f"control_variates must be True or False, got {control_variates!r}")
        if max_question_positions is not None:
            max_question_positions = _check_int(max_question_positions, "max_question_positions", 1)
        if max_seconds is not None:
            if (
                isinstance(max_seconds, bool)
                or not isinstance(max_seconds, numbers.Real)
                or not 0 < float(max_seconds) < math.inf
            ):
                raise AdviceError(
                    f"max_seconds must be a positive number of seconds, got {max_seconds!r}"
                )
            if samples is not None:
                raise AdviceError(
                    "max_seconds limits adaptive sampling: give samples or max_seconds, not both"
                )
            max_seconds = float(max_seconds)
        if max_positions is not None:
            max_positions = _check_int(max_positions, "max_positions", 1)
        if not isinstance(stop_on, str) or stop_on not in STOP_ON:
            raise AdviceError(f"stop_on must be one of {', '.join(STOP_ON)}, got {stop_on!r}")
        if stop_on != "rows" and samples is not None:
            raise AdviceError(
                "stop_on chooses when adaptive sampling stops: give samples or stop_on, not both"
            )
        the_seed = secrets.randbits(63) if seed is None else check_seed(seed)
        options = dict(play_options or {})
        if isinstance(play_model, str) and play_model.strip().lower() == "pimc":
            options.setdefault("seed", the_seed)  # the worlds' streams follow the advice's seed
            if the_policy is not None:
                # inside an auction the defenders read the bid through the same policy
                fitted = isinstance(the_policy, FittedPolicy)
                options.setdefault("prior", the_policy if fitted else "policy")
        model = make_play_model(play_model, max_positions=max_question_positions, options=options)
        if not model.counts_tricks:
            chosen = [c for c in rule_set.contracts if only is None or c.name in only]
            by_trick = [c.name for c in chosen if pays_by_the_trick(rule_set, c)]
            if exact or by_trick:
                why = (
                    "exact=True"
                    if exact
                    else f"rule set {rule_set.name!r} pays {by_trick[0]} by the trick"
                )
                raise PlayModelError(
                    f"play model {model.name!r} answers whether contracts make, not trick "
                    f"counts ({why}): use the double-dummy model, or contracts paid made or failed"
                )
        the_constraints = Constraints.coerce(constraints)
        evidence = bool(
            the_auction is not None
            and auction_evidence
            and any(call.seat != the_seat for call in the_auction.calls)
        )
        if evidence:
            assert the_auction is not None and the_policy is not None
            the_constraints = _condition(
                the_constraints, the_policy, the_auction, the_seat, turnup_code
            )
        return cls(
            rules=rule_set,
            hand=the_hand,
            seat=the_seat,
            turnup=turnup_code,
            over=over_contract,
            only=only,
            samples=samples,
            seed=the_seed,
            exact=exact,
            control_variates=bool(control_variates),
            constraints=the_constraints,
            stopping=Stopping(float(tolerance), max_samples, max_seconds, max_positions, stop_on),
            model=model,
            auction=the_auction,
            policy=the_policy,
            evidence=evidence,
            cop_partner=cop_partner,
        )


def _auction_for(rules: RuleSet, auction: Any, seat: int) -> Auction:
    """The auction so far, checked to leave ``seat`` the next to call."""
    the_auction = Auction(rules, auction)
    if the_auction.over:
        contract, side = the_auction.result()
        end = (
            "the hand is thrown in"
            if contract is None
            else f"{contract.name} by {' and '.join(play_seat_str(s) for s in side)}"
        )
        raise AuctionError(
            f"the auction {the_auction.describe()!r} is over ({end}): there is no call to advise"
        )
    if the_auction.next_seat != seat:
        assert the_auction.next_seat is not None
        raise AuctionError(
            f"{play_seat_str(seat)} is not the next to call after {the_auction.describe()!r}: "
            f"{play_seat_str(the_auction.next_seat)} is"
        )
    return the_auction


def _policy(policy: BiddingPolicy | str | None) -> BiddingPolicy:
    """The bidding policy: the default, one read from a file, or one given."""
    if policy is None or policy == "default":
        return default_policy()
    if isinstance(policy, str):
        return FittedPolicy.from_file(policy)
    if not isinstance(policy, BiddingPolicy):
        raise AdviceError(
            f"policy must be 'default', a policy file or a BiddingPolicy, got {policy!r}"
        )
    return policy


def _condition(
    constraints: Constraints,
    policy: BiddingPolicy,
    auction: Auction,
    seat: int,
    turnup: int | None,
) -> Constraints:
    """``constraints`` and the auction: the deals on which the others' calls are the policy's."""
    users = constraints.predicate
    calls = auction_predicate(policy, auction, seat, turnup)

    def agrees(deals: np.ndarray) -> np.ndarray:
        keep = calls(deals)
        if users is not None and keep.any():
            idx = np.flatnonzero(keep)
            keep[idx] = np.asarray(users(deals[idx]), dtype=bool)
        return keep

    floor = max(constraints.min_acceptance, AUCTION_MIN_ACCEPTANCE)
    return dataclasses.replace(constraints, predicate=agrees, min_acceptance=floor)
