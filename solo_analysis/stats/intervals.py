"""Confidence intervals for the shares and means the advice and the odds tables report.

Every estimate the library prints carries a 95 % interval: Wilson's score interval for a
share (:func:`wilson_interval`), the same for the mean of a bounded settlement when too few
deals support a normal interval (:func:`range_interval`), and, where some deals could not be
solved, an interval widened to cover every outcome those deals could have had (:func:`widen`).
``docs/statistics.md`` explains the choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Z95", "alike_interval", "range_interval", "widen", "wilson_interval"]

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


def range_interval(mean: float, n: int, worst: float, best: float) -> tuple[float, float]:
    """Bounds for the mean of ``n`` values known to lie in ``[worst, best]``, on few deals.

    Wilson's interval of the mean rescaled to a share, ``(mean - worst) / (best - worst)``,
    mapped back onto ``[worst, best]``.  Of all the distributions on that range with a given
    mean, the two-point one (every value ``worst`` or ``best``) has the largest variance, so
    these bounds hold for any of them as Wilson's hold for a share: never infinite, never of
    zero width while the range has any (``n = 0``: the whole range).  For a settlement of two
    values it is exactly the Wilson interval of the make rate, mapped onto the units.
    """
    span = best - worst
    if not span > 0:
        return worst, best
    share = min(max((mean - worst) / span, 0.0), 1.0) if n else 0.5
    low, high = wilson_interval(share, n)
    return worst + span * low, worst + span * high


def alike_interval(value: float, n: int, worst: float, best: float) -> tuple[float, float]:
    """Bounds for a mean when all of ``n`` deals gave the same ``value`` (in ``[worst, best]``).

    No spread was seen, but the share of deals that would give another value is only known to
    be at most ``q``, Wilson's upper bound for none in ``n``; those deals may give anything in
    the range, so the mean lies in ``[(1 - q) value + q worst, (1 - q) value + q best]``.
    Never of zero width while the range has any (``n = 0``: the whole range).
    """
    if n <= 0:
        return worst, best
    q = float(wilson_interval(0.0, n)[1])
    return (1 - q) * value + q * worst, (1 - q) * value + q * best


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
