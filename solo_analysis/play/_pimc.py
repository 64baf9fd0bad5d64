"""The compiled playout of the realistic play model: :func:`.pimc.playout`, deal by deal in numba.

:func:`playout_many` plays many deals out in parallel (a deal a task, the workers of
:func:`solo_analysis.solver._kernels.solve_many`); each playout is the same sequence of
decisions as the Python :func:`.pimc.playout` (the reference, which the tests hold it to):
the same worlds (their streams keyed by the deal, the question and the decision), the same
values of the cards, the same scores and tie-break.  Encodings: those of :mod:`._worlds`
and :mod:`solo_analysis.solver._cards`.  Scores are integers, two points a world the card
reaches the player's goal in and one a world whose search gave up, so that a tie is a tie.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..solver._bits import choices, next_task, pop52
from ..solver._cards import card_values
from ..solver._flag import stop_set
from ..solver._kernels import STOPPED, budget, makes, new_history, roles
from ._worlds import sample_worlds, world_key

__all__ = ["TRIES", "hand_key", "playout_many", "playout_one"]

#: draws of one decision's worlds before it gives up on filling them (prior rejections)
TRIES = 20_000
_DEALER = 3


@njit(cache=True, nogil=True)
def hand_key(hands, seed):
    """A 64-bit key of a deal's hands and the model's seed."""
    x = np.uint64(seed)
    for s in range(4):
        h = hands[s]
        x = world_key(x, h & 0xFFFFFFFF, h >> 32, 0)
    return x


@njit(cache=True, nogil=True)
def _legal(hand, npl, led):
    if npl:
        follow = hand & (np.int64(0x1FFF) << (13 * led))
        if follow:
            return follow
    return hand


@njit(cache=True, nogil=True)
def playout_one(
    hands0,
    trump,
    leader,
    declarers_mask,
    misere,
    target,
    exposed,
    turnup,
    worlds,
    seed,
    qid,
    use_prior,
    hcp_lo,
    hcp_hi,
    prior_w,
    dd_after,
    see_all,
    limit,
    tt,
    moves,
    scores,
    stop,
):
    """One deal played out (see the module docstring): ``(made, positions)``.

    The table ``tt`` is emptied once, here, and kept through the deal's decisions: what one
    world's search proved serves the next worlds and decisions (see
    :func:`solo_analysis.solver._cards.card_values`).
    """
    tt[1][:, 0] = 0
    h = hands0.copy()
    counted = roles(declarers_mask, misere)[1]
    n_decl = 0
    lone = -1
    for s in range(4):
        if (declarers_mask >> s) & 1:
            n_decl += 1
            lone = s
    played = np.zeros(4, dtype=np.int64)
    void = np.zeros(4, dtype=np.int64)
    gone = np.int64(0)
    npl = 0
    led = -1
    wc = -1
    ws = -1
    tmask = np.int64(0)
    won = 0
    left = pop52(h[0])
    positions = 0
    base = hand_key(h, seed)
    decision = 0
    sample = np.empty((worlds, 4), dtype=np.int64)
    cand = np.empty(13, dtype=np.int64)
    known = np.zeros(4, dtype=np.int64)
    caps = np.zeros(4, dtype=np.int64)
    while left > 0:
        if dd_after >= 0 and npl == 0 and 13 - left >= dd_after:
            # the rest double-dummy: one search of the real deal from this trick boundary
            budget_d = budget(limit)
            v = makes(
                h,
                trump,
                leader,
                declarers_mask,
                misere,
                target - won,
                tt,
                moves,
                scores,
                new_history(),
                budget_d,
                stop,
            )
            if stop_set(stop):
                return False, -1
            positions += budget_d[0]
            if v >= 0:
                return v == 1, positions
            dd_after = -1  # the search gave up: play on realistically
        seat = (leader + npl) & 3
        legal = _legal(h[seat], npl, led)
        declarer = (declarers_mask >> seat) & 1 == 1
        high = misere and declarer
        k = choices(h[seat], legal, gone, high, cand)
        if k == 1:
            card = cand[0]
        else:
            got = 1
            if see_all:
                sample[0] = h
            else:
                for s in range(4):
                    known[s] = 0
                known[seat] = h[seat]
                if exposed and gone != 0:
                    known[lone] = h[lone]
                if turnup >= 0 and (h[_DEALER] >> turnup) & 1:
                    known[_DEALER] |= np.int64(1) << turnup
                pool = (h[0] | h[1] | h[2] | h[3]) & ~(known[0] | known[1] | known[2] | known[3])
                for s in range(4):
                    caps[s] = pop52(h[s]) - pop52(known[s])
                key = world_key(base, qid, decision, seat)
                prior_seat = -1
                if use_prior and not declarer and n_decl == 1:
                    prior_seat = lone
                prior_played = played[prior_seat] if prior_seat >= 0 else np.int64(0)
                got = sample_worlds(
                    key,
                    worlds,
                    known,
                    pool,
                    caps,
                    void,
                    prior_seat,
                    prior_played,
                    hcp_lo,
                    hcp_hi,
                    prior_w,
                    turnup // 13 if turnup >= 0 else -1,
                    TRIES,
                    sample,
                )
                if got <= 0:  # the prior rules out every world: read nothing into the bid
                    got = sample_worlds(
                        key,
                        worlds,
                        known,
                        pool,
                        caps,
                        void,
                        -1,
                        np.int64(0),
                        0,
                        40,
                        prior_w,
                        -1,
                        TRIES,
                        sample,
                    )
            points = np.zeros(k, dtype=np.int64)
            cards = cand[:k].copy()
            for w in range(got):
                budget_w = budget(limit)
                values = card_values(
                    sample[w],
                    trump,
                    leader,
                    npl,
                    led,
                    wc,
                    ws,
                    tmask,
                    declarers_mask,
                    misere,
                    target - won,
                    cards,
                    tt,
                    moves,
                    scores,
                    budget_w,
                    False,
                    stop,
                )
                if stop_set(stop):
                    return False, -1
                positions += budget_w[0]
                for j in range(k):
                    v = values[j]
                    if v < 0:
                        points[j] += 1
                    elif (v == 1) == declarer:
                        points[j] += 2
            best = points.max()
            card = -1
            for j in range(k):
                if points[j] < best:
                    continue
                c = cards[j]
                if card < 0:
                    card = c
                    continue
                # the tie-break: lowest rank (a misère declarer: highest), then suit order
                rc = c % 13
                rb = card % 13
                if high:
                    better = rc > rb or (rc == rb and c // 13 < card // 13)
                else:
                    better = rc < rb or (rc == rb and c // 13 < card // 13)
                if better:
                    card = c
            decision += 1
        bit = np.int64(1) << card
        h[seat] ^= bit
        played[seat] |= bit
        suit = card // 13
        if npl and suit != led:
            void[seat] |= 1 << led
        if npl == 0:
            npl = 1
            led = suit
            wc = card
            ws = seat
            tmask = bit
            continue
        wsuit = wc // 13
        if (suit == wsuit and card > wc) or (suit == trump and wsuit != trump):
            wc = card
            ws = seat
        if npl < 3:
            npl += 1
            tmask |= bit
            continue
        gone |= tmask | bit
        left -= 1
        won += counted[ws]
        leader = ws
        npl = 0
        led = -1
        wc = -1
        ws = -1
        tmask = np.int64(0)
        if misere:
            if won > target:
                return False, positions
        elif won >= target:
            return True, positions
        elif won + left < target:
            return False, positions
    return (won <= target if misere else won >= target), positions


@njit(cache=True, parallel=True, nogil=True)
def playout_many(
    masks,
    trump,
    leader,
    declarers_mask,
    misere,
    target,
    exposed,
    turnups,
    worlds,
    seed,
    qid,
    use_prior,
    hcp_lo,
    hcp_hi,
    prior_w,
    dd_after,
    see_all,
    limit,
    infos,
    indexes,
    moves,
    scores,
    stop,
):
    """:func:`playout_one` for every deal of ``masks: int64[n, 4]``, in parallel.

    Returns ``int8[n]`` (1 made, 0 failed) and the positions of each deal; a deal's result
    depends on the deal alone (its worlds' streams and its own table, emptied when it starts).
    With ``stop[0]`` set the workers stop: a deal not played out answers :data:`STOPPED`.
    """
    n = masks.shape[0]
    out = np.full(n, STOPPED, dtype=np.int8)
    work = np.zeros(n, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    for w in prange(infos.shape[0]):
        while True:
            i = next_task(counter)
            if i >= n or stop_set(stop):
                break
            made, spent = playout_one(
                masks[i],
                trump,
                leader,
                declarers_mask,
                misere,
                target,
                exposed,
                turnups[i],
                worlds,
                seed,
                qid,
                use_prior,
                hcp_lo,
                hcp_hi,
                prior_w,
                dd_after,
                see_all,
                limit,
                (infos[w], indexes[w]),
                moves[w],
                scores[w],
                stop,
            )
            if spent < 0:  # stopped midway
                break
            out[i] = 1 if made else 0
            work[i] = spent
    return out, work
