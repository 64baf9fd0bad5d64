"""Kernels that value every card the player to move may play, from any position.

A position may lie inside a trick.  Its encoding is that of :mod:`._kernels`: ``hands`` the
four hand masks (the cards of the trick in progress already taken out), ``leader`` the seat
that led the trick, ``npl`` the cards played to it (0 at a trick boundary), ``led`` the suit
led, ``win_card`` / ``win_seat`` the card winning it so far and its seat, ``trick_mask`` the
cards played to it (-1 / -1 / 0 at a boundary).  The player to move is ``(leader + npl) % 4``.

``target`` is counted from the position on, the trick in progress included: ``t >= 0`` asks
whether the declarer side takes at least ``t`` of the tricks still to be won (misère: the
declarer at most ``t``), answered 1 / 0; ``-1`` asks for the declarer side's tricks from here.
A card's value is that answer after the card is played and everyone then plays perfectly.

The cards of one position share a transposition table and the move-ordering memory: what
the search learns after one card serves the next (the table's bounds are on the tricks of
the positions themselves, whatever the root).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._bits import next_task, pop52
from ._flag import stop_set
from ._kernels import budget, new_history, roles
from ._search import search


@njit(cache=True)
def _play(hands, trump, leader, npl, led, win_card, win_seat, trick_mask, card):
    """The position after the player to move plays ``card``, and the trick's winner if it ends.

    Returns ``(hands, leader, npl, led, win_card, win_seat, trick_mask, winner)``, ``winner``
    -1 while the trick goes on.
    """
    seat = (leader + npl) & 3
    h = hands.copy()
    bit = np.int64(1) << card
    h[seat] ^= bit
    suit = card // 13
    if npl == 0:
        return h, leader, 1, suit, card, seat, bit, -1
    wsuit = win_card // 13
    if (suit == wsuit and card > win_card) or (suit == trump and wsuit != trump):
        win_card = card
        win_seat = seat
    if npl == 3:
        return h, win_seat, 0, -1, -1, -1, np.int64(0), win_seat
    return h, leader, npl + 1, led, win_card, win_seat, trick_mask | bit, -1


@njit(cache=True)
def _value(
    hands,
    trump,
    leader,
    npl,
    led,
    win_card,
    win_seat,
    trick_mask,
    maxer,
    counted,
    wants,
    misere,
    target,
    card,
    tt,
    moves,
    scores,
    hist,
    st,
    positions,
    stop,
):
    """The value of one card (see the module docstring); -1 once past the limit or stopped.

    ``hist`` and ``st`` are the search's move-ordering memory and stack, the caller's.
    """
    h, ld, np_, ld_suit, wc, ws, tm, winner = _play(
        hands, trump, leader, npl, led, win_card, win_seat, trick_mask, card
    )
    taken = 0 if winner < 0 else counted[winner]
    info, index = tt
    normal = not misere
    if target >= 0:
        # maxer forces the counted seats to at least ``need`` more tricks: normal contracts,
        # the declarer side its target; misère, the defence the declarer past his allowance
        need = (target + 1 if misere else target) - taken
        ok = search(
            h,
            ld,
            need,
            trump,
            maxer,
            counted,
            wants,
            normal,
            info,
            index,
            moves,
            scores,
            st,
            hist,
            np_,
            ld_suit,
            wc,
            ws,
            tm,
            positions,
            stop,
        )
        if positions[0] > positions[1]:
            return -1
        if misere:
            ok = not ok
        return 1 if ok else 0
    # the counted side's tricks from here: the trick just won and a binary search on the rest
    lo = 0
    hi = pop52(h[0] | h[1] | h[2] | h[3]) // 4 + (1 if np_ > 0 else 0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        ok = search(
            h,
            ld,
            mid,
            trump,
            maxer,
            counted,
            wants,
            normal,
            info,
            index,
            moves,
            scores,
            st,
            hist,
            np_,
            ld_suit,
            wc,
            ws,
            tm,
            positions,
            stop,
        )
        if positions[0] > positions[1]:
            return -1
        if ok:
            lo = mid
        else:
            hi = mid - 1
    return taken + lo


@njit(cache=True)
def card_values(
    hands,
    trump,
    leader,
    npl,
    led,
    win_card,
    win_seat,
    trick_mask,
    declarers_mask,
    misere,
    target,
    cards,
    tt,
    moves,
    scores,
    positions,
    fresh,
    stop,
):
    """The value of each card of ``cards`` (legal plays of the player to move), ``int8``.

    ``positions`` counts the work of all of them (:func:`._kernels.budget`); a card the limit
    cuts short, and every card after it, is -1 (so it is if ``stop[0]`` is set: see
    :func:`._search.search`; ``stop`` may be ``None``).  ``fresh``: empty the table first (else what
    earlier searches stored serves this one too: the table's bounds are facts about the
    positions themselves, so they hold for any root, any deal and any target of the same
    declarer side and kind of contract).
    """
    if fresh:
        tt[1][:, 0] = 0  # a fresh table for this position (see _kernels.solve_counted)
    maxer, counted, wants = roles(declarers_mask, misere)
    hist = new_history()
    st = np.empty((56, 32), dtype=np.int64)
    out = np.full(cards.shape[0], -1, dtype=np.int8)
    for k in range(cards.shape[0]):
        v = _value(
            hands,
            trump,
            leader,
            npl,
            led,
            win_card,
            win_seat,
            trick_mask,
            maxer,
            counted,
            wants,
            misere,
            target,
            cards[k],
            tt,
            moves,
            scores,
            hist,
            st,
            positions,
            stop,
        )
        if v < 0:
            break
        out[k] = v
    return out


@njit(cache=True, parallel=True, nogil=True)
def card_values_many(
    masks,
    trump,
    leader,
    npl,
    led,
    win_card,
    win_seat,
    trick_mask,
    declarers_mask,
    misere,
    target,
    cards,
    infos,
    indexes,
    moves,
    scores,
    limit,
    stop,
):
    """:func:`card_values` on many worlds of one position: the same trick, the same cards.

    ``masks: int64[n, 4]`` holds the hands of each world; returns ``int8[n, len(cards)]`` and
    the positions each world's search took.  The workers are those of
    :func:`._kernels.solve_many` (a ``prange`` over the tables, tasks taken one at a time); a
    world's answer depends on that world alone.  With ``stop[0]`` set the workers take no
    more worlds; a world not valued answers -1 throughout.
    """
    n = masks.shape[0]
    out = np.full((n, cards.shape[0]), -1, dtype=np.int8)
    work = np.zeros(n, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    for w in prange(infos.shape[0]):
        while True:
            i = next_task(counter)
            if i >= n or stop_set(stop):
                break
            positions = budget(limit)
            out[i] = card_values(
                masks[i],
                trump,
                leader,
                npl,
                led,
                win_card,
                win_seat,
                trick_mask,
                declarers_mask,
                misere,
                target,
                cards,
                (infos[w], indexes[w]),
                moves[w],
                scores[w],
                positions,
                True,
                stop,
            )
            work[i] = positions[0]
    return out, work


@njit(cache=True, nogil=True)
def card_values_seq(
    masks,
    trump,
    leader,
    npl,
    led,
    win_card,
    win_seat,
    trick_mask,
    declarers_mask,
    misere,
    target,
    cards,
    tt,
    moves,
    scores,
    limit,
    stop,
):
    """:func:`card_values_many` on one thread, keeping one table from world to world.

    The table also serves the next calls: the caller empties it when a new deal starts
    (``tt[1][:, 0] = 0``).
    """
    n = masks.shape[0]
    out = np.empty((n, cards.shape[0]), dtype=np.int8)
    work = np.empty(n, dtype=np.int64)
    for i in range(n):
        positions = budget(limit)
        out[i] = card_values(
            masks[i],
            trump,
            leader,
            npl,
            led,
            win_card,
            win_seat,
            trick_mask,
            declarers_mask,
            misere,
            target,
            cards,
            tt,
            moves,
            scores,
            positions,
            False,
            stop,
        )
        work[i] = positions[0]
    return out, work
