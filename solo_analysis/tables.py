"""Bidding-odds tables: how often random hands make each contract, by hand features.

A *run* deals ``deals`` uniformly random deals from ``seed`` and, for every deal and every
seat, solves every contract of a rule set double-dummy, played as the rules say.  It then
summarises the per-deal results into frequency tables (per seat and contract) and feature
tables (per contract, by the features players count), each cell with a 95 % Wilson interval.

Reproducibility
---------------
Deal ``i`` of a run is a pure function of ``(seed, i)``: its hands come from the sampler's
own per-index random stream (:class:`~solo_analysis.sampler.DealSampler`) and its turn-up is
a uniformly random card of the dealer's hand, chosen by a hash of ``(seed, i)``
(:func:`turnup_cards`).  The solver's answers do not depend on the numba thread count.  So
the results depend only on ``(seed, i)``: never on the thread count, the chunk size or the
executor (local threads or a dask.distributed cluster).

Chunks, resume and atomic files
-------------------------------
Chunk ``k`` covers the deal indices ``[k*size, (k+1)*size)`` (the last one may be shorter).
Each finished chunk is written to ``OUT/chunks/chunk-KKKKKK.parquet`` through a temporary file
that is flushed, ``fsync``-ed and renamed over the final name (``os.replace``, atomic), so a
killed run leaves either a complete chunk file or a temporary file that is never read.
``OUT/manifest.json`` records the seed, the rule set, the contracts and the chunk size; a
later run into the same directory resumes, skipping finished chunks, and refuses (with a
:class:`~solo_analysis.errors.TableError`) to mix in chunks of a different seed, rule set,
contract list or chunk size.  The deal count is not part of a run's identity: asking the same
directory for more deals extends the run (only a short last chunk is redone).

Outputs of a run (in ``OUT``)
-----------------------------
``deals.parquet``
    One row per deal and seat: ``deal`` (index), ``seat``, ``turnup`` (card code, -1 without a
    turn-up), the hand features (:data:`FEATURES`), and one nullable boolean column per
    double-dummy question (see :func:`result_columns`).
``contract_frequency.csv``
    Per seat, contract and variant: ``count``, ``makes``, ``share``, ``ci_low``, ``ci_high``, ``thin``.
``features_<name>.csv``
    The feature tables of :data:`FEATURE_TABLES`, per seat and pooled over seats (``seat = all``).
``metadata.json``
    ``deals``, ``seed``, ``rules``, ``version``, ``created``, ``command``, ``chunk_size``,
    throughput and where the solver time went.

Contracts played as the rules say
---------------------------------
* Fixed trump (turn-up suit, or none for the misères): one column, e.g. ``solo``.
* Declarer's choice (Abundance, Abundance Declared, with the turn-up suit excluded where the
  rule set says "a new suit"): one column per denomination, e.g. ``abundance_H`` (null where
  the suit is not eligible), plus ``abundance`` = makeable in **at least one** eligible
  denomination (double-dummy hindsight: an upper bound on what a declarer who must name the
  suit first achieves) and ``abundance_long`` = makeable in the declarer's longest eligible
  suit (ties: more A/K/Q/J, then S, H, D, C), a rule a player can follow at the table.
* Prop-Cop: one column per partner seat, e.g. ``prop_third`` (null on the partner's own row);
  where the partnership names trump (no turn-up), makeable in at least one suit.
* Misère and Spread Misère are the same double-dummy problem (solved once).

Encodings: seats are play-order indices 0..3 = ``PLAY_SEATS`` (eldest, second, third,
dealer); cards are codes ``suit*13 + rank`` (suits S H D C, ranks 2..A); trumps 0..4 = S H D C NT.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import __version__
from ._questions import Query, Row, build_rows, denominations, solve_rows
from .advice import PLAY_MODELS, PlayModel, wilson_interval
from .errors import TableError
from .rules import RuleSet, load_rules
from .rules import rules_from_toml as _rules_from_toml
from .sampler import PLAY_SEATS, DealSampler

__all__ = [
    "FEATURES",
    "FEATURE_TABLES",
    "DEFAULT_CHUNK_SIZE",
    "THIN",
    "hand_features",
    "turnup_cards",
    "deals_at",
    "result_columns",
    "evaluate_deals",
    "evaluate_chunk",
    "contract_frequencies",
    "feature_table",
    "prop_pairs",
    "feature_tables",
    "run_tables",
    "load_run",
    "TableRun",
]

# --- tunables (one place) -----------------------------------------------------------------
#: deals per chunk (one Parquet file, one unit of work for an executor)
DEFAULT_CHUNK_SIZE: int = 100
#: a table cell with fewer hands than this is flagged ``thin``
THIN: int = 30
#: how long to wait for a dask scheduler to answer
SCHEDULER_TIMEOUT: str = "10s"
#: version of the chunk / manifest layout; a run directory of another layout is refused
FORMAT: int = 1

_SUIT_TEXT = ("S", "H", "D", "C", "NT")  # trump code 0..4 -> column suffix
_JACK = 9  # rank index of the jack (ranks 0..12 = 2..A)
_SIX = 4  # rank index of the six
_TURNUP_SALT = 0x7475726E7570C0DE  # separates the turn-up hash from the sampler's streams
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1

#: hand features (per seat), all small ints; the trump ones are -1 without a turn-up
FEATURES: dict[str, str] = {
    "hcp": "Milton points, A4 K3 Q2 J1",
    "high_cards": "cards J or higher (A, K, Q, J)",
    "low_cards": "cards 6 or lower (2 to 6)",
    "aces": "aces",
    "kings": "kings",
    "voids": "suits with no card",
    "singletons": "suits with one card",
    "long_len": "length of the longest suit",
    "long_suit": "the longest suit, 0..3 = S H D C (ties: more A/K/Q/J, then S H D C)",
    "long_honours": "A, K, Q, J held in the longest suit",
    "second_len": "length of the second-longest suit",
    "trump_len": "cards of the turn-up suit",
    "trump_honours": "A, K, Q, J of the turn-up suit held",
    "trump_top": "unbroken top trumps from the ace (0 without the ace, 2 for AK...)",
}

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

# --- deals and turn-ups ---------------------------------------------------------------------


def _mix64(z: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser on a uint64 array (wrap-around intended)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def turnup_cards(seed: int, start: int, deals: np.ndarray) -> np.ndarray:
    """The turn-up of each deal: a uniformly random card of the dealer's hand.

    Parameters
    ----------
    seed : int
        The run's seed, ``0 <= seed < 2**64``.
    start : int
        Index of the first deal of ``deals`` in the run.
    deals : numpy.ndarray
        ``int8[n, 4, 13]`` in play order (the dealer is seat 3).

    Returns
    -------
    numpy.ndarray
        ``int8[n]`` card codes.  Deal ``start + i`` takes position ``h % 13`` of the dealer's
        hand, ``h`` a splitmix64 hash of ``(seed, start + i)``: a pure function of the index,
        uniform up to a bias below ``2**-59``.
    """
    n = deals.shape[0]
    base = ((seed ^ _TURNUP_SALT) * _GOLDEN) & _MASK64
    with np.errstate(over="ignore"):
        idx = np.arange(start, start + n, dtype=np.uint64)
        h = _mix64(_mix64(np.uint64(base) + idx * np.uint64(_GOLDEN)))
    pos = (h % np.uint64(13)).astype(np.int64)
    return deals[np.arange(n), 3, pos].astype(np.int8)


def deals_at(seed: int, start: int, n: int) -> np.ndarray:
    """Random deals number ``start .. start+n-1`` of the stream of ``seed``, ``int8[n, 4, 13]``.

    The same as ``random_deals(start + n, seed)[start:]`` without dealing the first ``start``.
    """
    deals, _ = DealSampler(None, seat=None, turnup=None, seed=seed).candidates(start, n)
    return deals  # no constraints: every candidate is a deal


# --- hand features --------------------------------------------------------------------------


def hand_features(deals: np.ndarray, turnups: np.ndarray | None) -> dict[str, np.ndarray]:
    """The :data:`FEATURES` of every hand.

    Parameters
    ----------
    deals : numpy.ndarray
        ``int[n, 4, 13]`` card codes (any order within a hand).
    turnups : numpy.ndarray or None
        ``int[n]`` turn-up card codes, or ``None`` (no turn-up: trump features are -1).

    Returns
    -------
    dict of str to numpy.ndarray
        Feature name -> ``int8[n, 4]``.
    """
    d = np.asarray(deals).astype(np.int64)
    n = d.shape[0]
    suit = d // 13
    rank = d % 13
    lengths = np.stack([(suit == s).sum(axis=-1) for s in range(4)], axis=-1)  # [n,4,4]
    honours = np.stack([((suit == s) & (rank >= _JACK)).sum(axis=-1) for s in range(4)], axis=-1)
    # longest suit: length first, then honours, then the lower suit index
    score = lengths * 100 + honours * 10 + (3 - np.arange(4))
    long_suit = score.argmax(axis=-1)
    pick = np.take_along_axis
    out = {
        "hcp": np.maximum(rank - 8, 0).sum(axis=-1),
        "high_cards": (rank >= _JACK).sum(axis=-1),
        "low_cards": (rank <= _SIX).sum(axis=-1),
        "aces": (rank == 12).sum(axis=-1),
        "kings": (rank == 11).sum(axis=-1),
        "voids": (lengths == 0).sum(axis=-1),
        "singletons": (lengths == 1).sum(axis=-1),
        "long_len": lengths.max(axis=-1),
        "long_suit": long_suit,
        "long_honours": pick(honours, long_suit[..., None], axis=-1)[..., 0],
        "second_len": np.sort(lengths, axis=-1)[..., 2],
    }
    if turnups is None:
        for name in ("trump_len", "trump_honours", "trump_top"):
            out[name] = np.full((n, 4), -1)
    else:
        ts = (np.asarray(turnups).astype(np.int64) // 13)[:, None, None]  # [n,1,1]
        in_trump = suit == ts
        out["trump_len"] = in_trump.sum(axis=-1)
        out["trump_honours"] = (in_trump & (rank >= _JACK)).sum(axis=-1)
        held = np.zeros((n, 4, 13), dtype=bool)
        nn, ss, _ = np.nonzero(in_trump)
        held[nn, ss, rank[in_trump]] = True
        # unbroken run from the ace down: count leading True from rank 12
        run = np.cumprod(held[..., ::-1], axis=-1).sum(axis=-1)
        out["trump_top"] = run
    return {k: np.asarray(v, dtype=np.int8) for k, v in out.items()}


# --- per-deal evaluation --------------------------------------------------------------------


def _select(rules: RuleSet, contracts: Iterable[str] | None) -> tuple[str, ...]:
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
    for name in _select(rs, contracts):
        c = rs.contract(name)
        if c.partnership:
            cols.extend((f"{name}_{p}", name, p) for p in PLAY_SEATS)
        elif _is_choice(rs, c):
            cols.append((name, name, "any"))
            cols.append((f"{name}_long", name, "long"))
            cols.extend(
                (f"{name}_{_SUIT_TEXT[t]}", name, _SUIT_TEXT[t]) for t in denominations(c, None)
            )
        else:
            cols.append((name, name, ""))
    return cols


class _TimedModel(PlayModel):
    """Wraps a play model and adds up the wall time of each kind of solver question.

    A round of questions (:meth:`ask`) goes to the model in one call per kind, so the model
    can spread each call's deals x questions over its threads and the time still splits by kind.
    """

    def __init__(self, base: PlayModel, labels: dict[tuple[bool, int, bool], str]) -> None:
        self.base = base
        self.name = base.name
        self.labels = labels
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def tricks(self, deals, *, trump, leader, side, misere):  # noqa: D102
        return self.base.tricks(deals, trump=trump, leader=leader, side=side, misere=misere)

    def makes(self, deals, *, trump, leader, side, misere, target):  # noqa: D102
        return self.ask(deals, [Query(trump, leader, tuple(side), misere, target)])[0]

    def _label(self, q: Query) -> str:
        if q.target is None:
            return "tricks"
        return self.labels.get(
            (bool(q.misere), int(q.target), len(q.side) > 1), f"target {q.target}"
        )

    def ask(self, deals, questions):  # noqa: D102
        out: list[np.ndarray | None] = [None] * len(questions)
        kinds: dict[str, list[int]] = defaultdict(list)
        for i, q in enumerate(questions):
            kinds[self._label(q)].append(i)
        n = int(np.shape(deals)[0])
        for label, idx in kinds.items():
            t0 = time.perf_counter()
            answers = self.base.ask(deals, [questions[i] for i in idx])
            self.seconds[label] += time.perf_counter() - t0
            self.calls[label] += sum(
                n if questions[i].subset is None else len(questions[i].subset) for i in idx
            )
            for i, answer in zip(idx, answers):
                out[i] = answer
        return out  # type: ignore[return-value]


class _KnownAnswers(PlayModel):
    """Wraps a play model; answers "does it make?" questions already answered in another run.

    ``known`` maps ``(trump, leader, side, misere, target)`` to the status of that question on
    every deal of the batch (1 made, 0 failed, -1 given up); other questions go to ``base``.
    """

    def __init__(self, base: PlayModel, known: dict[tuple, np.ndarray]) -> None:
        self.base = base
        self.name = base.name
        self.known = known
        self.reused = 0

    def tricks(self, deals, *, trump, leader, side, misere):  # noqa: D102
        return self.base.tricks(deals, trump=trump, leader=leader, side=side, misere=misere)

    def makes(self, deals, *, trump, leader, side, misere, target):  # noqa: D102
        return self.base.makes(
            deals, trump=trump, leader=leader, side=side, misere=misere, target=target
        )

    def ask(self, deals, questions):  # noqa: D102
        out: list[np.ndarray | None] = [None] * len(questions)
        rest = []
        for i, q in enumerate(questions):
            got = (
                None
                if q.target is None
                else self.known.get((q.trump, q.leader, q.side, q.misere, q.target))
            )
            if got is None:
                rest.append(i)
            else:
                out[i] = got if q.subset is None else got[q.subset]
                self.reused += int(out[i].size)
        if rest:
            for i, answer in zip(rest, self.base.ask(deals, [questions[i] for i in rest])):
                out[i] = answer
        return out  # type: ignore[return-value]


def _row_seat(row: Row) -> int:
    """The seat whose row this is (for Prop-Cop: the seat that is not the partner)."""
    return row.side[0] if row.partner is None else next(s for s in row.side if s != row.partner)


def _answer_column(rules: RuleSet, row: Row, turnup_suit: int | None) -> str | None:
    """The outcome column holding exactly this fixed row's answer (None: a column that
    combines several denominations, as Prop-Cop's where the partners name trump)."""
    c = row.contract
    if c.partnership:
        return (
            f"{c.name}_{PLAY_SEATS[row.partner]}"
            if len(denominations(c, turnup_suit)) == 1
            else None
        )
    if _is_choice(rules, c):
        return f"{c.name}_{_SUIT_TEXT[row.trump]}"
    return c.name


def _known_answers(
    reuse: tuple[pd.DataFrame, RuleSet], idx: np.ndarray, turnup_suit: int | None
) -> dict[tuple, np.ndarray]:
    """The questions another run's frame answers for deals ``idx`` (one turn-up suit)."""
    frame, rules = reuse
    unsolved = frame["unsolved"].to_numpy(dtype=object).reshape(-1, 4)[idx]
    known: dict[tuple, np.ndarray] = {}
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
            key = (row.trump, row.leader, row.side, row.contract.misere, row.contract.target)
            known[key] = status
    return known


def _play_model(play_model: str | PlayModel, max_nodes: int | None = None) -> PlayModel:
    if isinstance(play_model, PlayModel):
        return play_model
    if isinstance(play_model, str) and play_model.strip().lower() in PLAY_MODELS:
        return PLAY_MODELS[play_model.strip().lower()](max_nodes=max_nodes)
    raise TableError(f"unknown play model {play_model!r}; available: {', '.join(PLAY_MODELS)}")


def _question_labels(rules: RuleSet, names: Sequence[str]) -> dict[tuple[bool, int, bool], str]:
    """(misère, target, partnership) -> the contracts that ask that question, e.g. 'abundance/royal-abundance'."""
    groups: dict[tuple[bool, int, bool], list[str]] = defaultdict(list)
    for name in names:
        c = rules.contract(name)
        groups[(c.misere, c.target, c.partnership)].append(name)
    return {k: "/".join(v) for k, v in groups.items()}


def _any_made(parts: list[np.ndarray]) -> np.ndarray:
    """Per deal: 1.0 if any part made, else NaN if any was given up on, else 0.0."""
    stack = np.vstack(parts)
    out = np.where(np.isnan(stack).any(axis=0), np.nan, 0.0)
    return np.where((stack == 1.0).any(axis=0), 1.0, out)


def _status(made: np.ndarray) -> np.ndarray:
    """1.0 / 0.0 / NaN -> int8 1 / 0 / -2 (given up)."""
    return np.where(np.isnan(made), -2, made > 0).astype(np.int8)


def unsolved_mask(frame: pd.DataFrame, column: str) -> np.ndarray:
    """Rows of ``frame`` whose ``column`` outcome was given up on (see :func:`evaluate_deals`)."""
    if "unsolved" not in frame.columns:
        return np.zeros(len(frame), dtype=bool)
    padded = "," + frame["unsolved"].astype(str) + ","
    return padded.str.contains(f",{column},", regex=False).to_numpy(dtype=bool)


def _longest_eligible(
    lengths: np.ndarray, honours: np.ndarray, eligible: Sequence[int]
) -> np.ndarray:
    """Per hand, the longest suit among ``eligible`` (ties: more honours, then lower index)."""
    score = np.full(lengths.shape, -1, dtype=np.int64)
    for s in eligible:
        score[..., s] = lengths[..., s] * 100 + honours[..., s] * 10 + (3 - s)
    return score.argmax(axis=-1)


def evaluate_deals(
    deals: np.ndarray,
    turnups: np.ndarray | None,
    rules: RuleSet | str = "classic",
    *,
    contracts: Iterable[str] | None = None,
    first_index: int = 0,
    play_model: str | PlayModel = "double-dummy",
    max_nodes: int | None = None,
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
    max_nodes : int, optional
        Search positions the named play model may spend on one question of one deal; an
        answer it gives up on is null in its outcome column and named in ``unsolved``.
        ``None`` (default): every answer exact.
    reuse : (pandas.DataFrame, RuleSet or str), optional
        The frame this function returned for the same deals under another rule set (the
        same play model and ``max_nodes``), and that rule set.  A question it answers (the
        same trump, leader, declarer side, misère or not, and target, e.g. Solo under both
        ``classic`` and ``parlett``) takes its answer from there instead of being solved again.

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
    names = _select(rs, contracts)
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
    model = _TimedModel(_play_model(play_model, max_nodes), _question_labels(rs, names))
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
        [((d // 13 == s) & (d % 13 >= _JACK)).sum(axis=-1) for s in range(4)], axis=-1
    )
    only = frozenset(names)
    for ts in np.unique(suit_of):
        idx = np.flatnonzero(suit_of == ts)
        turnup_suit = None if ts < 0 else int(ts)
        rows = []
        for seat in range(4):
            rows.extend(build_rows(rs, seat, turnup_suit, only))
        if reuse is None:
            solve_rows(rows, d[idx], model, False)
        else:
            known = _KnownAnswers(model, _known_answers(reuse, idx, turnup_suit))
            solve_rows(rows, d[idx], known, False)
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
            if c.partnership:
                values[f"{name}_{PLAY_SEATS[partner]}"][idx, seat] = _status(anyone)
            elif _is_choice(rs, c):
                values[name][idx, seat] = _status(anyone)
                for t, made in by_trump.items():
                    values[f"{name}_{_SUIT_TEXT[t]}"][idx, seat] = _status(made)
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
    unsolved = [[] for _ in range(4 * n)]
    for col, _, _ in cols:
        v = values[col].reshape(-1)
        data[col] = pd.array(np.where(v < 0, False, v > 0), dtype="boolean")
        data[col][v < 0] = pd.NA
        for i in np.flatnonzero(v == -2):
            unsolved[i].append(col)
    data["unsolved"] = [",".join(u) for u in unsolved]
    frame = pd.DataFrame(data)
    timings = {"seconds": dict(model.seconds), "deals": {k: float(v) for k, v in model.calls.items()},
               "reused": reused}  # fmt: skip
    return frame, timings


def evaluate_chunk(
    seed: int,
    start: int,
    n: int,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
    play_model: str | PlayModel = "double-dummy",
    max_nodes: int | None = None,
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
        max_nodes=max_nodes,
        reuse=reuse,
    )
    timings["wall"] = time.perf_counter() - t0
    return frame, timings


# --- summaries ------------------------------------------------------------------------------


def _interval_columns(
    table: pd.DataFrame, thin: int, deff: np.ndarray | None = None
) -> pd.DataFrame:
    """share and its 95 % Wilson interval; ``unresolved`` hands widen it to both outcomes.

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
                {"seat": seat, "contract": contract, "variant": variant,
                 "count": int(v.size), "makes": int(v.astype(bool).sum()),
                 "unresolved": int((lost & at_seat).sum())}
            )  # fmt: skip
    return _interval_columns(pd.DataFrame.from_records(records), thin)


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
        for s, r, c in zip(g["seat"], g[row], g[column])
    ]
    return _interval_columns(g, thin, g["deff"].to_numpy())


def _design_effects(deal: np.ndarray, f: pd.DataFrame, row: str, column: str) -> dict[tuple, float]:
    """Per ``(row, column)`` cell of the pooled rows: the deal-clustered variance of the share
    over the binomial variance (at least 1; 1 where it cannot be estimated)."""
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
    out: dict[tuple, float] = {}
    for (r, c), x in cell.iterrows():
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
    names = set(_select(rs, contracts))
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


# --- files ----------------------------------------------------------------------------------


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _atomic_write(path: Path, write: Callable[[Any], None], binary: bool) -> None:
    """Write through ``path``'s temporary sibling, fsync it, then rename it over ``path``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(
            tmp, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8", "newline": ""})
        ) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    _fsync_dir(path.parent)


def _write_parquet(path: Path, frame: pd.DataFrame, meta: dict[str, Any] | None = None) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if meta:
        merged = dict(table.schema.metadata or {})
        merged[b"solo_analysis"] = json.dumps(meta, sort_keys=True).encode()
        table = table.replace_schema_metadata(merged)
    _atomic_write(path, lambda fh: pq.write_table(table, fh), binary=True)


def _write_text(path: Path, text: str) -> None:
    _atomic_write(path, lambda fh: fh.write(text), binary=False)


def _chunk_path(out: Path, k: int) -> Path:
    return out / "chunks" / f"chunk-{k:06d}.parquet"


def _chunk_done(path: Path, n: int) -> bool:
    """Whether ``path`` is a complete chunk of ``n`` deals (a shorter last chunk is redone)."""
    if not path.is_file():
        return False
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(path).num_rows == 4 * n
    except Exception:  # noqa: BLE001 - an unreadable file is not a finished chunk
        return False


def _manifest(
    seed: int,
    rules: RuleSet,
    names: Sequence[str],
    chunk_size: int,
    model: str,
    max_nodes: int | None = None,
) -> dict[str, Any]:
    return {
        "play_model": model,
        "max_nodes": max_nodes,
        "format": FORMAT,
        "seed": seed,
        "rules": rules.name,
        "rules_toml": rules.to_toml(),
        "contracts": list(names),
        "chunk_size": chunk_size,
    }


def _check_manifest(out: Path, manifest: dict[str, Any]) -> bool:
    """Compare with an existing manifest; True if there is one (a resume)."""
    path = out / "manifest.json"
    if not path.exists():
        return False
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TableError(f"cannot read the run manifest {str(path)!r}: {exc}") from None
    diffs = []
    for key in (
        "format",
        "seed",
        "rules",
        "chunk_size",
        "contracts",
        "play_model",
        "max_nodes",
        "rules_toml",
    ):
        if old.get(key) != manifest[key]:
            if key == "rules_toml":
                diffs.append("rule-set options")
            else:
                diffs.append(f"{key} {old.get(key)!r} there, {manifest[key]!r} here")
    if diffs:
        raise TableError(
            f"{str(out)!r} holds chunks of another run ({'; '.join(diffs)}): "
            "use another output directory or delete it"
        )
    return True


def _prepare_out(out: Path) -> None:
    try:
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        probe = out / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise TableError(
            f"cannot write to output directory {str(out)!r}: {exc.strerror or exc}"
        ) from None
    # temporary files of a killed run are never complete: remove them
    for stale in list((out / "chunks").glob(".*.tmp-*")) + list(out.glob(".*.tmp-*")):
        try:
            stale.unlink()
        except OSError:  # pragma: no cover - another process may own it
            pass


# --- the runner -----------------------------------------------------------------------------


@dataclass
class TableRun:
    """What :func:`run_tables` did and produced.

    Attributes
    ----------
    out : pathlib.Path
        The run directory.
    deals, seed, chunk_size : int
    rules : str
        Rule-set name.
    computed, skipped : list of int
        Chunks computed by this call, and chunks found finished and reused.
    throughput : float or None
        Deals per second over the chunks computed by this call (wall time of their
        evaluation), ``None`` if it computed none.
    frequencies : pandas.DataFrame
        :func:`contract_frequencies`.
    features : dict of str to pandas.DataFrame
        :func:`feature_tables`.
    metadata : dict
        What ``metadata.json`` holds.
    """

    out: Path
    deals: int
    seed: int
    rules: str
    chunk_size: int
    computed: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    throughput: float | None = None
    frequencies: pd.DataFrame | None = None
    features: dict[str, pd.DataFrame] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


def _check_int(value: Any, what: str, low: int, high: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or int(value) < low
        or (high is not None and int(value) >= high)
    ):
        bound = f">= {low}" if high is None else f"in [{low}, {high})"
        raise TableError(f"{what} must be an int {bound}, got {value!r}")
    return int(value)


def _stderr_progress(done: int, total: int, chunk: int, n_chunks: int, rate: float | None) -> None:
    eta = ""
    if rate and done < total:
        left = (total - done) / rate
        if left >= 1:
            eta = (
                f", about {left / 60:.0f} min left" if left >= 90 else f", about {left:.0f} s left"
            )
    speed = f", {rate:.3g} deals/s" if rate else ""
    line = f"table: {done}/{total} deals done (chunk {chunk + 1} of {n_chunks}){speed}{eta}"
    print(line, file=sys.stderr, flush=True)


def run_tables(
    deals: int,
    seed: int,
    out: str | os.PathLike[str],
    *,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    scheduler: str | None = None,
    threads: int | None = None,
    play_model: str | PlayModel = "double-dummy",
    progress: bool | Callable[..., None] = True,
    command: str | None = None,
    thin: int = THIN,
    max_nodes: int | None = None,
    reuse: str | os.PathLike[str] | None = None,
) -> TableRun:
    """Deal, solve and summarise ``deals`` random deals into ``out`` (resumable).

    Parameters
    ----------
    deals : int
        Number of deals (>= 1); deal indices ``0 .. deals-1``.
    seed : int
        ``0 <= seed < 2**64``.
    out : path
        Run directory (created); holds ``manifest.json``, ``chunks/`` and the outputs.
    rules : RuleSet or str, default "classic"
        A preset name, a ``.toml`` path or a :class:`~solo_analysis.rules.RuleSet`.
    contracts : iterable of str, optional
        Only these contracts; default all of the rule set.
    chunk_size : int, default DEFAULT_CHUNK_SIZE
        Deals per chunk.  Part of the run's identity: a resume must use the same size.
    scheduler : str, optional
        ``None``: this process, numba threads.  ``"local"``: start a dask ``LocalCluster``.
        Otherwise the address of a running dask.distributed scheduler (``"tcp://host:8786"``).
        Chunk files are written by this process in every case (workers need no shared disk).
    threads : int, optional
        numba threads for the local executor (default: all).
    play_model : str or PlayModel, default "double-dummy"
        How each deal is played; its ``name`` is part of the run's identity.  An instance
        sent to a dask cluster must be picklable.
    progress : bool or callable, default True
        ``True`` prints a line per chunk on stderr; a callable is called as
        ``progress(deals_done, deals, chunk, n_chunks, deals_per_second)``.
    command : str, optional
        Recorded in ``metadata.json`` (default: this process's command line).
    thin : int, default THIN
        Table cells with fewer hands are flagged ``thin``.
    max_nodes : int, optional
        Search positions the named play model may spend on one question of one deal (part of
        the run's identity).  Answers it gives up on are recorded as unsolved (the ``unsolved``
        column of ``deals.parquet``, the ``unresolved`` column of the tables, whose intervals
        then cover both outcomes), so a rare very hard deal cannot stall a long run.  ``None``
        (default): every answer exact.
    reuse : path, optional
        The directory of a run of **another rule set** with the same seed, chunk size, play
        model and ``max_nodes`` (finished or not).  For each chunk that run has finished, every
        question both rule sets ask (the same trump, leader, declarer side and target: Solo,
        Misère, Prop-Cop, ... under ``classic`` and ``parlett``) takes that run's answer
        instead of being solved again; the rest are solved.  The results are those of a run
        without ``reuse``, except that an answer given up on there (``max_nodes``) stays given
        up on.  Not part of the run's identity.

    Returns
    -------
    TableRun

    Raises
    ------
    TableError
        Bad ``deals``, ``seed``, ``chunk_size``, ``threads`` or play model; an unwritable
        ``out``; ``out`` holding chunks of a run with another seed, rule set, contract list,
        chunk size or play model; an unreachable scheduler; a ``reuse`` directory that is not a
        run of the same seed, chunk size, play model and ``max_nodes``.
    RuleSetError, ContractError
        An unknown rule set or contract.
    """
    deals = _check_int(deals, "deals", 1)
    seed = _check_int(seed, "seed", 0, 2**64)
    chunk_size = _check_int(chunk_size, "chunk size", 1)
    if threads is not None:
        threads = _check_int(threads, "threads", 1)
    rs = load_rules(rules)
    names = _select(rs, contracts)
    if max_nodes is not None:
        max_nodes = _check_int(max_nodes, "max_nodes", 1)
    model = _play_model(play_model, max_nodes)
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - pyarrow comes with the dev extra
        raise TableError(
            "odds tables are written as Parquet and need pyarrow: pip install pyarrow"
        ) from None
    out = Path(out)
    _prepare_out(out)
    manifest = _manifest(seed, rs, names, chunk_size, model.name, getattr(model, "max_nodes", None))
    donor = None if reuse is None else _reuse_source(Path(reuse), manifest)
    if not _check_manifest(out, manifest):
        _write_text(out / "manifest.json", json.dumps(manifest, indent=2) + "\n")

    n_chunks = (deals + chunk_size - 1) // chunk_size
    spans = [(k, k * chunk_size, min(chunk_size, deals - k * chunk_size)) for k in range(n_chunks)]
    todo = [s for s in spans if not _chunk_done(_chunk_path(out, s[0]), s[2])]
    run = TableRun(out=out, deals=deals, seed=seed, rules=rs.name, chunk_size=chunk_size)
    run.skipped = [k for k, _, _ in spans if k not in {t[0] for t in todo}]
    report: Callable[..., None] | None
    if progress is True:
        report = _stderr_progress
        if run.skipped:
            print(
                f"table: resuming, {len(run.skipped)} of {n_chunks} chunks already done",
                file=sys.stderr,
            )
    else:
        report = progress or None

    seconds: dict[str, float] = defaultdict(float)
    asked: dict[str, float] = defaultdict(float)
    busy = 0.0
    reused = 0
    done_deals = sum(n for k, _, n in spans if k in set(run.skipped))
    new_deals = 0
    t_start = time.perf_counter()

    def finish(k: int, start: int, n: int, frame: pd.DataFrame, timing: dict[str, Any]) -> None:
        nonlocal busy, done_deals, new_deals, reused
        meta = {"chunk": k, "start": start, "n": n, "seed": seed, "timing": timing}
        _write_parquet(_chunk_path(out, k), frame, meta)
        for q, s in timing["seconds"].items():
            seconds[q] += s
        for q, s in timing["deals"].items():
            asked[q] += s
        busy += timing["wall"]
        reused += timing.get("reused", 0)
        done_deals += n
        new_deals += n
        run.computed.append(k)
        if report is not None:
            elapsed = time.perf_counter() - t_start
            report(done_deals, deals, k, n_chunks, new_deals / elapsed if elapsed > 0 else None)

    executor = (
        "threads" if scheduler is None else ("dask-local" if scheduler == "local" else "dask")
    )
    if todo:
        if scheduler is None:
            _run_local(todo, seed, rs, names, model, threads, finish, donor)
        else:
            _run_dask(todo, seed, rs, names, model, scheduler, finish, donor)
    wall = time.perf_counter() - t_start

    frame = _merge(out, spans)
    total = _chunk_timings(out, spans)
    _write_parquet(out / "deals.parquet", frame)
    run.frequencies = contract_frequencies(frame, rs, names, thin)
    _write_text(
        out / "contract_frequency.csv", run.frequencies.to_csv(index=False, float_format="%.6g")
    )
    run.features = feature_tables(frame, rs, names, thin)
    for stem, table in run.features.items():
        _write_text(out / f"features_{stem}.csv", table.to_csv(index=False, float_format="%.6g"))
    run.throughput = new_deals / wall if new_deals and wall > 0 else None
    import numba

    run.metadata = {
        "deals": deals,
        "seed": seed,
        "rules": rs.name,
        "rules_toml": rs.to_toml(),
        "contracts": list(names),
        "version": __version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command
        if command is not None
        else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "chunk_size": chunk_size,
        "chunks": n_chunks,
        "chunks_computed": len(run.computed),
        "chunks_reused": len(run.skipped),
        "executor": executor,
        "numba_threads": numba.get_num_threads() if threads is None else threads,
        "throughput_deals_per_second": run.throughput,
        "throughput_note": "deals computed by this invocation / its wall time (all seats, all contracts)",
        "solver_seconds_by_question": {k: round(v, 3) for k, v in sorted(seconds.items())},
        "solver_deals_by_question": {k: int(v) for k, v in sorted(asked.items())},
        "chunk_seconds": round(busy, 3),
        "reused_from": None if donor is None else {"out": str(donor[0]), "rules": donor[1].name},
        "answers_reused": reused,
        "answers_reused_note": "answers (deal x seat x question) of this invocation taken from reused_from",
        "all_chunks": total,
        "wall_seconds": round(wall, 3),
        "play_model": model.name,
        "max_nodes": getattr(model, "max_nodes", None),
        "turnup": "a uniformly random card of the dealer's hand, from a hash of (seed, deal index)",
        "thin": thin,
        "features": FEATURES,
        "columns": {col: {"contract": c, "variant": v} for col, c, v in result_columns(rs, names)},
    }
    _write_text(
        out / "metadata.json", json.dumps(run.metadata, indent=2, ensure_ascii=False) + "\n"
    )
    return run


def _reuse_source(path: Path, manifest: dict[str, Any]) -> tuple[Path, RuleSet]:
    """Check that ``path`` is a run whose answers this run may reuse; its directory and rules."""
    try:
        other = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TableError(f"cannot reuse {str(path)!r}: no readable run manifest ({exc})") from None
    diffs = [f"{key} {other.get(key)!r} there, {manifest[key]!r} here"
             for key in ("format", "seed", "chunk_size", "play_model", "max_nodes") if other.get(key) != manifest[key]]  # fmt: skip
    if diffs:
        raise TableError(f"cannot reuse {str(path)!r}: another kind of run ({'; '.join(diffs)})")
    try:
        rules = _rules_from_toml(other["rules_toml"], str(path / "manifest.json"))
    except (KeyError, TypeError):
        raise TableError(f"cannot reuse {str(path)!r}: its manifest names no rule set") from None
    return path, rules


def _reuse_chunk(
    donor: tuple[Path, RuleSet] | None, k: int, n: int
) -> tuple[pd.DataFrame, RuleSet] | None:
    """Chunk ``k`` of the run to reuse, if that run has finished it."""
    if donor is None or not _chunk_done(_chunk_path(donor[0], k), n):
        return None
    return pd.read_parquet(_chunk_path(donor[0], k)), donor[1]


def _run_local(
    todo: Sequence[tuple[int, int, int]],
    seed: int,
    rules: RuleSet,
    names: Sequence[str],
    model: PlayModel,
    threads: int | None,
    finish: Callable[..., None],
    donor: tuple[Path, RuleSet] | None = None,
) -> None:
    import numba

    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        for k, start, n in todo:
            frame, timing = evaluate_chunk(
                seed, start, n, rules, names, model, reuse=_reuse_chunk(donor, k, n)
            )
            finish(k, start, n, frame, timing)
    finally:
        numba.set_num_threads(before)


def _run_dask(
    todo: Sequence[tuple[int, int, int]],
    seed: int,
    rules: RuleSet,
    names: Sequence[str],
    model: PlayModel,
    scheduler: str,
    finish: Callable[..., None],
    donor: tuple[Path, RuleSet] | None = None,
) -> None:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is an optional dependency
        raise TableError(
            "--scheduler needs dask.distributed: pip install 'solo-analysis[cluster]'"
        ) from None
    cluster = None
    try:
        if scheduler == "local":
            # one single-threaded worker process per core: chunks run side by side, and
            # numba inside each worker is held to one thread so the cores are not oversubscribed
            cluster = LocalCluster(
                n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"},
            )  # fmt: skip
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise TableError(f"cannot reach dask scheduler {scheduler!r}: {exc}") from None
        try:
            futures = {
                client.submit(evaluate_chunk, seed, start, n, rules, list(names), model,
                              reuse=_reuse_chunk(donor, k, n), pure=False,
                              key=f"solo-table-{seed}-{k}-{n}-{os.getpid()}-{time.time_ns()}"): (k, start, n)
                for k, start, n in todo
            }  # fmt: skip
            try:
                for fut in as_completed(futures):
                    k, start, n = futures[fut]
                    frame, timing = fut.result()
                    finish(k, start, n, frame, timing)
            finally:
                client.cancel(list(futures))
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _chunk_timings(out: Path, spans: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    """Solver time over every chunk of the run (this invocation's and earlier ones')."""
    import pyarrow.parquet as pq

    seconds: dict[str, float] = defaultdict(float)
    busy = 0.0
    for k, _, _ in spans:
        raw = (pq.read_schema(_chunk_path(out, k)).metadata or {}).get(b"solo_analysis")
        timing = json.loads(raw).get("timing", {}) if raw else {}
        for q, v in timing.get("seconds", {}).items():
            seconds[q] += v
        busy += timing.get("wall", 0.0)
    deals = sum(n for _, _, n in spans)
    return {
        "deals": deals,
        "chunk_seconds": round(busy, 3),
        "deals_per_chunk_second": deals / busy if busy > 0 else None,
        "solver_seconds_by_question": {q: round(v, 3) for q, v in sorted(seconds.items())},
        "note": "summed over chunks: with several workers this is compute time, not wall time",
    }


def _merge(out: Path, spans: Sequence[tuple[int, int, int]]) -> pd.DataFrame:
    frames = [pd.read_parquet(_chunk_path(out, k)) for k, _, _ in spans]
    frame = pd.concat(frames, ignore_index=True)
    frame["seat"] = pd.Categorical(frame["seat"].astype(str), categories=list(PLAY_SEATS))
    return frame


def load_run(out: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The merged per-deal frame and the metadata of a finished run directory.

    Raises
    ------
    TableError
        If ``out`` holds no finished run.
    """
    path = Path(out)
    try:
        meta = json.loads((path / "metadata.json").read_text(encoding="utf-8"))
        frame = pd.read_parquet(path / "deals.parquet")
    except (OSError, ValueError) as exc:
        raise TableError(f"{str(path)!r} holds no finished table run: {exc}") from None
    return frame, meta
