"""Compiled kernel of :meth:`~solo_analysis.stats.predictor.Predictor.predict`.

The first layer arrives folded into one row of weights a card and role, so a deal's hidden
layer is the bias plus the rows of its 39 hidden cards; the advice runs it on every solved deal
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


@njit(cache=True, parallel=True)
def predict_into(deals, role, table, bias, w2, b2, out):
    """Write the predictions for ``deals`` (``int8[n, 4, 13]``) into ``out`` (``float64[n]``).

    ``role[q]`` is the role of play seat ``q`` (0 the player, whose cards are in ``bias``);
    ``table[c, r]`` the first-layer row of card ``c`` held by role ``r``; ``w2`` and ``b2``
    the output layer.
    """
    n = deals.shape[0]
    hidden = bias.shape[0]
    for b in prange((n + BLOCK - 1) // BLOCK):
        h = np.empty(hidden)
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            h[:] = bias
            for q in range(4):
                r = role[q]
                if r == 0:
                    continue
                for j in range(13):
                    c = deals[i, q, j]
                    for u in range(hidden):
                        h[u] += table[c, r, u]
            eta = b2
            for u in range(hidden):
                if h[u] > 0.0:
                    eta += h[u] * w2[u]
            eta = min(max(eta, -30.0), 30.0)
            out[i] = 1.0 / (1.0 + math.exp(-eta))
    return out
