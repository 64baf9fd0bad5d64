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
and holds), the defence's reading of a declarer's bid: its high-card points (A 4, K 3, Q 2,
J 1) within ``[hcp_lo, hcp_hi]``, and a bidding policy's make rate ``p`` of the hand
(``prior_w``: the intercept and weights of a logistic model over
``solo_analysis.bidding.policy.POLICY_FEATURES``; all zeros: no condition).  The policy bids at
``p >= 1/2``: such a hand is always kept, a hand below with chance ``2p``, so each imagined
hand weighs by its make rate up to the threshold (a hard threshold keeps too few hands to draw
from: a sound Misère is one hand in thousands).  Worlds that fail are drawn again (up to
``tries`` draws in all); the count of worlds accepted is returned.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..sampler._kernel import below, seed_state
from ..solver._bits import pop52

__all__ = ["policy_score", "sample_worlds", "world_key"]

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
def policy_score(mask, weights, trump_suit, seat):
    """``weights[0] + weights[1:] . features`` of a whole hand (``POLICY_FEATURES`` order).

    The features are those of ``solo_analysis.bidding.policy.policy_matrix`` (the trump ones 0
    without a turn-up, ``trump_suit`` -1), ending with whether ``seat`` is eldest, and the
    dealer.
    """
    lengths = np.zeros(4, dtype=np.int64)
    honours = np.zeros(4, dtype=np.int64)
    lowest = np.full(4, 13, dtype=np.int64)
    hcp = 0
    high = 0
    low = 0
    aces = 0
    kings = 0
    twos = 0
    low3 = 0
    mid = 0
    for c in range(52):
        if (mask >> c) & 1:
            u = c // 13
            r = c % 13
            lengths[u] += 1
            if r < lowest[u]:
                lowest[u] = r
            if r == 0:
                twos += 1
            if r <= 2:
                low3 += 1
            if 5 <= r <= 8:
                mid += 1
            if r >= 9:
                honours[u] += 1
                high += 1
                hcp += r - 8
            if r <= 4:
                low += 1
            if r == 12:
                aces += 1
            if r == 11:
                kings += 1
    voids = 0
    singles = 0
    open_suits = 0
    best = -1
    long_suit = 0
    for u in range(4):
        if lengths[u] == 0:
            voids += 1
        if lengths[u] == 1:
            singles += 1
        if 4 <= lowest[u] < 13:
            open_suits += 1
        score = lengths[u] * 100 + honours[u] * 10 + (3 - u)
        if score > best:
            best = score
            long_suit = u
    ordered = np.sort(lengths)
    trump_len = 0
    trump_hon = 0
    trump_top = 0
    if trump_suit >= 0:
        trump_len = lengths[trump_suit]
        trump_hon = honours[trump_suit]
        for r in range(12, -1, -1):
            if (mask >> (13 * trump_suit + r)) & 1:
                trump_top += 1
            else:
                break
    x = np.empty(19, dtype=np.float64)
    x[0] = hcp
    x[1] = high
    x[2] = low
    x[3] = aces
    x[4] = kings
    x[5] = voids
    x[6] = singles
    x[7] = lengths[long_suit]
    x[8] = honours[long_suit]
    x[9] = ordered[2]
    x[10] = trump_len
    x[11] = trump_hon
    x[12] = trump_top
    x[13] = twos
    x[14] = low3
    x[15] = mid
    x[16] = open_suits
    x[17] = 1.0 if seat == 0 else 0.0
    x[18] = 1.0 if seat == 3 else 0.0
    total = weights[0]
    for i in range(19):
        total += weights[1 + i] * x[i]
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
    key,
    n,
    known,
    pool,
    caps,
    void,
    prior_seat,
    prior_played,
    hcp_lo,
    hcp_hi,
    prior_w,
    prior_trump,
    tries,
    out,
):
    """Draw ``n`` worlds into ``out`` (``int64[n, 4]`` hand masks); return how many were kept.

    Draw ``i`` uses its own stream (``key``, ``i``), so the worlds do not depend on how many
    are asked for.  ``prior_seat`` (-1: none) is the seat whose whole hand (its cards now and
    ``prior_played``) must hold ``hcp_lo..hcp_hi`` points and pass the policy reading of
    ``prior_w`` (with the turn-up suit ``prior_trump``, -1 for none; see the module
    docstring); draws that miss it are retried, ``tries`` draws at most in all.  Returns -1
    if no deal fits the knowledge at all.
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
    weighted = False
    for i in range(prior_w.shape[0]):
        if prior_w[i] != 0.0:
            weighted = True
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
            whole = hand[prior_seat] | prior_played
            points = _hcp(whole)
            if points < hcp_lo or points > hcp_hi:
                continue
            if weighted:
                z = policy_score(whole, prior_w, prior_trump, prior_seat)
                if z < 0.0:  # below the bidding threshold: kept with chance 2p (see above)
                    keep = 2.0 / (1.0 + np.exp(-z))
                    u = (np.float64(below(state, np.int64(1) << 30)) + 0.5) / float(1 << 30)
                    if u >= keep:
                        continue
        out[kept] = hand
        kept += 1
    return kept
