"""Control variates: sharper estimates from what is known exactly about the sampled deals.

The features of :func:`deal_features` (the other hands' high-card points and suit lengths, how
each suit splits, shortness with trumps) predict much of a contract's result, and their exact
means under the sampling distribution are known (estimated on a separate stream of
:data:`CV_AUX_DEALS` deals).  So an estimate subtracts the part of its sampling error that they
account for: ``p = mean(y) - (mean(x) - mu) . beta``, ``beta`` the least-squares slope on the
same deals (:func:`cv_mean`).  One more column joins the features for each result: a
cross-fitted logistic prediction of it (:func:`logit_control`), since a 0 / 1 result saturates
where a linear fit does not.  A row that a predictor fitted in advance covers
(:mod:`~solo_analysis.stats.predictor`: Prop and Cop, Solo) has its column too, alone on few
deals and with the features on many (:meth:`Controls.view`).  The interval is normal, with the
residual variance, the factor ``(n - 2) / (n - k - 2)`` for a fitted ``beta`` and the error of
the exact means.  With fewer than :data:`CV_MIN_DEALS` deals, or fewer than
:data:`CV_MIN_EACH` makes or failures, a share falls back to its Wilson interval
(:func:`rate_interval`), and a mean settlement on too few deals for a normal interval to
Wilson's on its range (:func:`mean_bounds`).  ``docs/statistics.md``
gives the derivation and the variance reductions measured.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

from ._features import features_into
from .intervals import Z95, range_interval, widen, wilson_interval

__all__ = [
    "CV_AUX_DEALS",
    "CV_FOLDS",
    "CV_LOGIT_RIDGE",
    "CV_LOGIT_STEPS",
    "CV_MIN_DEALS",
    "CV_MIN_EACH",
    "CV_PREDICTOR_ALONE",
    "N_FEATURES",
    "Controls",
    "cv_mean",
    "deal_features",
    "logit_control",
    "logit_fit",
    "mean_bounds",
    "mean_se",
    "rate_bounds",
    "rate_interval",
    "sigmoid",
]

#: fewest solved deals, and fewest makes and failures, before an estimate is corrected by the
#: control variates (below that: the plain Wilson interval)
CV_MIN_DEALS: int = 128
CV_MIN_EACH: int = 10
#: deals of the separate stream that estimates the features' exact means
CV_AUX_DEALS: int = 1 << 16
#: folds of the cross-fitted logistic prediction (:func:`logit_control`), its ridge penalty (on
#: standardised features) and most Newton steps
CV_FOLDS: int = 4
CV_LOGIT_RIDGE: float = 5.0
CV_LOGIT_STEPS: int = 25
#: number of columns of :func:`deal_features`
N_FEATURES: int = 48
#: a row with predictor columns (:meth:`Controls.view`) uses the predictor's column alone on
#: fewer deals than this, and the features with it from this many on
CV_PREDICTOR_ALONE: int = 1024


def deal_features(deals: np.ndarray, seat: int, trump: int | None = None) -> np.ndarray:
    """Features of sampled deals that predict the contracts' results (control variates).

    For the first two other hands in play order: high-card points (A 4, K 3, Q 2, J 1) in each
    suit and the lengths of spades, hearts and diamonds (the third other hand's follow from
    these and the player's own hand).  Per suit, over the three other hands: the longest and
    shortest holding, how many of them are void, and the most high-card points one holds (how
    a suit splits matters to a lone declarer more than who holds what).  Per other hand: its
    points squared, its shortest suit, its length in ``trump`` when that shortest suit is a
    void or a singleton (ruffing chances), its controls (ace 2, king 1), its trump length
    squared, and its trumps beyond the first times the cards its shortest suit lacks of three
    (``max(trumps - 1, 0) * (3 - min(shortest, 3))``: how many ruffs it can take; the trump
    columns are 0 without ``trump``).

    Parameters
    ----------
    deals : numpy.ndarray
        Card codes, shape ``(n, 4, 13)``, seats in play order (the sampler's output).
    seat : int
        The player's seat (play order 0..3).
    trump : int, optional
        Suit 0..3 (S H D C) of the turn-up, the usual trumps.

    Returns
    -------
    numpy.ndarray
        ``float64[n, N_FEATURES]``.
    """
    d = np.ascontiguousarray(deals, dtype=np.int8)
    out = np.zeros((d.shape[0], N_FEATURES))
    if d.shape[0]:
        features_into(d, np.int64(seat), np.int64(-1 if trump is None else trump), out)
    return out


@dataclass
class Controls:
    """Features of the deals solved so far and their means under the sampling distribution.

    The means are estimated on a separate stream of :data:`CV_AUX_DEALS` deals from the same
    sampler (constraints included, where no closed form exists; fewer, down to 2048, when the
    constraints accept under 5 % of the candidates); ``cov`` is the features' covariance there,
    whose error in the means the standard errors include.
    """

    x: np.ndarray
    mean: np.ndarray
    cov: np.ndarray
    n_aux: int
    #: the auxiliary stream's features, standardised (``(x - mean) / scale``, ``float32``):
    #: the exact means of the logistic predictions (:func:`logit_control`) are taken on them
    za: np.ndarray | None = None
    scale: np.ndarray | None = None
    cache: dict[str, tuple[float, float]] = field(default_factory=dict, repr=False)
    #: columns of a predictor fitted in advance (:mod:`~solo_analysis.stats.predictor`) by
    #: key (a Prop and Cop partner and trump suit): on the solved deals, and on the stream
    pred: dict[Hashable, np.ndarray] = field(default_factory=dict, repr=False)
    pred_aux: dict[Hashable, np.ndarray] = field(default_factory=dict, repr=False)
    views: dict[tuple[tuple[Hashable, ...], bool], Controls] = field(
        default_factory=dict, repr=False
    )
    #: by predictor column: below this many deals a row's column is used alone (absent or 0:
    #: never, as where the results are not those the predictor was fitted on)
    alone_below: dict[Hashable, int] = field(default_factory=dict, repr=False)

    def view(self, keys: tuple[Hashable, ...], n: int) -> tuple[np.ndarray, Controls]:
        """The columns and controls of a row on its first ``n`` deals.

        A row that a predictor covers (``keys``: its columns, averaged, as for Prop and Cop's
        ``any`` row, the share of the partners with whom it makes) is corrected by that one
        column on fewer than :attr:`alone_below` deals (:data:`CV_PREDICTOR_ALONE` for Prop and
        Cop), where 48 fitted slopes cost more than they explain, and by the features with it
        from there on.
        Any other row (no keys, or a key without columns) gets the features and these controls.
        """
        if not keys or any(k not in self.pred or k not in self.pred_aux for k in keys):
            return self.x[:n], self
        g = np.mean([self.pred[k][:n] for k in keys], axis=0)
        alone = n < min(self.alone_below.get(k, 0) for k in keys)
        v = self.views.get((keys, alone))
        if v is None:
            v = self._with_column(np.mean([self.pred_aux[k] for k in keys], axis=0), alone)
            self.views[(keys, alone)] = v
        return (g[:, None] if alone else np.column_stack([self.x[:n], g])), v

    def _with_column(self, ga: np.ndarray, alone: bool) -> Controls:
        """Controls of one more column, ``ga`` on the stream (alone: of that column only).

        They share this object's cache (its keys are the contents of ``y`` and ``x``).
        """
        mg = float(ga.mean())
        var = float(ga.var(ddof=1))
        sg = math.sqrt(var) if var > 0 else 1.0
        if alone or self.za is None or self.scale is None:
            return Controls(
                np.zeros((0, 1)), np.array([mg]), np.array([[var]]), self.n_aux, cache=self.cache
            )
        dev = (ga - mg).astype(np.float32)
        cov_xg = (self.za.T @ dev).astype(float) * self.scale / (ga.size - 1)
        k = self.mean.size
        return Controls(
            np.zeros((0, k + 1)),
            np.append(self.mean, mg),
            np.block([[self.cov, cov_xg[:, None]], [cov_xg[None, :], np.array([[var]])]]),
            self.n_aux,
            za=np.column_stack([self.za, dev / np.float32(sg)]),
            scale=np.append(self.scale, sg),
            cache=self.cache,
        )


def cv_mean(y: np.ndarray, x: np.ndarray, controls: Controls) -> tuple[float, float] | None:
    """Regression (control-variate) estimate of the mean of ``y`` and its standard error.

    ``mean(y) - (mean(x) - mu) . beta`` with ``beta`` the least-squares slope of ``y`` on the
    features ``x`` (same deals): the part of ``y``'s sampling error that the features explain
    is removed, since their exact means ``mu`` are known.  The variance is the residual
    variance over ``n`` with the usual factor for a fitted ``beta``, ``(n - 2) / (n - k - 2)``,
    plus the error of ``mu``.  Where ``controls`` keeps the stream's features (``za``), the
    cross-fitted logistic prediction of ``y`` (:func:`logit_control`, exact mean 0) is one more
    feature.  ``None`` with fewer than :data:`CV_MIN_DEALS` deals.  Results are cached on
    ``controls`` by the contents of ``y`` and ``x`` (each batch asks again for every row).
    """
    n = y.size
    k = x.shape[1]
    if n < max(CV_MIN_DEALS, k + 8):
        return None
    digest = hashlib.sha1(np.ascontiguousarray(y, dtype=float).tobytes())
    digest.update(np.ascontiguousarray(x, dtype=float).tobytes())
    key = digest.hexdigest()
    cached = controls.cache.get(key)
    if cached is not None:
        return cached
    mean, cov = controls.mean, controls.cov
    if controls.za is not None:
        extra = logit_control(y, x, controls)
        if extra is not None:
            h, cov_xh, var_h = extra
            x = np.column_stack([x, h])
            mean = np.append(mean, 0.0)
            cov = np.block([[cov, cov_xh[:, None]], [cov_xh[None, :], np.array([[var_h]])]])
    ybar = float(y.mean())
    xbar = x.mean(axis=0)
    z = x - xbar
    beta, _, rank, _ = np.linalg.lstsq(z, y - ybar, rcond=None)
    resid = (y - ybar) - z @ beta
    s2 = float(resid @ resid) / (n - rank - 1)
    var = s2 / n * (n - 2) / (n - rank - 2) + float(beta @ cov @ beta) / controls.n_aux
    out = ybar - float((xbar - mean) @ beta), math.sqrt(max(var, 0.0))
    controls.cache[key] = out
    return out


def sigmoid(eta: np.ndarray) -> np.ndarray:
    """The logistic curve, its argument clipped to [-30, 30] (no overflow in ``exp``)."""
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(eta, -30.0, 30.0)))
    return out


def logit_fit(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge-penalised logistic regression of ``y`` on the standardised features ``z``.

    ``y`` is in [0, 1] (fractions allowed).  Fitted by Newton steps from zero; returns
    ``[intercept, slopes...]``.
    """
    n, k = z.shape
    a = np.column_stack([np.ones(n), z])
    penalty = np.full(k + 1, CV_LOGIT_RIDGE)
    penalty[0] = 0.0
    w = np.zeros(k + 1)
    for _ in range(CV_LOGIT_STEPS):
        mu = sigmoid(a @ w)
        grad = a.T @ (y - mu) - penalty * w
        hess = (a * (mu * (1.0 - mu))[:, None]).T @ a + np.diag(penalty) + 1e-9 * np.eye(k + 1)
        step = np.linalg.solve(hess, grad)
        w += step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w


def logit_control(
    y: np.ndarray, x: np.ndarray, controls: Controls
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """A cross-fitted logistic prediction of ``y`` from the features, as one more control variate.

    The deals are split into :data:`CV_FOLDS` folds by their order (deal ``i`` in fold
    ``i % CV_FOLDS``); each fold's predictions come from a model fitted on the other folds, so a
    deal's prediction does not use its own result, and minus that model's exact mean (its mean
    prediction on the auxiliary stream).  The column ``h`` thus has mean zero under the sampling
    distribution.  A linear fit of a 0 / 1 result on the features misses how it saturates (a
    contract that is safe stays safe however much stronger the partner); the logistic curve does
    not.  Returns ``(h, covariances of the features with h on the stream, variance of h there)``
    (the stream's version of ``h`` weights each fold's model by its share of the deals), or
    ``None`` where ``y`` is constant.
    """
    lo, hi = float(y.min()), float(y.max())
    if hi <= lo or controls.za is None or controls.scale is None:
        return None
    u = (y - lo) / (hi - lo)
    z = (x - controls.mean) / controls.scale
    fold = np.arange(y.size) % CV_FOLDS
    h = np.empty(y.size)
    h_aux = np.zeros(controls.za.shape[0])
    for f in range(CV_FOLDS):
        out = fold == f
        w = logit_fit(z[~out], u[~out])
        g_aux = sigmoid(w[0] + controls.za @ w[1:].astype(np.float32))
        m = float(g_aux.mean())
        h[out] = sigmoid(w[0] + z[out] @ w[1:]) - m
        h_aux += (out.sum() / y.size) * (g_aux - m)
    n_aux = h_aux.size
    cov_xh = (controls.za.T @ h_aux.astype(np.float32)).astype(float) * controls.scale / (n_aux - 1)
    return h, cov_xh, float(h_aux @ h_aux) / (n_aux - 1)


def mean_se(y: np.ndarray, x: np.ndarray | None, controls: Controls | None) -> tuple[float, float]:
    """Mean of ``y`` and its standard error.

    Corrected by control variates where they apply (``y`` varies, enough deals), else the plain
    mean and ``sd / sqrt(n)`` (NaN / inf without deals, inf with one).
    """
    n = y.size
    if controls is not None and x is not None and n > 1 and float(y.std()) > 0:
        cv = cv_mean(y, x, controls)
        if cv is not None:
            return cv
    mean = float(y.mean()) if n else math.nan
    return mean, (float(y.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf)


def mean_bounds(
    y: np.ndarray,
    x: np.ndarray | None,
    controls: Controls | None,
    worst: float,
    best: float,
) -> tuple[float, float, float, bool]:
    """``(mean, low, high, corrected)`` for the mean of ``y``, its values in ``[worst, best]``.

    * With ``controls`` and ``x`` and a varying ``y`` on enough deals (:func:`cv_mean`): the
      control-variate estimate and its normal 95 % interval (``corrected`` True).
    * Else, where the deals carry at least :data:`CV_MIN_EACH` "makes" and "failures" once the
      mean is rescaled to a share of the range (``n * u`` and ``n * (1 - u)``, ``u = (mean -
      worst) / (best - worst)``: the rule a share needs for a normal interval) and ``y`` varies:
      the plain mean +- 1.96 ``sd / sqrt(n)``.
    * Else, too few deals for a normal interval: the plain mean with :func:`range_interval`
      (Wilson's, on the range), which never is infinite (one deal) nor of zero width (every deal
      alike).

    Every interval is clipped to ``[worst, best]``; without deals the mean is NaN and the
    interval the whole range.
    """
    n = y.size
    if n == 0:
        return math.nan, worst, best, False
    if controls is not None and x is not None and n > 1 and float(y.std()) > 0:
        cv = cv_mean(y, x, controls)
        if cv is not None:
            mean, se = cv
            low, high = mean - Z95 * se, mean + Z95 * se
            return mean, min(max(low, worst), best), max(min(high, best), worst), True
    mean = float(y.mean())
    span = best - worst
    share = (mean - worst) / span if span > 0 else 0.0
    enough = span > 0 and min(n * share, n * (1.0 - share)) >= CV_MIN_EACH
    sd = float(y.std(ddof=1)) if n > 1 else 0.0
    if enough and sd > 0:
        se = sd / math.sqrt(n)
        return mean, max(mean - Z95 * se, worst), min(mean + Z95 * se, best), False
    low, high = range_interval(mean, n, worst, best)
    return mean, low, high, False


def rate_interval(
    y: np.ndarray, x: np.ndarray | None, controls: Controls | None
) -> tuple[float, float, float, bool]:
    """``(p, low, high, corrected)`` for the make rate of ``y`` (0/1, or Prop's "any" means).

    The control-variate estimate with a normal 95 % interval where there are enough deals,
    makes and failures (:data:`CV_MIN_DEALS`, :data:`CV_MIN_EACH`; ``corrected`` True); else
    the plain rate with its Wilson interval.
    """
    n = y.size
    made = float(y.sum())
    if controls is not None and x is not None and min(made, n - made) >= CV_MIN_EACH:
        cv = cv_mean(y, x, controls)
        if cv is not None:
            p, se = cv
            p = min(max(p, 0.0), 1.0)
            return p, max(p - Z95 * se, 0.0), min(p + Z95 * se, 1.0), True
    p = made / n if n else math.nan
    lo, hi = wilson_interval(p if n else 0.5, n)
    return p, lo, hi, False


def rate_bounds(
    made: np.ndarray, x: np.ndarray | None, controls: Controls | None
) -> tuple[float, float, float, bool, float]:
    """``(p, low, high, corrected, sampling half-width)`` of a row's ``p_make`` as reported.

    ``made`` (and ``x``, the features of the same deals) covers every deal the row was asked
    on, NaN where the play model gave up.  The interval is :func:`rate_interval`'s over the
    solved deals, widened to cover any outcome of the unresolved ones (with the correction,
    :func:`widen`; without it, the Wilson bounds over all the deals with every unresolved one
    failing, or making).  The last value is the half-width before that widening.
    """
    known = ~np.isnan(made)
    unresolved = int(made.size - known.sum())
    solved = made[known]
    pm, lo, hi, corrected = rate_interval(solved, None if x is None else x[known], controls)
    sampling = (hi - lo) / 2
    if unresolved:
        if corrected:
            lo, hi = widen(lo, hi, solved.size, unresolved, 0.0, 1.0)
        else:
            total = solved.size + unresolved
            lo = wilson_interval(float(solved.sum()) / total, total)[0]
            hi = wilson_interval((float(solved.sum()) + unresolved) / total, total)[1]
    return pm, lo, hi, corrected, sampling
