"""Compiled sampling of the worlds a player imagines: deals consistent with what he knows.

A player in the middle of a hand knows his own cards, every card played and by whom, the
suits each player has shown out of, the turn-up card until it is played, and any hand laid
face up.  A *world* is a deal of the cards still to play consistent with all of that; the
worlds are drawn uniformly among those deals, exactly (no rejection), by choosing first how
many unknown cards of each suit each player holds, with the probability that the number of
deals with those counts gives it, and then which cards.

Encodings: a card is ``suit * 13 + rank`` (suits 0..3 = S H D C); a hand or set of cards a
52-bit ``int64`` mask; seats 0..3.  ``known[seat]`` are the cards the player knows to be in
``seat``'s hand now (his own hand, an exposed hand, the turn-up), ``pool`` the cards whose
place he does not know, ``caps[seat]`` how many of them ``seat`` holds, ``void[seat]`` a
4-bit mask of the suits ``seat`` cannot hold (shown out).  At most three seats may have
``caps > 0`` (the player's own hand is known).

A world may further have to satisfy a *prior* on one seat's whole hand (the cards it played
and holds): its high-card points (A 4, K 3, Q 2, J 1) within ``[hcp_lo, hcp_hi]``, as the
defence's reading of a declarer's bid.  Worlds that fail it are drawn again (up to
``tries`` draws in all); the count of worlds accepted is returned.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..sampler._kernel import below, seed_state
from ..solver._bits import pop52

__all__ = ["sample_worlds", "world_key"]

_FACT = np.array([float(np.prod(np.arange(1, k + 1))) for k in range(14)], dtype=np.float64)
_HCP = np.array([0] * 9 + [1, 2, 3, 4], dtype=np.int64)  # by rank: J 1, Q 2, K 3, A 4


@njit(cache=True, nogil=True)
def world_key(base, a, b, c):
    """A stream key for one decision: ``base`` mixed with three small ints (splitmix64)."""
    x = np.uint64(base)
    for v in (a, b, c):
        x = (x ^ np.uint64(v)) * np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(32))) * np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(29)
    return x


@njit(cache=True, nogil=True)
def _hcp(mask):
    total = 0
    for c in range(52):
        if (mask >> c) & 1:
            total += _HCP[c % 13]
    return total


@njit(cache=True, nogil=True)
def _tables(counts, caps, allowed):
    """The weights ``f[u, c0, c1]``: the deals of suits ``u..3`` onto seats with caps c0, c1, c2.

    ``counts[u]`` unknown cards of suit ``u``; ``caps`` and ``allowed[j, u]`` (whether seat
    ``j`` may hold suit ``u``) for the three seats; ``c2`` is implied (what is left).
    """
    f = np.zeros((5, 14, 14), dtype=np.float64)
    f[4, 0, 0] = 1.0
    left = np.zeros(5, dtype=np.int64)  # cards of suits u..3
    for u in range(3, -1, -1):
        left[u] = left[u + 1] + counts[u]
    for u in range(3, -1, -1):
        m = counts[u]
        for c0 in range(min(caps[0], left[u]) + 1):
            for c1 in range(min(caps[1], left[u] - c0) + 1):
                c2 = left[u] - c0 - c1
                if c2 > caps[2]:
                    continue
                total = 0.0
                for a in range(min(m, c0) + 1):
                    if a and not allowed[0, u]:
                        break
                    for b in range(min(m - a, c1) + 1):
                        if b and not allowed[1, u]:
                            break
                        c = m - a - b
                        if c > c2 or (c and not allowed[2, u]):
                            continue
                        rest = f[u + 1, c0 - a, c1 - b]
                        if rest > 0.0:
                            total += _FACT[m] / (_FACT[a] * _FACT[b] * _FACT[c]) * rest
                f[u, c0, c1] = total
    return f


@njit(cache=True, nogil=True)
def sample_worlds(
    key, n, known, pool, caps, void, prior_seat, prior_played, hcp_lo, hcp_hi, tries, out
):
    """Draw ``n`` worlds into ``out`` (``int64[n, 4]`` hand masks); return how many were kept.

    Draw ``i`` uses its own stream (``key``, ``i``), so the worlds do not depend on how many
    are asked for.  ``prior_seat`` (-1: none) is the seat whose whole hand (its cards now and
    ``prior_played``) must hold ``hcp_lo..hcp_hi`` points; draws that miss it are retried,
    ``tries`` draws at most in all.  Returns -1 if no deal fits the knowledge at all.
    """
    seats = np.full(3, -1, dtype=np.int64)
    scap = np.zeros(3, dtype=np.int64)
    k = 0
    for s in range(4):
        if caps[s] > 0:
            seats[k] = s
            scap[k] = caps[s]
            k += 1
    counts = np.zeros(4, dtype=np.int64)
    for u in range(4):
        counts[u] = pop52((pool >> (13 * u)) & 0x1FFF)
    allowed = np.zeros((3, 4), dtype=np.bool_)
    for j in range(3):
        for u in range(4):
            allowed[j, u] = seats[j] >= 0 and not ((void[seats[j]] >> u) & 1)
    f = _tables(counts, scap, allowed)
    if f[0, scap[0], scap[1]] <= 0.0:
        return -1
    state = np.empty(4, dtype=np.uint64)
    cards = np.empty(13, dtype=np.int64)
    kept = 0
    draw = 0
    while kept < n and draw < tries:
        seed_state(state, key, draw)
        draw += 1
        hand = known.copy()
        c0 = scap[0]
        c1 = scap[1]
        for u in range(4):
            m = counts[u]
            if m == 0:
                continue
            # how many of this suit each seat takes, in proportion to the deals that follow
            c2 = 0
            for v in range(u, 4):
                c2 += counts[v]
            c2 -= c0 + c1
            x = (np.float64(below(state, np.int64(1) << 30)) + 0.5) / float(1 << 30)
            x *= f[u, c0, c1]
            pick_a = -1
            pick_b = -1
            for a in range(min(m, c0) + 1):
                if a and not allowed[0, u]:
                    break
                for b in range(min(m - a, c1) + 1):
                    if b and not allowed[1, u]:
                        break
                    c = m - a - b
                    if c > c2 or (c and not allowed[2, u]):
                        continue
                    w = _FACT[m] / (_FACT[a] * _FACT[b] * _FACT[c]) * f[u + 1, c0 - a, c1 - b]
                    if w <= 0.0:
                        continue
                    pick_a = a
                    pick_b = b
                    x -= w
                    if x <= 0.0:
                        break
                if x <= 0.0:
                    break
            # the cards of the suit in a random order: the first a to seat 0, b to seat 1
            t = 0
            for r in range(13):
                if (pool >> (13 * u + r)) & 1:
                    cards[t] = 13 * u + r
                    t += 1
            for j in range(m - 1):
                r = j + below(state, m - j)
                tmp = cards[j]
                cards[j] = cards[r]
                cards[r] = tmp
            for j in range(m):
                if j < pick_a:
                    who = seats[0]
                elif j < pick_a + pick_b:
                    who = seats[1]
                else:
                    who = seats[2]
                hand[who] |= np.int64(1) << cards[j]
            c0 -= pick_a
            c1 -= pick_b
        if prior_seat >= 0:
            points = _hcp(hand[prior_seat] | prior_played)
            if points < hcp_lo or points > hcp_hi:
                continue
        out[kept] = hand
        kept += 1
    return kept
