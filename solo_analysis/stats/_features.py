"""Compiled kernel of :func:`~solo_analysis.stats.control.deal_features`.

One pass over each deal's 39 hidden cards fills the 48 feature columns; the control variates
take them on every solved deal and on an auxiliary stream of 65,536 deals an advice.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["features_into"]


@njit(cache=True)
def features_into(deals, seat, trump, out):
    """Write the features of ``deals`` (``int8[n, 4, 13]``) into ``out`` (``float64[n, 48]``).

    The columns of :func:`~solo_analysis.stats.control.deal_features`, in its order, for the
    three hands other than ``seat`` in play order; ``trump`` is a suit 0..3 or -1 for none.
    """
    n = deals.shape[0]
    length = np.zeros((3, 4), dtype=np.int64)
    points = np.zeros((3, 4), dtype=np.int64)
    controls = np.zeros(3, dtype=np.int64)
    for i in range(n):
        length[:, :] = 0
        points[:, :] = 0
        controls[:] = 0
        k = 0
        for q in range(4):
            if q == seat:
                continue
            for c in range(13):
                code = np.int64(deals[i, q, c])
                suit = code // 13
                rank = code % 13
                length[k, suit] += 1
                if rank > 8:
                    points[k, suit] += rank - 8
                if rank == 12:
                    controls[k] += 2
                elif rank == 11:
                    controls[k] += 1
            k += 1
        col = 0
        for k in range(2):  # the first two other hands: points per suit
            for s in range(4):
                out[i, col] = points[k, s]
                col += 1
        for k in range(2):  # and their spade, heart and diamond lengths
            for s in range(3):
                out[i, col] = length[k, s]
                col += 1
        for s in range(4):  # per suit over the three hands: longest
            out[i, col] = max(length[0, s], length[1, s], length[2, s])
            col += 1
        for s in range(4):  # shortest
            out[i, col] = min(length[0, s], length[1, s], length[2, s])
            col += 1
        for s in range(4):  # voids
            out[i, col] = (length[0, s] == 0) + (length[1, s] == 0) + (length[2, s] == 0)
            col += 1
        for s in range(4):  # the most points one hand holds
            out[i, col] = max(points[0, s], points[1, s], points[2, s])
            col += 1
        for k in range(3):  # per hand: points squared
            p = points[k, 0] + points[k, 1] + points[k, 2] + points[k, 3]
            out[i, col + k] = p * p
            short = min(length[k, 0], length[k, 1], length[k, 2], length[k, 3])
            trumps = 0 if trump < 0 else length[k, trump]
            out[i, col + 3 + k] = short
            out[i, col + 6 + k] = trumps if short <= 1 else 0
            out[i, col + 9 + k] = controls[k]
            out[i, col + 12 + k] = trumps * trumps
            out[i, col + 15 + k] = max(trumps - 1, 0) * (3 - min(short, 3))
    return out
