"""The value of every card the player to move may play, from any position, even inside a trick.

:func:`solve_cards` answers for one deal what DDS's ``SolveBoard`` with all solutions answers
for bridge: for each legal card of the player to move, the declarer side's tricks (or whether
the declarer side reaches a target) when that card is played and everyone then plays
perfectly.  :func:`card_values_batch` asks the same of many deals that share the trick in
progress and the cards to value (the worlds a player imagines, in the realistic play model),
in numba's threads.  The cards of one position share a transposition table.

A position inside a trick is a deal (its hands holding the cards still to play) and the
cards already played to the trick, led by ``leader`` (:func:`play_trick`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..cards import SUIT_MASK, DeclarersLike, card_code, card_str, seat_str
from ..deal import Deal
from ..errors import CardError, DealError
from . import _cards, _kernels
from ._table import TT_BITS_DEFAULT
from .batch import check_max_positions, check_threads, run_stoppable
from .question import Question

__all__ = ["Trick", "card_values_batch", "legal_cards", "play_trick", "solve_cards"]

#: worlds a worker takes before another worker is woken (as for the batch solver)
_WORLDS_PER_WORKER = 4


class Trick(NamedTuple):
    """The trick in progress: who led it, the cards played to it and who is winning it.

    ``npl`` cards have been played (0 at a trick boundary, then ``led``, ``win_card`` and
    ``win_seat`` are -1 and ``mask`` 0); ``led`` is the suit led, ``win_card`` the card
    winning so far and ``win_seat`` its seat, ``mask`` the 52-bit mask of the cards played.
    The player to move is ``(leader + npl) % 4``.
    """

    leader: int
    npl: int = 0
    led: int = -1
    win_card: int = -1
    win_seat: int = -1
    mask: int = 0

    @property
    def to_play(self) -> int:
        """The seat to play next."""
        return (self.leader + self.npl) & 3


def play_trick(
    masks: npt.NDArray[np.int64],
    trump: int,
    leader: int,
    cards: Sequence[str | int] | str | None,
) -> Trick:
    """Play the first ``cards`` of a trick from the hand masks (in place) and return the trick.

    Parameters
    ----------
    masks : numpy.ndarray
        ``int64[4]``: the hands of seats 0..3; the cards played are taken out of them.
    trump : int
        The trump code 0..4.
    leader : int
        The seat that leads the trick.
    cards : sequence of str or int, or str, or None
        The cards played, in play order (card text or codes; a string of cards separated by
        spaces or commas too): at most three.

    Raises
    ------
    DealError
        More than three cards, a card that is not a card, is not in the hand of the seat that
        plays it, or does not follow suit when it could.
    """
    if cards is None:
        return Trick(leader)
    if isinstance(cards, str):
        items: list[str | int] = list(cards.replace(",", " ").split())
    else:
        try:
            items = list(cards)
        except TypeError:
            raise DealError(f"invalid trick {cards!r}: expected a sequence of cards") from None
    if len(items) > 3:
        raise DealError(
            f"invalid trick {cards!r}: at most 3 cards of the current trick, got {len(items)}"
        )
    led = win_card = win_seat = -1
    trick_mask = 0
    for i, item in enumerate(items):
        try:
            card = card_code(item)
        except CardError as e:
            raise DealError(f"invalid trick {cards!r}: {e}") from None
        seat = (leader + i) & 3
        hand = int(masks[seat])
        if not (hand >> card) & 1:
            raise DealError(
                f"invalid trick {cards!r}: {card_str(card)} is not in {seat_str(seat)}'s hand"
            )
        suit = card // 13
        if i and suit != led and (hand >> (13 * led)) & SUIT_MASK:
            raise DealError(
                f"invalid trick {cards!r}: {seat_str(seat)} must follow suit, "
                f"not play {card_str(card)}"
            )
        masks[seat] = hand ^ (1 << card)
        trick_mask |= 1 << card
        if i == 0:
            led, win_card, win_seat = suit, card, seat
        elif (suit == win_card // 13 and card > win_card) or (
            suit == trump and win_card // 13 != trump
        ):
            win_card, win_seat = card, seat
    return Trick(leader, len(items), led, win_card, win_seat, trick_mask)


def legal_cards(hand: int, trick: Trick) -> list[int]:
    """The codes of the cards of ``hand`` (a mask) that may be played to ``trick``, low first.

    Follow the suit led if able, else any card.
    """
    mask = hand
    if trick.npl:
        follow = hand & (SUIT_MASK << (13 * trick.led))
        if follow:
            mask = follow
    return [c for c in range(52) if (mask >> c) & 1]


def solve_cards(
    deal: Deal | str,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = False,
    target: int | None = None,
    trick: Sequence[str | int] | str | None = None,
) -> dict[int, int | bool]:
    """The double-dummy value of every card the player to move may play.

    Parameters
    ----------
    deal, trump, leader, declarers, misere
        As for :func:`~solo_analysis.solver.solve`; ``leader`` leads the trick in progress.
    target : int, optional
        ``None``: each card's value is the declarer side's tricks from here (the trick in
        progress included).  An int: whether the declarer side takes at least ``target`` of
        them (misère: the declarer at most ``target``).
    trick : sequence of str or int, or str, optional
        The cards already played to the trick in progress, as for
        :func:`~solo_analysis.solver.search_positions` (still in ``deal``'s hands).

    Returns
    -------
    dict of int to int or bool
        For each legal card (code) of the player to move, lowest code first, its value.

    Raises
    ------
    DealError
        As for :func:`~solo_analysis.solver.solve`, a bad ``trick``, or a target beyond the
        tricks left.
    TrumpError, SeatError
        As for :func:`~solo_analysis.solver.solve`.

    Examples
    --------
    >>> solve_cards("N:AK... QJ... T9... 87...", trump="NT", leader="N", declarers="NS")
    {11: 2, 12: 2}
    """
    if not isinstance(deal, Deal):
        deal = Deal.from_pbn(deal)
    masks = np.array([h.mask for h in deal], dtype=np.int64)
    q = Question(trump, leader, declarers, misere, target)
    state = play_trick(masks, q.trump, q.leader, trick)
    left = deal.n_cards  # tricks still to win, the one in progress included
    tgt = -1
    if q.target is not None:
        if q.target > left:
            raise DealError(f"invalid target {q.target!r}: only {left} tricks are left")
        tgt = q.target
    cards = np.array(legal_cards(int(masks[state.to_play]), state), dtype=np.int64)
    values, _ = card_values_batch(
        masks[None, :], q.trump, state, q.declarers_mask, q.misere, tgt, cards, threads=1
    )
    row = values[0]
    if q.target is None:
        return {int(c): int(v) for c, v in zip(cards, row, strict=True)}
    return {int(c): bool(v) for c, v in zip(cards, row, strict=True)}


def card_values_batch(
    masks: npt.NDArray[np.int64],
    trump: int,
    trick: Trick,
    declarers_mask: int,
    misere: bool,
    target: int,
    cards: npt.NDArray[np.int64],
    *,
    max_positions: int | None = None,
    threads: int | None = None,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The value of each of ``cards`` in each of many deals that share the trick in progress.

    Parameters
    ----------
    masks : numpy.ndarray
        ``int64[n, 4]``: the hands of each deal, the cards of ``trick`` already out of them.
    trump : int
        The trump code 0..4.
    trick : Trick
        The trick in progress (:func:`play_trick`), the same in every deal.
    declarers_mask : int
        The declarer side, bit ``seat`` set for each declarer.
    misere : bool
        A misère question (one declarer, who wants no tricks).
    target : int
        -1: the declarer side's tricks from here; ``t >= 0``: 1 / 0 whether it takes at least
        ``t`` of them (misère: the declarer at most ``t``).
    cards : numpy.ndarray
        ``int64[k]``: legal cards of the player to move (in every deal's hand).
    max_positions : int, optional
        The most positions a deal's search (all its cards) may take; past it the deal's
        values are -1 from the card it stopped at.  ``None``: no limit.
    threads : int, optional
        The most numba threads (``None``: numba's thread count).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``int8[n, k]`` values and ``int64[n]`` positions searched per deal.  A deal's values
        depend on that deal alone, not on the threads.
    """
    n = masks.shape[0]
    k = cards.shape[0]
    if n == 0 or k == 0:
        return np.zeros((n, k), dtype=np.int8), np.zeros(n, dtype=np.int64)
    limit = check_max_positions(max_positions)
    workers = max(1, min(check_threads(threads), -(-n // _WORLDS_PER_WORKER)))
    values, work = run_stoppable(
        _cards.card_values_many,
        np.ascontiguousarray(masks, dtype=np.int64),
        trump,
        trick.leader,
        trick.npl,
        trick.led,
        trick.win_card,
        trick.win_seat,
        np.int64(trick.mask),
        declarers_mask,
        misere,
        target,
        np.ascontiguousarray(cards, dtype=np.int64),
        *_kernels.new_tables(workers, TT_BITS_DEFAULT),
        limit,
    )
    return values, work
