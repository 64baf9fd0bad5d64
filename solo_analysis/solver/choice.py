"""The value of every card the player to move may play, from any position, even inside a trick.

:func:`solve_cards` answers for one deal what DDS's ``SolveBoard`` with all solutions answers
for bridge: for each legal card of the player to move, the declarer side's tricks (or whether
the declarer side reaches a target) when that card is played and everyone then plays
perfectly.  :func:`card_values_batch` asks the same of many deals that share the trick in
progress and the cards to value (the worlds a player imagines, in the realistic play model),
in numba's threads.  The cards of one position share a transposition table.

A position inside a trick is a deal (its hands holding the cards still to play) and the
cards already played to the trick, led by ``leader`` (:mod:`.trick`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..cards import DeclarersLike
from ..deal import Deal
from ..errors import DealError
from . import _cards
from .batch import check_max_positions, check_threads, run_stoppable, worker_tables
from .question import Question
from .trick import Trick, legal_cards, play_trick

__all__ = ["Trick", "card_values_batch", "legal_cards", "play_trick", "solve_cards"]

#: worlds a worker takes before another worker is woken (as for the batch solver)
_WORLDS_PER_WORKER = 4


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
        *worker_tables(workers),
        limit,
    )
    return values, work
