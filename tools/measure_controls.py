"""How much the control variates narrow the advice's estimates, measured on solved deals.

For each hand, solves the Prop and Cop rows (each partner) and the Solo row on ``--deals``
sampled deals (double-dummy), then compares the control-variate estimate of
:mod:`solo_analysis.stats.control` with the full features against the same estimate with only
the first ``--columns`` of them (39: the features before the controls and trump-length
columns joined them):

* ``var/plain``: the estimator's own variance over the plain rate's, ``p (1 - p) / n``, in
  blocks of ``--block`` deals, the feature means taken from the advice's separate stream
  (as :class:`~solo_analysis.advice.sampling.Sampling` does), averaged over the blocks;
* ``sd err``, ``cover``, ``bias``: the hand's deals taken as the population (its rate is the
  truth, its feature means exact), ``--reps`` subsets of ``--subset`` deals drawn without
  replacement (the same subsets for both feature sets): the standard deviation of the
  estimate about the population's rate, the share of 95 % intervals that cover it, and the
  mean error.

The figures of ``docs/statistics.md`` ("What it saves", 2026-12-02) come from this script
with its defaults (about 7 minutes on two cores).

Usage::

    python tools/measure_controls.py
    python tools/measure_controls.py AKJ94.K83.Q72.65:second:7S --deals 2048 --reps 200
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from solo_analysis.advice.request import (
    DEFAULT_MAX_QUESTION_POSITIONS,
    DEFAULT_MAX_SAMPLES,
    DEFAULT_TOLERANCE,
    Request,
)
from solo_analysis.advice.sampling import _aux_seed, row_results
from solo_analysis.cards import play_seat_str
from solo_analysis.errors import SoloAnalysisError
from solo_analysis.play.questions import build_rows, solve_rows
from solo_analysis.sampler import DealSampler
from solo_analysis.stats.control import (
    CV_AUX_DEALS,
    CV_MIN_EACH,
    Controls,
    cv_mean,
    deal_features,
    rate_interval,
)

HANDS = (
    "AKJ94.K83.Q72.65:second:7S",
    "AT92.K8.Q983.K94:third:6C",
    "Q7.KJ93.A864.T52:dealer:4D",
    "AKQJT9.AK.AK2.32:eldest:7H",
)


def _controls(x: np.ndarray, n_aux: int | None, logistic: bool = True) -> Controls:
    """Controls whose means and stream are ``x``'s own (``n_aux=None``: exact, no error).

    Without ``logistic`` the estimate leaves out the cross-fitted logistic column.
    """
    mean = x.mean(axis=0)
    cov = np.atleast_2d(np.cov(x, rowvar=False))
    sd = np.sqrt(np.diag(cov))
    scale = np.where(sd > 0, sd, 1.0)
    return Controls(
        x=x,
        mean=mean,
        cov=cov if n_aux is not None else cov * 0.0,
        n_aux=n_aux if n_aux is not None else 1 << 40,
        za=((x - mean) / scale).astype(np.float32) if logistic else None,
        scale=scale,
    )


def variance_ratio(y: np.ndarray, x: np.ndarray, stream: Controls, block: int) -> float | None:
    """The estimator's variance over the plain rate's, averaged over blocks of ``block`` deals.

    ``y`` the row's results (NaN where unsolved), ``x`` the features on the same deals,
    ``stream`` their means and covariance; blocks with too few makes or failures for the
    estimate are left out (``None`` when every block is).
    """
    ratios = []
    for b in range(y.size // block):
        part = slice(b * block, (b + 1) * block)
        ok = ~np.isnan(y[part])
        yy, xx = y[part][ok], x[part][ok]
        p = float(yy.mean())
        if min(yy.sum(), yy.size - yy.sum()) < CV_MIN_EACH:
            continue
        out = cv_mean(yy, xx, stream)
        if out is not None:
            ratios.append(out[1] ** 2 / (p * (1 - p) / yy.size))
    return float(np.mean(ratios)) if ratios else None


def solved(
    spec: str, deals: int, seed: int, contracts: tuple[str, ...] = ("prop", "solo")
) -> tuple[list[str], np.ndarray, np.ndarray, Request]:
    """Row labels, ``made`` (rows x deals, NaN where unsolved), the deals and the request."""
    hand, seat, turnup = spec.split(":")
    req = Request.build(
        hand,
        seat=seat,
        turnup=turnup,
        rules="classic",
        samples=deals,
        seed=seed,
        over=None,
        constraints=None,
        tolerance=DEFAULT_TOLERANCE,
        max_samples=DEFAULT_MAX_SAMPLES,
        play_model="double-dummy",
        play_options=None,
        exact=None,
        contracts=list(contracts),
        max_question_positions=DEFAULT_MAX_QUESTION_POSITIONS,
        control_variates=True,
        max_seconds=None,
        max_positions=None,
    )
    rows = build_rows(req.rules, req.seat, req.turnup_suit, req.only, req.cop_partner)
    d = DealSampler(req.hand, seat=req.seat, turnup=req.turnup, seed=req.seed).draw(deals)
    solve_rows(rows, d, req.model, req.exact, np.full(deals, req.turnup))
    labels, made = [], []
    for i, row in enumerate(rows):
        if row.choice != "fixed":
            continue
        who = "" if row.partner is None else f" with {play_seat_str(row.partner)}"
        labels.append(f"{row.contract.name}{who}")
        made.append(row_results(rows, i)[0])
    return labels, np.array(made), np.asarray(d), req


def measure(spec: str, args: argparse.Namespace) -> None:
    """Print one line a row and feature set for the hand ``spec`` (``hand:seat:turnup``)."""
    labels, made, deals, req = solved(spec, args.deals, args.seed)
    x_all = deal_features(deals, req.seat, req.turnup_suit)
    aux = DealSampler(req.hand, seat=req.seat, turnup=req.turnup, seed=_aux_seed(req.seed))
    xa_all = deal_features(aux.draw(CV_AUX_DEALS), req.seat, req.turnup_suit)
    for cols in (args.columns, x_all.shape[1]):
        x, stream = x_all[:, :cols], _controls(xa_all[:, :cols], CV_AUX_DEALS)
        population = _controls(x, None)
        for label, y in zip(labels, made, strict=True):
            ratio = variance_ratio(y, x, stream, args.block)
            ok = ~np.isnan(y)
            yv, xv = y[ok], x[ok]
            truth = float(yv.mean())
            if min(yv.sum(), yv.size - yv.sum()) < 4 * CV_MIN_EACH:
                print(f"{spec:28} {cols:3} {label:16} made {truth:6.1%}: too few makes or failures")
                continue
            rng = np.random.default_rng(args.seed + len(label))
            errs, hits = [], 0
            for _ in range(args.reps):
                pick = rng.choice(yv.size, args.subset, replace=False)
                population.cache.clear()
                p, lo, hi, _ = rate_interval(yv[pick], xv[pick], population)
                errs.append(p - truth)
                hits += lo <= truth <= hi
            shown = "   n/a" if ratio is None else f"{ratio:6.1%}"
            print(
                f"{spec:28} {cols:3} {label:16} made {truth:6.1%}  var/plain {shown}  "
                f"sd err {np.std(errs):.4f}  cover {hits / args.reps:6.1%}  "
                f"bias {np.mean(errs):+.4f}",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", nargs="*", default=list(HANDS), help="hand:seat:turnup (default 4)")
    ap.add_argument("--deals", type=int, default=4096, help="deals solved a hand (4096)")
    ap.add_argument("--seed", type=int, default=11, help="seed of the deals (11)")
    ap.add_argument("--block", type=int, default=1024, help="deals a block (1024)")
    ap.add_argument("--subset", type=int, default=512, help="deals a subset (512)")
    ap.add_argument("--reps", type=int, default=600, help="subsets (600)")
    ap.add_argument("--columns", type=int, default=39, help="the smaller feature set (39)")
    args = ap.parse_args(argv)
    try:
        for spec in args.hands:
            measure(spec, args)
    except (SoloAnalysisError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 141
    return 0


if __name__ == "__main__":
    sys.exit(main())
