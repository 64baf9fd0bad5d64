"""Monte Carlo contract evaluation and bidding advice.

:func:`advise` samples deals consistent with the player's hand, seat and the turn-up
(:class:`~solo_analysis.sampler.DealSampler`), plays every contract of the rule set on the
*same* deals with a play model (today: double-dummy, :func:`~solo_analysis.solver.solve_batch`),
and settles each result with the rule set.  Because every contract sees the same deals, the
differences between contracts are paired.  Adaptive sampling stops each contract on its own:
once a contract's intervals reach the tolerance it is no longer solved, and the contracts still
open go on to the next deals of the same stream (all contracts share the first deals, and paired
comparisons use the deals both were solved on).

Rows of the table (one per contract option)
-------------------------------------------
* Contracts with a fixed trump (``"turnup"``: the turn-up's suit; ``"none"``: no trump): one row.
* Contracts whose trump the declarer names (``"declarer"``: any suit; ``"declarer-new"``: a
  suit other than the turn-up's; ``"declarer-or-none"``: a suit or no trump): one row per
  eligible denomination (``choice = "fixed"``) plus one ``choice = "best"`` row: the
  denomination with the highest expected units over *all* the sampled deals.  The declarer
  names trumps before seeing the other hands, so the choice is made once per hand, never per deal.
* Prop-Cop: one row per partner seat (``choice = "fixed"``) plus one ``choice = "any"`` row, the
  average over the three seats (the proposer does not choose who accepts).

The ``candidate`` column marks the row that stands for its contract in the recommendation:
the ``best`` / ``any`` row where there is one, else the only row.

Encodings used here (defined elsewhere): seats are play-order indices 0..3 =
``PLAY_SEATS`` (eldest, second, third, dealer) of :mod:`solo_analysis.sampler`; trumps are
0..4 = S H D C NT (:mod:`solo_analysis.cards`).

Statistics
----------
``p_raw`` is the share of a row's solved deals on which the contract made.  ``p_make`` is that
share corrected by control variates (``control_variates=True``, the default): the features of
:func:`deal_features` (the other hands' high-card points and suit lengths, how each suit
splits, shortness with trumps) predict much of a result (measured out of sample, 4-fold, on
double-dummy results: 49-52 % of the variance of the Prop-Cop results of the ordinary hand
``AKJ94.K83.Q72.65`` over 600 deals, 51-59 % of those of the strong hand ``AKQJT9.AK.AK2.32`` and
62 % of its Solo results over 1200), and their exact means are known (estimated on a
separate stream of :data:`CV_AUX_DEALS` deals), so the estimate subtracts the part of the
sampling error they account for:
``p_make = p_raw - (mean of the features on the deals - their exact mean) . beta``, ``beta`` the
least-squares slope on the same deals.  One more column joins the features for each row: a
logistic prediction of the row's result from them, cross-fitted (each deal's prediction comes
from a model fitted on the other folds of deals, :func:`_logit_control`) and centred on its exact
mean, since a 0 / 1 result saturates where a linear fit does not (4,000 sampled deals of the
ordinary hand in blocks of 1,000, the variance of the estimate against the plain rate's: Prop-Cop
48-49 % with the linear features alone, 42-44 % with the prediction; Solo, made on 4 % of the
deals, 98 % and 88 %; blocks of 500: Prop-Cop 50-51 % and 46-48 %).  Its 95 % interval
(``ci_low``, ``ci_high``) is normal, with the residual variance, the factor
``(n - 2) / (n - k - 2)`` for a fitted ``beta`` (``k`` = 39 features and the prediction) and the
error of the exact means.  With fewer than :data:`CV_MIN_DEALS` solved deals,
or fewer than :data:`CV_MIN_EACH` makes or failures, and with ``control_variates=False``,
``p_make`` is ``p_raw`` with its 95 % Wilson score interval.  ``ev_units`` is the mean
settlement of the declarer (for Prop: of each partner) under the rule set, over/under-trick
schemes included.  Where the settlement takes only two values (success / failure), it and its
interval are ``p_make`` and its interval mapped onto those two values; where it depends on the
trick count (an over/under-trick scheme) it is the corrected mean +/- 1.96 standard errors.  The
``best`` rows are chosen on the same deals they are scored on, so their values are very slightly
optimistic.

Deals the solver gives up on
----------------------------
A few deals take the exact search millions of positions (tight lone-declarer Solo contracts and
Misère are the worst: some need minutes).  ``advise`` caps the search of each question at
``max_nodes`` positions (:data:`DEFAULT_MAX_NODES`, about a second of one core; ``None``: no cap).
A row's estimates (``p_make``, ``ev_units``, ``tricks_mean``) are then over the deals solved for it
(its ``samples``), and its ``unresolved`` deals widen its intervals to cover every outcome they
could have had: ``ci_low`` is the Wilson bound with all of them failing, ``ci_high`` with all of
them making, and the ``ev`` bounds likewise take the worst and best settlement.  Paired
comparisons use the deals solved for both rows and are widened the same way.  The adaptive
stopping rule looks at the sampling error only (more deals do not shrink the unresolved share,
and the unresolved deals are the costliest ones); ``converged`` and the CLI say when a reported
interval, widened, exceeds the tolerance.

Speed
-----
With ``exact=None`` (the default) the solver is asked only what the settlement needs: "does the
contract make?" (much faster than a full trick count) unless an over/under-trick scheme pays by
the trick.  Queries on the same denomination, leader and declarer side are chained: a higher
target is asked only on the deals where the lower one made.  ``exact=True`` counts tricks on every
row (needed for the trick distributions).  Contracts that are the same double-dummy problem
(Misère and Spread Misère) are solved once.

Adaptive sampling also stops at a cap on its work, ``max_positions`` (:data:`DEFAULT_MAX_POSITIONS`
search positions over all deals and questions): each batch is cut to what the previous batch's
positions per deal say fits, the run stops when fewer than :data:`MIN_CUT_BATCH` deals do, and
the advice records ``stopped = "max_positions"``.  Positions are counted by the search itself,
so a capped run is the same on every machine and repeats from its seed.  Hands with a clear
answer reach the tolerance first.  A hand whose live contract is Prop and Cop (three partner
questions a deal, each a two-against-two search of 45,000-150,000 positions on average) needs
1.3 to 6.5 times the cap for +-2 points (16 random hands: 14 of them), and stops at the cap
with wider intervals, which it reports.  ``max_positions=None`` runs to the tolerance.
``max_seconds`` bounds the wall time the same way (``stopped = "max_seconds"``); the same
``seed`` with ``max_samples`` = the deals used repeats such a run exactly.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import numbers
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .cards import SUIT_SYMBOLS, SUITS, Hand, card_str, parse_card
from .errors import SoloAnalysisError, TurnupError
from .rules import Contract, RuleSet, load_rules
from ._questions import Query, Row, build_rows, solve_rows
from .sampler import PLAY_SEATS, DealSampler, parse_play_seat

__all__ = [
    "advise",
    "Advice",
    "AdviceError",
    "PlayModel",
    "DoubleDummy",
    "PLAY_MODELS",
    "DEFAULT_TOLERANCE",
    "DEFAULT_MAX_SAMPLES",
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_POSITIONS",
    "FIRST_BATCH",
    "MIN_CUT_BATCH",
    "PROGRESS_CHUNK",
    "wilson_interval",
    "deal_features",
    "CV_MIN_DEALS",
    "CV_MIN_EACH",
    "CV_AUX_DEALS",
]

# --- tunables (one place) -----------------------------------------------------------------
#: stop sampling once every row's 95 % Wilson half-width on p_make is at most this
DEFAULT_TOLERANCE: float = 0.02
#: most deals an adaptive run samples
DEFAULT_MAX_SAMPLES: int = 2000
#: positions the solver may visit for one question on one deal before ``advise`` gives up on
#: the deal (about a second of one core); see "Deals the solver gives up on" above
DEFAULT_MAX_NODES: int = 5_000_000
#: search positions a whole adaptive run may spend (all deals and questions) before it stops
#: short of the tolerance: the default advice's bound on its own time, the same on every
#: machine (see "Speed" above)
DEFAULT_MAX_POSITIONS: int = 60_000_000
#: size of the first batch of an adaptive run (and the smallest later one); later batches aim
#: at the tolerance and at most double the total so far
FIRST_BATCH: int = 64
#: the smallest batch a run capped by ``max_positions`` goes on to (fewer fit: it stops)
MIN_CUT_BATCH: int = 16
#: with a ``progress`` callback, deals are solved in chunks of this many (results unchanged;
#: the threads wait for a chunk's slowest question: the ordinary hand of bench_advise.py,
#: 293 deals, took 4.40-4.52 s in chunks of 16, 4.20-4.22 s of 32, 4.15-4.16 s without)
PROGRESS_CHUNK: int = 32
#: the clock of ``max_seconds`` (a module attribute so that tests can replace it)
_clock: Callable[[], float] = time.perf_counter
#: two-sided 95 % normal quantile
Z95: float = 1.959963984540054
#: control variates: fewest solved deals, and fewest makes and failures, before a row's
#: estimate is corrected by them (below that: the plain Wilson interval)
CV_MIN_DEALS: int = 128
CV_MIN_EACH: int = 10
#: control variates: deals of the separate stream that estimates the features' exact means
CV_AUX_DEALS: int = 1 << 16
#: control variates: folds of the cross-fitted logistic prediction (:func:`_logit_control`),
#: its ridge penalty (on standardised features) and most Newton steps
CV_FOLDS: int = 4
CV_LOGIT_RIDGE: float = 5.0
CV_LOGIT_STEPS: int = 25
#: number of columns of :func:`deal_features`
N_FEATURES: int = 39

_TRUMP_TEXT = ("S", "H", "D", "C", "NT")  # trump code 0..4 -> table text


class AdviceError(SoloAnalysisError):
    """A bad advice request: tolerance, sample counts, play model or a hand/turn-up mismatch."""


# --- play models ----------------------------------------------------------------------------


class PlayModel:
    """How a fixed deal is played out.  Subclasses answer the two questions the advice asks.

    Seats are play-order indices (0 = eldest .. 3 = dealer), trump 0..4 (4 = no trump).
    A model may give up on a deal: it then answers -1 for it.
    """

    name: str = "abstract"
    #: one-line caveat shown wherever a probability is reported
    note: str = ""
    #: work done so far, in search positions, by a model that counts them (``None``: it does
    #: not, and ``advise``'s ``max_positions`` cannot apply to it)
    positions: int | None = None

    def tricks(
        self, deals: np.ndarray, *, trump: int, leader: int, side: tuple[int, ...], misere: bool
    ) -> np.ndarray:
        """Tricks taken by the declarer side on each deal (int array of length n; -1: gave up)."""
        raise NotImplementedError

    def makes(
        self,
        deals: np.ndarray,
        *,
        trump: int,
        leader: int,
        side: tuple[int, ...],
        misere: bool,
        target: int,
    ) -> np.ndarray:
        """Whether the declarer side reaches ``target`` (misère: stays at or under it).

        An int array: 1 (makes), 0 (fails) or -1 (the model gave up on the deal).
        """
        t = np.asarray(self.tricks(deals, trump=trump, leader=leader, side=side, misere=misere))
        ok = (t <= target) if misere else (t >= target)
        return np.where(t < 0, -1, ok.astype(np.int8)).astype(np.int8)

    def ask(self, deals: np.ndarray, questions: list[Query]) -> list[np.ndarray]:
        """Answer several questions about the same deals (a :meth:`tricks` or :meth:`makes`
        answer per :class:`Query`, over its ``subset`` of the deals).

        The default asks them one by one; a model that can do better (the double-dummy one
        runs them all in one parallel pass) overrides it.
        """
        out = []
        for q in questions:
            part = deals if q.subset is None else deals[q.subset]
            if q.target is None:
                out.append(
                    np.asarray(
                        self.tricks(
                            part, trump=q.trump, leader=q.leader, side=q.side, misere=q.misere
                        )
                    ).astype(np.int8)
                )
            else:
                out.append(
                    np.asarray(
                        self.makes(
                            part,
                            trump=q.trump,
                            leader=q.leader,
                            side=q.side,
                            misere=q.misere,
                            target=q.target,
                        )
                    ).astype(np.int8)
                )
        return out


class DoubleDummy(PlayModel):
    """Perfect play with all four hands visible (:func:`~solo_analysis.solver.solve_batch`).

    Parameters
    ----------
    max_nodes : int, optional
        Give up on a deal (answer -1) once one question has taken this many search positions;
        ``None``: no limit, every answer exact.
    """

    name = "double-dummy"
    note = (
        "double-dummy play: every player sees all the cards; exact for Spread Misère after the "
        "first trick, pessimistic for the declarer in plain Misère"
    )

    def __init__(self, max_nodes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.positions = 0

    def tricks(self, deals, *, trump, leader, side, misere):  # noqa: D102
        return self.ask(deals, [Query(trump, leader, side, misere)])[0]

    def makes(self, deals, *, trump, leader, side, misere, target):  # noqa: D102
        return self.ask(deals, [Query(trump, leader, side, misere, target)])[0]

    def ask(self, deals, questions):  # noqa: D102
        from .solver import Question, solve_questions

        asked = [
            Question(q.trump, q.leader, q.side, q.misere, q.target, q.subset) for q in questions
        ]
        answers, work = solve_questions(
            deals, asked, max_nodes=self.max_nodes, return_positions=True
        )
        self.positions += sum(int(w.sum()) for w in work)
        return [a.astype(np.int8) for a in answers]


#: play model name -> class (a later issue adds an imperfect-information model here)
PLAY_MODELS: dict[str, Callable[[], PlayModel]] = {"double-dummy": DoubleDummy}


# --- statistics -----------------------------------------------------------------------------


def wilson_interval(p: Any, n: Any, z: float = Z95) -> tuple[Any, Any]:
    """The Wilson score interval of a proportion ``p`` observed on ``n`` trials (arrays allowed).

    Returns ``(low, high)``; ``n = 0`` gives ``(0, 1)``.
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


# --- control variates ------------------------------------------------------------------------


def deal_features(deals: np.ndarray, seat: int, trump: int | None = None) -> np.ndarray:
    """Features of sampled deals that predict the contracts' results (control variates).

    For the first two other hands in play order: high-card points (A 4, K 3, Q 2, J 1) in each
    suit and the lengths of spades, hearts and diamonds (the third other hand's follow from
    these and the player's own hand).  Per suit, over the three other hands: the longest and
    shortest holding, how many of them are void, and the most high-card points one holds (how
    a suit splits matters to a lone declarer more than who holds what).  Per other hand: its
    points squared, its shortest suit, and its length in ``trump`` when that shortest suit is a
    void or a singleton (ruffing chances; 0 without ``trump``).

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
    d = np.asarray(deals)
    n = d.shape[0]
    if n == 0:
        return np.zeros((0, N_FEATURES))
    others = [q for q in range(4) if q != seat]
    suit = d[:, others, :] // 13
    hcp = np.maximum(d[:, others, :] % 13 - 8, 0)
    length = np.stack([(suit == s).sum(axis=2) for s in range(4)], axis=2)  # (n, 3 hands, 4 suits)
    points = np.stack([np.where(suit == s, hcp, 0).sum(axis=2) for s in range(4)], axis=2)
    shortest = length.min(axis=2)
    ruffs = (
        np.zeros_like(shortest)
        if trump is None
        else np.where(shortest <= 1, length[:, :, trump], 0)
    )
    cols = [
        points[:, :2, :].reshape(n, 8),
        length[:, :2, :3].reshape(n, 6),
        length.max(axis=1),
        length.min(axis=1),
        (length == 0).sum(axis=1),
        points.max(axis=1),
        points.sum(axis=2) ** 2,
        shortest,
        ruffs,
    ]
    return np.concatenate(cols, axis=1).astype(float)


@dataclass
class _Controls:
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
    #: the exact means of the logistic predictions (:func:`_logit_control`) are taken on them
    za: np.ndarray | None = None
    scale: np.ndarray | None = None
    cache: dict = field(default_factory=dict, repr=False)


def _aux_seed(seed: int) -> int:
    """Seed of the stream that estimates the feature means (a fixed mix of the main seed)."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2**64


def _cv_mean(y: np.ndarray, x: np.ndarray, controls: _Controls) -> tuple[float, float] | None:
    """Regression (control-variate) estimate of the mean of ``y`` and its standard error.

    ``mean(y) - (mean(x) - mu) . beta`` with ``beta`` the least-squares slope of ``y`` on the
    features ``x`` (same deals): the part of ``y``'s sampling error that the features explain
    is removed, since their exact means ``mu`` are known.  The variance is the residual
    variance over ``n`` with the usual factor for a fitted ``beta``, ``(n - 2) / (n - k - 2)``,
    plus the error of ``mu``.  Where ``controls`` keeps the stream's features (``za``), the
    cross-fitted logistic prediction of ``y`` (:func:`_logit_control`, exact mean 0) is one more
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
    if key in controls.cache:
        return controls.cache[key]
    mean, cov = controls.mean, controls.cov
    if controls.za is not None:
        extra = _logit_control(y, x, controls)
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


def _sigmoid(eta: np.ndarray) -> np.ndarray:
    """The logistic curve, its argument clipped to [-30, 30] (no overflow in ``exp``)."""
    return 1.0 / (1.0 + np.exp(-np.clip(eta, -30.0, 30.0)))


def _logit_fit(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge-penalised logistic regression of ``y`` (in [0, 1]; fractions allowed) on the
    standardised features ``z``: Newton steps from zero; returns ``[intercept, slopes...]``."""
    n, k = z.shape
    a = np.column_stack([np.ones(n), z])
    penalty = np.full(k + 1, CV_LOGIT_RIDGE)
    penalty[0] = 0.0
    w = np.zeros(k + 1)
    for _ in range(CV_LOGIT_STEPS):
        mu = _sigmoid(a @ w)
        grad = a.T @ (y - mu) - penalty * w
        hess = (a * (mu * (1.0 - mu))[:, None]).T @ a + np.diag(penalty) + 1e-9 * np.eye(k + 1)
        step = np.linalg.solve(hess, grad)
        w += step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w


def _logit_control(
    y: np.ndarray, x: np.ndarray, controls: _Controls
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
    if hi <= lo:
        return None
    u = (y - lo) / (hi - lo)
    z = (x - controls.mean) / controls.scale
    fold = np.arange(y.size) % CV_FOLDS
    h = np.empty(y.size)
    h_aux = np.zeros(controls.za.shape[0])
    for f in range(CV_FOLDS):
        out = fold == f
        w = _logit_fit(z[~out], u[~out])
        g_aux = _sigmoid(w[0] + controls.za @ w[1:].astype(np.float32))
        m = float(g_aux.mean())
        h[out] = _sigmoid(w[0] + z[out] @ w[1:]) - m
        h_aux += (out.sum() / y.size) * (g_aux - m)
    n_aux = h_aux.size
    cov_xh = (controls.za.T @ h_aux.astype(np.float32)).astype(float) * controls.scale / (n_aux - 1)
    return h, cov_xh, float(h_aux @ h_aux) / (n_aux - 1)


def _mean_se(
    y: np.ndarray, x: np.ndarray | None, controls: _Controls | None
) -> tuple[float, float]:
    """Mean of ``y`` and its standard error: corrected by control variates where they apply
    (``y`` varies, enough deals), else the plain mean and ``sd / sqrt(n)`` (NaN / inf without
    deals, inf with one)."""
    n = y.size
    if controls is not None and x is not None and n > 1 and float(y.std()) > 0:
        cv = _cv_mean(y, x, controls)
        if cv is not None:
            return cv
    mean = float(y.mean()) if n else math.nan
    return mean, (float(y.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf)


def _p_interval(
    y: np.ndarray, x: np.ndarray | None, controls: _Controls | None
) -> tuple[float, float, float, bool]:
    """``(p, low, high, corrected)`` for the make rate of ``y`` (0/1, or Prop's "any" means).

    The control-variate estimate with a normal 95 % interval where there are enough deals,
    makes and failures (:data:`CV_MIN_DEALS`, :data:`CV_MIN_EACH`; ``corrected`` True); else
    the plain rate with its Wilson interval.
    """
    n = y.size
    made = float(y.sum())
    if controls is not None and x is not None and min(made, n - made) >= CV_MIN_EACH:
        cv = _cv_mean(y, x, controls)
        if cv is not None:
            p, se = cv
            p = min(max(p, 0.0), 1.0)
            return p, max(p - Z95 * se, 0.0), min(p + Z95 * se, 1.0), True
    p = made / n if n else math.nan
    lo, hi = wilson_interval(p if n else 0.5, n)
    return p, lo, hi, False


def _row_arrays(rows: list[Row], i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(made as float 0..1, payoff per deal, tricks or -1) of row ``i`` over all deals so far.

    ``made`` and ``payoff`` are NaN on the deals the play model gave up on.
    """
    row = rows[i]
    made = np.concatenate(row.made).astype(float) if row.made else np.zeros(0)
    tricks = np.concatenate(row.tricks) if row.tricks else np.zeros(0, dtype=np.int8)
    unknown = np.isnan(made)
    if row.binary and np.any((tricks < 0) & ~unknown):
        success = row.values[row.contract.is_made(np.arange(14))][0]
        failure = row.values[~row.contract.is_made(np.arange(14))][0]
        payoff = np.where(made > 0, success, failure)
    else:
        payoff = row.values[np.maximum(tricks, 0).astype(np.int64)]
    payoff = np.where(unknown, np.nan, payoff)
    return made, payoff, tricks


def _p_bounds(
    made: np.ndarray, x: np.ndarray | None, controls: _Controls | None
) -> tuple[float, float, float, bool, float]:
    """``(p, low, high, corrected, sampling half-width)`` of a row's ``p_make`` as reported.

    ``made`` (and ``x``, the features of the same deals) covers every deal the row was asked
    on, NaN where the play model gave up.  The interval is :func:`_p_interval`'s over the
    solved deals, widened to cover any outcome of the unresolved ones (with the correction,
    :func:`_widen`; without it, the Wilson bounds over all the deals with every unresolved one
    failing, or making).  The last value is the half-width before that widening.
    """
    known = ~np.isnan(made)
    unresolved = int(made.size - known.sum())
    solved = made[known]
    pm, lo, hi, corrected = _p_interval(solved, None if x is None else x[known], controls)
    sampling = (hi - lo) / 2
    if unresolved:
        if corrected:
            lo, hi = _widen(lo, hi, solved.size, unresolved, 0.0, 1.0)
        else:
            total = solved.size + unresolved
            lo = wilson_interval(float(solved.sum()) / total, total)[0]
            hi = wilson_interval((float(solved.sum()) + unresolved) / total, total)[1]
    return pm, lo, hi, corrected, sampling


def _halfwidths(rows: list[Row], i: int, controls: _Controls | None) -> tuple[float, float]:
    """Half-widths of row ``i``'s ``p_make`` interval: as reported (unresolved deals
    included) and from sampling alone."""
    made, _, _ = _row_arrays(rows, i)
    x = None if controls is None else controls.x[: made.size]
    _, lo, hi, _, sampling = _p_bounds(made, x, controls)
    return (hi - lo) / 2, sampling


def _still_open(
    rows: list[Row], tolerance: float, controls: _Controls | None
) -> tuple[list[Row], float, bool]:
    """The rows of the contracts that some fixed row of keeps wider than ``tolerance``.

    A row is open while the sampling half-width of its ``p_make`` exceeds the tolerance.  The
    widening for its unresolved deals is left out: it follows the share of deals the solver
    gives up on, which more deals do not shrink, and those deals are the costliest, each a
    full node budget (the ordinary hand of ``scripts/bench_advise.py``: its Solo makes on 1.6 %
    of deals and 6 of its 256 were unresolved, which widen the interval from about +-1.7 to
    +-3.2 points; sampling until the widened interval fits would take several times the deals).
    Whether the reported intervals fit is returned apart, and the advice says so.

    A contract stops as a whole (its derived ``best`` / ``any`` row needs its fixed rows on the
    same deals), and only on its own intervals, so that each row's stopping rule depends on its
    own results alone, as when every row ran to the slowest one.  Also returns the widest
    sampling half-width among the open rows (0 when none is left) and whether every fixed
    row's reported interval (widening included) is within the tolerance.
    """
    wide: dict[str, float] = {}
    within = True
    for i, row in enumerate(rows):
        if row.choice == "fixed":
            reported, sampling = _halfwidths(rows, i, controls)
            within = within and reported <= tolerance
            if sampling > tolerance:
                wide[row.contract.name] = max(sampling, wide.get(row.contract.name, 0.0))
    return (
        [row for row in rows if row.contract.name in wide],
        max(wide.values(), default=0.0),
        within,
    )


def _next_total(total: int, halfwidth: float, tolerance: float, max_samples: int) -> int:
    """Deals to have solved after the next batch of an adaptive run.

    A half-width shrinks as one over the square root of the deals: aim at the count that
    brings the widest open interval to the tolerance (if it falls short, the next batch is
    small), at least :data:`FIRST_BATCH` more deals and at most twice as many as now.
    """
    aim = math.ceil(total * (halfwidth / tolerance) ** 2)
    return min(max(aim, total + FIRST_BATCH), 2 * total, max_samples)


def _affordable(total: int, goal: int, batch_deals: int, batch_seconds: float, left: float) -> int:
    """The next total of an adaptive run cut to the time left (``total`` if none is affordable).

    The last batch's cost per deal predicts the next one's (an over-estimate, since fewer
    contracts stay open), so the next batch is cut to the deals that fit in ``left`` seconds.
    """
    if left <= 0:
        return total
    per_deal = batch_seconds / max(batch_deals, 1)
    if per_deal <= 0:
        return goal
    return min(goal, total + int(left / per_deal))


# --- the result -----------------------------------------------------------------------------

_JSON_COLUMNS = (
    "row", "contract", "title", "rank", "trump", "partner", "choice", "candidate", "allowed",
    "target", "misere", "leader", "exposed", "samples", "unresolved", "p_make", "ci_low", "ci_high", "p_raw",
    "ev_units", "ev_low", "ev_high", "tricks_mean", "exact", "play_model",
)  # fmt: skip


def _plain(value: Any) -> Any:
    """A JSON-ready Python value (numpy scalars unwrapped, NaN -> None)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def _units(v: float) -> str:
    text = f"{v:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


@dataclass(frozen=True, eq=False)
class Advice:
    """The evaluation of every contract option for one hand, and the bidding recommendation.

    Attributes
    ----------
    hand : Hand
        The player's 13 cards.
    seat : str
        The player's seat (``"eldest"``, ``"second"``, ``"third"``, ``"dealer"``).
    turnup : int or None
        The turn-up card code (``None`` without a turn-up).
    rules : RuleSet
    samples : int
        Deals sampled.  With a fixed ``samples`` every row is evaluated on all of them; an
        adaptive run evaluates every row on the first deals and stops each contract once its
        own intervals reach the tolerance, so a row may use fewer.  A row's estimates leave out
        the deals the solver gave up on for it; the table's ``samples`` (solved) and
        ``unresolved`` (given up) columns add up to the deals that row was evaluated on.
    seed : int
        Seed of the deal stream; ``advise(..., seed=advice.seed)`` repeats the run.
    play_model : str
        Name of the play model (``"double-dummy"``); :attr:`play_note` is its caveat.
    table : pandas.DataFrame
        One row per contract option (see the module docstring for the columns).
    distribution : pandas.DataFrame
        Long table: ``row, contract, trump, partner, choice, tricks, count, share`` for every row
        whose tricks were counted (all rows with ``exact=True``); :meth:`tricks_frame` adds the
        title, target and a ``made`` column.
    recommendation : str
        The contract name to bid, or ``"pass"``.
    recommended : pandas.Series or None
        The table row of the recommendation (``None`` for a pass).
    runner_up : pandas.Series or None
        The next best allowed candidate (``None`` if passing is second best or nothing else is allowed).
    close_call : bool
        True if the top two choices (passing counts as a choice worth 0) cannot be told apart:
        the 95 % interval of their paired difference (:attr:`margin`) reaches 0.
    margin : tuple of float
        Paired difference of expected units, best minus second best: ``(mean, low, high)``.
    over : str or None
        The highest bid so far (only higher contracts are ``allowed``).
    tolerance : float or None
        Target Wilson half-width (``None`` when ``samples`` was fixed).
    converged : bool
        True if every fixed row's reported ``p_make`` interval (widened for its unresolved
        deals) is within the tolerance (always True with fixed ``samples``).
    unresolved : int
        Deals on which at least one question took the solver more than :attr:`max_nodes`
        positions (each row's own count is its ``unresolved`` column; its intervals cover every
        outcome those deals could have had).
    max_nodes : int or None
        The solver's cap per question (``None``: none, every deal solved exactly).
    control_variates : bool
        Whether the estimates were corrected by the deals' features (see :func:`advise`).
    stopped : str
        Why sampling stopped: ``"samples"`` (a fixed number of deals), ``"tolerance"`` (every
        contract's intervals reached it), ``"max_samples"`` (the cap on deals) or
        ``"max_seconds"`` (the time limit; ``advise(..., seed=advice.seed,
        max_samples=advice.samples)`` repeats the run without it) or ``"max_positions"``
        (the cap on the search's work; the same seed repeats the run).
    max_seconds : float or None
        The time limit of the run (``None``: none).
    positions : int or None
        Search positions the play model spent on this advice (``None`` if it does not count).
    max_positions : int or None
        The cap on them (``None``: none, or a fixed ``samples`` run).

    Notes
    -----
    Views: :meth:`summary` (one line), :meth:`to_frame` / :meth:`to_json` / :meth:`to_csv`,
    :meth:`tricks_frame`, the charts :meth:`plot` and :meth:`plot_tricks`
    (:mod:`solo_analysis.plots`, matplotlib imported on first use), and in Jupyter the table with
    the chart as inline SVG.
    """

    hand: Hand
    seat: str
    turnup: int | None
    rules: RuleSet
    samples: int
    seed: int
    play_model: str
    play_note: str
    table: pd.DataFrame
    distribution: pd.DataFrame
    recommendation: str
    recommended: pd.Series | None
    runner_up: pd.Series | None
    close_call: bool
    margin: tuple[float, float, float]
    over: str | None = None
    tolerance: float | None = None
    converged: bool = True
    unresolved: int = 0
    max_nodes: int | None = None
    control_variates: bool = False
    stopped: str = "samples"
    max_seconds: float | None = None
    positions: int | None = None
    max_positions: int | None = None

    # -- text -------------------------------------------------------------------------------

    @staticmethod
    def _label(row: pd.Series, symbols: bool = True) -> str:
        """``"Solo"``, or ``"Abundance (♠)"`` for a declarer's-choice row."""
        text = str(row["title"])
        if row["choice"] == "best":
            trump = row["trump"]
            text += f" ({_trump_symbol(trump) if symbols else trump})"
        return text

    def summary(self) -> str:
        """One line, e.g. ``"Bid Misère: 71% (68–74%), +3.8 units; Solo is second at +1.2"``."""
        line = self._summary()
        if self.unresolved:
            line += f"; {self.unresolved} of {self.samples} deals unsolved, counted both ways in the intervals"
        return line

    def _summary(self) -> str:
        best, second = self.recommended, self.runner_up
        if best is None:
            line = "Pass: no allowed contract is expected to win"
            top = self._best_allowed()
            if top is not None:
                line += f" (best: {self._label(top)} at {_units(top['ev_units'])})"
            else:
                line += " (nothing above the bid so far)"
            if self.close_call and top is not None:
                line += "; close call"
            return line
        line = (
            f"Bid {self._label(best)}: {_pct(best['p_make'])} "
            f"({_pct(best['ci_low'])}–{_pct(best['ci_high'])}), {_units(best['ev_units'])} units"
        )
        if second is not None:
            line += f"; {self._label(second)} is second at {_units(second['ev_units'])}"
        else:
            line += "; passing is second at 0.0"
        if self.close_call:
            line += " (close call: the difference is within the noise)"
        return line

    def _stop_text(self) -> str:
        """Why an adaptive run stopped short of its tolerance ("" if it did not)."""
        if self.stopped == "max_positions":
            return f" (stopped at the cap of {self.max_positions:,} search positions: max_positions=None runs on)"
        if self.stopped == "max_seconds":
            return f" (stopped at the time limit of {self.max_seconds:g} s)"
        if self.stopped == "max_samples" and not self.converged:
            return " (stopped at max_samples)"
        return ""

    def _unresolved_text(self) -> str:
        if not self.unresolved:
            return ""
        return f" ({self.unresolved} unsolved within {self.max_nodes:,} positions per question)"

    def _best_allowed(self) -> pd.Series | None:
        cands = self.table[self.table["candidate"] & self.table["allowed"]]
        if cands.empty:
            return None
        return cands.loc[cands["ev_units"].idxmax()]

    def __repr__(self) -> str:
        turnup = None if self.turnup is None else card_str(self.turnup)
        return (
            f"<Advice {str(self.hand)!r} seat={self.seat} turnup={turnup} rules={self.rules.name} "
            f"samples={self.samples} seed={self.seed}: {self.recommendation}>"
        )

    # -- data -------------------------------------------------------------------------------

    def to_frame(self) -> pd.DataFrame:
        """A copy of :attr:`table`."""
        return self.table.copy()

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of :meth:`to_json` as Python objects."""
        contracts = [
            {col: _plain(rec[col]) for col in _JSON_COLUMNS}
            for rec in self.table.to_dict("records")
        ]
        if self.recommended is None:
            rec: dict[str, Any] = {
                "contract": "pass",
                "title": "Pass",
                "trump": None,
                "ev_units": 0.0,
            }
        else:
            r = self.recommended
            rec = {
                "contract": r["contract"],
                "title": r["title"],
                "trump": r["trump"],
                "row": _plain(r["row"]),
                "p_make": _plain(r["p_make"]),
                "ci_low": _plain(r["ci_low"]),
                "ci_high": _plain(r["ci_high"]),
                "ev_units": _plain(r["ev_units"]),
                "ev_low": _plain(r["ev_low"]),
                "ev_high": _plain(r["ev_high"]),
            }
        rec["close_call"] = bool(self.close_call)
        rec["runner_up"] = (
            None if self.runner_up is None
            else {"contract": self.runner_up["contract"], "trump": self.runner_up["trump"],
                  "ev_units": _plain(self.runner_up["ev_units"])}
        )  # fmt: skip
        rec["margin"] = [_plain(float(x)) for x in self.margin]
        rec["summary"] = self.summary()
        return {
            "hand": str(self.hand),
            "seat": self.seat,
            "turnup": None if self.turnup is None else card_str(self.turnup),
            "rules": self.rules.name,
            "samples": int(self.samples),
            "seed": int(self.seed),
            "play_model": self.play_model,
            "play_note": self.play_note,
            "over": self.over,
            "tolerance": self.tolerance,
            "converged": bool(self.converged),
            "unresolved": int(self.unresolved),
            "max_nodes": None if self.max_nodes is None else int(self.max_nodes),
            "control_variates": bool(self.control_variates),
            "stopped": self.stopped,
            "max_seconds": self.max_seconds,
            "positions": None if self.positions is None else int(self.positions),
            "max_positions": None if self.max_positions is None else int(self.max_positions),
            "contracts": contracts,
            "recommendation": rec,
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The advice as a JSON document (``hand, seat, turnup, rules, samples, seed, play_model,
        contracts: [...], recommendation: {...}``)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_csv(self, path: Any = None) -> str | None:
        """Header + one line per contract option (the columns of the JSON ``contracts``).

        Returns the text, or writes it to ``path`` and returns ``None``.
        """
        return self.table.loc[:, list(_JSON_COLUMNS)].to_csv(path, index=False)

    def tricks_frame(self) -> pd.DataFrame:
        """The trick-count distributions as a long frame, one line per (row, tricks).

        Columns: ``row, contract, title, trump, partner, choice, target, misere, tricks, made,
        count, share``; ``made`` says whether the contract makes with that many tricks.  Empty
        (with these columns) when no tricks were counted: run ``advise(..., exact=True)``.
        Group or pivot it freely, e.g.
        ``advice.tricks_frame().pivot_table(index="tricks", columns="contract", values="share")``.
        """
        cols = ["row", "contract", "title", "trump", "partner", "choice", "target", "misere",
                "tricks", "made", "count", "share"]  # fmt: skip
        dist = self.distribution
        if dist.empty:
            return pd.DataFrame(columns=cols)
        extra = self.table.set_index("row")[["title", "target", "misere"]]
        out = dist.join(extra, on="row")
        out["made"] = [
            bool(self.rules.contract(c).is_made(np.asarray([t]))[0])
            for c, t in zip(out["contract"], out["tricks"])
        ]
        return out.loc[:, cols].reset_index(drop=True)

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """The advice chart (:func:`solo_analysis.plots.advice_chart`); returns the Figure."""
        from .plots import advice_chart

        return advice_chart(self, ax, **kwargs)

    def plot_tricks(self, rows: Any = None, **kwargs: Any) -> Any:
        """The trick-count distributions (:func:`solo_analysis.plots.tricks_chart`); returns the Figure.

        Raises
        ------
        PlotError
            When no tricks were counted (run ``advise(..., exact=True)``).
        """
        from .plots import tricks_chart

        return tricks_chart(self, rows, **kwargs)

    def _chart_svg(self) -> str:
        """The advice chart as inline SVG, or "" if it cannot be drawn (the table still shows)."""
        try:
            from .plots import advice_chart, figure_svg

            return figure_svg(advice_chart(self))
        except Exception:  # noqa: BLE001 - a display helper must never break the notebook
            return ""

    def _repr_html_(self) -> str:
        head = [
            "contract",
            "trump",
            "partner",
            "p_make",
            "95% CI",
            "ev units",
            "ev 95% CI",
            "tricks",
        ]
        best_row = None if self.recommended is None else int(self.recommended["row"])
        lines = []
        for rec in self.table.to_dict("records"):
            style = []
            if rec["row"] == best_row:
                style.append("font-weight:bold;background:#e8f4e8")
            if not rec["allowed"]:
                style.append("color:#999")
            if rec["choice"] != "fixed":
                style.append("font-style:italic")
            tm = rec["tricks_mean"]
            cells = [
                html.escape(
                    rec["title"] + ("" if rec["choice"] == "fixed" else f" ({rec['choice']})")
                ),
                _trump_html(rec["trump"]),
                html.escape(rec["partner"] or ""),
                _pct(rec["p_make"]),
                f"{_pct(rec['ci_low'])}–{_pct(rec['ci_high'])}",
                _units(rec["ev_units"]),
                f"{_units(rec['ev_low'])} … {_units(rec['ev_high'])}",
                "" if not math.isfinite(tm) else f"{tm:.2f}",
            ]
            tds = "".join(f'<td style="padding:2px 8px;text-align:right">{c}</td>' for c in cells)
            lines.append(f'<tr style="{";".join(style)}">{tds}</tr>')
        ths = "".join(f'<th style="padding:2px 8px">{h}</th>' for h in head)
        return (
            f"<div><p>{html.escape(self.summary())}</p>"
            f'<table style="border-collapse:collapse;font-family:monospace"><tr>{ths}</tr>{"".join(lines)}</table>'
            f"<p><small>{self.samples} deals{self._unresolved_text()}, seed {self.seed}"
            f"{self._stop_text()}; {html.escape(self.play_note)}</small></p>"
            f"{self._chart_svg()}</div>"
        )


def _trump_symbol(trump: str) -> str:
    return trump if trump == "NT" else SUIT_SYMBOLS[SUITS.index(trump)]


def _trump_html(trump: str) -> str:
    if trump == "NT":
        return "NT"
    sym = _trump_symbol(trump)
    return f'<span style="color:#c00000">{sym}</span>' if trump in "HD" else sym


# --- the entry point ------------------------------------------------------------------------


def _check_int(value: Any, what: str, low: int) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or int(value) < low:
        raise AdviceError(f"{what} must be an int >= {low}, got {value!r}")
    return int(value)


def advise(
    hand: Hand | str,
    *,
    seat: str | int,
    turnup: str | int | None,
    rules: str | RuleSet = "classic",
    samples: int | None = None,
    seed: int | None = None,
    over: str | None = None,
    constraints: Any = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_samples: int = DEFAULT_MAX_SAMPLES,
    play_model: str | PlayModel = "double-dummy",
    exact: bool | None = None,
    contracts: Any = None,
    progress: Callable[[int, int], None] | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    control_variates: bool = True,
    max_seconds: float | None = None,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> Advice:
    """Evaluate every contract of the rule set for one hand and recommend a bid.

    Parameters
    ----------
    hand : Hand or str
        The player's 13 cards (anything :meth:`Hand.parse` reads, e.g. ``"AKJ94.K83.Q72.65"``).
    seat : str or int
        ``"eldest"``, ``"second"``, ``"third"``, ``"dealer"`` (or 0..3, play order).
    turnup : str, int or None
        The turned-up card (``"7S"``, ``"♠7"``, a code); ``None`` only for a rule set without turn-up.
    rules : str or RuleSet, default "classic"
        A preset name, a ``.toml`` path or a :class:`RuleSet`.
    samples : int, optional
        Use exactly this many deals, for every row.  Without it sampling is adaptive: a first
        batch of :data:`FIRST_BATCH` deals; after each batch a contract whose rows all report a
        95 % sampling half-width on ``p_make`` of at most ``tolerance`` stops, and the others go
        on to a next batch sized to bring the widest of them to the tolerance (at most doubling
        the deals so far), until none is left, ``max_samples`` deals are used or the search
        has spent ``max_positions`` (or ``max_seconds``, if given).  Deals the
        solver gave up on (``max_nodes``) widen a row's reported interval beyond that; the
        advice is ``converged`` only if every reported interval is within the tolerance.
    seed : int, optional
        Seed of the deal stream (``0 <= seed < 2**64``); ``None`` picks one at random and records it.
    over : str, optional
        The highest bid so far: only contracts ranking above it may be recommended.
    constraints : optional
        Conditions on the other hands, as for :class:`~solo_analysis.sampler.DealSampler`.
    tolerance : float, default 0.02
        Target half-width of the ``p_make`` intervals (adaptive sampling), in (0, 0.5].
    max_samples : int, default 2000
        Cap on the deals of an adaptive run.
    play_model : str or PlayModel, default "double-dummy"
        How each deal is played (``PLAY_MODELS``).
    exact : bool, optional
        ``True``: count tricks on every row (trick distributions for all rows); ``False`` /
        ``None``: ask only whether contracts make, except where the rule set pays by the trick
        (``None``), or everywhere (``False``, over/under-trick schemes then need ``exact``).
    contracts : iterable of str, optional
        Evaluate only these contracts (names or aliases); default every contract of the rule set.
    progress : callable, optional
        Called as ``progress(deals_done, deals_planned)`` as the work goes on: after every
        :data:`PROGRESS_CHUNK` deals solved (for every contract still open), with
        ``deals_planned`` = ``samples``, or for adaptive sampling the ``max_samples`` cap (the run
        may stop earlier; the last call then has ``deals_done < deals_planned``).  Without a
        callback the deals are solved in whole batches; either way the results are the same.
    max_nodes : int or None, default DEFAULT_MAX_NODES
        Search positions the named play model may spend on one question of one deal before
        the deal is left out (see the module docstring: the intervals then cover both outcomes
        of such deals); ``None`` solves every deal exactly, however long it takes.  Ignored
        when ``play_model`` is a :class:`PlayModel` instance (it carries its own setting).
    control_variates : bool, default True
        Correct each estimate by the deals' features (:func:`deal_features`: the other hands'
        high-card points and suit lengths), whose exact means are known: the same deals give
        narrower intervals, so adaptive sampling stops sooner (see "Statistics" in the module
        docstring).  ``False``: plain rates with Wilson intervals; ``p_raw`` is always the plain rate.
    max_seconds : float, optional
        A time limit for adaptive sampling: after the first batch, each batch is cut to the
        deals that its predecessor's pace says fit in the time left, and sampling stops when
        none do (so the run overshoots by at most a batch's misprediction).  The intervals are
        then as wide as the deals solved allow (``converged`` says whether they reach the
        tolerance) and :attr:`Advice.stopped` is ``"max_seconds"``.  A timed run depends on the
        machine's speed; ``seed=advice.seed, max_samples=advice.samples`` repeats it exactly.
        Not with ``samples``.
    max_positions : int or None, default DEFAULT_MAX_POSITIONS
        A cap on the work of adaptive sampling, in search positions over all deals and
        questions (the play model's count, :attr:`PlayModel.positions`; a model that does not
        count ignores it).  After the first batch, each batch is cut to the deals its
        predecessor's positions per deal say fit, and sampling stops when fewer than
        :data:`MIN_CUT_BATCH` do (a batch can overshoot the cap by its misprediction);
        :attr:`Advice.stopped` is then ``"max_positions"``.  Positions do not depend
        on the machine or the threads, so such a run repeats exactly from its seed, and the
        default keeps the advice on a hard hand to a few seconds (15-20 million positions a
        second on two cores of the benchmark machine; misère searches about 14 million) at the
        price of intervals wider than the tolerance there.  ``None``: no cap (the tolerance or
        ``max_samples`` ends the run).  Ignored with ``samples``.

    Returns
    -------
    Advice

    Raises
    ------
    CardError, HandError, DuplicateCardError, CardCountError
        A bad hand or turn-up card.
    SeatError
        An unknown seat.
    TurnupError
        The turn-up contradicts the hand or seat, or is missing / present against the rule set.
    RuleSetError
        An unknown rule set.
    ContractError
        An unknown ``over`` contract.
    AdviceError
        A bad ``samples``, ``max_samples``, ``tolerance``, ``seed``, ``exact``, ``max_nodes``,
        ``control_variates``, ``max_seconds``, ``max_positions`` or play model.
    ConstraintError, SamplingError
        From the sampler.
    """
    rule_set = load_rules(rules)
    the_hand = hand if isinstance(hand, Hand) else Hand.parse(hand)
    if len(the_hand) != 13:
        from .errors import CardCountError

        raise CardCountError(f"hand {str(the_hand)!r} has {len(the_hand)} cards, expected 13")
    p = parse_play_seat(seat)
    if turnup is None:
        turnup_code = None
        if rule_set.turnup:
            raise TurnupError(
                f"rule set {rule_set.name!r} turns up a trump card: give the turn-up card"
            )
    else:
        turnup_code = int(parse_card(turnup)) if isinstance(turnup, str) else int(turnup)
        if not 0 <= turnup_code < 52:
            from .errors import CardError

            raise CardError(f"invalid turn-up card {turnup!r}")
        if not rule_set.turnup:
            raise TurnupError(
                f"rule set {rule_set.name!r} plays without a turn-up, got turn-up {turnup!r}"
            )
    over_contract = None if over is None else rule_set.contract(over)
    if contracts is None:
        only = None
    else:
        names = [contracts] if isinstance(contracts, str) else list(contracts)
        if not names:
            raise AdviceError("contracts must name at least one contract")
        only = frozenset(rule_set.contract(name).name for name in names)
    if samples is not None:
        samples = _check_int(samples, "samples", 1)
    max_samples = _check_int(max_samples, "max_samples", 1)
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, numbers.Real)
        or not 0 < float(tolerance) <= 0.5
    ):
        raise AdviceError(f"tolerance must be a number in (0, 0.5], got {tolerance!r}")
    if exact not in (None, True, False):
        raise AdviceError(f"exact must be True, False or None, got {exact!r}")
    if control_variates not in (True, False):
        raise AdviceError(f"control_variates must be True or False, got {control_variates!r}")
    if max_nodes is not None:
        max_nodes = _check_int(max_nodes, "max_nodes", 1)
    if max_seconds is not None:
        if (
            isinstance(max_seconds, bool)
            or not isinstance(max_seconds, numbers.Real)
            or not 0 < float(max_seconds) < math.inf
        ):
            raise AdviceError(
                f"max_seconds must be a positive number of seconds, got {max_seconds!r}"
            )
        if samples is not None:
            raise AdviceError(
                "max_seconds limits adaptive sampling: give samples or max_seconds, not both"
            )
        max_seconds = float(max_seconds)
    if max_positions is not None:
        max_positions = _check_int(max_positions, "max_positions", 1)
    if isinstance(play_model, PlayModel):
        model = play_model
    elif isinstance(play_model, str) and play_model.strip().lower() in PLAY_MODELS:
        model = PLAY_MODELS[play_model.strip().lower()](max_nodes=max_nodes)
    else:
        raise AdviceError(f"unknown play model {play_model!r}; available: {', '.join(PLAY_MODELS)}")
    if seed is None:
        seed = secrets.randbits(63)
    elif (
        isinstance(seed, bool)
        or not isinstance(seed, numbers.Integral)
        or not 0 <= int(seed) < 2**64
    ):
        raise AdviceError(f"seed must be an int in [0, 2**64), got {seed!r}")
    seed = int(seed)

    sampler = DealSampler(the_hand, seat=p, turnup=turnup, seed=seed, constraints=constraints)
    turnup_suit = None if turnup_code is None else turnup_code // 13
    controls = None
    if control_variates:
        controls = _Controls(
            x=np.zeros((0, N_FEATURES)), mean=np.zeros(N_FEATURES), cov=np.eye(N_FEATURES), n_aux=0
        )

    def estimate_means(c: _Controls) -> None:
        # the features' means under the same sampling distribution, from a separate stream;
        # with rare constraints a smaller one (its error is part of every standard error)
        rate = sampler.acceptance_rate if sampler.filtering else None
        size = (
            CV_AUX_DEALS
            if rate is None
            else min(CV_AUX_DEALS, max(2048, round(CV_AUX_DEALS * 20 * rate)))
        )
        aux = DealSampler(
            the_hand, seat=p, turnup=turnup, seed=_aux_seed(seed), constraints=constraints
        )
        xa = deal_features(aux.draw(size), p, turnup_suit)
        c.mean, c.cov, c.n_aux = xa.mean(axis=0), np.cov(xa, rowvar=False), size
        sd = np.sqrt(np.diag(c.cov))
        c.scale = np.where(sd > 0, sd, 1.0)
        c.za = ((xa - c.mean) / c.scale).astype(np.float32)

    rows = build_rows(rule_set, p, turnup_suit, only)

    planned = samples if samples is not None else max_samples

    unresolved = 0

    def solve(active: list[Row], deals: np.ndarray, done: int) -> None:
        nonlocal unresolved
        if controls is not None:
            controls.x = np.concatenate([controls.x, deal_features(deals, p, turnup_suit)])
            if controls.n_aux == 0:
                estimate_means(controls)
        if progress is None:
            unresolved += int(solve_rows(active, deals, model, exact).sum())
            return
        for start in range(0, deals.shape[0], PROGRESS_CHUNK):
            part = deals[start : start + PROGRESS_CHUNK]
            unresolved += int(solve_rows(active, part, model, exact).sum())
            progress(done + start + part.shape[0], planned)

    total = 0
    converged = True
    stopped = "samples"
    # the work cap applies to a model that counts its positions
    counts = model.positions is not None
    positions_cap = max_positions if counts else None
    positions0 = model.positions or 0

    def spent() -> int:
        """Positions the model has searched for this advice so far."""
        return (model.positions or 0) - positions0

    if progress is not None:
        progress(0, planned)
    if samples is not None:
        solve(rows, sampler.draw(samples), 0)
        total = samples
    else:
        # Every contract is solved on the first deals of the stream; after each batch the
        # contracts whose intervals reached the tolerance stop, the others go on to the next
        # deals of the same stream (so all rows still share their first deals).
        converged = False
        stopped = "max_samples"
        active = rows
        goal = min(FIRST_BATCH, max_samples)
        start = _clock()
        cut = False  # this batch was cut to the time left: the last one
        while total < max_samples:
            before, before_positions = _clock(), spent()
            solve(active, sampler.draw(goal - total), total)
            batch_seconds = _clock() - before
            batch_positions = spent() - before_positions
            batch, total = goal - total, goal
            active, widest, converged = _still_open(rows, tolerance, controls)
            if not active:
                stopped = "tolerance"
                break
            if cut:
                stopped = "max_seconds"
                break
            goal = _next_total(total, widest, tolerance, max_samples)
            if positions_cap is not None:
                # The work cap: each batch is cut to the deals the last one's positions per deal
                # say fit, and the run goes on while a batch of MIN_CUT_BATCH deals does (the
                # positions, so the run, depend on the seed alone).
                fits = _affordable(total, goal, batch, batch_positions, positions_cap - spent())
                if fits < min(goal, total + MIN_CUT_BATCH):
                    stopped = "max_positions"
                    break
                goal = fits
            if max_seconds is not None:
                # Only the last batch is cut, so the same seed with max_samples = the final
                # total repeats the run (that cap leaves every earlier batch as it was).
                timed = _affordable(
                    total, goal, batch, batch_seconds, max_seconds - (_clock() - start)
                )
                if timed <= total:
                    stopped = "max_seconds"
                    break
                cut = timed < goal
                goal = timed

    table, distribution, payoffs = _summarise(
        rows, rule_set, p, over_contract, model.name, controls
    )
    ranges = {i: (float(r.values.min()), float(r.values.max())) for i, r in enumerate(rows)}
    rec, runner, close, margin = _recommend(table, payoffs, ranges, controls)
    return Advice(
        hand=the_hand,
        seat=PLAY_SEATS[p],
        turnup=turnup_code,
        rules=rule_set,
        samples=total,
        seed=seed,
        play_model=model.name,
        play_note=model.note,
        table=table,
        distribution=distribution,
        recommendation="pass" if rec is None else str(rec["contract"]),
        recommended=rec,
        runner_up=runner,
        close_call=close,
        margin=margin,
        over=None if over_contract is None else over_contract.name,
        tolerance=None if samples is not None else float(tolerance),
        converged=converged,
        unresolved=unresolved,
        max_nodes=getattr(model, "max_nodes", None),
        control_variates=controls is not None,
        stopped=stopped,
        max_seconds=max_seconds,
        positions=spent() if counts else None,
        max_positions=None if samples is not None else positions_cap,
    )


def _nanmean(x: np.ndarray) -> float:
    """Mean over the non-NaN entries (NaN if there are none)."""
    x = x[~np.isnan(x)]
    return float(x.mean()) if x.size else math.nan


def _widen(
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


def _summarise(
    rows: list[Row],
    rules: RuleSet,
    seat: int,
    over: Contract | None,
    model_name: str,
    controls: _Controls | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, dict[int, np.ndarray]]:
    """Build the table, the trick distributions and the per-deal payoffs of each row.

    A row's estimates are over the deals solved for it; its ``unresolved`` deals (NaN) widen
    its intervals to cover any outcome of theirs (:func:`_widen`; for ``p_make`` the Wilson
    bounds over all the deals with every unresolved one failing, or making).
    """
    arrays: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for i, row in enumerate(rows):
        if row.choice == "fixed":
            arrays[i] = _row_arrays(rows, i)
    # derived rows: the declarer's single best denomination, or the average over Prop partners
    chosen: dict[int, int] = {}
    for i, row in enumerate(rows):
        if row.choice == "best":
            evs = [_nanmean(arrays[j][1]) for j in row.sources]
            pm = [_nanmean(arrays[j][0]) for j in row.sources]
            k = max(range(len(evs)), key=lambda m: (evs[m], pm[m], -m))
            chosen[i] = row.sources[k]
            arrays[i] = arrays[row.sources[k]]
            row.trump = rows[row.sources[k]].trump
        elif row.choice == "any":
            parts = [arrays[j] for j in row.sources]
            made = np.mean([a[0] for a in parts], axis=0)
            payoff = np.mean([a[1] for a in parts], axis=0)
            arrays[i] = (made, payoff, np.full(made.shape, -1, dtype=np.int8))

    records = []
    dist_records = []
    for i, row in enumerate(rows):
        made, payoff, tricks = arrays[i]
        known = ~np.isnan(made)
        unresolved = int(made.size - known.sum())
        x_all = None if controls is None else controls.x[: made.size]
        pm, lo, hi, corrected, _ = _p_bounds(made, x_all, controls)
        x = None if x_all is None else x_all[known]
        made, payoff, tricks = made[known], payoff[known], tricks[known]
        n = made.size
        c = row.contract
        p_raw = float(made.mean()) if n else math.nan
        counted = n > 0 and bool(np.all(tricks >= 0)) and row.choice != "any"
        if row.binary and row.choice != "any":
            win = float(row.values[c.is_made(np.arange(14))][0])
            lose = float(row.values[~c.is_made(np.arange(14))][0])
            ev = lose + (win - lose) * pm if n else math.nan
            ev_low, ev_high = lose + (win - lose) * lo, lose + (win - lose) * hi
        else:
            ev, se = _mean_se(payoff, x, controls)
            ev_low, ev_high = ev - Z95 * se, ev + Z95 * se
            ev_low, ev_high = _widen(
                ev_low, ev_high, n, unresolved, float(row.values.min()), float(row.values.max())
            )
        partner = None if row.partner is None else PLAY_SEATS[row.partner]
        if row.choice == "any":
            partner = "any"
        records.append(
            {
                "row": i,
                "contract": c.name,
                "title": c.title,
                "rank": c.rank,
                "trump": _TRUMP_TEXT[row.trump],
                "partner": partner,
                "choice": row.choice,
                "candidate": False,
                "allowed": over is None or c.rank > over.rank,
                "target": c.target,
                "misere": c.misere,
                "leader": PLAY_SEATS[row.leader],
                "exposed": c.exposed,
                "samples": n,
                "unresolved": unresolved,
                "p_make": pm,
                "ci_low": float(lo),
                "ci_high": float(hi),
                "p_raw": p_raw,
                "ev_units": float(ev),
                "ev_low": float(ev_low),
                "ev_high": float(ev_high),
                "tricks_mean": float(tricks.mean()) if counted else math.nan,
                "exact": counted,
                "play_model": model_name,
            }
        )
        if counted:
            counts = np.bincount(tricks.astype(np.int64), minlength=14)
            for t in range(14):
                dist_records.append(
                    {
                        "row": i, "contract": c.name, "trump": _TRUMP_TEXT[row.trump], "partner": partner,
                        "choice": row.choice, "tricks": t, "count": int(counts[t]), "share": counts[t] / n,
                    }
                )  # fmt: skip
    table = pd.DataFrame.from_records(records)
    table["partner"] = pd.Series(
        [r["partner"] for r in records], dtype=object
    )  # keep None, not NaN
    # candidate: the derived row of a contract if it has one, else its only row
    derived = {rows[i].contract.name for i in range(len(rows)) if rows[i].choice != "fixed"}
    table["candidate"] = [
        (r["choice"] != "fixed") or (r["contract"] not in derived) for r in records
    ]
    dist_cols = ["row", "contract", "trump", "partner", "choice", "tricks", "count", "share"]
    distribution = pd.DataFrame.from_records(dist_records, columns=dist_cols)
    distribution["partner"] = pd.Series([r["partner"] for r in dist_records], dtype=object)
    payoffs = {i: arrays[i][1] for i in range(len(rows))}
    return table, distribution, payoffs


def _recommend(
    table: pd.DataFrame,
    payoffs: Mapping[int, np.ndarray],
    ranges: Mapping[int, tuple[float, float]] | None = None,
    controls: _Controls | None = None,
) -> tuple[pd.Series | None, pd.Series | None, bool, tuple[float, float, float]]:
    """Best allowed candidate (or pass), runner-up, close call and the paired margin.

    The paired difference is taken over the deals solved for both (the first deals of the
    stream: an adaptive run stops each contract when its own intervals are narrow enough);
    the deals either was given up on (NaN payoffs) widen its interval by the most and least
    the difference could be on them (``ranges``: each row's lowest and highest settlement).
    """
    cands = table[table["candidate"] & table["allowed"]].sort_values(
        ["ev_units", "p_make", "rank"], ascending=[False, False, True], kind="stable"
    )
    # passing is a choice worth exactly 0 on every deal
    options: list[tuple[float, float, float, pd.Series | None]] = [
        (float(r["ev_units"]), float(r["ev_low"]), float(r["ev_high"]), r)
        for _, r in cands.iterrows()
    ]
    options.append((0.0, 0.0, 0.0, None))
    # highest expected units first; at equal value passing beats bidding
    options.sort(key=lambda o: (-o[0], o[3] is not None))
    best, second = options[0], options[1] if len(options) > 1 else None
    if second is None:
        return best[3], None, False, (math.nan, math.nan, math.nan)
    a = payoffs[int(best[3]["row"])] if best[3] is not None else None
    b = payoffs[int(second[3]["row"])] if second[3] is not None else None
    if a is not None and b is not None:
        # adaptive runs stop some contracts early: pair the first deals, solved for both
        common = min(a.size, b.size)
        a, b = a[:common], b[:common]
    ref = a if a is not None else b
    n = ref.size if ref is not None else 0
    diff = (a if a is not None else np.zeros(n)) - (b if b is not None else np.zeros(n))
    known = ~np.isnan(diff)
    unresolved = int(diff.size - known.sum())
    x = None if controls is None else controls.x[: diff.size][known]
    diff = diff[known]
    n = diff.size
    mean, se = _mean_se(diff, x, controls)
    margin = (mean, mean - Z95 * se, mean + Z95 * se) if n > 1 else (mean, -math.inf, math.inf)
    if unresolved and ranges is not None and n > 1:
        ra = ranges[int(best[3]["row"])] if best[3] is not None else (0.0, 0.0)
        rb = ranges[int(second[3]["row"])] if second[3] is not None else (0.0, 0.0)
        lo, hi = _widen(margin[1], margin[2], n, unresolved, ra[0] - rb[1], ra[1] - rb[0])
        margin = (margin[0], lo, hi)
    # close call: the two values are not told apart.  The deals are shared, so the paired
    # difference decides (sharper than comparing the two rows' own intervals).
    close = bool(margin[1] <= 0.0)
    return best[3], second[3], close, margin
