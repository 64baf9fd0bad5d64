"""Compiled kernel of :meth:`~solo_analysis.stats.predictor.Predictor.predict`.

The first layer arrives folded into rows of a role's holding in a suit (one for its low cards, one
for its high cards and honours, one for its length) and of a suit's joint holding (who holds its
top four cards, how it splits between the two other roles), so a deal's hidden layer is the bias
plus three rows for each of the other three roles and each suit, and two a suit; the advice runs
it on every solved deal and on an auxiliary stream of 65,536 deals a predictor column, in blocks
of :data:`BLOCK` deals shared among the threads.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

__all__ = ["BLOCK", "LOW_RANKS", "predict_into"]

#: deals a thread takes at a time
BLOCK = 2048
#: the ranks (2 to 8) whose holding in a suit is one row, the others' (9 to ace) another
LOW_RANKS = 7


@njit(cache=True, parallel=True, fastmath=True)
def predict_into(deals, role, low, high, shape, top, split, bias, w2, b2, out):
    """Write the predictions for ``deals`` (``int8[n, 4, 13]``) into ``out`` (``float64[n]``).

    ``role[q]`` is the role of play seat ``q`` (0 the player, whose cards, lengths and honours
    are in ``bias``); ``low[r, s, a]`` the first-layer row of role ``r`` holding the ranks of
    bit mask ``a`` below :data:`LOW_RANKS` in suit ``s`` (bit 0 the two), ``high[r, s, b]``
    that of the ranks of mask ``b`` from it up (bit 0 the nine; the honours' indicator
    included), ``shape[r, s, k]`` that of its ``k`` cards of the suit; ``w2`` and ``b2`` the
    output layer.  A deal costs three row additions a suit and other role.  The rows and the
    hidden layer are ``float32``, as in the reference computation
    (:meth:`~solo_analysis.stats.predictor.Predictor.forward`); half the bytes of ``float64``
    move through the additions.  ``fastmath`` lets the compiler reorder the sums (the output
    layer's among them) into vector operations: every value here is finite, and the order
    moves a prediction by under 1e-6.
    """
    n = deals.shape[0]
    hidden = bias.shape[0]
    joint = top.shape[1] > 0
    for b in prange((n + BLOCK - 1) // BLOCK):
        h = np.empty(hidden, np.float32)
        count = np.empty(4, np.int64)
        lows = np.empty(4, np.int64)
        highs = np.empty(4, np.int64)
        tops = np.empty(4, np.int64)
        splits = np.empty(4, np.int64)
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            h[:] = bias
            tops[:] = 0
            splits[:] = 0
            for q in range(4):
                r = role[q]
                if r == 0:
                    continue
                count[:] = 0
                lows[:] = 0
                highs[:] = 0
                for j in range(13):
                    c = deals[i, q, j]
                    s = c // 13
                    rank = c - 13 * s
                    count[s] += 1
                    if rank < LOW_RANKS:
                        lows[s] |= 1 << rank
                    else:
                        highs[s] |= 1 << (rank - LOW_RANKS)
                for s in range(4):
                    a = lows[s]
                    m = highs[s]
                    k = count[s]
                    for u in range(hidden):
                        h[u] += low[r, s, a, u] + high[r, s, m, u] + shape[r, s, k, u]
                    # the jack to the ace are bits 2 to 5 of the high mask; the player's
                    # cards add role 0, nothing
                    for j in range(4):
                        if (m >> (5 - j)) & 1:
                            tops[s] += r << (6 - 2 * j)
                    if r >= 2:
                        splits[s] += min(k, 6) * (7 if r == 2 else 1)
            if joint:
                for s in range(4):
                    t = tops[s]
                    v = splits[s]
                    for u in range(hidden):
                        h[u] += top[s, t, u] + split[s, v, u]
            eta = b2
            for u in range(hidden):
                if h[u] > 0.0:
                    eta += h[u] * w2[u]
            eta = min(max(eta, -30.0), 30.0)
            out[i] = 1.0 / (1.0 + math.exp(-eta))
    return out
