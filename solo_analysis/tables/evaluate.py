"""Evaluating random deals: every contract, for every seat, as the rules say it is played.

Deal ``i`` of a run is a pure function of ``(seed, i)`` (:func:`~solo_analysis.sampler.deals_at`,
:func:`~solo_analysis.sampler.turnup_cards`), and each is solved for every seat and contract:

* Fixed trump (turn-up suit, or none for the misères): one column, e.g. ``solo``.
* Declarer's choice (Abundance, Abundance Declared, with the turn-up suit excluded where the
  rule set says "a new suit"): one column per denomination, e.g. ``abundance_H`` (null where
  the suit is not eligible), plus ``abundance`` = makeable in **at least one** eligible
  denomination (an upper bound on what a declarer who must name the suit first achieves) and
  ``abundance_long`` = makeable in the declarer's longest eligible suit (ties: more A/K/Q/J,
  then S, H, D, C), a rule a player can follow at the table.
* Prop and Cop: one column per partner seat, e.g. ``prop_third`` (null on the partner's own
  row); where the partnership names trump (no turn-up), makeable in at least one suit.
* Misère and Spread Misère are the same double-dummy problem (solved once).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..bidding.features import FEATURES, JACK, hand_features
from ..cards import PLAY_SEATS, play_seat_str, trump_str
from ..errors import TableError
from ..play import PlayModel, make_play_model
from ..play.questions import Row, build_rows, denominations, solve_rows
from ..rules import RuleSet, load_rules
from ..sampler import deals_at, turnup_cards
from ..solver import Question

__all__ = ["evaluate_chunk", "evaluate_deals", "result_columns", "selected_contracts"]


def selected_contracts(rules: RuleSet, contracts: Iterable[str] | None) -> tuple[str, ...]:
    """Canonical names of the contracts to evaluate, in ladder order."""
    if contracts is None:
        return tuple(c.name for c in rules.contracts)
    names = [contracts] if isinstance(contracts, str) else list(contracts)
    if not names:
        raise TableError("contracts must name at least one contract")
    wanted = {rules.contract(name).name for name in names}
    return tuple(c.name for c in rules.contracts if c.name in wanted)


def _is_choice(rules: RuleSet, contract: Any) -> bool:
    """Whether the declarer side names the trump (several denominations to solve)."""
    sample = 0 if rules.turnup else None
    return len(denominations(contract, sample)) > 1


def result_columns(
    rules: RuleSet | str, contracts: Iterable[str] | None = None
) -> list[tuple[str, str, str]]:
    """The outcome columns of a run: ``(column, contract, variant)`` in table order.

    ``variant`` is ``""`` for a contract with one denomination, ``"any"`` / ``"long"`` / a
    denomination (``"S"`` .. ``"NT"``) for a declarer's-choice contract, a partner seat name
    for Prop-Cop (see the module docstring).
    """
    rs = load_rules(rules)
    cols: list[tuple[str, str, str]] = []
    for name in selected_contracts(rs, contracts):
        c = rs.contract(name)
        if c.partnership:
            cols.extend((f"{name}_{p}", name, p) for p in PLAY_SEATS)
        elif _is_choice(rs, c):
            cols.append((name, name, "any"))
            cols.append((f"{name}_long", name, "long"))
            cols.extend(
                (f"{name}_{trump_str(t)}", name, trump_str(t)) for t in denominations(c, None)
            )
        else:
            cols.append((name, name, ""))
    return cols


#: a kind of question: (misère, target, partnership, exposed)
_LabelKey = tuple[bool, int, bool, bool]


class _TimedModel(PlayModel):
    """Wraps a play model and adds up the wall time of each kind of solver question.

    A round of questions (:meth:`ask`) goes to the model in one call per kind, so the model
    can spread each call's deals x questions over its threads and the time still splits by kind.
    """

    def __init__(self, base: PlayModel, labels: dict[_LabelKey, str]) -> None:
        self.base = base
        self.name = base.name
        self.uses_exposure = base.uses_exposure
        self.counts_tricks = base.counts_tricks
        self.labels = labels
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def _label(self, q: Question) -> str:
        if q.target is None:
            return "tricks"
        key = (bool(q.misere), int(q.target), len(q.declarers) > 1, bool(q.exposed))
        return self.labels.get(key, f"target {q.target}")

    def ask(
        self,
        deals: np.ndarray,
        questions: Sequence[Question],
        *,
        turnups: np.ndarray | None = None,
    ) -> list[np.ndarray]:
        """The base model's answers, one call per kind of question, each timed."""
        out: list[np.ndarray] = [np.zeros(0, dtype=np.int8)] * len(questions)
        kinds: dict[str, list[int]] = defaultdict(list)
        for i, q in enumerate(questions):
            kinds[self._label(q)].append(i)
        n = int(np.shape(deals)[0])
        for label, idx in kinds.items():
            t0 = time.perf_counter()
            answers = self.base.ask(deals, [questions[i] for i in idx], turnups=turnups)
            self.seconds[label] += time.perf_counter() - t0
            for i in idx:
                subset = questions[i].subset
                self.calls[label] += n if subset is None else len(subset)
            for i, answer in zip(idx, answers, strict=True):
                out[i] = answer
        return out


#: a question as another run answered it: (trump, leader, declarers, misère, target, exposed)
AnswerKey = tuple[int, int, tuple[int, ...], bool, int, bool]


class _KnownAnswers(PlayModel):
    """Wraps a play model; answers "does it make?" questions already answered in another run.

    ``known`` maps a question's key (:attr:`~solo_analysis.solver.Question.key`) to the status
    of that question on every deal of the batch (1 made, 0 failed, -1 given up); other
    questions go to ``base``.
    """

    def __init__(self, base: PlayModel, known: dict[AnswerKey, np.ndarray]) -> None:
        self.base = base
        self.name = base.name
        self.uses_exposure = base.uses_exposure
        self.counts_tricks = base.counts_tricks
        self.known = known
        self.reused = 0

    def ask(
        self,
        deals: np.ndarray,
        questions: Sequence[Question],
        *,
        turnups: np.ndarray | None = None,
    ) -> list[np.ndarray]:
        """The known answers, and the base model's for the other questions."""
        out: list[np.ndarray] = [np.zeros(0, dtype=np.int8)] * len(questions)
        rest = []
        for i, q in enumerate(questions):
            got = None if q.target is None else self.known.get((*q.key[:4], q.target, q.exposed))
            if got is None:
                rest.append(i)
            else:
                out[i] = got if q.subset is None else got[q.subset]
                self.reused += int(out[i].size)
        if rest:
            answers = self.base.ask(deals, [questions[i] for i in rest], turnups=turnups)
            for i, answer in zip(rest, answers, strict=True):
                out[i] = answer
        return out


def _row_seat(row: Row) -> int:
    """The seat whose row this is (for Prop-Cop: the seat that is not the partner)."""
    if row.partner is None:
        return row.declarers[0]
    return next(s for s in row.declarers if s != row.partner)


def _answer_column(rules: RuleSet, row: Row, turnup_suit: int | None) -> str | None:
    """The outcome column holding exactly this fixed row's answer.

    ``None`` if there is none: the row's column combines several denominations, as Prop-Cop's
    where the partners name trump.
    """
    c = row.contract
    if c.partnership:
        return (
            f"{c.name}_{play_seat_str(row.partner)}"
            if row.partner is not None and len(denominations(c, turnup_suit)) == 1
            else None
        )
    if _is_choice(rules, c):
        return f"{c.name}_{trump_str(row.trump)}"
    return c.name


def _known_answers(
    reuse: tuple[pd.DataFrame, RuleSet],
    idx: np.ndarray,
    turnup_suit: int | None,
    exposure: bool,
) -> dict[AnswerKey, np.ndarray]:
    """The questions another run's frame answers for deals ``idx`` (one turn-up suit).

    ``exposure``: the play model (the same in both runs) plays Spread Misère as a question of
    its own.
    """
    frame, rules = reuse
    unsolved = frame["unsolved"].to_numpy(dtype=object).reshape(-1, 4)[idx]
    known: dict[AnswerKey, np.ndarray] = {}
    for seat in range(4):
        for row in build_rows(rules, seat, turnup_suit):
            column = None if row.choice != "fixed" else _answer_column(rules, row, turnup_suit)
            if column is None or column not in frame.columns:
                continue
            values = frame[column].to_numpy(dtype=object).reshape(-1, 4)[idx, seat]
            asked = np.array([v is not pd.NA for v in values])
            given_up = np.array([column in u.split(",") for u in unsolved[:, seat]])
            if not (asked | given_up).all():
                continue  # not asked on some deal: nothing to reuse
            status = np.where(given_up, -1, np.where(asked, values, False).astype(bool)).astype(
                np.int8
            )
            c = row.contract
            known[
                (row.trump, row.leader, row.declarers, c.misere, c.target, c.exposed and exposure)
            ] = status
    return known


def _question_labels(rules: RuleSet, names: Sequence[str], exposure: bool) -> dict[_LabelKey, str]:
    """Map (misère, target, partnership, exposed) to the contracts that ask that question.

    Each label joins the contract names with ``/``, e.g. 'abundance/royal-abundance';
    'misere/spread-misere' unless the model plays Spread Misère apart (``exposure``).
    """
    groups: dict[_LabelKey, list[str]] = defaultdict(list)
    for name in names:
        c = rules.contract(name)
        groups[(c.misere, c.target, c.partnership, c.exposed and exposure)].append(name)
    return {k: "/".join(v) for k, v in groups.items()}


def _any_made(parts: list[np.ndarray]) -> np.ndarray:
    """Per deal: 1.0 if any part made, else NaN if any was given up on, else 0.0."""
    stack = np.vstack(parts)
    out = np.where(np.isnan(stack).any(axis=0), np.nan, 0.0)
    return np.where((stack == 1.0).any(axis=0), 1.0, out)


def _status(made: np.ndarray) -> np.ndarray:
    """1.0 / 0.0 / NaN -> int8 1 / 0 / -2 (given up)."""
    return np.where(np.isnan(made), -2, made > 0).astype(np.int8)


def _longest_eligible(
    lengths: np.ndarray, honours: np.ndarray, eligible: Sequence[int]
) -> np.ndarray:
    """Per hand, the longest suit among ``eligible`` (ties: more honours, then lower index)."""
    score = np.full(lengths.shape, -1, dtype=np.int64)
    for s in eligible:
        score[..., s] = lengths[..., s] * 100 + honours[..., s] * 10 + (3 - s)
    longest: np.ndarray = score.argmax(axis=-1)
    return longest


def evaluate_deals(
    deals: np.ndarray,
    turnups: np.ndarray | None,
    rules: RuleSet | str = "classic",
    *,
    contracts: Iterable[str] | None = None,
    first_index: int = 0,
    play_model: str | PlayModel = "double-dummy",
    max_question_positions: int | None = None,
    reuse: tuple[pd.DataFrame, RuleSet | str] | None = None,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Hand features and the double-dummy outcome of every contract, for every deal and seat.

    Parameters
    ----------
    deals : numpy.ndarray
        ``int8[n, 4, 13]`` in play order (eldest, second, third, dealer).
    turnups : numpy.ndarray or None
        ``int[n]`` turn-up card codes (each in the dealer's hand); ``None`` for a rule set
        without a turn-up.
    rules : RuleSet or str, default "classic"
    contracts : iterable of str, optional
        Only these contracts (names or aliases); default all of the rule set.
    first_index : int, default 0
        Value of the ``deal`` column for the first deal.
    play_model : str or PlayModel, default "double-dummy"
        How each deal is played (a name of :data:`~solo_analysis.advice.PLAY_MODELS`, or an
        instance); the tables are double-dummy unless told otherwise.
    max_question_positions : int, optional
        Search positions the named play model may spend on one question of one deal; an
        answer it gives up on is null in its outcome column and named in ``unsolved``.
        ``None`` (default): every answer exact.
    reuse : (pandas.DataFrame, RuleSet or str), optional
        The frame this function returned for the same deals under another rule set (the
        same play model and ``max_question_positions``), and that rule set.  A question it
        answers (the same trump, leader, declarer side, misère or not, and target, e.g. Solo
        under both ``classic`` and ``parlett``) takes its answer from there instead of being
        solved again.

    Returns
    -------
    frame : pandas.DataFrame
        ``4 n`` rows (deal-major, seats in play order): ``deal``, ``seat``, ``turnup``, the
        :data:`FEATURES`, the outcome columns of :func:`result_columns` (nullable booleans: null
        where the question is not asked, or was given up on) and ``unsolved`` (the outcome
        columns given up on, comma-separated; ``""`` for none).
    timings : dict
        ``{"seconds": {question: s}, "deals": {question: deals asked}, "reused": answers}``,
        where a question is labelled by the contracts that ask it and ``reused`` counts the
        answers (deal x question) taken from ``reuse``.

    Raises
    ------
    TableError
        Turn-ups missing or given against the rule set, or of the wrong shape; an unknown
        play model; a ``reuse`` frame of other deals.
    RuleSetError, ContractError
        An unknown rule set or contract.
    """
    rs = load_rules(rules)
    names = selected_contracts(rs, contracts)
    d = np.asarray(deals, dtype=np.int8)
    n = d.shape[0]
    if rs.turnup:
        if turnups is None:
            raise TableError(f"rule set {rs.name!r} turns up a trump card: give the turn-ups")
        tu = np.asarray(turnups, dtype=np.int64)
        if tu.shape != (n,):
            raise TableError(f"turn-ups of shape {tu.shape} for {n} deals")
    else:
        if turnups is not None:
            raise TableError(f"rule set {rs.name!r} plays without a turn-up, got turn-ups")
        tu = None
    feats = hand_features(d, tu)
    cols = result_columns(rs, names)
    values = {
        col: np.full((n, 4), -1, dtype=np.int8) for col, _, _ in cols
    }  # -1: not asked, -2: given up
    base = make_play_model(play_model, max_positions=max_question_positions)
    model = _TimedModel(base, _question_labels(rs, names, base.uses_exposure))
    if reuse is not None:
        reuse = (reuse[0], load_rules(reuse[1]))
        got = reuse[0]
        expect = np.repeat(np.arange(first_index, first_index + n, dtype=np.int64), 4)
        if len(got) != 4 * n or not np.array_equal(got["deal"].to_numpy(dtype=np.int64), expect):
            raise TableError(
                f"the frame to reuse does not hold deals {first_index}..{first_index + n - 1}"
            )
    reused = 0
    suit_of = np.full(n, -1, dtype=np.int64) if tu is None else tu // 13
    lengths = np.stack([(d // 13 == s).sum(axis=-1) for s in range(4)], axis=-1)
    honours = np.stack(
        [((d // 13 == s) & (d % 13 >= JACK)).sum(axis=-1) for s in range(4)], axis=-1
    )
    only = frozenset(names)
    for ts in np.unique(suit_of):
        idx = np.flatnonzero(suit_of == ts)
        turnup_suit = None if ts < 0 else int(ts)
        rows = []
        for seat in range(4):
            rows.extend(build_rows(rs, seat, turnup_suit, only))
        cards = None if tu is None else tu[idx]
        if reuse is None:
            solve_rows(rows, d[idx], model, False, cards)
        else:
            known = _KnownAnswers(
                model, _known_answers(reuse, idx, turnup_suit, base.uses_exposure)
            )
            solve_rows(rows, d[idx], known, False, cards)
            reused += known.reused
        # per (contract, seat, partner): the answers for each denomination
        answers: dict[tuple[str, int, int | None], dict[int, np.ndarray]] = defaultdict(dict)
        for row in rows:
            if row.choice != "fixed":
                continue
            c = row.contract
            seat = _row_seat(row)
            # 1.0 made, 0.0 failed, NaN given up
            answers[(c.name, seat, row.partner)][row.trump] = np.asarray(row.made[0], dtype=float)
        for (name, seat, partner), by_trump in answers.items():
            c = rs.contract(name)
            anyone = _any_made(list(by_trump.values()))
            if c.partnership and partner is not None:
                values[f"{name}_{play_seat_str(partner)}"][idx, seat] = _status(anyone)
            elif _is_choice(rs, c):
                values[name][idx, seat] = _status(anyone)
                for t, made in by_trump.items():
                    values[f"{name}_{trump_str(t)}"][idx, seat] = _status(made)
                suits = [t for t in by_trump if t < 4]
                if suits:
                    longest = _longest_eligible(lengths[idx, seat], honours[idx, seat], suits)
                    stacked = np.zeros((idx.size, 4), dtype=float)
                    for t in suits:
                        stacked[:, t] = by_trump[t]
                    values[f"{name}_long"][idx, seat] = _status(
                        stacked[np.arange(idx.size), longest]
                    )
            else:
                (made,) = by_trump.values()
                values[name][idx, seat] = _status(made)
    data: dict[str, Any] = {
        "deal": np.repeat(np.arange(first_index, first_index + n, dtype=np.int64), 4),
        "seat": pd.Categorical(np.tile(np.array(PLAY_SEATS), n), categories=list(PLAY_SEATS)),
        "turnup": np.repeat(np.full(n, -1, dtype=np.int8) if tu is None else tu.astype(np.int8), 4),
    }
    for name in FEATURES:
        data[name] = feats[name].reshape(-1)
    unsolved: list[list[str]] = [[] for _ in range(4 * n)]
    for col, _, _ in cols:
        v = values[col].reshape(-1)
        data[col] = pd.array(np.where(v < 0, False, v > 0), dtype="boolean")
        data[col][v < 0] = pd.NA
        for i in np.flatnonzero(v == -2):
            unsolved[i].append(col)
    data["unsolved"] = [",".join(u) for u in unsolved]
    frame = pd.DataFrame(data)
    timings = {
        "seconds": dict(model.seconds),
        "deals": {k: float(v) for k, v in model.calls.items()},
        "reused": reused,
    }
    return frame, timings


def evaluate_chunk(
    seed: int,
    start: int,
    n: int,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
    play_model: str | PlayModel = "double-dummy",
    max_question_positions: int | None = None,
    reuse: tuple[pd.DataFrame, RuleSet | str] | None = None,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Deal and evaluate deals ``start .. start+n-1`` of the run ``seed`` (the unit of work).

    Returns the frame of :func:`evaluate_deals` and its timings, with ``"wall"`` (seconds).
    ``reuse``: the same chunk of a run under another rule set (see :func:`evaluate_deals`).
    """
    t0 = time.perf_counter()
    rs = load_rules(rules)
    deals = deals_at(seed, start, n)
    turnups = turnup_cards(seed, start, deals) if rs.turnup else None
    frame, timings = evaluate_deals(
        deals,
        turnups,
        rs,
        contracts=contracts,
        first_index=start,
        play_model=play_model,
        max_question_positions=max_question_positions,
        reuse=reuse,
    )
    timings["wall"] = time.perf_counter() - t0
    return frame, timings
