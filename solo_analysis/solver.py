"""Double-dummy solver for Solo Whist.

Given all four hands (13 cards each, or an ending where every hand holds the same
number of cards), the trump suit or no trump, the seat on lead and the declarer
side, :func:`solve` returns the number of tricks the declarer side takes when
every player plays perfectly with all cards visible, or answers the faster
question "can the side take at least ``target`` tricks?".

* Normal contracts (Prop-Cop, Solo, Abundance, Royal Abundance, Declared, slams):
  the declarer side maximises its tricks and the other side minimises them.  The
  declarer side is one seat, or two seats (Prop-Cop partners, adjacent or opposite).
* Misère contracts (``misere=True``): exactly one declarer, who minimises his
  tricks while the other three maximise them; ``target`` then asks "can the
  declarer hold himself to at most ``target`` tricks?".

:func:`solve_batch` solves a whole array of deals (the sampler's output) in
parallel numba threads with the GIL released; results do not depend on the
number of threads.  :func:`solve_questions` asks several questions of the same
deals in one such run.

Seats are 0..3 clockwise.  For a :class:`~solo_analysis.cards.Deal` they are
N E S W; for a sampler array they are eldest, second, third, dealer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, Literal, NamedTuple, overload

import numpy as np

from . import _solver
from .cards import Deal, parse_seat, parse_trump
from .errors import DealError, SeatError
from .sampler import PLAY_SEATS

__all__ = [
    "solve",
    "solve_batch",
    "solve_questions",
    "Question",
    "solve_leads",
    "parse_declarers",
    "search_nodes",
]

_TT_BITS = _solver.TT_BITS_DEFAULT
#: a batch of fewer than this many tasks a thread runs on fewer threads (see _run_tasks)
_CHUNK = 8


def _parse_play_seat(seat: str | int) -> int:
    """A seat as N/E/S/W (0..3), or eldest/second/third/dealer (0..3), or an int."""
    if isinstance(seat, str) and seat.strip().lower() in PLAY_SEATS:
        return PLAY_SEATS.index(seat.strip().lower())
    return parse_seat(seat)


def parse_declarers(declarers: str | int | Iterable[str | int]) -> tuple[int, ...]:
    """Parse a declarer side: ``"N"``, ``"NS"``, ``"NE"``, ``0``, ``(0, 2)``, ``["eldest"]``.

    Returns
    -------
    tuple of int
        The seats (0..3), sorted: one (solo contracts) or two (Prop-Cop) of them; a
        three-seat side (a whole defence) is accepted too.

    Raises
    ------
    SeatError
        For an unknown seat, a repeated seat, or a side of no or four seats.
    """
    items: list[str | int]
    if isinstance(declarers, str):
        text = declarers.strip()
        if text.lower() in PLAY_SEATS:
            items = [text]
        elif "," in text or " " in text or "+" in text:
            items = [t for t in text.replace("+", ",").replace(" ", ",").split(",") if t]
        else:
            items = list(text)
    elif isinstance(declarers, int | np.integer):
        items = [int(declarers)]
    else:
        items = list(declarers)
    try:
        seats = [_parse_play_seat(x) for x in items]
    except SeatError:
        raise SeatError(
            f"invalid declarer side {declarers!r}: expected one or two seats such as 'N', 'NS', 'NE'"
        ) from None
    if len(set(seats)) != len(seats):
        raise SeatError(f"invalid declarer side {declarers!r}: a seat is repeated")
    if not 1 <= len(seats) <= 3:
        raise SeatError(
            f"invalid declarer side {declarers!r}: expected one to three seats, got {len(seats)}"
        )
    return tuple(sorted(seats))


def _side_mask(seats: tuple[int, ...], misere: bool, declarers: Any) -> int:
    if misere and len(seats) != 1:
        raise SeatError(f"misère has exactly one declarer, got {declarers!r}")
    mask = 0
    for s in seats:
        mask |= 1 << s
    return mask


def _check_target(target: int | None, n_cards: int) -> int:
    if target is None:
        return -1
    if isinstance(target, bool) or not isinstance(target, int | np.integer):
        raise DealError(f"invalid target {target!r}: expected an int of tricks")
    if not 0 <= target <= n_cards:
        raise DealError(f"invalid target {target!r}: expected 0..{n_cards} tricks")
    return int(target)


def _check_max_nodes(max_nodes: int | None) -> int:
    """0 for no limit, else the positive node budget."""
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int | np.integer) or max_nodes < 1:
        raise DealError(f"invalid max_nodes {max_nodes!r}: expected a positive int or None")
    return int(max_nodes)


def _prepare(
    deal: Deal | str, trump: Any, leader: Any, declarers: Any, misere: bool
) -> tuple[Deal, int, int, int, np.ndarray]:
    """Validate a single-deal question: (deal, trump, leader, side mask, hand masks)."""
    if not isinstance(deal, Deal):
        deal = Deal.from_pbn(deal)
    tr = parse_trump(trump)
    ld = parse_seat(leader)
    side = _side_mask(parse_declarers(declarers), misere, declarers)
    masks = np.array([h.mask for h in deal], dtype=np.int64)
    return deal, tr, ld, side, masks


class _Workspace(threading.local):
    """Per-thread transposition table and buffers for the single-deal path."""

    def __init__(self) -> None:
        infos, indexes, moves, scores = _solver.new_tables(1, _TT_BITS)
        self.tt = (infos[0], indexes[0])
        self.moves = moves[0]
        self.scores = scores[0]


_WS = _Workspace()


@overload
def solve(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: str | Iterable[str | int],
    misere: bool = ...,
    target: None = ...,
) -> int: ...
@overload
def solve(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: str | Iterable[str | int],
    misere: bool = ...,
    target: int,
) -> bool: ...


def solve(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: str | Iterable[str | int],
    misere: bool = False,
    target: int | None = None,
) -> int | bool:
    """Solve one deal double-dummy.

    Parameters
    ----------
    deal : Deal or str
        The four hands, as a :class:`~solo_analysis.cards.Deal` or a PBN deal string
        such as ``"N:AKQ.JT9.876.5432 ..."``.  Every hand holds the same number of cards.
    trump : {"S", "H", "D", "C", None, "NT"}
        The trump suit, or ``None``/``"NT"`` for no trump.
    leader : {"N", "E", "S", "W"}
        The seat that leads to the first trick.
    declarers : str
        The declarer side: one seat (``"N"``) or two (``"NS"``, ``"NE"``).
    misere : bool, default False
        Misère: the (single) declarer minimises his tricks, the others maximise them.
    target : int, optional
        Ask a yes/no question instead of the exact count: normal contracts "can the
        side take at least ``target`` tricks?", misère "can the declarer hold himself
        to at most ``target`` tricks?".

    Returns
    -------
    int or bool
        The declarer side's tricks under perfect play, or the answer to ``target``.

    Raises
    ------
    DealError, CardError, DuplicateCardError, CardCountError
        For a malformed deal or target.
    TrumpError, SeatError
        For an unknown trump, seat, or declarer side (misère takes exactly one seat).

    Examples
    --------
    >>> solve("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    ...       trump="S", leader="E", declarers="N")
    13
    """
    deal, tr, ld, side, masks = _prepare(deal, trump, leader, declarers, misere)
    tgt = _check_target(target, deal.n_cards)
    ws = _WS
    r = _solver.solve_position(
        masks, tr, ld, side, bool(misere), tgt, ws.tt, ws.moves, ws.scores, 0
    )
    return bool(r) if tgt >= 0 else int(r)


def search_nodes(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: str | Iterable[str | int],
    misere: bool = False,
    target: int,
) -> tuple[bool, int, int]:
    """The answer of :func:`solve` to a ``target`` question and the size of its search.

    A diagnostic for ``scripts/bench_solver.py``: one zero-window search, no node limit.
    Arguments as for :func:`solve`.

    Returns
    -------
    (bool, int, int)
        The answer; the positions the search entered (one per card play tried); and the
        trick-boundary positions among them, the starting position left out (what DDS counts
        in ``futureTricks.nodes``: one per completed trick searched).
    """
    deal, tr, ld, side, masks = _prepare(deal, trump, leader, declarers, misere)
    tgt = _check_target(target, deal.n_cards)
    if tgt < 0:
        raise DealError("search_nodes needs a target")
    ws = _WS
    ok, nodes, boundaries = _solver.count_nodes(
        masks, tr, ld, side, bool(misere), tgt, ws.tt, ws.moves, ws.scores
    )
    return bool(ok), int(nodes), int(boundaries) - 1


def solve_leads(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: str | Iterable[str | int],
    misere: bool = False,
) -> dict[int, int]:
    """Double-dummy result of every card the leader may lead to the first trick.

    Parameters
    ----------
    deal, trump, leader, declarers, misere
        As for :func:`solve`.

    Returns
    -------
    dict of int to int
        For each card code in the leader's hand (in :attr:`Hand.codes` order), the
        declarer side's tricks when that card is led and everyone then plays
        perfectly.  The best lead for the leader's side is the maximum (declarer
        side leading) or minimum (defence leading) of these; for misère the roles
        are reversed.  Cards equivalent in rank (no other hand's card between them)
        share one search.

    Raises
    ------
    As for :func:`solve`.
    """
    deal, tr, ld, side, masks = _prepare(deal, trump, leader, declarers, misere)
    others = int(masks.sum()) - int(masks[ld])  # disjoint masks: sum == union
    ws = _WS
    out: dict[int, int] = {}
    previous: tuple[int, int] | None = None  # (card, tricks) of the card just above
    for card in deal[ld].codes:  # spades first, high to low within a suit
        if previous is not None and previous[0] // 13 == card // 13:
            between = others & (((1 << previous[0]) - 1) ^ ((1 << (card + 1)) - 1))
            if between == 0:
                out[card] = previous[1]
                previous = (card, previous[1])
                continue
        tricks = int(
            _solver.solve_after_lead(
                masks, tr, ld, card, side, bool(misere), ws.tt, ws.moves, ws.scores
            )
        )
        out[card] = tricks
        previous = (card, tricks)
    return out


def solve_batch(
    deals: np.ndarray,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: str | int | Iterable[str | int],
    misere: bool = False,
    target: int | None = None,
    max_nodes: int | None = None,
) -> np.ndarray:
    """Solve many deals in parallel (numba threads, GIL released).

    Parameters
    ----------
    deals : numpy.ndarray
        Integer array of card codes, shape ``(n, 4, k)``: axis 1 is the four seats
        clockwise (N E S W, or eldest..dealer for the sampler's arrays), each hand
        ``k`` cards (1..13).  A single deal of shape ``(4, k)`` is accepted too.
    trump, leader, declarers, misere, target
        As for :func:`solve`; seats may also be ints 0..3 or the play-order names
        ``"eldest"``, ``"second"``, ``"third"``, ``"dealer"``; trump may be 0..4.
    max_nodes : int, optional
        Give up on a deal once its search has visited this many positions (for one
        answer: all the zero-window searches an exact count takes).  ``None``: no
        limit, every answer is exact.  The solver visits a few million positions a
        second on one thread; almost every full deal needs far fewer than a million.

    Returns
    -------
    numpy.ndarray
        ``int8`` tricks per deal, or ``bool`` answers when ``target`` is given.  With
        ``max_nodes``, always ``int8``: the tricks, or 1/0 for ``target`` questions,
        and -1 for the deals given up on.

    Raises
    ------
    DealError
        For a malformed array (shape, codes out of 0..51, a card dealt twice).
    TrumpError, SeatError
        As for :func:`solve`.
    """
    (out,) = solve_questions(
        deals, [Question(trump, leader, declarers, misere, target)], max_nodes=max_nodes
    )
    if max_nodes is not None:
        return out
    return out.astype(bool) if target is not None else out


def _deal_masks(deals: np.ndarray) -> tuple[np.ndarray, int]:
    """Check a deals array (``(n, 4, k)`` or ``(4, k)`` card codes); its bitmasks and ``k``."""
    arr = np.asarray(deals)
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1] != 4 or not 1 <= arr.shape[2] <= 13:
        raise DealError(
            f"invalid deals array of shape {np.shape(deals)}: expected (n, 4, k), k in 1..13"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise DealError(f"invalid deals array of dtype {arr.dtype}: expected integer card codes")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise DealError("invalid deals array: card codes must be 0..51")
    masks = _solver.codes_to_masks(arr.astype(np.int8, copy=False))
    k = arr.shape[2]
    if arr.shape[0] and not np.all(_solver.popcount_rows(masks) == 4 * k):
        bad = int(np.argmin(_solver.popcount_rows(masks) == 4 * k))
        raise DealError(f"invalid deals array: deal {bad} holds a card twice")
    return masks, k


def _run_tasks(
    masks: np.ndarray,
    deal: np.ndarray,
    trump: np.ndarray,
    leader: np.ndarray,
    side: np.ndarray,
    misere: np.ndarray,
    target: np.ndarray,
    budget: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Run :func:`_solver.solve_many` on the tasks with the numba threads (int8 answers and
    int64 positions searched per task)."""
    import numba

    # A batch of a few tasks stays on one thread (waking the others costs more).  The workers
    # take the tasks one by one (see solve_many): numba's own chunking is switched off, so
    # that its prange over the workers gives each worker a thread.
    threads = numba.get_num_threads()
    use = max(1, min(threads, -(-deal.shape[0] // _CHUNK)))
    previous = numba.set_parallel_chunksize(0)
    numba.set_num_threads(use)
    try:
        return _solver.solve_many(
            masks,
            deal,
            trump,
            leader,
            side,
            misere,
            target,
            *_solver.new_tables(use, _TT_BITS),
            budget,
        )
    finally:
        numba.set_num_threads(threads)
        numba.set_parallel_chunksize(previous)


class Question(NamedTuple):
    """One question for :func:`solve_questions`: the arguments of :func:`solve_batch` for a
    whole array of deals, and ``subset``, the indices of the deals to ask it on (``None``: all).
    """

    trump: str | int | None
    leader: str | int
    declarers: str | int | tuple[int, ...]
    misere: bool = False
    target: int | None = None
    subset: np.ndarray | None = None


@overload
def solve_questions(
    deals: np.ndarray,
    questions: Iterable[Question],
    *,
    max_nodes: int | None = ...,
    return_positions: Literal[False] = ...,
) -> list[np.ndarray]: ...


@overload
def solve_questions(
    deals: np.ndarray,
    questions: Iterable[Question],
    *,
    max_nodes: int | None = ...,
    return_positions: Literal[True],
) -> tuple[list[np.ndarray], list[np.ndarray]]: ...


def solve_questions(
    deals: np.ndarray,
    questions: Iterable[Question],
    *,
    max_nodes: int | None = None,
    return_positions: bool = False,
) -> list[np.ndarray] | tuple[list[np.ndarray], list[np.ndarray]]:
    """Ask several questions about the same deals in one parallel run.

    Equivalent to one :func:`solve_batch` call per question, but all (question, deal) pairs go
    to the numba threads together, so the threads wait for the slowest answer once rather
    than once per question (the Monte Carlo advice asks a dozen questions of each batch).

    Parameters
    ----------
    deals : numpy.ndarray
        Card codes, shape ``(n, 4, k)`` (as for :func:`solve_batch`).
    questions : iterable of Question
        What to ask, and on which deals.
    max_nodes : int, optional
        As for :func:`solve_batch`: give up on an answer after this many positions.
    return_positions : bool, default False
        Also return how many search positions each answer took (the measure of work that
        ``max_nodes`` caps; it depends on the deal and question alone, not on the threads).

    Returns
    -------
    list of numpy.ndarray
        One ``int8`` array per question, over its ``subset`` (or all deals), in order: tricks,
        or 1/0 for ``target`` questions; -1 where the search gave up (only with ``max_nodes``).
        With ``return_positions``, a pair: that list and a matching list of ``int64`` arrays
        of positions.

    Raises
    ------
    DealError, TrumpError, SeatError
        As for :func:`solve_batch`, or a ``subset`` index outside the deals.
    """
    masks, k = _deal_masks(deals)
    n = masks.shape[0]
    budget = _check_max_nodes(max_nodes)
    parts: list[tuple[np.ndarray, int, int, int, bool, int]] = []
    for q in questions:
        idx = (
            np.arange(n, dtype=np.int64)
            if q.subset is None
            else np.asarray(q.subset, dtype=np.int64)
        )
        if idx.ndim != 1 or (idx.size and (idx.min() < 0 or idx.max() >= n)):
            raise DealError(f"invalid question subset: expected indices of the {n} deals")
        seats = parse_declarers(q.declarers)
        parts.append(
            (
                idx,
                parse_trump(q.trump),
                _parse_play_seat(q.leader),
                _side_mask(seats, q.misere, q.declarers),
                bool(q.misere),
                _check_target(q.target, k),
            )
        )
    if not parts:
        return ([], []) if return_positions else []
    sizes = [p[0].size for p in parts]
    deal = np.concatenate([p[0] for p in parts])
    # deal by deal: the workers take the tasks in this order (solve_many), so slow and quick
    # questions alternate all along the queue, its end included, where a run of slow ones
    # would leave one thread working alone
    order = np.argsort(deal, kind="stable")
    answers, work = _run_tasks(
        masks,
        deal[order],
        np.repeat(np.array([p[1] for p in parts], dtype=np.int64), sizes)[order],
        np.repeat(np.array([p[2] for p in parts], dtype=np.int64), sizes)[order],
        np.repeat(np.array([p[3] for p in parts], dtype=np.int64), sizes)[order],
        np.repeat(np.array([p[4] for p in parts], dtype=np.bool_), sizes)[order],
        np.repeat(np.array([p[5] for p in parts], dtype=np.int64), sizes)[order],
        budget,
    )
    out = np.empty_like(answers)
    out[order] = answers
    split = np.cumsum(sizes)[:-1]
    if not return_positions:
        return np.split(out, split)
    positions = np.empty_like(work)
    positions[order] = work
    return np.split(out, split), np.split(positions, split)
