"""Confidence intervals for the shares and means the advice and the odds tables report.

Every estimate the library prints carries a 95 % interval: Wilson's score interval for a
share (:func:`wilson_interval`), and, where some deals could not be solved, the same interval
widened to cover every outcome those deals could have had (:func:`widen`).  ``docs/statistics.md``
explains the choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Z95", "widen", "wilson_interval"]

#: two-sided 95 % normal quantile
Z95: float = 1.959963984540054


def wilson_interval(p: Any, n: Any, z: float = Z95) -> tuple[Any, Any]:
    """The Wilson score interval of a proportion ``p`` observed on ``n`` trials.

    Parameters
    ----------
    p, n : float or array_like
        The observed share and the number of trials (arrays broadcast together).
    z : float, default Z95
        The normal quantile of the interval's level.

    Returns
    -------
    (low, high)
        Floats for scalar input, arrays otherwise; ``n = 0`` gives ``(0, 1)``.
    """
    p = np.asarray(p, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z2n = z * z / n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z / (1 + z2n) * np.sqrt(p * (1 - p) / n + z2n / (4 * n))
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def widen(
    lo: float, hi: float, n: int, unresolved: int, worst: float, best: float
) -> tuple[float, float]:
    """Bounds of a mean over ``n`` solved deals widened for ``unresolved`` unknown ones.

    The unknown deals may have had any value in ``[worst, best]``: the low bound takes them all
    at ``worst``, the high bound all at ``best`` (means over ``n + unresolved`` deals).
    """
    if not unresolved:
        return lo, hi
    total = n + unresolved
    return (n * lo + unresolved * worst) / total, (n * hi + unresolved * best) / total
