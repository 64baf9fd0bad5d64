"""One deal at a time: :func:`solve`, :func:`solve_leads`, and the search's diagnostics.

The diagnostics are :func:`search_positions` (an answer and the size of its search) and
:func:`move_order` (the order the search tries a position's moves in).

These run on the calling thread, each Python thread with its own transposition table (a
:class:`threading.local` workspace), so several threads may call them at once.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

from ..cards import DeclarersLike, card_str
from ..deal import Deal
from ..errors import DealError
from . import _kernels, _moves
from ._table import TT_BITS_DEFAULT
from .question import question_of
from .trick import play_trick

__all__ = ["move_order", "search_positions", "solve", "solve_leads"]


class _Workspace(threading.local):
    """A transposition table and move buffers of one Python thread."""

    def __init__(self) -> None:
        infos, indexes, moves, scores = _kernels.new_tables(1, TT_BITS_DEFAULT)
        self.tt = (infos[0], indexes[0])
        self.moves = moves[0]
        self.scores = scores[0]


_WORKSPACE = _Workspace()


def _position(deal: Deal | str) -> tuple[Deal, npt.NDArray[np.int64]]:
    """The deal (parsed from PBN if text) and its four hand masks."""
    if not isinstance(deal, Deal):
        deal = Deal.from_pbn(deal)
    return deal, np.array([h.mask for h in deal], dtype=np.int64)


@overload
def solve(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = ...,
    target: None = ...,
) -> int: ...
@overload
def solve(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = ...,
    target: int,
) -> bool: ...


def solve(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = False,
    target: int | None = None,
) -> int | bool:
    """Solve one deal double-dummy.

    Parameters
    ----------
    deal : Deal or str
        The four hands, as a :class:`~solo_analysis.deal.Deal` or a PBN deal string
        such as ``"N:AKQ.JT9.876.5432 ..."``.  Every hand holds the same number of cards.
    trump : {"S", "H", "D", "C", None, "NT"}
        The trump suit, or ``None``/``"NT"`` for no trump (or a trump code 0..4).
    leader : {"N", "E", "S", "W"}
        The seat that leads to the first trick (or ``"eldest"`` ... ``"dealer"``, 0..3).
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
    deal, masks = _position(deal)
    q = question_of(trump, leader, declarers, misere, target)
    tgt = q.kernel_target(deal.n_cards)
    ws = _WORKSPACE
    r = _kernels.solve_position(
        masks,
        q.trump,
        q.leader,
        q.declarers_mask,
        q.misere,
        tgt,
        ws.tt,
        ws.moves,
        ws.scores,
        _kernels.NO_LIMIT,
    )
    return bool(r) if tgt >= 0 else int(r)


def search_positions(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = False,
    target: int,
    trick: Sequence[str | int] | str | None = None,
) -> tuple[bool, int, int]:
    """The answer of :func:`solve` to a ``target`` question and the size of its search.

    A diagnostic for benchmarks and tools: the search :func:`solve` makes (from a trick
    boundary, one zero-window search, with Misère's lead probing), no limit on positions.

    Parameters
    ----------
    deal, trump, leader, declarers, misere
        As for :func:`solve`.
    target : int
        The question, as for :func:`solve`: tricks of the ones still to play, the current
        trick included.
    trick : sequence of str or int, or str, optional
        The cards already played to the current trick, in play order, the first led by
        ``leader`` (card text such as ``"SA"`` or codes; a string of cards separated by
        spaces or commas too): at most three, each still in the hand of ``deal`` of the seat
        that plays it.  They are taken out of those hands, and the search starts with the
        next seat to play.  ``None`` (or no cards): the search starts at the trick's lead.

    Returns
    -------
    (bool, int, int)
        The answer; the positions the search entered (one per card play tried); and the
        trick-boundary positions among them, the starting position left out (what DDS counts
        in ``futureTricks.nodes``: one per completed trick searched).

    Raises
    ------
    DealError
        As for :func:`solve`; for a missing target; or for a bad ``trick``: more than three
        cards, a card that is not a card, is not in the hand of the seat that plays it, or
        does not follow suit when it could.
    TrumpError, SeatError
        As for :func:`solve`.
    """
    deal, masks = _position(deal)
    q = question_of(trump, leader, declarers, misere, target)
    if q.target is None:
        raise DealError("search_positions needs a target")
    tgt = q.kernel_target(deal.n_cards)
    npl, led, win_card, win_seat, trick_mask = play_trick(masks, q.trump, q.leader, trick)[1:]
    ws = _WORKSPACE
    ok, positions, boundaries = _kernels.count_positions(
        masks,
        q.trump,
        q.leader,
        q.declarers_mask,
        q.misere,
        tgt,
        ws.tt,
        ws.moves,
        ws.scores,
        npl,
        led,
        win_card,
        win_seat,
        trick_mask,
    )
    root = 1 if npl == 0 else 0  # the starting position, if a trick boundary
    return bool(ok), int(positions), int(boundaries) - root


def move_order(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = False,
    trick: Sequence[str | int] | str | None = None,
) -> list[str]:
    """The cards the seat to play may play, in the order the search tries them.

    A diagnostic for benchmarks and tools: the move ordering's list at the position (one
    card a run of equivalent cards, the run's highest; a single run of the suit led gives
    just that card), with no history of earlier searches (no killer lead, no history
    scores), as the first position of a search sees it.

    Parameters
    ----------
    deal, trump, leader, declarers, misere
        As for :func:`solve`.
    trick : sequence of str or int, or str, optional
        As for :func:`search_positions`: the cards already played to the current trick, the
        first led by ``leader``; the seat after the last of them is the one to play.

    Returns
    -------
    list of str
        Card text (``"SA"``), first tried first.

    Raises
    ------
    DealError
        As for :func:`search_positions` (a bad ``trick``), or for a deal with no cards left.
    TrumpError, SeatError
        As for :func:`solve`.

    Examples
    --------
    >>> move_order("N:A32.A.. K.K.65. 4.4.87. Q.Q.T9.", trump="NT", leader="N",
    ...            declarers="NS")
    ['AH', 'AS', '3S']
    """
    deal, masks = _position(deal)
    q = question_of(trump, leader, declarers, misere)
    t = play_trick(masks, q.trump, q.leader, trick)
    maxer, _, wants = _kernels.roles(q.declarers_mask, q.misere)
    moves = np.zeros((56, 16), dtype=np.int64)
    scores = np.zeros((56, 16), dtype=np.int64)
    n = _moves.gen_moves(
        masks,
        t.to_play,
        t.npl,
        t.led,
        t.win_card,
        t.win_seat,
        t.mask,
        q.trump,
        maxer,
        wants,
        moves,
        scores,
        0,
        _kernels.new_history(),
    )
    return [card_str(int(c)) for c in moves[0, :n]]


def solve_leads(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
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
    DealError, CardError, DuplicateCardError, CardCountError, TrumpError, SeatError
        As for :func:`solve`.
    """
    deal, masks = _position(deal)
    q = question_of(trump, leader, declarers, misere)
    ld = q.leader
    others = int(masks.sum()) - int(masks[ld])  # disjoint masks: sum == union
    ws = _WORKSPACE
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
            _kernels.solve_after_lead(
                masks, q.trump, ld, card, q.declarers_mask, q.misere, ws.tt, ws.moves, ws.scores
            )
        )
        out[card] = tricks
        previous = (card, tricks)
    return out
