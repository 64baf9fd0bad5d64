"""Fit the default bidding policy on the odds tables and write it, with its fit statistics.

For each contract a logistic model of "this hand makes it as declarer" on the hand features
and the seat (``solo_analysis.bidding.policy.POLICY_FEATURES``), fitted by iteratively
reweighted least squares with a small ridge penalty, on 80 % of the deals; the other 20 % (by
deal) give the held-out statistics written beside the coefficients: log loss against the
intercept-only model's, Brier score, the area under the ROC curve, and the share of hands the
policy calls each contract with as eldest hand in an empty auction.

Sources (``data/README.md`` describes the tables):

* the double-dummy table (``--dd``, default ``data/classic``) for Prop and Cop (the share of the
  three partners with whom the pair makes 8), Abundance (trumps: the longest eligible suit,
  named before the play), Royal Abundance and Abundance Declared (the longest suit);
* the realistic-play table (``--realistic``, default ``data/classic-pimc``) for Solo, Misère
  and Spread Misère, where double-dummy play is far from what players see (it says Misère
  almost never makes).

Usage::

    python tools/fit_bidding_policy.py [--dd data/classic] [--realistic data/classic-pimc]
        [--out solo_analysis/bidding/policy_classic.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from solo_analysis.bidding import Auction
from solo_analysis.bidding.policy import POLICY_FEATURES, FittedPolicy, policy_matrix
from solo_analysis.rules import load_rules
from solo_analysis.sampler import deals_at, turnup_cards

ROOT = Path(__file__).resolve().parents[1]
RIDGE = 1.0  # penalty on the standardised weights (not the intercept)
HOLDOUT = 5  # every HOLDOUT-th deal is held out

#: contract -> (table, column or columns averaged)
TARGETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "prop": ("dd", ("prop_eldest", "prop_second", "prop_third", "prop_dealer")),
    "solo": ("realistic", ("solo",)),
    "misere": ("realistic", ("misere",)),
    "abundance": ("dd", ("abundance_long",)),
    "royal-abundance": ("dd", ("royal-abundance",)),
    "spread-misere": ("realistic", ("spread-misere",)),
    "declared": ("dd", ("declared_long",)),
}


def design(frame: pd.DataFrame, seed: int) -> np.ndarray:
    """The model inputs of each row of a table's ``deals.parquet``, from the deal's cards.

    Deal ``i`` of a run is ``deals_at(seed, i, 1)`` with its turn-up ``turnup_cards``: the
    inputs are computed as the policy computes them (:func:`policy_matrix`).
    """
    n = int(frame["deal"].max()) + 1
    x = np.empty((n, 4, len(POLICY_FEATURES)))
    for start in range(0, n, 20_000):
        deals = deals_at(seed, start, min(20_000, n - start))
        x[start : start + deals.shape[0]] = policy_matrix(deals, turnup_cards(seed, start, deals))
    seats = {"eldest": 0, "second": 1, "third": 2, "dealer": 3}
    seat = frame["seat"].astype(str).map(seats).to_numpy()
    return x[frame["deal"].to_numpy(), seat]


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Intercept and weights of a ridge logistic regression (targets may be fractions)."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    z = np.column_stack([np.ones(len(x)), (x - mu) / sd])
    rate = float(np.clip(y.mean(), 0.5 / (len(y) + 1), 1 - 0.5 / (len(y) + 1)))
    w = np.zeros(z.shape[1])
    w[0] = np.log(rate / (1 - rate))
    penalty = np.full(z.shape[1], ridge)
    penalty[0] = 0.0

    def objective(v: np.ndarray) -> float:
        t = z @ v
        return float(np.sum(np.logaddexp(0, t) - y * t) + 0.5 * np.sum(penalty * v * v))

    current = objective(w)
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(z @ w, -40, 40)))
        grad = z.T @ (p - y) + penalty * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-6)
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-6:  # backtrack until the penalised loss goes down
            trial = w - scale * step
            value = objective(trial)
            if value <= current:
                break
            scale /= 2
        else:
            break
        w, done, current = trial, current - value < 1e-10 * max(1.0, abs(current)), value
        if done:
            break
    weights = w[1:] / sd
    return np.concatenate([[w[0] - np.sum(weights * mu)], weights])


def auc(score: np.ndarray, y: np.ndarray) -> float | None:
    """Area under the ROC curve for fractional labels (each row weighs y as a positive)."""
    pos, neg = y, 1 - y
    if pos.sum() == 0 or neg.sum() == 0:
        return None
    order = np.argsort(score, kind="mergesort")
    s, p, q = score[order], pos[order], neg[order]
    # ties: count half
    _, start, counts = np.unique(s, return_index=True, return_counts=True)
    neg_below = 0.0
    total = 0.0
    for a, c in zip(start, counts, strict=True):
        pp, qq = p[a : a + c].sum(), q[a : a + c].sum()
        total += pp * (neg_below + qq / 2)
        neg_below += qq
    return float(total / (pos.sum() * neg.sum()))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dd", default=str(ROOT / "data" / "classic"))
    parser.add_argument("--realistic", default=str(ROOT / "data" / "classic-pimc"))
    parser.add_argument(
        "--out", default=str(ROOT / "solo_analysis" / "bidding" / "policy_classic.json")
    )
    args = parser.parse_args(argv)
    tables = {
        "dd": pd.read_parquet(Path(args.dd) / "deals.parquet"),
        "realistic": pd.read_parquet(Path(args.realistic) / "deals.parquet"),
    }
    meta = {
        key: json.loads((Path(path) / "metadata.json").read_text())
        for key, path in (("dd", args.dd), ("realistic", args.realistic))
    }
    designs = {key: design(tables[key], meta[key]["seed"]) for key in tables}
    models = {}
    for contract, (source, columns) in TARGETS.items():
        frame = tables[source]
        values = frame[list(columns)].astype("float64")  # NA (own seat, unsolved) -> NaN
        y = values.mean(axis=1, skipna=True).to_numpy()
        ok = ~np.isnan(y) & (frame["unsolved"].fillna("").astype(str).to_numpy() == "")
        x = designs[source][ok]
        y = y[ok]
        held = (frame["deal"].to_numpy()[ok] % HOLDOUT) == 0
        coef = fit_logistic(x[~held], y[~held])
        p = 1 / (1 + np.exp(-np.clip(coef[0] + x[held] @ coef[1:], -40, 40)))
        base = np.full(held.sum(), y[~held].mean())
        models[contract] = {
            "coefficients": [round(float(c), 8) for c in coef],
            "table": "data/" + Path(args.dd if source == "dd" else args.realistic).name,
            "play": meta[source].get("play_model", "double-dummy"),
            "target": ("mean of " + ", ".join(columns)) if len(columns) > 1 else columns[0],
            "hands_fitted": int((~held).sum()),
            "hands_held_out": int(held.sum()),
            "make_rate_held_out": round(float(y[held].mean()), 6),
            "log_loss": round(log_loss(p, y[held]), 6),
            "log_loss_intercept_only": round(log_loss(base, y[held]), 6),
            "brier": round(float(np.mean((p - y[held]) ** 2)), 6),
            "auc": None if (a := auc(p, y[held])) is None else round(a, 4),
            "hands_above_half": int((p >= 0.5).sum()),
        }
        print(
            f"{contract:16s} n={models[contract]['hands_fitted']:7d} "
            f"rate={models[contract]['make_rate_held_out']:.4f} "
            f"logloss={models[contract]['log_loss']:.4f} "
            f"(intercept {models[contract]['log_loss_intercept_only']:.4f}) "
            f"auc={models[contract]['auc']} p>=.5: {models[contract]['hands_above_half']}"
        )
    data = {
        "name": "fitted-classic",
        "description": (
            "risk-neutral bidder: the legal call of highest expected units per opponent, "
            "make rates from logistic models of the hand features and seat"
        ),
        "features": list(POLICY_FEATURES),
        "fitted": datetime.date.today().isoformat(),
        "command": "python tools/fit_bidding_policy.py",
        "ridge": RIDGE,
        "holdout": f"deals whose number is a multiple of {HOLDOUT}",
        "sources": {
            key: {
                "deals": meta[key]["deals"],
                "seed": meta[key]["seed"],
                "rules": meta[key]["rules"],
                "play_model": meta[key].get("play_model", "double-dummy"),
            }
            for key in meta
        },
        "models": models,
    }
    policy = FittedPolicy.from_dict(data)
    # the calls of the held-out hands as eldest hand with no call before
    frame = tables["dd"]
    held_deals = np.unique(frame["deal"].to_numpy())
    held_deals = held_deals[held_deals % HOLDOUT == 0]
    pick = (frame["deal"].isin(held_deals) & (frame["seat"].astype(str) == "eldest")).to_numpy()
    x = designs["dd"][pick]
    rates = {
        c: (1 / (1 + np.exp(-np.clip(k[0] + x @ np.asarray(k[1:]), -40, 40))))[:, None].repeat(4, 1)
        for c, k in policy.coefficients.items()
    }
    options, chosen = policy.calls(rates, Auction(load_rules("classic")), 0)
    counts = np.bincount(chosen, minlength=len(options))
    data["eldest_first_call_shares"] = {
        opt: round(float(c / len(chosen)), 5) for opt, c in zip(options, counts, strict=True)
    }
    print("eldest's first call:", data["eldest_first_call_shares"])
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
