"""Compiled kernel of :meth:`~solo_analysis.stats.predictor.Predictor.predict`.

The first layer arrives folded into one row of weights a card and role and one a role, suit and
length or honours, so a deal's hidden layer is the bias plus the rows of its 39 hidden cards and
of the other three roles' lengths and honours in each suit; the advice runs it on every solved deal
and on an auxiliary stream of 65,536 deals a predictor column, in blocks of
:data:`BLOCK` deals shared among the threads.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

__all__ = ["BLOCK", "predict_into"]

#: deals a thread takes at a time
BLOCK = 2048


@njit(cache=True, parallel=True, fastmath=True)
def predict_into(deals, role, table, shape, honours, bias, w2, b2, out):
    """Write the predictions for ``deals`` (``int8[n, 4, 13]``) into ``out`` (``float64[n]``).

    ``role[q]`` is the role of play seat ``q`` (0 the player, whose cards, lengths and honours
    are in ``bias``); ``table[c, r]`` the first-layer row of card ``c`` held by role ``r``;
    ``shape[r, s, k]`` the row of role ``r`` holding ``k`` cards of suit ``s``,
    ``honours[r, s, m]`` the row of its holding ``m`` of the suit's ace, king, queen and jack
    (bit 0 the ace); ``w2`` and ``b2`` the output layer.  The rows and the hidden layer are
    ``float32``, as in the reference computation
    (:meth:`~solo_analysis.stats.predictor.Predictor.forward`); half the bytes of ``float64``
    move through the additions.  ``fastmath`` lets the compiler reorder the sums (the output
    layer's among them) into vector operations: every value here is finite, and the order
    moves a prediction by under 1e-6.
    """
    n = deals.shape[0]
    hidden = bias.shape[0]
    for b in prange((n + BLOCK - 1) // BLOCK):
        h = np.empty(hidden, np.float32)
        count = np.empty(4, np.int64)
        held = np.empty(4, np.int64)
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            h[:] = bias
            for q in range(4):
                r = role[q]
                if r == 0:
                    continue
                count[:] = 0
                held[:] = 0
                for j in range(13):
                    c = deals[i, q, j]
                    count[c // 13] += 1
                    rank = c % 13
                    if rank >= 9:
                        held[c // 13] |= 1 << (12 - rank)
                    for u in range(hidden):
                        h[u] += table[c, r, u]
                for s in range(4):
                    k = count[s]
                    m = held[s]
                    for u in range(hidden):
                        h[u] += shape[r, s, k, u] + honours[r, s, m, u]
            eta = b2
            for u in range(hidden):
                if h[u] > 0.0:
                    eta += h[u] * w2[u]
            eta = min(max(eta, -30.0), 30.0)
            out[i] = 1.0 / (1.0 + math.exp(-eta))
    return out
