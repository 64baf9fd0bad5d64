"""The speed report in one run: the solver against DDS, and the advice's wall times.

Runs, one after the other in the same invocation (so every figure shares the machine's
state of the moment):

1. ``bench_solver.py`` on each seed set (``--seeds``, 200 random deals each by default, one
   thread): per question the time ratio ours / DDS (wall time, each solver's 200 answers in
   a block; and thread CPU time, the two interleaved deal by deal), our slowest deal, the
   deals over 0.2 s,
   the search sizes of both; the one-declarer questions (Solo, Abundance, Declared, Misère),
   which DDS cannot answer, in solves a second and positions a question.
2. A summary over all the seed sets: each question's total ratio and all eight together.
3. ``bench_advise.py``'s runs of the ordinary hand (``AKJ94.K83.Q72.65``, second seat,
   turn-up 7♠) at the library's defaults and run to the tolerance (no cap on positions),
   then ``--random`` random hands to the tolerance: cold and warm wall times, deals and
   widest interval, whether each run converged (every watched row's reported interval,
   widened for unsolved deals, within the tolerance; cold / warm), and the median warm
   time.  Each advice runs in a subprocess of its own.  A target counts a run that did not
   converge as missing it, whatever its time.
   The advice times are also given in units of the same run's DDS time for the bench
   questions of the first seed set (a machine-independent scale for comparing days).
   With ``--stop-on both`` (the default) the runs to the tolerance are repeated with
   ``stop_on="bid"``, which brings only the rows the recommendation reads to the tolerance.

Usage::

    python benchmarks/bench_speed.py                       # 4 seed sets, 16 random hands
    python benchmarks/bench_speed.py --seeds 1 --random 4  # a quicker look

The targets of the speed issue are printed beside the figures: the solver at or below
1.0x DDS with no deal over 0.2 s, and the advice converged to ±2 points in 2 s warm for the
ordinary hand and as the median of the random hands.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import bench_advise
import bench_solver

ORDINARY = ("AKJ94.K83.Q72.65", "second", "7S")


def solver_part(seeds: list[int], deals: int, one_deals: int) -> tuple[list[dict], int]:
    summaries = []
    mismatches = 0
    for seed in seeds:
        print(f"\n=== solver against DDS, seed {seed} ===", flush=True)
        args = bench_solver.parse_args(
            ["--deals", str(deals), "--seed", str(seed), "--one-deals", str(one_deals)]
        )
        s = bench_solver.run(args)
        summaries.append(s)
        mismatches += s["mismatches"]
    return summaries, mismatches


def _set_totals(summary: dict, kind: str = "") -> tuple[float, float]:
    """DDS's and our total time over every question of one seed set.

    ``kind`` "" for the wall times of the solvers' blocks, "_cpu" for the interleaved
    thread CPU times.
    """
    rows = summary["questions"].values()
    return sum(r["dds" + kind] for r in rows), sum(r["ours" + kind] for r in rows)


def _by_set(totals: list[tuple[float, float]]) -> tuple[str, bool]:
    """Each set's ratio ours / DDS, as text, and whether every one is at most 1."""
    return " ".join(f"{o / d:.2f}" for d, o in totals), all(o <= d for d, o in totals)


def print_solver_summary(seeds: list[int], summaries: list[dict]) -> float:
    """Print the totals over the seed sets; return DDS's total time of the first set."""
    print(f"\n=== solver summary, seeds {','.join(map(str, seeds))} ===")
    cpu = all("dds_cpu" in r for s in summaries for r in s["questions"].values())
    print(
        f"{'question':<12}{'DDS s':>9}{'ours s':>9}{'ratio':>8}{'per set':>26}"
        f"{'slowest':>9}{'>0.2 s':>8}{'size ratio':>12}" + (f"{'cpu r':>8}" if cpu else "")
    )
    labels = list(summaries[0]["questions"])
    all_d = all_o = 0.0
    slowest = 0.0
    over = 0
    for label in labels:
        rows = [s["questions"][label] for s in summaries]
        d = sum(r["dds"] for r in rows)
        o = sum(r["ours"] for r in rows)
        per_set = " ".join(f"{r['ours'] / r['dds']:.2f}" for r in rows)
        worst = max(r["slowest"] for r in rows)
        n_over = sum(r["over_0_2"] for r in rows)
        size = sum(r["our_tricks"] for r in rows) / max(sum(r["dds_nodes"] for r in rows), 1)
        all_d += d
        all_o += o
        slowest = max(slowest, worst)
        over += n_over
        cpu_r = ""
        if cpu:
            cpu_r = f"{sum(r['ours_cpu'] for r in rows) / sum(r['dds_cpu'] for r in rows):>8.2f}"
        print(
            f"NS {label:<9}{d:>9.2f}{o:>9.2f}{o / d:>8.2f}{per_set:>26}{worst:>9.3f}"
            f"{n_over:>8}{size:>12.2f}" + cpu_r
        )
    totals = [_set_totals(s) for s in summaries]
    per_set, within = _by_set(totals)
    print(
        f"{'all eight':<12}{all_d:>9.2f}{all_o:>9.2f}{all_o / all_d:>8.2f}{per_set:>26}"
        f"{slowest:>9.3f}{over:>8}"
    )
    met = within and over == 0
    print(
        f"target: ratio <= 1.00 on every set, no deal over 0.2 s -> {'met' if met else 'not met'}"
    )
    every = [r for s in summaries for r in s["questions"].values()]
    if all("dds_slowest" in r for r in every):
        print(
            f"DDS's own: slowest answer {max(r['dds_slowest'] for r in every):.3f} s, "
            f"{sum(r['dds_over_0_2'] for r in every)} answers over 0.2 s"
        )
    if cpu:
        cpu_totals = [_set_totals(s, "_cpu") for s in summaries]
        cpu_d = sum(d for d, _ in cpu_totals)
        cpu_o = sum(o for _, o in cpu_totals)
        per_set, within = _by_set(cpu_totals)
        print(
            f"interleaved, thread CPU time: DDS {cpu_d:.2f} s, ours {cpu_o:.2f} s, ratio "
            f"{cpu_o / cpu_d:.2f} (per set {per_set}); ratio <= 1.00 on every set -> "
            + ("met" if within else "not met")
        )
    if summaries[0]["one"]:
        print("\none-declarer questions (DDS cannot answer them), per seed set:")
        for name in summaries[0]["one"]:
            parts = [
                f"{s['one'][name]['per_s']:,.0f}/s, {s['one'][name]['positions']:,.0f} pos, "
                f"slowest {s['one'][name]['slowest']:.3f} s"
                for s in summaries
            ]
            print(f"  {name:<34}" + " | ".join(parts))
    return totals[0][0]


def advice_part(
    random: int,
    random_seed: int,
    timeout: float,
    dds_unit: float | None,
    modes: tuple[str, ...] = ("rows",),
) -> None:
    print("\n=== advice (each in its own process; cold = first call, warm = second) ===")
    unit = f" (x DDS's {dds_unit:.2f} s for seed set 1)" if dds_unit else ""
    print(
        f"{'advice':<34}{'deals':>6}{'Mpos':>7}{'stopped':>14}{'+-pts':>7}{'conv':>8}"
        f"{'cold s':>8}{'warm s':>8}{'warm/DDS':>9}" + unit
    )
    for mode in modes:
        _advice_mode(mode, random, random_seed, timeout, dds_unit)


def _advice_mode(
    mode: str, random: int, random_seed: int, timeout: float, dds_unit: float | None
) -> None:
    """The advice runs with ``stop_on=mode``, and the targets' lines."""
    if mode == "bid":
        print("-- stopping on the rows the recommendation reads (stop_on='bid') --")
    cases = [] if mode == "bid" else [("ordinary, defaults", *ORDINARY, None)]
    cases.append(("ordinary, to tolerance", *ORDINARY, 0))
    for label, hand, seat, turnup in bench_advise.random_hands(random, random_seed):
        cases.append((f"{label}: {hand} {seat[:3]} {turnup}", hand, seat, turnup, 0))
    warms = []
    ordinary_converged = None
    for label, hand, seat, turnup, max_positions in cases:
        r = bench_advise.run_hand(
            hand, seat, turnup, 2000, None, timeout, max_positions=max_positions, stop_on=mode
        )
        if "warm" not in r:
            print(f"{label:<34} {'timeout' if r.get('timeout') else r.get('error', 'error')}")
            continue
        rel = f"{r['warm'] / dds_unit:>9.2f}" if dds_unit else ""
        conv = bench_advise.converged_cells(r)
        print(
            f"{label:<34}{r['samples']:>6}{r['positions'] / 1e6:>7.1f}{r['stopped']:>14}"
            f"{100 * r['widest']:>7.1f}{conv:>8}{r['cold']:>8.2f}{r['warm']:>8.2f}{rel}",
            flush=True,
        )
        # a run that did not converge misses the target whatever its time
        warm = r["warm"] if r.get("warm_converged") else float("inf")
        if label.startswith("random"):
            warms.append(warm)
        elif max_positions == 0:
            ordinary_converged = warm
    which = "" if mode == "rows" else " (bid rows only)"
    if ordinary_converged is not None:
        print(
            f"target{which}: the ordinary hand converged in <= 2 s warm: "
            f"{_seconds(ordinary_converged)} -> {'met' if ordinary_converged <= 2 else 'not met'}"
        )
    if warms:
        med = statistics.median(warms)
        missed = sum(w == float("inf") for w in warms)
        print(
            f"target{which}: median of {len(warms)} random hands converged <= 2 s warm: "
            f"{_seconds(med)} ({_seconds(min(warms))}-{_seconds(max(warms))}"
            f"{f'; {missed} not converged' if missed else ''}) -> "
            f"{'met' if med <= 2 else 'not met'}"
        )


def _seconds(t: float) -> str:
    """A warm time, or "not converged" for a run that did not converge (``inf``)."""
    return "not converged" if t == float("inf") else f"{t:.2f} s"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1,2,3,4", help="seed sets of random deals (default 1-4)")
    ap.add_argument("--deals", type=int, default=200, help="deals a seed set (default 200)")
    ap.add_argument(
        "--one-deals", type=int, default=100, help="deals for one-declarer questions (100)"
    )
    ap.add_argument("--random", type=int, default=16, help="random hands for the advice (16)")
    ap.add_argument("--random-seed", type=int, default=7, help="their seed (default 7)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per advice process")
    ap.add_argument(
        "--stop-on",
        choices=["rows", "bid", "both"],
        default="both",
        help="the advice's stopping rule: every row (the default's), the bid's rows, or both",
    )
    ap.add_argument("--no-advice", action="store_true", help="the solver part only")
    args = ap.parse_args(argv)
    return bench_solver.guarded(lambda: run(args))


def run(args: argparse.Namespace) -> int:
    """Both parts as ``args`` ask; 1 if an answer differs from DDS's."""
    seeds = [int(s) for s in args.seeds.split(",") if s]
    t0 = time.perf_counter()
    print(f"bench_speed: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
    summaries, mismatches = solver_part(seeds, args.deals, args.one_deals)
    dds_unit = print_solver_summary(seeds, summaries)
    if not args.no_advice:
        modes = ("rows", "bid") if args.stop_on == "both" else (args.stop_on,)
        advice_part(args.random, args.random_seed, args.timeout, dds_unit, modes)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")
    if mismatches:
        print(f"!!! {mismatches} answers differ from DDS !!!")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
