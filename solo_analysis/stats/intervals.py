"""Confidence intervals for the shares and means the advice and the odds tables report.

Every estimate the library prints carries a 95 % interval: Wilson's score interval for a
share (:func:`wilson_interval`), the same for the mean of a bounded settlement when too few
deals support a normal interval (:func:`range_interval`), and, where some deals could not be
solved, an interval widened to cover every outcome those deals could have had (:func:`widen`);
the difference of two play models on the same deals (:func:`paired_difference`).
``docs/statistics.md`` explains the choices.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = [
    "PAIRED_MIN_EACH",
    "Z95",
    "alike_interval",
    "paired_difference",
    "range_interval",
    "widen",
    "wilson_interval",
]

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


#: deals on which each model alone made, before the paired interval is the normal one
PAIRED_MIN_EACH = 10


def paired_difference(first: np.ndarray, second: np.ndarray) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)`` of ``second - first`` over the deals both settled.

    The interval of a paired difference of 0 / 1 outcomes: normal (the mean difference plus
    or minus 1.96 standard errors) once at least :data:`PAIRED_MIN_EACH` deals went each way;
    with fewer, Wilson's bounds on the shares of deals where only one side made, which hold
    however few the deals (never an interval falsely exact).

    ``first`` and ``second`` are outcomes per deal (1.0 / 0.0, NaN where given up; an ``any``
    row's shares in between), paired by position; only the deals both arrays cover and both
    settled count.
    """
    k = min(first.size, second.size)
    a, b = first[:k], second[:k]
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    n = int(a.size)
    if n == 0:
        return math.nan, -1.0, 1.0, 0
    d = b - a
    mean = float(d.mean())
    up = float(np.clip(d, 0, None).sum())  # the second made where the first did not
    down = float(np.clip(-d, 0, None).sum())
    if min(up, down) >= PAIRED_MIN_EACH and n > 1:
        se = float(d.std(ddof=1)) / math.sqrt(n)
        return mean, max(mean - Z95 * se, -1.0), min(mean + Z95 * se, 1.0), n
    up_lo, up_hi = wilson_interval(up / n, n)
    down_lo, down_hi = wilson_interval(down / n, n)
    return mean, max(up_lo - down_hi, -1.0), min(up_hi - down_lo, 1.0), n
