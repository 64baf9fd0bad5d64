"""The advice's own Prop and Cop question against DDS, on the deals the advice samples.

The advice asks, on each sampled deal, whether the player and a partner take 8 tricks in the
turn-up suit, eldest leading, for each of the three partners.  DDS can answer it only where
the partner sits across the table (a bridge partnership); this script asks that question of
both solvers on the same sampled deals of each hand and prints, per hand and in all: the
answers (every disagreement too), DDS's time and ours (``solve``, one deal at a time, one
thread; the two interleaved deal by deal, the order alternating, each call's thread CPU
time, as ``bench_solver.interleaved_cpu`` times them) and their ratio, and the
trick-boundary positions each search entered (DDS's ``futureTricks.nodes``; ours from
``solver.search_positions``) and their ratio.

The hands: the ordinary hand ``AKJ94.K83.Q72.65`` (second, turn-up 7S) and ``--hands``
random hands of ``bench_advise.random_hands(--hands, --hand-seed)``.

Usage::

    python benchmarks/bench_advice_dds.py
    python benchmarks/bench_advice_dds.py --hands 8 --deals 100 --seed 3
"""

from __future__ import annotations

import argparse
import sys

import bench_advise
import bench_solver
import numpy as np

ORDINARY = ("ordinary", "AKJ94.K83.Q72.65", "second", "7S")
TARGET = 8  # Prop and Cop


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="sampled deals a hand (200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sampled deals (1)")
    ap.add_argument("--hands", type=int, default=4, help="random hands besides the ordinary (4)")
    ap.add_argument("--hand-seed", type=int, default=11, help="seed of the random hands (11)")
    return ap.parse_args(argv)


def ask_both(dds, solve, deals, pbns: list[str], kw: dict) -> tuple[np.ndarray, ...]:
    """Both solvers' answers to ``kw``'s question on each deal, timed interleaved.

    Returns DDS's answers, ours, DDS's nodes on each deal, and each solver's thread CPU
    time on each deal (``bench_solver.interleaved_cpu``).
    """
    eps = [dds.prepare(deal) for deal in deals]
    n = len(deals)
    d_ans = np.zeros(n, dtype=bool)
    o_ans = np.zeros(n, dtype=bool)
    d_nodes = np.zeros(n, dtype=np.int64)
    trump, side, target = kw["trump"], kw["declarers"], kw["target"]

    def ask_dds(i: int) -> None:
        d_ans[i] = dds.side_can_make(eps[i], trump, kw["leader"], side, target)
        d_nodes[i] = dds.nodes

    def ask_ours(i: int) -> None:
        o_ans[i] = solve(pbns[i], **kw)

    d_cpu, o_cpu = bench_solver.interleaved_cpu(ask_dds, ask_ours, n)
    return d_ans, o_ans, d_nodes, d_cpu, o_cpu


def run(args: argparse.Namespace) -> int:
    from solo_analysis.cards import card_suit, parse_card, parse_seat
    from solo_analysis.sampler import DealSampler
    from solo_analysis.solver import search_positions, solve

    hands = [ORDINARY] + bench_advise.random_hands(args.hands, args.hand_seed)
    dds = bench_solver.DDS()
    fmt = bench_solver.fmt_s
    print(
        f"{'hand':<28}{'makes':>6}{'DDS':>11}{'ours':>11}{'time r':>8}"
        f"{'DDS nodes':>12}{'ours':>12}{'size r':>8}"
    )
    totals = np.zeros(4)
    mismatches = 0
    for label, hand, seat_name, turnup in hands:
        seat = parse_seat(seat_name)
        partner = (seat + 2) % 4
        side = tuple(sorted((seat, partner)))
        trump = card_suit(parse_card(turnup))
        deals = np.asarray(
            DealSampler(hand, seat=seat, turnup=turnup, seed=args.seed).draw(args.deals)
        )
        kw = {"trump": trump, "leader": 0, "declarers": side, "target": TARGET}
        pbns = [bench_solver.to_pbn(d) for d in deals]
        solve(pbns[0], **kw)  # compile or load from the cache
        d_ans, o_ans, d_nodes_each, d_cpu, o_cpu = ask_both(dds, solve, deals, pbns, kw)
        d_time, o_time = float(d_cpu.sum()), float(o_cpu.sum())
        d_nodes = int(d_nodes_each.sum())
        o_nodes = sum(search_positions(p, **kw)[2] for p in pbns)
        makes = int(d_ans.sum())
        for i in np.flatnonzero(d_ans != o_ans):
            mismatches += 1
            print(f"  !!! MISMATCH {pbns[i]!r} {kw}: DDS {bool(d_ans[i])}, ours {bool(o_ans[i])}")
        totals += (d_time, o_time, d_nodes, o_nodes)
        name = f"{label} {hand} {turnup}"
        print(
            f"{name:<28}{makes:>6}{fmt(d_time):>11}{fmt(o_time):>11}{o_time / d_time:>8.2f}"
            f"{d_nodes:>12,}{o_nodes:>12,}{o_nodes / max(d_nodes, 1):>8.2f}",
            flush=True,
        )
    d_time, o_time, d_nodes, o_nodes = totals
    print(
        f"{'all':<28}{'':>6}{fmt(d_time):>11}{fmt(o_time):>11}{o_time / d_time:>8.2f}"
        f"{d_nodes:>12,.0f}{o_nodes:>12,.0f}{o_nodes / max(d_nodes, 1):>8.2f}"
    )
    print(f"disagreements with DDS: {mismatches}")
    return 1 if mismatches else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.deals < 1 or args.hands < 0:
        print("error: --deals must be at least 1 and --hands at least 0", file=sys.stderr)
        return 2
    return bench_solver.guarded(lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
