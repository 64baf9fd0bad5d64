"""Realistic play: each player decides from what he can see (perfect-information Monte Carlo).

Double-dummy play lets every player see every card.  Here each deal is played out card by
card, and at each decision with more than one real choice the player to move imagines
``worlds`` deals consistent with what he knows (:mod:`._worlds`): his own hand, every card
played and by whom, the suits each player has shown out of, the turn-up card (in the
dealer's hand until played) and, in Spread Misère, the declarer's hand once the first trick
is over.  A defender may also read the declarer's bid into his hand (``prior``).  Each world
is solved double-dummy for every candidate card (:mod:`solo_analysis.solver.choice`), and the
player plays the card that reaches his side's goal (make, or defeat, the contract) in the
most worlds.  One transposition table serves a deal's whole playout: what one search proves
about a position holds in every world and at every later decision.

Choices: cards that touch in the player's hand, once the cards between them are gone, are
one choice (the lowest of them is played, the highest by a misère declarer).  Ties between
choices go to the lowest card (by rank, then suit order S H D C), except that a misère
declarer sheds the highest: with every world equal, keeping high cards costs a defender
nothing and a misère declarer everything.  A world the search gives up on (``world_positions``)
counts as half a success for every card.

The play of a deal depends on the deal, the question and the model's ``seed`` alone (each
decision draws its worlds from a stream keyed by them), so a run repeats on any machine and
with any number of threads.

This is still not perfect play: each world is solved as if the player would afterwards know
every card (*strategy fusion*), and nobody draws inferences from the others' choices beyond
the suits they show out of.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bidding.policy import POLICY_FEATURES, FittedPolicy, default_policy
from ..errors import PlayModelError
from ..solver import Question
from ..solver._cards import card_values_seq
from ..solver._kernels import budget, codes_to_masks, makes, new_history, new_tables
from ..solver._table import TT_BITS_DEFAULT
from ..solver.batch import check_max_positions, check_threads, run_stoppable
from ..solver.trick import Trick, legal_cards
from ._pimc import TRIES, hand_key, playout_many
from ._worlds import sample_worlds, world_key
from .base import PlayModel

__all__ = ["DEFAULT_WORLD_POSITIONS", "PRIORS", "Pimc", "Prior", "playout"]

#: search positions one imagined deal may take at one decision: most take under a hundred,
#: a tenth of them over 100,000 at the first tricks of a misère; each past this counts as half
DEFAULT_WORLD_POSITIONS = 200_000

_NO_STOP = np.zeros(1, dtype=np.int64)  # the reference playout is not interrupted midway

_DEALER = 3


@dataclass(frozen=True)
class Prior:
    """What the defence reads into a declarer's bid: conditions on his whole hand.

    A world is drawn only if the declarer's whole hand (cards held and played) holds
    ``hcp_lo`` to ``hcp_hi`` points (A 4, K 3, Q 2, J 1) and, with ``weights`` (a bidding
    policy's logistic make-rate model: the intercept, then one weight per
    :data:`~solo_analysis.bidding.policy.POLICY_FEATURES`), by its make rate ``p``: a hand the
    policy bids with (``p >= 1/2``) always, any other with chance ``2p``.
    """

    hcp_lo: int = 0
    hcp_hi: int = 40
    weights: tuple[float, ...] | None = None

    def vector(self) -> npt.NDArray[np.float64]:
        """The weights for the compiled sampler (zeros: no policy condition)."""
        if self.weights is None:
            return np.zeros(1 + len(POLICY_FEATURES))
        return np.asarray(self.weights, dtype=np.float64)


#: the priors by name; ``default`` applies to the misères only, ``policy`` is the default
#: bidding policy's model of the contract played (see :class:`Pimc`)
PRIORS: dict[str, Prior | None] = {
    "none": None,
    "misere-hcp4": Prior(0, 4),
    "policy": Prior(),
}


def policy_prior(
    question: Question, turnup_suit: int | None, policy: FittedPolicy | None = None
) -> Prior | None:
    """A bidding policy's reading of a lone declarer's bid of ``question``'s contract.

    ``policy``: a fitted policy (default: :func:`~solo_analysis.bidding.policy.default_policy`).

    The contract is told from the question: a misère (Spread Misère if exposed), a target of
    5 (Solo), 9 (Royal Abundance in the turn-up suit, else Abundance) or 13 (Abundance
    Declared); other questions (Prop and Cop, the slams) get no prior.
    """
    if question.misere:
        name = "spread-misere" if question.exposed else "misere"
    elif question.target == 5:
        name = "solo"
    elif question.target == 9:
        name = "royal-abundance" if question.trump == turnup_suit else "abundance"
    elif question.target == 13:
        name = "declared"
    else:
        return None
    weights = (policy or default_policy()).coefficients.get(name)
    return None if weights is None else Prior(weights=tuple(weights))


def _question_id(question: Question, exposed: bool) -> int:
    """A small int that tells the questions of one deal apart in the worlds' stream keys."""
    assert question.target is not None
    code = (question.trump * 31 + question.declarers_mask) * 2 + int(question.misere)
    return code + 64 * question.target + 4096 * int(exposed) + 8192 * question.leader


def _choices(hand: int, legal: list[int], trick: Trick, gone: int, high: bool) -> list[int]:
    """One card for each run of touching legal cards (cards between them all gone or mine).

    ``gone``: the cards played in earlier tricks (the current trick's cards separate runs).
    The card kept for a run is its lowest, or its highest if ``high``.
    """
    out: list[int] = []
    run: list[int] = []
    for card in sorted(legal):
        if run and card // 13 == run[-1] // 13:
            between = ((1 << card) - 1) & ~((1 << (run[-1] + 1)) - 1)
            if between & ~(gone | hand) == 0:
                run.append(card)
                continue
        if run:
            out.append(run[-1] if high else run[0])
        run = [card]
    if run:
        out.append(run[-1] if high else run[0])
    return out


def _preference(card: int, high: bool) -> tuple[int, int]:
    """Sort key of the tie-break: lowest rank first (highest for ``high``), then suit order."""
    rank = card % 13
    return (-rank if high else rank, card // 13)


def playout(
    hands: npt.NDArray[np.int64],
    question: Question,
    *,
    turnup: int = -1,
    worlds: int = 16,
    seed: int = 0,
    prior: Prior | None = None,
    world_positions: int | None = DEFAULT_WORLD_POSITIONS,
    see_all: bool = False,
    pimc_tricks: int | None = None,
    log: Callable[[int, int, list[int], list[float]], None] | None = None,
) -> tuple[bool, int]:
    """Play one deal out with every player deciding from what he can see.

    Parameters
    ----------
    hands : numpy.ndarray
        ``int64[4]`` hand masks of the deal (seats 0..3 in play order).
    question : Question
        The contract: trump, leader, declarers, misère and its ``target`` (required);
        ``exposed`` for Spread Misère (the declarer's hand seen by all from the end of the
        first trick).
    turnup : int
        The turn-up card (in the dealer's hand), or -1.
    worlds, seed, prior, world_positions
        As for :class:`Pimc`.
    see_all : bool, default False
        For tests: every world a player imagines is the real deal (play is then
        double-dummy, and the result that of :func:`~solo_analysis.solver.solve`).
    pimc_tricks : int, optional
        As for :class:`Pimc`: once this many tricks are played, the rest is solved
        double-dummy (``None``: realistic play to the end).
    log : callable, optional
        Called at each decision with ``(seat, card played, choices, their success rates)``.

    Returns
    -------
    (bool, int)
        Whether the contract makes, and the search positions spent.
    """
    if question.target is None:
        raise PlayModelError(
            "realistic play answers whether a contract makes (a target), not trick counts"
        )
    h = np.array(hands, dtype=np.int64)
    exposed = question.exposed
    trump = question.trump
    side = question.declarers
    mask = question.declarers_mask
    misere = question.misere
    target = question.target
    played = np.zeros(4, dtype=np.int64)
    void = np.zeros(4, dtype=np.int64)
    gone = 0  # cards of finished tricks
    trick = Trick(question.leader)
    won = 0  # the declarer side's tricks
    left = int(h[0]).bit_count()  # tricks still to play
    positions = 0
    base = int(hand_key(h, np.uint64(seed)))
    qid = _question_id(question, exposed)
    decision = 0
    out = np.empty((worlds, 4), dtype=np.int64)
    # one table for the whole deal, emptied now (as the compiled playout does)
    infos, indexes, moves, scores = new_tables(1, TT_BITS_DEFAULT)
    limit = check_max_positions(world_positions)
    dd_after = -1 if pimc_tricks is None else pimc_tricks
    while left > 0:
        if dd_after >= 0 and trick.npl == 0 and 13 - left >= dd_after:
            # the rest double-dummy: one search of the real deal from this trick boundary
            work = budget(limit)
            v = makes(
                h,
                trump,
                trick.leader,
                mask,
                misere,
                target - won,
                (infos[0], indexes[0]),
                moves[0],
                scores[0],
                new_history(),
                work,
                _NO_STOP,
            )
            positions += int(work[0])
            if v >= 0:
                return bool(v == 1), positions
            dd_after = -1  # the search gave up: play on realistically
        seat = trick.to_play
        legal = legal_cards(int(h[seat]), trick)
        declarer = seat in side
        high = misere and declarer
        choices = _choices(int(h[seat]), legal, trick, gone, high)
        if len(choices) == 1:
            card = choices[0]
        else:
            if see_all:
                sample = h[None, :].copy()
            else:
                known = np.zeros(4, dtype=np.int64)
                known[seat] = h[seat]
                if exposed and gone:  # the first trick is over: the declarer's hand is shown
                    known[side[0]] = h[side[0]]
                if turnup >= 0 and (h[_DEALER] >> turnup) & 1:
                    known[_DEALER] |= np.int64(1) << turnup
                pool = int(h[0] | h[1] | h[2] | h[3]) & ~int(
                    known[0] | known[1] | known[2] | known[3]
                )
                caps = np.array(
                    [int(h[s]).bit_count() - int(known[s]).bit_count() for s in range(4)],
                    dtype=np.int64,
                )
                prior_seat = -1
                lo, hi = 0, 40
                if prior is not None and not declarer and len(side) == 1:
                    prior_seat = side[0]
                    lo, hi = prior.hcp_lo, prior.hcp_hi
                vector = (prior or Prior()).vector()
                key = np.uint64(world_key(np.uint64(base), qid, decision, seat))
                got = sample_worlds(
                    key,
                    worlds,
                    known,
                    np.int64(pool),
                    caps,
                    void,
                    prior_seat,
                    played[prior_seat] if prior_seat >= 0 else np.int64(0),
                    lo,
                    hi,
                    vector,
                    turnup // 13 if turnup >= 0 else -1,
                    TRIES,
                    out,
                )
                if got <= 0:  # the prior rules out every world: read nothing into the bid
                    got = sample_worlds(
                        key,
                        worlds,
                        known,
                        np.int64(pool),
                        caps,
                        void,
                        -1,
                        np.int64(0),
                        0,
                        40,
                        vector,
                        -1,
                        TRIES,
                        out,
                    )
                sample = out[:got]
            cards = np.array(choices, dtype=np.int64)
            values, work = card_values_seq(
                np.ascontiguousarray(sample),
                trump,
                trick.leader,
                trick.npl,
                trick.led,
                trick.win_card,
                trick.win_seat,
                np.int64(trick.mask),
                mask,
                misere,
                target - won,
                cards,
                (infos[0], indexes[0]),
                moves[0],
                scores[0],
                limit,
                _NO_STOP,
            )
            positions += int(work.sum())
            # two points a world the card reaches the player's goal in, one a world given up
            wins = (values == 1) if declarer else (values == 0)
            points = np.where(values < 0, 1, 2 * wins).sum(axis=0)
            best = int(points.max())
            tied = [c for c, p in zip(choices, points, strict=True) if p == best]
            card = min(tied, key=lambda c: _preference(c, high))
            if log is not None:
                log(seat, card, choices, [float(p) / (2 * len(sample)) for p in points])
            decision += 1
        # play the card
        bit = np.int64(1) << card
        h[seat] ^= bit
        played[seat] |= bit
        if trick.npl and card // 13 != trick.led:
            void[seat] |= 1 << trick.led
        if trick.npl == 0:
            trick = Trick(trick.leader, 1, card // 13, card, seat, int(bit))
        else:
            wc, ws = trick.win_card, trick.win_seat
            if (card // 13 == wc // 13 and card > wc) or (
                card // 13 == trump and wc // 13 != trump
            ):
                wc, ws = card, seat
            if trick.npl < 3:
                trick = Trick(trick.leader, trick.npl + 1, trick.led, wc, ws, trick.mask | int(bit))
            else:
                gone |= trick.mask | int(bit)
                left -= 1
                won += ws in side
                trick = Trick(ws)
                if misere:
                    if won > target:
                        return False, positions
                elif won >= target:
                    return True, positions
                elif won + left < target:
                    return False, positions
    return (won <= target if misere else won >= target), positions


class Pimc(PlayModel):
    """Realistic play (perfect-information Monte Carlo): see :mod:`solo_analysis.play.pimc`.

    Parameters
    ----------
    worlds : int, default 16
        Deals a player imagines at each decision.
    prior : str or Prior or None, default "default"
        What a defender reads into a lone declarer's bid: ``"default"`` (a Misère or Spread
        Misère declarer holds at most 4 high-card points; nothing for other contracts),
        ``"policy"`` (his hand weighed by the default bidding policy's make rate for the bid,
        :func:`policy_prior`), a :class:`~solo_analysis.bidding.policy.FittedPolicy` (the same
        reading through that policy), ``"none"``, ``"misere-hcp4"`` or a :class:`Prior` (for
        every lone-declarer contract).
    seed : int, default 0
        Mixed into every decision's stream of worlds.
    world_positions : int or None, default DEFAULT_WORLD_POSITIONS
        The most search positions one imagined deal may take at one decision (all its
        cards); past it that deal counts as half a success for each card.  ``None``: no
        limit (a few deals then take millions of positions).
    threads : int, optional
        numba threads: the deals are played out in parallel, a deal a thread.
    see_all : bool, default False
        For tests only: every world is the real deal (double-dummy play).
    pimc_tricks : int, optional
        Play the first ``pimc_tricks`` tricks realistically and solve the rest double-dummy
        (``0``: double-dummy from the start; ``None``, the default: realistic to the end).  If
        the search gives up on the rest (``world_positions``), play goes on realistically.

    Raises
    ------
    PlayModelError
        ``worlds`` below 1, an unknown prior, or ``pimc_tricks`` not in 0..13.
    """

    name = "pimc"
    note = (
        "realistic play (PIMC): each player decides from what he can see, imagining the hidden "
        "cards; still not perfect play (each imagined deal is solved as if all were then known)"
    )
    uses_exposure = True
    counts_tricks = False

    def __init__(
        self,
        worlds: int = 16,
        *,
        prior: str | Prior | FittedPolicy | None = "default",
        seed: int = 0,
        world_positions: int | None = DEFAULT_WORLD_POSITIONS,
        threads: int | None = None,
        see_all: bool = False,
        pimc_tricks: int | None = None,
    ) -> None:
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise PlayModelError(f"worlds must be an int >= 1, got {worlds!r}")
        if isinstance(prior, str) and prior != "default" and prior not in PRIORS:
            raise PlayModelError(
                f"unknown prior {prior!r}; available: default, {', '.join(PRIORS)}"
            )
        if prior is not None and not isinstance(prior, str | Prior | FittedPolicy):
            raise PlayModelError(f"prior must be a name, a Prior or a FittedPolicy, got {prior!r}")
        if pimc_tricks is not None and (
            isinstance(pimc_tricks, bool)
            or not isinstance(pimc_tricks, int)
            or not 0 <= pimc_tricks <= 13
        ):
            raise PlayModelError(
                f"pimc_tricks must be an int in 0..13 or None, got {pimc_tricks!r}"
            )
        self.pimc_tricks = pimc_tricks
        self.worlds = worlds
        self.prior = prior
        self.seed = int(seed)
        self.world_positions = world_positions
        self.threads = threads
        self.see_all = see_all
        self.positions = 0

    def options(self) -> dict[str, Any]:
        """Worlds, prior, seed and the cap per imagined deal."""
        prior: str | list[Any] | None
        if isinstance(self.prior, Prior):
            prior = [self.prior.hcp_lo, self.prior.hcp_hi]
            if self.prior.weights is not None:
                prior.append(list(self.prior.weights))
        elif isinstance(self.prior, FittedPolicy):
            prior = f"policy {self.prior.name}"
        else:
            prior = self.prior
        return {
            "worlds": self.worlds,
            "prior": prior,
            "seed": self.seed,
            "world_positions": self.world_positions,
        } | (
            # named only when set, so that the tables made before the option still resume
            {} if self.pimc_tricks is None else {"pimc_tricks": self.pimc_tricks}
        )

    def _prior(self, question: Question, turnup_suit: int | None) -> Prior | None:
        if self.prior == "default":
            return PRIORS["misere-hcp4"] if question.misere else None
        if self.prior == "policy":
            return policy_prior(question, turnup_suit)
        if isinstance(self.prior, FittedPolicy):
            return policy_prior(question, turnup_suit, self.prior)
        if isinstance(self.prior, str):
            return PRIORS[self.prior]
        return self.prior

    def ask(
        self,
        deals: np.ndarray,
        questions: Sequence[Question],
        *,
        turnups: npt.NDArray[np.int64] | None = None,
    ) -> list[np.ndarray]:
        """Play every deal of each question's subset out; 1 where the contract makes, else 0.

        The deals are played in numba's threads, a deal a task (:mod:`._pimc`), exactly as
        :func:`playout` plays them one by one.

        Raises
        ------
        PlayModelError
            A question without a target (realistic play answers whether contracts make).
        """
        masks = codes_to_masks(np.ascontiguousarray(deals, dtype=np.int8))
        every = np.full(masks.shape[0], -1, dtype=np.int64)
        cards = every if turnups is None else np.asarray(turnups, dtype=np.int64)
        limit = check_max_positions(self.world_positions)
        most = check_threads(self.threads)
        answers = []
        for q in questions:
            if q.target is None:
                raise PlayModelError(
                    "the realistic play model answers whether contracts make: exact trick "
                    "counts (exact=True, or a rule set paying by the trick) are double-dummy only"
                )
            idx = np.arange(masks.shape[0]) if q.subset is None else q.subset
            if idx.size == 0:
                answers.append(np.zeros(0, dtype=np.int8))
                continue
            first = int(cards[idx[0]])
            prior = self._prior(q, first // 13 if first >= 0 else None)
            workers = max(1, min(most, idx.size))
            made, work = run_stoppable(
                playout_many,
                np.ascontiguousarray(masks[idx]),
                q.trump,
                q.leader,
                q.declarers_mask,
                q.misere,
                q.target,
                q.exposed,
                np.ascontiguousarray(cards[idx]),
                self.worlds,
                np.uint64(self.seed),
                _question_id(q, q.exposed),
                prior is not None,
                0 if prior is None else prior.hcp_lo,
                40 if prior is None else prior.hcp_hi,
                (prior or Prior()).vector(),
                -1 if self.pimc_tricks is None else self.pimc_tricks,
                self.see_all,
                limit,
                *new_tables(workers, TT_BITS_DEFAULT),
            )
            self.positions = (self.positions or 0) + int(work.sum())
            answers.append(made)
        return answers
