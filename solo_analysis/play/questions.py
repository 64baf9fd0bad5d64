"""The contract options of a seat, and the play-model questions that settle them.

A :class:`Row` is one contract option of one seat: which side declares, who leads, in what
denomination, and what each trick count settles for.  :func:`build_rows` lists them from a
rule set; :func:`solve_rows` asks a play model every distinct question on a batch of deals
(identical questions once, chained targets only where the easier one made) and appends the
answers to the rows.  The advice and the odds tables both build on these.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import NT
from ..errors import RuleSetError, SoloAnalysisError
from ..rules import Contract, RuleSet
from ..solver import Question
from .base import PlayModel

__all__ = ["Row", "build_rows", "denominations", "pays_by_the_trick", "solve_rows"]


@dataclass
class Row:
    """One contract option: what to solve, and (after sampling) the per-deal results."""

    contract: Contract
    trump: int
    partner: int | None
    choice: str  # "fixed": solved directly; "best" / "any": derived from fixed rows
    declarers: tuple[int, ...]
    leader: int
    binary: bool  # settlement takes one value on success and one on failure
    values: np.ndarray  # declarer_units for 0..13 tricks
    made: list[np.ndarray] = field(default_factory=list)
    tricks: list[np.ndarray] = field(default_factory=list)  # -1 where not counted
    sources: list[int] = field(default_factory=list)  # for derived rows: indices of fixed rows

    @property
    def key(self) -> tuple[int, int, tuple[int, ...], bool]:
        """The problem this row asks: (trump, leader, declarers, misère).

        Rows that share it are solved once.
        """
        return (self.trump, self.leader, self.declarers, self.contract.misere)


#: a problem: (trump, leader, declarers, misère, exposed)
_Key = tuple[int, int, tuple[int, ...], bool, bool]


def _question(key: _Key, target: int | None = None, subset: np.ndarray | None = None) -> Question:
    trump, leader, declarers, misere, exposed = key
    return Question(trump, leader, declarers, misere, target, subset, exposed)


@dataclass
class _Chain:
    """A problem asked "does it make?" for one target after another (see :func:`solve_rows`)."""

    key: _Key
    members: list[Row]
    targets: list[int]
    answers: dict[int, np.ndarray]  # target -> status per deal: 1 made, 0 failed, -1 given up
    status: np.ndarray  # status of the last target asked (all 1 before the first)


def pays_by_the_trick(rules: RuleSet, contract: Contract) -> bool:
    """Whether the settlement of ``contract`` depends on the tricks, not just made or failed."""
    tricks = np.arange(14)
    values = np.asarray(rules.declarer_units(contract, tricks), dtype=float)
    made = contract.is_made(tricks)
    return not (np.ptp(values[made]) == 0 and np.ptp(values[~made]) == 0)


def denominations(contract: Contract, turnup_suit: int | None) -> list[int]:
    """Trump codes (0..3 = S H D C, 4 = no trump) the contract can be played in."""
    rule = contract.trump
    if rule == "turnup":
        return [turnup_suit] if turnup_suit is not None else [0, 1, 2, 3]
    if rule == "none":
        return [NT]
    if rule == "declarer":
        return [0, 1, 2, 3]
    if rule == "declarer-new":
        return [s for s in range(4) if s != turnup_suit]
    if rule == "declarer-or-none":
        return [0, 1, 2, 3, NT]
    raise RuleSetError(
        f"contract {contract.name!r} has an unknown trump rule {rule!r}"
    )  # pragma: no cover


def build_rows(
    rules: RuleSet,
    seat: int,
    turnup_suit: int | None,
    only: frozenset[str] | None = None,
    partner: int | None = None,
) -> list[Row]:
    """The rows of ``seat`` (play order) for every contract of ``rules`` (or those in ``only``).

    One fixed row per partner seat and denomination, plus, where there are several, a derived
    row (``"best"`` for a declarer's choice of trumps, ``"any"`` for Prop-Cop partners).  With
    ``partner`` (accepting that seat's Prop), Prop and Cop has that partner's rows only.
    """
    rows: list[Row] = []
    tricks = np.arange(14)
    for c in rules.contracts:
        if only is not None and c.name not in only:
            continue
        values = np.asarray(rules.declarer_units(c, tricks), dtype=float)
        binary = not pays_by_the_trick(rules, c)
        leader = seat if c.leader == "declarer" else 0
        start = len(rows)
        if c.partnership:
            for other in range(4):
                if other == seat or (partner is not None and other != partner):
                    continue
                pair = tuple(sorted((seat, other)))
                for trump in denominations(c, turnup_suit):
                    rows.append(Row(c, trump, other, "fixed", pair, leader, binary, values))
        else:
            for trump in denominations(c, turnup_suit):
                rows.append(Row(c, trump, None, "fixed", (seat,), leader, binary, values))
        n_fixed = len(rows) - start
        if n_fixed > 1:
            derived = "any" if c.partnership and partner is None else "best"
            base = rows[start]
            rows.append(
                Row(
                    c,
                    base.trump,
                    None,
                    derived,
                    base.declarers,
                    leader,
                    binary,
                    values,
                    sources=list(range(start, start + n_fixed)),
                )
            )
    return rows


def solve_rows(
    rows: list[Row],
    deals: np.ndarray,
    model: PlayModel,
    exact: bool | None,
    turnups: np.ndarray | None = None,
) -> np.ndarray:
    """Solve every fixed row on ``deals``; identical problems are solved once, targets chained.

    Appends to each fixed row its results on ``deals``: ``made`` as floats 1.0 / 0.0 and NaN
    where the model gave up, ``tricks`` (-1 where not counted or given up).  Returns the boolean
    mask of the deals on which the model gave up on at least one question.

    The questions go to the model in rounds (:meth:`PlayModel.ask`): the first round asks
    every problem's trick count or first target, each later round the next target of each
    chained problem on the deals still open.  ``turnups`` (the turn-up card of each deal, or
    None) goes to the model with them.  Rows that differ only in whether the declarer's hand
    is exposed (Misère and Spread Misère) are one problem for a model that sees every card
    anyway, two for one that does not (:attr:`PlayModel.uses_exposure`).
    """
    n = deals.shape[0]
    groups: dict[_Key, list[Row]] = {}
    for row in rows:
        if row.choice == "fixed":
            exposed = row.contract.exposed and model.uses_exposure
            groups.setdefault((*row.key, exposed), []).append(row)
    given_up = np.zeros(n, dtype=bool)
    counts = []  # problems asked for trick counts
    chains = []  # problems asked "does it make?", one target after another
    for key, members in groups.items():
        count = exact if exact is not None else not all(r.binary for r in members)
        if count:
            counts.append((key, members))
        else:
            # normal contracts: ascending targets, each asked where the previous one made (or
            # was given up on); misère: descending (at most 1 trick is implied by at most 0)
            targets = sorted({r.contract.target for r in members}, reverse=key[3])
            chains.append(_Chain(key, members, targets, {}, np.ones(n, dtype=np.int8)))
    queries = [_question(key) for key, _ in counts]
    while True:
        asked: list[tuple[_Chain, np.ndarray]] = []
        for c in chains:
            while len(c.answers) < len(c.targets):
                idx = np.flatnonzero(c.status != 0)
                if idx.size:
                    queries.append(_question(c.key, c.targets[len(c.answers)], idx))
                    asked.append((c, idx))
                    break
                c.answers[c.targets[len(c.answers)]] = c.status.copy()  # nothing left to ask
        if not queries:
            break
        replies = model.ask(deals, queries, turnups=turnups)
        answers = [np.asarray(a).astype(np.int8) for a in replies]
        if len(answers) != len(queries):
            raise SoloAnalysisError(
                f"play model {model.name!r} answered {len(answers)} of {len(queries)} questions"
            )
        for (_, members), got in zip(counts, answers[: len(answers) - len(asked)], strict=False):
            given_up |= got < 0
            for r in members:
                made = np.asarray(r.contract.is_made(got), dtype=float)
                made[got < 0] = np.nan
                r.made.append(made)
                r.tricks.append(got)
        counts = []
        for (c, idx), got in zip(asked, answers[len(answers) - len(asked) :], strict=False):
            status = c.status.copy()
            status[idx] = np.where(got < 0, -1, got > 0)
            # a harder target made settles the easier ones given up on
            settled = idx[got > 0]
            for earlier in c.answers.values():
                earlier[settled] = 1
            c.answers[c.targets[len(c.answers)]] = status
            c.status = status
        queries = []
    for c in chains:
        for r in c.members:
            status = c.answers[r.contract.target]
            given_up |= status < 0
            r.made.append(np.where(status < 0, np.nan, status.astype(float)))
            r.tricks.append(np.full(n, -1, dtype=np.int8))
    return given_up
