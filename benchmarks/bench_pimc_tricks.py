"""Realistic play for the first T tricks and double-dummy after: time and answers changed.

For Prop and Cop and Solo of ``AKJ94.K83.Q72.65`` (second seat, turn-up 7♠, spades trumps) on
32 sampled deals (seed 1), plays every deal out with ``Pimc(pimc_tricks=T)`` for T = all 13,
3, 2, 1 and 0 (double-dummy throughout) and prints one Markdown line per run: deals made, the
answers that differ from realistic play to the end on the same deals, seconds, the speed-up
and the search positions.  The table of ``docs/performance.md`` comes from it.

Usage::

    python benchmarks/bench_pimc_tricks.py [--deals 32] [--worlds 16]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from solo_analysis.play import Pimc
from solo_analysis.sampler import sample_deals
from solo_analysis.solver import Question

CASES = (
    ("Prop and Cop (spades, second and dealer)", Question("S", 0, (1, 3), False, 8)),
    ("Solo (spades, second)", Question("S", 0, (1,), False, 5)),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=32)
    ap.add_argument("--worlds", type=int, default=16)
    args = ap.parse_args()
    n = args.deals
    deals = sample_deals("AKJ94.K83.Q72.65", seat="second", turnup="7S", n=n, seed=1)
    turnups = np.full(n, 5)  # the seven of spades
    Pimc(worlds=4, pimc_tricks=1).ask(deals[:1], [CASES[0][1]], turnups=turnups[:1])  # load
    print("| question | T | made | answers changed | seconds | faster | M positions |")
    print("|---|---|---|---|---|---|---|")
    for name, question in CASES:
        ref, ref_seconds = None, 0.0
        for tricks in (None, 3, 2, 1, 0):
            model = Pimc(worlds=args.worlds, seed=1, pimc_tricks=tricks)
            start = time.perf_counter()
            got = model.ask(deals, [question], turnups=turnups)[0]
            seconds = time.perf_counter() - start
            if ref is None:
                ref, ref_seconds = got, seconds
            changed = int((got != ref).sum())
            label = "all 13" if tricks is None else str(tricks)
            print(
                f"| {name} | {label} | {int(got.sum())} of {n} | {changed} | {seconds:.1f} | "
                f"{ref_seconds / seconds:.1f}x | {(model.positions or 0) / 1e6:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
