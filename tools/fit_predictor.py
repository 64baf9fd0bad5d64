"""The predictors fitted in advance (Prop and Cop; Solo): their data, fit and measure.

The advice's control variates (:mod:`solo_analysis.stats.control`) fit their slopes, and a
cross-fitted logistic model, on the deals of the run itself: 48 features, so a few hundred
deals pay for the fitting (the factor ``(n - 2) / (n - k - 2)`` alone is 1.24 at 256 deals).
A predictor fitted beforehand on many hands' solved deals is one column whose mean over the
advice's auxiliary stream is known like the other features'
(:mod:`solo_analysis.stats.predictor`); this script builds the package's and measures them.
Its steps, each a subcommand:

``solve DIR``
    Solves the Prop and Cop rows (each partner) and the Solo row of the classic rules
    (``--contracts``), double-dummy, on ``--deals`` sampled deals of each hand and keeps them
    in ``DIR``, one ``.npz`` a hand (resumable: a hand already there is skipped).  The hands
    are ``bench_advise.random_hands(--hands, --hand-seed)`` (with ``--solo-score``, only those
    that might make Solo), or the ``hand:seat:turnup`` given, or ``--test``'s 20.
``fit DIR... --out FILE``
    Fits a small neural network (ReLU hidden layers, logistic output, trained with Adam on the
    log loss, weight decay) on the rows of ``--kind`` (prop or solo) of ``DIR``, on the inputs
    of :func:`~solo_analysis.stats.predictor.encode`.  The last ``--validate`` hands choose
    the epoch.  Saves the weights (``.npz``; the package reads one hidden layer).
``measure FILE DIR``
    For each hand of ``DIR`` and each row of ``--kind``: the estimator's variance over the
    plain rate's (as ``tools/measure_controls.py`` does: the means from the advice's own
    auxiliary stream of 65,536 deals; blocks of each ``--blocks`` size), for the estimator
    without a predictor (48 features and the cross-fitted logistic column), the predictor's
    column alone, and the 48 features with it.
``cover FILE DIR``
    Each hand's deals taken as the population: how often the advice's intervals (its rule
    for the predictor's column) hold the rate on subsets of ``--subsets`` deals.
``time [FILE]``
    The compiled predictor's cost as the advice pays it: the four columns of the ordinary hand
    (three Prop and Cop partners with ``FILE``'s weights, default the package's, and the
    package's Solo) on ``--deals`` of its sampled deals (65,536, the auxiliary stream's), the
    best of ``--repeats``.

The package's predictors and the figures of ``docs/statistics.md`` ("Predictors fitted in
advance", 2026-12-04 and 05) come from::

    python tools/fit_predictor.py solve /tmp/fp/train --hands 192 --hand-seed 303 --seed 5
    python tools/fit_predictor.py solve /tmp/fp/trainb --hands 768 --hand-seed 404 --seed 6
    python tools/fit_predictor.py solve /tmp/fp/trainc --hands 3000 --hand-seed 505 \
        --seed 7 --contracts prop
    python tools/fit_predictor.py solve /tmp/fp/traind --hands 4000 --hand-seed 808 \
        --seed 9 --contracts prop    # its first 1,708 hands for the shipped fit
    python tools/fit_predictor.py solve /tmp/fp/test --test --deals 2048 --seed 11
    python tools/fit_predictor.py fit /tmp/fp/train /tmp/fp/trainb /tmp/fp/trainc \
        /tmp/fp/traind --epochs 16 --decay 1e-5 --hidden 128 \
        --out solo_analysis/stats/prop_predictor.npz
    python tools/fit_predictor.py measure solo_analysis/stats/prop_predictor.npz /tmp/fp/test \
        --blocks 256,512,768,1024
    python tools/fit_predictor.py cover solo_analysis/stats/prop_predictor.npz /tmp/fp/test \
        --reps 400
    python tools/fit_predictor.py cover solo_analysis/stats/prop_predictor.npz /tmp/fp/test \
        --reps 400 --subsets 768
    python tools/fit_predictor.py solve /tmp/fp/solo --hands 2000 --hand-seed 606 --seed 8 \
        --contracts solo --solo-score 15
    python tools/fit_predictor.py solve /tmp/fp/solotest --hands 20 --hand-seed 707 --seed 12 \
        --deals 2048 --contracts solo --solo-score 15
    python tools/fit_predictor.py fit /tmp/fp/solo --kind solo --epochs 24 --decay 1e-4 \
        --out solo_analysis/stats/solo_predictor.npz
    python tools/fit_predictor.py measure solo_analysis/stats/solo_predictor.npz \
        /tmp/fp/solotest --kind solo
    python tools/fit_predictor.py cover solo_analysis/stats/solo_predictor.npz /tmp/fp/solotest \
        --kind solo --reps 400 --subsets 1024
    python tools/fit_predictor.py time
"""

from __future__ import annotations

import argparse
import glob
import itertools
import math
import os
import sys
import time
from dataclasses import dataclass

import numpy as np

from solo_analysis.cards import PLAY_SEATS
from solo_analysis.errors import SoloAnalysisError
from solo_analysis.stats.control import CV_AUX_DEALS, Controls, deal_features, sigmoid
from solo_analysis.stats.predictor import (
    N_BASE,
    N_INPUTS,
    N_JOINT,
    PREDICTORS,
    Predictor,
    encode_parts,
    solo_partner,
)

HERE = os.path.dirname(os.path.abspath(__file__))
HCP = np.maximum(np.arange(13) - 8, 0)


def _on_path(folder: str) -> None:
    """Put a folder of the repository on ``sys.path`` (for its scripts), once."""
    if folder not in sys.path:
        sys.path.insert(0, folder)


def _random_specs(n: int, seed: int, solo_score: int | None = None) -> list[str]:
    """``bench_advise.random_hands(n, seed)`` as ``hand:seat:turnup`` strings.

    With ``solo_score``: the first ``n`` of the random hands whose high-card points plus three
    for each trump (the turn-up's suit) more than four, minus three for each fewer, reach it:
    hands that may make Solo.
    """
    _on_path(os.path.join(os.path.dirname(HERE), "benchmarks"))
    from bench_advise import random_hands

    from solo_analysis.cards import parse_card
    from solo_analysis.hand import parse_hand

    if solo_score is None:
        return [f"{h}:{s}:{t}" for _, h, s, t in random_hands(n, seed)]
    out = []
    for _, h, s, t in random_hands(40 * n, seed):
        cards = np.array(list(parse_hand(h)))
        trumps = int((cards // 13 == parse_card(t) // 13).sum())
        if int(HCP[cards % 13].sum()) + 3 * (trumps - 4) >= solo_score:
            out.append(f"{h}:{s}:{t}")
            if len(out) == n:
                break
    return out


# ---------------------------------------------------------------- solve


def solve(
    out: str, specs: list[str], deals: int, seed: int, contracts: tuple[str, ...] = ("prop", "solo")
) -> None:
    """Solve each hand's rows on ``deals`` deals into ``out/hand_NNN.npz`` (resumable)."""
    _on_path(HERE)
    from measure_controls import solved

    os.makedirs(out, exist_ok=True)
    for i, spec in enumerate(specs):
        path = os.path.join(out, f"hand_{i:04d}.npz")
        if os.path.exists(path):
            continue
        t0 = time.perf_counter()
        labels, made, d, req = solved(spec, deals, seed, contracts)
        trump = -1 if req.turnup_suit is None else req.turnup_suit
        tmp = path + ".part.npz"
        np.savez(
            tmp,
            labels=np.array(labels),
            made=made,
            deals=d.astype(np.int8),
            seat=req.seat,
            trump=trump,
            spec=spec,
            seed=seed,
        )
        os.replace(tmp, path)
        rates = " ".join(f"{v:.3f}" for v in np.nanmean(made, axis=1))
        print(f"{i:4d} {spec:32} {time.perf_counter() - t0:5.1f} s  made {rates}", flush=True)


# ---------------------------------------------------------------- saved hands


@dataclass
class Rows:
    """The rows of one kind (Prop and Cop, or Solo) of one saved hand.

    ``partners``: the partner of each row, for Solo the seat whose role the predictor gives
    the partner's (:func:`~solo_analysis.stats.predictor.solo_partner`).
    """

    spec: str
    seat: int
    trump: int
    deals: np.ndarray
    partners: list[int]
    made: list[np.ndarray]
    seed: int


def load(directory: str, kind: str = "prop") -> list[Rows]:
    """Every hand saved in ``directory`` by ``solve`` with rows of ``kind`` (prop or solo)."""
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "hand_*.npz"))):
        if path.endswith(".part.npz"):
            continue
        z = np.load(path)
        partners, made = [], []
        for label, y in zip(z["labels"], z["made"], strict=True):
            if kind == "prop" and str(label).startswith("prop with "):
                partners.append(PLAY_SEATS.index(str(label).split()[-1]))
                made.append(y)
            elif kind == "solo" and str(label) == "solo":
                partners.append(solo_partner(int(z["seat"])))
                made.append(y)
        if not made:
            continue
        out.append(
            Rows(
                str(z["spec"]),
                int(z["seat"]),
                int(z["trump"]),
                z["deals"],
                partners,
                made,
                int(z["seed"]),
            )
        )
    if not out:
        raise SystemExit(f"error: no solved hands with {kind} rows in {directory}")
    return out


# ---------------------------------------------------------------- the network


@dataclass
class Net:
    """ReLU layers, then one logistic output."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]

    @classmethod
    def new(cls, sizes: list[int], seed: int) -> Net:
        rng = np.random.default_rng(seed)
        w = [
            rng.normal(0.0, np.sqrt(2.0 / a), (a, b)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
        return cls(w, [np.zeros(b, np.float32) for b in sizes[1:]])

    def layers(self, x: np.ndarray, cols: np.ndarray | None = None) -> list[np.ndarray]:
        """Every layer's output; ``x`` the inputs, or with ``cols`` their first columns.

        ``cols`` (``(n, k)`` column numbers) names the inputs past ``x``'s that are 1 (the
        joint indicators, :func:`encode_parts`), the others 0: the same sums as the dense
        inputs (:func:`encode`) without their memory.
        """
        w0 = self.weights[0]
        h = x @ w0[: x.shape[1]] + self.biases[0]
        if cols is not None and w0.shape[0] > x.shape[1]:  # not a network fitted without them
            h += w0[cols].sum(axis=1)
        out = [x, np.maximum(h, 0.0) if len(self.weights) > 1 else h]
        for i in range(1, len(self.weights)):
            h = out[-1] @ self.weights[i] + self.biases[i]
            out.append(np.maximum(h, 0.0) if i < len(self.weights) - 1 else h)
        return out

    def predict(
        self, x: np.ndarray, cols: np.ndarray | None = None, chunk: int = 65536
    ) -> np.ndarray:
        parts = [
            self.layers(x[i : i + chunk], None if cols is None else cols[i : i + chunk])[-1][:, 0]
            for i in range(0, len(x), chunk)
        ]
        return sigmoid(np.concatenate(parts))

    def save(self, path: str) -> None:
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays.update({f"b{i}": b for i, b in enumerate(self.biases)})
        np.savez(path, **arrays)

    @classmethod
    def load(cls, path: str) -> Net:
        z = np.load(path)
        n = sum(1 for k in z.files if k.startswith("w"))
        return cls([z[f"w{i}"] for i in range(n)], [z[f"b{i}"] for i in range(n)])


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def train(
    net: Net,
    x: np.ndarray,
    y: np.ndarray,
    xv: np.ndarray,
    yv: np.ndarray,
    epochs: int,
    decay: float,
    seed: int,
    rate: float = 1e-3,
    batch: int = 512,
    anneal: bool = False,
    cols: np.ndarray | None = None,
    cols_v: np.ndarray | None = None,
) -> float:
    """Adam on the log loss with weight decay; keeps the epoch best on ``(xv, yv)``.

    ``cols`` and ``cols_v``: the joint indicators that are 1 of ``x`` and ``xv``'s rows (see
    :meth:`Net.layers`).  With ``anneal`` the step size falls from ``rate`` to zero along a
    half cosine over the epochs.
    """
    rng = np.random.default_rng(seed)
    params = net.weights + net.biases
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    nl = len(net.weights)
    dense = x.shape[1]
    best, kept, step = np.inf, net, 0
    steps = epochs * ((len(x) + batch - 1) // batch)
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for i in range(0, len(x), batch):
            j = order[i : i + batch]
            cj = None if cols is None else cols[j]
            acts = net.layers(x[j], cj)
            p = sigmoid(acts[-1][:, 0])
            g = ((p - y[j]) / len(j)).astype(np.float32)[:, None]
            gw: list[np.ndarray] = [np.empty(0)] * nl
            gb: list[np.ndarray] = [np.empty(0)] * nl
            for layer in range(nl - 1, -1, -1):
                if layer:
                    gw[layer] = acts[layer].T @ g + decay * net.weights[layer]
                else:
                    gw[0] = decay * net.weights[0]
                    gw[0][:dense] += acts[0].T @ g
                    if cj is not None:
                        gw[0] += _joint_sums(cj, g, gw[0].shape[0])
                gb[layer] = g.sum(axis=0)
                if layer:
                    g = (g @ net.weights[layer].T) * (acts[layer] > 0)
            step += 1
            lr = rate * 0.5 * (1.0 + np.cos(np.pi * step / steps)) if anneal else rate
            for k, (p_, g_) in enumerate(zip(params, gw + gb, strict=True)):
                m1[k] = 0.9 * m1[k] + 0.1 * g_
                m2[k] = 0.999 * m2[k] + 0.001 * g_ * g_
                p_ -= lr * (m1[k] / (1 - 0.9**step)) / (np.sqrt(m2[k] / (1 - 0.999**step)) + 1e-8)
        loss = log_loss(net.predict(xv, cols_v), yv)
        print(f"epoch {epoch + 1:3d}  validation log loss {loss:.4f}", flush=True)
        if loss < best:
            best = loss
            kept = Net([w.copy() for w in net.weights], [b.copy() for b in net.biases])
    net.weights, net.biases = kept.weights, kept.biases
    return best


def _joint_sums(cols: np.ndarray, g: np.ndarray, inputs: int) -> np.ndarray:
    """For each input, the sum of ``g``'s rows whose joint columns ``cols`` name it."""
    import scipy.sparse  # the dev extra's

    n, k = cols.shape
    where = (cols.ravel().astype(np.int64), np.repeat(np.arange(n), k))
    ones = scipy.sparse.csr_matrix((np.ones(n * k, np.float32), where), shape=(inputs, n))
    out: np.ndarray = ones @ g
    return out


def _examples(hands: list[Rows]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The inputs of every solved row and their results, each in one array (a few GB).

    The inputs in :func:`encode_parts`'s two parts.
    """
    rows = sum(int((~np.isnan(y)).sum()) for h in hands for y in h.made)
    x = np.empty((rows, N_BASE), np.float32)
    cols = np.empty((rows, N_JOINT), np.int16)
    y_all = np.empty(rows, np.float32)
    at = 0
    for h in hands:
        for partner, y in zip(h.partners, h.made, strict=True):
            ok = ~np.isnan(y)
            k = int(ok.sum())
            x[at : at + k], cols[at : at + k] = encode_parts(h.deals[ok], h.seat, h.trump, partner)
            y_all[at : at + k] = y[ok]
            at += k
    return x, cols, y_all


def fit(
    dirs: list[str],
    out: str,
    hidden: list[int],
    epochs: int,
    decay: float,
    validate: int,
    seed: int,
    kind: str = "prop",
    anneal: bool = False,
) -> None:
    """Fit a network on the rows of ``kind`` saved in ``dirs`` and save it to ``out``."""
    hands = [h for d in dirs for h in load(d, kind)]
    if validate >= len(hands):
        raise SystemExit(f"error: --validate {validate} leaves no hand to fit on ({len(hands)})")
    x, cols, y = _examples(hands[: len(hands) - validate])
    xv, cols_v, yv = _examples(hands[len(hands) - validate :])
    print(
        f"fitting on {len(x):,} rows of {len(hands) - validate} hands, "
        f"choosing the epoch on {len(xv):,} of {validate}",
        flush=True,
    )
    net = Net.new([N_INPUTS, *hidden, 1], seed)
    best = train(net, x, y, xv, yv, epochs, decay, seed, anneal=anneal, cols=cols, cols_v=cols_v)
    const = log_loss(np.full(len(yv), y.mean()), yv)
    print(f"validation log loss {best:.4f} (a constant {const:.4f})")
    net.save(out)


# ---------------------------------------------------------------- measure


def _cells(line: list[float]) -> str:
    """Three ratios a block size: today's estimator, the predictor alone, the 48 with it."""
    return " ".join(
        f"{line[i]:6.3f} {line[i + 1]:8.3f} {line[i + 2]:8.3f}" for i in range(0, len(line), 3)
    )


def measure(model: str, directory: str, blocks: list[int], kind: str = "prop") -> None:
    """Print the three estimators' variance ratios for each Prop and Cop row of ``directory``."""
    from solo_analysis.advice.sampling import _aux_seed
    from solo_analysis.sampler import DealSampler

    _on_path(HERE)
    from measure_controls import _controls, variance_ratio

    def ratio(y: np.ndarray, x: np.ndarray, stream: Controls, block: int) -> float:
        out = variance_ratio(y, x, stream, block)
        return float("nan") if out is None else out

    net = Net.load(model)
    head = " ".join(f"{f'{b}: today / alone / 48+it':>24}" for b in blocks)
    print(f"{'hand':32} {'partner':8} {'made':>6} {head}")
    table = []
    for h in load(directory, kind):
        hand, seat_name, turnup = h.spec.split(":")
        aux = DealSampler(hand, seat=seat_name, turnup=turnup, seed=_aux_seed(h.seed))
        ad = np.asarray(aux.draw(CV_AUX_DEALS))
        trump = None if h.trump < 0 else h.trump
        x48, xa48 = deal_features(h.deals, h.seat, trump), deal_features(ad, h.seat, trump)
        today = _controls(xa48, len(ad))
        for partner, y in zip(h.partners, h.made, strict=True):
            g = net.predict(*encode_parts(h.deals, h.seat, h.trump, partner))[:, None]
            ga = net.predict(*encode_parts(ad, h.seat, h.trump, partner))[:, None]
            alone = _controls(ga, len(ad), logistic=False)
            x_both, both = np.hstack([x48, g]), _controls(np.hstack([xa48, ga]), len(ad))
            line = []
            for b in blocks:
                line.append(ratio(y, x48, today, b))
                line.append(ratio(y, g, alone, b))
                line.append(ratio(y, x_both, both, b))
            table.append(line)
            cells = _cells(line)
            print(f"{h.spec:32} {PLAY_SEATS[partner]:8} {np.nanmean(y):6.3f} {cells}", flush=True)
    arr = np.array(table)
    for name, f in (("mean", np.nanmean), ("median", np.nanmedian)):
        v = f(arr, axis=0)
        print(f"{name:32} {'':8} {'':6} {_cells(list(v))}")


def cover(
    model: str, directory: str, subsets: list[int], reps: int, seed: int, kind: str = "prop"
) -> None:
    """Print how often the advice's intervals cover each row's rate on its hand's deals.

    Each hand's solved deals are the population (their rate the truth; the features' and the
    predictor's means over them exact); ``reps`` subsets of each size are drawn without
    replacement and estimated as the advice does with double-dummy play (:meth:`Controls.view`:
    the predictor's column alone below its kind's threshold, ``PREDICTORS``, the 48 features
    with it from there).
    """
    from solo_analysis.stats.control import CV_MIN_EACH, rate_interval

    _on_path(HERE)
    from measure_controls import _controls

    net = Predictor.load(model)
    print(
        f"{'hand':32} {'partner':8} {'made':>6} "
        + " ".join(f"{f'{b}: sd err / cover':>22}" for b in subsets)
    )
    hits_all = {b: [] for b in subsets}
    for h in load(directory, kind):
        trump = None if h.trump < 0 else h.trump
        x48 = deal_features(h.deals, h.seat, trump)
        for partner, y in zip(h.partners, h.made, strict=True):
            ok = ~np.isnan(y)
            yv, xv = y[ok], x48[ok]
            truth = float(yv.mean())
            if min(yv.sum(), yv.size - yv.sum()) < 4 * CV_MIN_EACH:
                continue
            population = _controls(xv, None)
            g = net.predict(h.deals[ok], h.seat, h.trump, partner)
            population.pred_aux["g"] = g
            population.alone_below["g"] = PREDICTORS[kind][2]
            rng = np.random.default_rng(seed + partner)
            cells = []
            for b in subsets:
                errs, hits = [], 0
                for _ in range(reps):
                    pick = rng.choice(yv.size, b, replace=False)
                    population.cache.clear()
                    population.x, population.pred["g"] = xv[pick], g[pick]
                    x, use = population.view(("g",), b)
                    p, lo, hi, _ = rate_interval(yv[pick], x, use)
                    errs.append(p - truth)
                    hits += lo <= truth <= hi
                hits_all[b].append(hits / reps)
                cells.append(f"{np.std(errs):10.4f} {hits / reps:10.1%}")
            print(
                f"{h.spec:32} {PLAY_SEATS[partner]:8} {truth:6.3f} " + " ".join(cells), flush=True
            )
    print(
        f"{'mean cover':32} {'':8} {'':6} "
        + " ".join(f"{'':10} {np.mean(hits_all[b]):10.1%}" for b in subsets)
    )


def time_columns(model: str | None, deals: int, repeats: int) -> float:
    """Print and return the best seconds of the ordinary hand's four predictor columns."""
    from solo_analysis.sampler import DealSampler
    from solo_analysis.stats.predictor import default_predictor

    sampler = DealSampler("AKJ94.K83.Q72.65", seat="second", turnup="7S", seed=3)
    d = sampler.draw(deals)
    hand = np.asarray(d[0, 1], dtype=np.int64)
    prop = default_predictor("prop") if model is None else Predictor.load(model)
    columns = [prop.fold(hand, 1, 0, p) for p in (0, 2, 3)]
    columns.append(default_predictor("solo").fold(hand, 1, 0, 3))
    for f in columns:
        f(d[:16])  # compiled (or loaded from the cache) before the clock starts
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        for f in columns:
            f(d)
        best = min(best, time.perf_counter() - start)
    hidden = prop.b1.shape[0]
    print(f"4 columns (Prop and Cop {hidden} hidden units) on {deals:,} deals: {best * 1e3:.1f} ms")
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    s = sub.add_parser("solve", help="solve hands' rows into DIR (resumable)")
    s.add_argument("dir")
    s.add_argument("specs", nargs="*", help="hand:seat:turnup (default: random hands)")
    s.add_argument("--hands", type=int, default=192, help="random hands (192)")
    s.add_argument("--hand-seed", type=int, default=303, help="seed of the random hands (303)")
    s.add_argument("--test", action="store_true", help="the 20 held-out hands")
    s.add_argument("--deals", type=int, default=256, help="deals a hand (256)")
    s.add_argument("--seed", type=int, default=5, help="seed of the deals (5)")
    s.add_argument("--contracts", default="prop,solo", help="contracts solved (prop,solo)")
    s.add_argument(
        "--solo-score",
        type=int,
        help="only random hands whose points plus 3 a trump more (minus 3 a trump fewer) than "
        "four reach this",
    )
    kinds = ("prop", "solo")
    f = sub.add_parser("fit", help="fit the network on DIRs' Prop and Cop (or Solo) rows")
    f.add_argument("dirs", nargs="+")
    f.add_argument("--kind", choices=kinds, default="prop", help="the rows (prop)")
    f.add_argument("--out", required=True, help="weights file (.npz)")
    f.add_argument("--hidden", default="64", help="hidden layer sizes, comma-separated (64)")
    f.add_argument("--epochs", type=int, default=12, help="epochs (12)")
    f.add_argument("--decay", type=float, default=1e-3, help="weight decay (0.001)")
    f.add_argument("--validate", type=int, default=24, help="hands held out to pick the epoch (24)")
    f.add_argument("--seed", type=int, default=1, help="seed of the weights and batches (1)")
    f.add_argument(
        "--anneal", action="store_true", help="step size falling to zero (a half cosine)"
    )
    m = sub.add_parser("measure", help="variance ratios on DIR's hands")
    m.add_argument("model")
    m.add_argument("dir")
    m.add_argument("--blocks", default="256,512,1024", help="block sizes (256,512,1024)")
    m.add_argument("--kind", choices=kinds, default="prop", help="the rows (prop)")
    c = sub.add_parser("cover", help="coverage of the advice's intervals on DIR's hands")
    c.add_argument("model")
    c.add_argument("dir")
    c.add_argument("--subsets", default="256", help="deals a subset (256)")
    c.add_argument("--reps", type=int, default=200, help="subsets of each size (200)")
    c.add_argument("--seed", type=int, default=1, help="seed of the subsets (1)")
    c.add_argument("--kind", choices=kinds, default="prop", help="the rows (prop)")
    t = sub.add_parser("time", help="the ordinary hand's four predictor columns, timed")
    t.add_argument("model", nargs="?", help="Prop and Cop weights (default: the package's)")
    t.add_argument("--deals", type=int, default=65536, help="deals (65,536)")
    t.add_argument("--repeats", type=int, default=7, help="runs, the best kept (7)")
    args = ap.parse_args(argv)
    try:
        if args.step == "solve":
            if args.test:
                _on_path(HERE)
                from measure_controls import HANDS

                specs = list(HANDS) + _random_specs(16, 11)
            else:
                specs = args.specs or _random_specs(args.hands, args.hand_seed, args.solo_score)
            contracts = tuple(c for c in args.contracts.split(",") if c)
            solve(args.dir, specs, args.deals, args.seed, contracts)
        elif args.step == "fit":
            hidden = [int(v) for v in args.hidden.split(",") if v]
            fit(
                args.dirs,
                args.out,
                hidden,
                args.epochs,
                args.decay,
                args.validate,
                args.seed,
                args.kind,
                args.anneal,
            )
        elif args.step == "time":
            time_columns(args.model, args.deals, args.repeats)
        elif args.step == "cover":
            subsets = [int(v) for v in args.subsets.split(",")]
            cover(args.model, args.dir, subsets, args.reps, args.seed, args.kind)
        else:
            measure(args.model, args.dir, [int(v) for v in args.blocks.split(",")], args.kind)
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
