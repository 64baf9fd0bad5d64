"""Benchmark the Solo Whist double-dummy solver against DDS (through endplay).

On the same seeded random full deals, asks both solvers the same target
questions ("can N+S take >= t tricks in hearts / no trump with East leading")
and reports per question the median per-deal time ratio ours/DDS, the
total-time ratio, and our slowest single deal.  A second table splits the
total ratio into search size and speed: the trick-boundary positions each
search entered (DDS's own count, ``futureTricks.nodes``, is one per completed
trick searched; ours from ``solver.search_positions``), their ratio, and the time
per such position of each; and our positions of every kind (one per card play).
Each question is then timed a second way, the two solvers interleaved deal by deal (the
order alternating from deal to deal) with each call's thread CPU time (both run on the
calling thread), so that a slow spell of the shared machine falls on both alike and time
spent descheduled counts for neither: the "cpu r" column (``--no-interleave`` skips it).
Then times one-declarer questions that DDS cannot answer (Solo, Abundance,
Declared, Misère), through the single-deal ``solve`` and through ``solve_batch``.
Answers of the two solvers are compared and every disagreement is printed.

DDS is asked target questions through ``endplay._dds.SolveBoard`` with
``target=t, solutions=1`` (endplay's public ``solve_board(deal, SolveMode.TargetOne, t)``
wraps the same call but hides the "target not reached" answer, score -1).
DDS answers for the side *on lead*: with East leading, "N+S make t" is asked as
"E+W cannot make 14 - t".

Usage::

    python benchmarks/bench_solver.py --deals 200 --seed 1 --threads 1
    python benchmarks/bench_solver.py --only-dds      # DDS half only
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from solo_analysis.deal import Deal as CardsDeal

SUITS = "SHDC"  # suit index 0..3 = S, H, D, C (card code = suit * 13 + rank_index)
SEATS = "NESW"  # seat 0..3 clockwise
DENOMS = {
    "S": 0,
    "H": 1,
    "D": 2,
    "C": 3,
    "NT": 4,
}  # trump code, 4 = no trump; also endplay Denom order

# (label, trump, target) for N+S, East leading
DDS_QUESTIONS = [
    ("H", 1, 8),
    ("H", 1, 5),
    ("H", 1, 9),
    ("H", 1, 13),
    ("NT", 4, 8),
    ("NT", 4, 5),
    ("NT", 4, 9),
    ("NT", 4, 13),
]


def random_deals(n: int, seed: int) -> np.ndarray:
    """(n, 4, 13) int8 card codes; deal i depends only on (seed, i)."""
    out = np.empty((n, 4, 13), dtype=np.int8)
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        out[i] = np.sort(rng.permutation(52).reshape(4, 13), axis=1)
    return out


def to_pbn(deal: np.ndarray) -> str:
    """(4, k) card codes -> 'N:AKQ.JT9.876.5432 ...'."""
    return CardsDeal.from_array(deal).to_pbn()


# ---------------------------------------------------------------------------- DDS
class DDS:
    """Single-threaded DDS target questions through endplay's ctypes bindings."""

    def __init__(self) -> None:
        from endplay import _dds
        from endplay.types import Deal

        self._dds = _dds
        self._Deal = Deal
        _dds.SetMaxThreads(1)
        self.fut = _dds.futureTricks()

    def prepare(self, deal: np.ndarray):
        return self._Deal(to_pbn(deal))

    def leader_side_can_make(self, ep_deal, trump: int, leader: int, target: int) -> bool:
        """Whether the side on lead can take >= target tricks (1 <= target <= 13)."""
        ep_deal.trump = trump  # endplay Denom: 0..3 = S H D C, 4 = NT, as ours
        ep_deal.first = leader  # endplay Player: 0..3 = N E S W, as ours
        self._dds.SolveBoard(ep_deal._data, target, 1, 1, self.fut, 0)
        self.nodes = int(self.fut.nodes)
        # score: -1 target not reached, 0 no trick possible, else target
        return self.fut.score[0] >= target

    def side_can_make(
        self, ep_deal, trump: int, leader: int, side: tuple[int, ...], target: int
    ) -> bool:
        """Whether a partnership (N+S or E+W) takes >= target tricks, ``leader`` on lead."""
        self.nodes = 0
        if target <= 0:
            return True
        if leader in side:
            return self.leader_side_can_make(ep_deal, trump, leader, target)
        return not self.leader_side_can_make(ep_deal, trump, leader, 14 - target)


def interleaved_cpu(
    dds_call: Callable[[int], object], our_call: Callable[[int], object], n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each solver's thread CPU time (s) on deals ``0 .. n-1``, the two interleaved.

    Deal by deal, DDS first on the even deals and ours first on the odd ones.
    """
    clock = time.thread_time_ns
    d_cpu = np.empty(n)
    o_cpu = np.empty(n)
    for i in range(n):
        for which in (0, 1) if i % 2 == 0 else (1, 0):
            call, out = (dds_call, d_cpu) if which == 0 else (our_call, o_cpu)
            t0 = clock()
            call(i)
            out[i] = (clock() - t0) * 1e-9
    return d_cpu, o_cpu


# ---------------------------------------------------------------------------- reporting
def fmt_s(sec: float) -> str:
    if sec < 1e-3:
        return f"{sec * 1e6:7.1f} us"
    if sec < 1:
        return f"{sec * 1e3:7.2f} ms"
    return f"{sec:7.2f} s "


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="number of random deals (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    ap.add_argument("--threads", type=int, default=1, help="threads for solve_batch (default 1)")
    ap.add_argument("--only-dds", action="store_true", help="time DDS only (our solver not needed)")
    ap.add_argument(
        "--no-interleave",
        action="store_true",
        help="skip the second timing, the solvers interleaved deal by deal in thread CPU time",
    )
    ap.add_argument(
        "--one-deals",
        type=int,
        default=100,
        help="deals for the one-declarer questions (default 100; 0 skips them)",
    )
    return ap.parse_args(argv)


def guarded(job: Callable[[], int]) -> int:
    """``job()``'s exit code; 130 on Ctrl-C ("interrupted" on stderr), 141 on a closed pipe.

    The benchmark scripts' ``main`` runs its work so: no traceback when stopped.
    """
    try:
        return job()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 141


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 1 if an answer differs from DDS's (see :func:`guarded`)."""
    args = parse_args(argv)
    return guarded(lambda: 1 if run(args)["mismatches"] else 0)


def run(args: argparse.Namespace) -> dict:
    """Run the benchmark as the command line asks and print its tables.

    Returns a summary: ``questions``, for each DDS question label ``{"dds": s, "ours": s,
    "slowest": s, "over_0_2": deals, "dds_slowest": s, "dds_over_0_2": deals, "dds_nodes": n,
    "our_tricks": n}`` (with ``"dds_cpu": s, "ours_cpu": s``, the interleaved thread CPU
    times, unless ``--no-interleave``); ``one``, for each one-declarer question
    ``{"per_s": solves a second, "slowest": s, "positions": mean}``;
    and ``mismatches``.
    """
    summary: dict = {"questions": {}, "one": {}, "mismatches": 0}
    deals = random_deals(args.deals, args.seed)
    n = len(deals)
    east, north = 1, 0
    ns = (0, 2)
    print(f"deals: {n} (seed {args.seed}); DDS: 1 thread, SolveBoard(target=t, solutions=1)")

    dds = DDS()
    ep_deals = [dds.prepare(d) for d in deals]

    solve = solve_batch = None
    if not args.only_dds:
        from solo_analysis.solver import search_positions, solve, solve_batch

        solve_batch = functools.partial(solve_batch, threads=args.threads)
        t0 = time.perf_counter()
        solve(to_pbn(deals[0]), trump="H", leader="E", declarers="NS", target=8)
        solve_batch(deals[:2], trump=1, leader=1, declarers=(0, 2), target=8)
        solve_batch(deals[:2], trump=4, leader=north, declarers=(0,), misere=True, target=0)
        print(f"warm-up (compile or load from cache): {time.perf_counter() - t0:.2f} s")
        print(f"threads for solve_batch: {args.threads}")

    pbns = [to_pbn(d) for d in deals]
    mismatches = 0
    print()
    header = f"{'question':<22}{'DDS yes':>8}{'DDS total':>12}{'DDS/deal':>12}"
    if not args.only_dds:
        header += (
            f"{'ours total':>12}{'ours/deal':>12}{'ours max':>12}{'median r':>10}{'total r':>9}"
        )
        if not args.no_interleave:
            header += f"{'cpu r':>8}"
    print(header)
    size_lines = []
    for label, trump, target in DDS_QUESTIONS:
        d_times = np.empty(n)
        d_ans = np.empty(n, dtype=bool)
        d_nodes = np.empty(n)
        for i in range(n):
            t0 = time.perf_counter()
            d_ans[i] = dds.side_can_make(ep_deals[i], trump, east, ns, target)
            d_times[i] = time.perf_counter() - t0
            d_nodes[i] = dds.nodes
        line = f"NS {target:>2} {label:<2} E leads{'':<6}{int(d_ans.sum()):>8}"
        line += f"{fmt_s(d_times.sum()):>12}{fmt_s(d_times.mean()):>12}"
        if solve is not None:
            o_times = np.empty(n)
            o_ans = np.empty(n, dtype=bool)
            for i in range(n):
                t0 = time.perf_counter()
                o_ans[i] = solve(pbns[i], trump=label, leader="E", declarers="NS", target=target)
                o_times[i] = time.perf_counter() - t0
            ratios = o_times / d_times
            line += (
                f"{fmt_s(o_times.sum()):>12}{fmt_s(o_times.mean()):>12}{fmt_s(o_times.max()):>12}"
            )
            line += f"{statistics.median(ratios):>10.2f}{o_times.sum() / d_times.sum():>9.2f}"
            bad = np.flatnonzero(o_ans != d_ans)
            b_ans = solve_batch(deals, trump=trump, leader=east, declarers=ns, target=target)
            bad_batch = np.flatnonzero(np.asarray(b_ans, dtype=bool) != d_ans)
            kw = {"trump": label, "leader": "E", "declarers": "NS", "target": target}
            sizes = np.array([search_positions(p, **kw)[1:] for p in pbns], dtype=float)
            o_positions, o_tricks = sizes[:, 0], sizes[:, 1]
            row = summary["questions"][f"{target} {label}"] = {
                "dds": float(d_times.sum()),
                "ours": float(o_times.sum()),
                "slowest": float(o_times.max()),
                "over_0_2": int((o_times > 0.2).sum()),
                "dds_slowest": float(d_times.max()),
                "dds_over_0_2": int((d_times > 0.2).sum()),
                "dds_nodes": float(d_nodes.sum()),
                "our_tricks": float(o_tricks.sum()),
            }
            if not args.no_interleave:
                d_cpu, o_cpu = interleaved_cpu(
                    lambda i, t=trump, g=target: dds.side_can_make(ep_deals[i], t, east, ns, g),
                    lambda i, kw=kw: solve(pbns[i], **kw),
                    n,
                )
                row["dds_cpu"] = float(d_cpu.sum())
                row["ours_cpu"] = float(o_cpu.sum())
                line += f"{o_cpu.sum() / d_cpu.sum():>8.2f}"
            size_lines.append(
                f"NS {target:>2} {label:<2} E leads{'':<6}"
                f"{d_nodes.sum():>12,.0f}{o_tricks.sum():>12,.0f}"
                f"{o_tricks.sum() / max(d_nodes.sum(), 1):>8.2f}"
                f"{1e9 * d_times.sum() / max(d_nodes.sum(), 1):>11.0f}"
                f"{1e9 * o_times.sum() / max(o_tricks.sum(), 1):>11.0f}"
                f"{o_positions.sum():>14,.0f}"
            )
        print(line, flush=True)
        if solve is not None:
            for i in bad:
                mismatches += 1
                print(
                    f"  !!! MISMATCH solve: {pbns[i]!r} trump={label} leader=E declarers=NS "
                    f"target={target}: DDS {bool(d_ans[i])}, ours {bool(o_ans[i])}"
                )
            for i in bad_batch:
                mismatches += 1
                print(
                    f"  !!! MISMATCH solve_batch: {pbns[i]!r} trump={label} leader=E declarers=NS "
                    f"target={target}: DDS {bool(d_ans[i])}, ours {bool(b_ans[i])}"
                )

    if solve is None:
        print("\n(--only-dds: our solver not timed)")
        return summary
    print()
    print(
        "search size: trick-boundary positions entered "
        "(DDS: futureTricks.nodes; ours: search_positions),"
    )
    print("time per such position, and our positions of every kind (card plays)")
    print(
        f"{'question':<22}{'DDS tricks':>12}{'our tricks':>12}{'ratio':>8}"
        f"{'DDS ns/t':>11}{'our ns/t':>11}{'our plays':>14}"
    )
    for line in size_lines:
        print(line)

    # one-declarer questions DDS cannot answer; declarer South, dealer West, so eldest = North
    deals = deals[: max(args.one_deals, 0)]
    pbns = pbns[: len(deals)]
    n = len(deals)
    print()
    print(f"one-declarer questions (declarer S; eldest N leads unless stated), {n} deals")
    print(
        f"{'contract':<34}{'yes':>6}{'solve/s':>10}{'mean':>12}{'max':>12}"
        f"{'batch/s':>10}{'batch yes':>10}{'positions':>12}{'max pos':>12}"
    )
    one = [
        ("Solo: 5, trump H", "H", "N", False, 5),
        ("Abundance: 9, trump H", "H", "N", False, 9),
        ("Declared: 13, NT, declarer leads", None, "S", False, 13),
        ("Misere: 0, NT", None, "N", True, 0),
    ]
    for name, trump, leader, misere, target in one if n else []:
        times = np.empty(n)
        ans = np.empty(n, dtype=bool)
        for i in range(n):
            t0 = time.perf_counter()
            ans[i] = solve(
                pbns[i], trump=trump, leader=leader, declarers="S", misere=misere, target=target
            )
            times[i] = time.perf_counter() - t0
        t0 = time.perf_counter()
        b = np.asarray(
            solve_batch(
                deals, trump=trump, leader=leader, declarers="S", misere=misere, target=target
            ),
            dtype=bool,
        )
        bt = time.perf_counter() - t0
        kw = {"trump": trump, "leader": leader, "declarers": "S", "misere": misere}
        pos = np.array([search_positions(p, target=target, **kw)[1] for p in pbns])
        summary["one"][name] = {
            "per_s": n / times.sum(),
            "slowest": float(times.max()),
            "positions": float(pos.mean()),
        }
        print(
            f"{name:<34}{int(ans.sum()):>6}{n / times.sum():>10.1f}{fmt_s(times.mean()):>12}"
            f"{fmt_s(times.max()):>12}{n / bt:>10.1f}{int(b.sum()):>10}"
            f"{pos.mean():>12,.0f}{pos.max():>12,}",
            flush=True,
        )
        for i in np.flatnonzero(b != ans):
            mismatches += 1
            print(
                f"  !!! MISMATCH solve vs solve_batch: {pbns[i]!r} {name}: solve {bool(ans[i])}, "
                f"batch {bool(b[i])}"
            )

    print()
    summary["mismatches"] = mismatches
    if mismatches:
        print(f"!!! {mismatches} MISMATCHES !!!")
    else:
        print("all answers agree (ours vs DDS, solve vs solve_batch)")
    return summary


if __name__ == "__main__":
    sys.exit(main())
