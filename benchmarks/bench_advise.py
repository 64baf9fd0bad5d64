"""Benchmark of the Monte Carlo advice: sampling speed and wall time of a full ``advise``.

Prints a table:

* deals sampled per second by :class:`~solo_analysis.sampler.DealSampler` alone;
* for a few typical hands, the wall time of ``advise`` at its defaults (tolerance, cap on
  deals, cap on search positions; ``--max-samples`` / ``--max-positions`` change the caps):
  *cold* = the first call in a fresh Python process (imports, numba cache load or compilation
  included), *warm* = a second call in the same process with another seed; with the deals
  used, the positions searched (millions), why sampling stopped and the widest half-width of a
  ``p_make`` interval (points) among the rows sampling brought to the tolerance (every fixed
  row; with ``--stop-on bid`` the rows the recommendation reads), and whether each run
  converged (those intervals all within the tolerance, unsolved deals' widening included;
  the cold / warm run).

Each hand runs in its own subprocess with a time limit (``--timeout``), so one slow hand cannot
stall the benchmark; a run that hits the limit is reported as such.

Usage::

    python benchmarks/bench_advise.py                      # the library's defaults
    python benchmarks/bench_advise.py --max-positions 0    # no cap on work: to the tolerance
    python benchmarks/bench_advise.py --random 16          # and 16 random hands (seats in turn)
    python benchmarks/bench_advise.py --max-positions 0 --stop-on bid  # only the bid's rows
    python benchmarks/bench_advise.py --contracts solo,abundance --timeout 120
    python benchmarks/bench_advise.py --hands 4 --random 16 --against /tmp/base  # new / old

With ``--against DIR`` every hand also runs with the ``solo_analysis`` package under ``DIR``
(another checkout: ``git worktree add /tmp/base HEAD~1``), the two one after the other in
turn, ``--repeats`` times each, and the table gives each one's deals and positions (seed 1)
and best warm time, and the ratio new / old.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

# (label, hand, seat, turn-up)
HANDS: list[tuple[str, str, str, str]] = [
    ("thirteen spades", "AKQJT98765432...", "second", "2H"),
    ("strong abundance", "AKQJT9.AK.AK2.32", "eldest", "7H"),
    ("misere shape", "5432.5432.432.32", "third", "KH"),
    ("average", "AKJ94.K83.Q72.65", "second", "7S"),
]

_CHILD = r"""
import json, sys, time
args = json.loads(sys.argv[1])
(hand, seat, turnup, max_samples, contracts, max_question_positions, max_positions, stop_on,
 root) = args
sys.path.insert(0, root)  # the package this script imported, not the working directory's
t0 = time.perf_counter()
import solo_analysis
from solo_analysis.advice import DEFAULT_MAX_POSITIONS, DEFAULT_MAX_QUESTION_POSITIONS, advise
if max_question_positions is None:
    max_question_positions = DEFAULT_MAX_QUESTION_POSITIONS
else:
    max_question_positions = max_question_positions or None
max_positions = DEFAULT_MAX_POSITIONS if max_positions is None else (max_positions or None)
kw = dict(
    max_samples=max_samples,
    contracts=contracts,
    max_question_positions=max_question_positions,
    max_positions=max_positions,
    stop_on=stop_on,
)
t1 = time.perf_counter()
a = advise(hand, seat=seat, turnup=turnup, seed=1, **kw)
t2 = time.perf_counter()
watched = a.table[a.table["candidate"] if stop_on == "bid" else a.table["choice"] == "fixed"]
widest = float(((watched["ci_high"] - watched["ci_low"]) / 2).max())
print(json.dumps({"cold": t2 - t1, "import": t1 - t0, "samples": a.samples,
                  "unresolved": a.unresolved, "converged": a.converged,
                  "advice": a.summary(), "positions": a.positions,
                  "stopped": a.stopped, "widest": widest,
                  "package": solo_analysis.__file__}), flush=True)
t3 = time.perf_counter()
b = advise(hand, seat=seat, turnup=turnup, seed=2, **kw)
t4 = time.perf_counter()
print(json.dumps({"warm": t4 - t3, "warm_samples": b.samples, "warm_converged": b.converged}),
      flush=True)
"""


def converged_cells(r: dict) -> str:
    """Whether a :func:`run_hand` result's runs converged, cold / warm, e.g. ``"yes/no"``.

    ``"-"`` stands for a run that did not finish.
    """
    return "/".join(
        "-" if k not in r else ("yes" if r[k] else "no") for k in ("converged", "warm_converged")
    )


def sampler_rate(n: int = 200_000) -> float:
    from solo_analysis.sampler import DealSampler

    sampler = DealSampler("AKJ94.K83.Q72.65", seat="second", turnup="7S", seed=1)
    sampler.draw(1000)  # load / compile the kernel
    t = time.perf_counter()
    sampler.draw(n)
    return n / (time.perf_counter() - t)


def run_hand(
    hand: str,
    seat: str,
    turnup: str,
    max_samples: int,
    contracts,
    timeout: float,
    max_question_positions: int | None = None,
    max_positions: int | None = None,
    stop_on: str = "rows",
    root: str | None = None,
) -> dict:
    """Run one hand's advice in a subprocess: seed 1 cold, then seed 2 warm.

    ``root`` is the directory the child imports ``solo_analysis`` from (default: the one
    this script imported).
    """
    if root is None:
        import solo_analysis

        root = str(Path(solo_analysis.__file__).resolve().parents[1])
    payload = json.dumps(
        [
            hand,
            seat,
            turnup,
            max_samples,
            contracts,
            max_question_positions,
            max_positions,
            stop_on,
            root,
        ]
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, payload],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        result = {"timeout": True}
    else:
        result = {"timeout": False}
        if proc.returncode != 0:
            result["error"] = (err.strip().splitlines() or ["?"])[-1]
    for line in out.splitlines():
        result.update(json.loads(line))
    return result


def random_hands(n: int, seed: int) -> list[tuple[str, str, str, str]]:
    """Return ``n`` random (label, hand, seat, turn-up) tuples for the benchmark.

    Seats go eldest, second, third, dealer in turn; the turn-up is the dealer's first card (the
    player's own when he deals).
    """
    import numpy as np

    from solo_analysis.cards import card_str
    from solo_analysis.hand import Hand

    rng = np.random.default_rng(seed)
    seats = ("eldest", "second", "third", "dealer")
    out = []
    for k in range(n):
        cards = rng.permutation(52)
        seat = seats[k % 4]
        turnup = int(cards[0] if seat == "dealer" else cards[13])
        out.append((f"random {k + 1}", str(Hand(cards[:13].tolist())), seat, card_str(turnup)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    from solo_analysis.advice import DEFAULT_MAX_SAMPLES

    parser.add_argument(
        "--max-samples",
        type=int,
        default=DEFAULT_MAX_SAMPLES,
        help=f"cap on deals per advise (default {DEFAULT_MAX_SAMPLES}, the library's)",
    )
    parser.add_argument(
        "--timeout", type=float, default=300.0, help="seconds per hand (cold + warm)"
    )
    parser.add_argument(
        "--contracts", default=None, help="comma-separated contracts (default: all)"
    )
    parser.add_argument(
        "--hands", type=int, default=len(HANDS), help="how many of the typical hands"
    )
    parser.add_argument(
        "--max-question-positions",
        type=int,
        default=None,
        help="solver positions per question (default: the library's; 0: no limit)",
    )
    parser.add_argument(
        "--max-positions",
        type=int,
        default=None,
        help="solver positions per advise (default: the library's; 0: no cap)",
    )
    parser.add_argument(
        "--stop-on",
        choices=["rows", "bid"],
        default="rows",
        help="the rows adaptive sampling brings to the tolerance (default rows: every row; "
        "bid: the rows the recommendation reads); +-pts is the widest of those rows",
    )
    parser.add_argument(
        "--random",
        type=int,
        default=0,
        metavar="N",
        help="also N random hands (seats in turn; the labels give the hands below)",
    )
    parser.add_argument(
        "--random-seed", type=int, default=7, help="seed of the random hands (default 7)"
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="also run every hand with the solo_analysis package under DIR (another "
        "checkout, e.g. made by `git worktree add`), the two alternating, and print the "
        "ratios of their warm times",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=2,
        help="with --against: runs of each hand each way, alternating (default 2); "
        "the best warm time of each way is compared",
    )
    args = parser.parse_args(argv)
    if args.against is not None:
        against = Path(args.against).resolve()
        if not (against / "solo_analysis" / "__init__.py").is_file():
            parser.error(f"--against {args.against}: no solo_analysis package there")
        if args.repeats < 1:
            parser.error(f"--repeats {args.repeats}: expected at least 1")
    contracts = None if args.contracts is None else args.contracts.split(",")

    rate = sampler_rate()
    print(f"sampler: {rate:,.0f} deals/s (no constraints)")
    mqp = args.max_question_positions
    mqp_text = "default" if mqp is None else mqp or "none"
    mp_text = "default" if args.max_positions is None else args.max_positions or "none"
    print(
        f"advise: default tolerance, max_samples={args.max_samples}, "
        f"contracts={args.contracts or 'all'}, "
        f"max_question_positions={mqp_text}, "
        f"max_positions={mp_text}, "
        f"stop_on={args.stop_on}, "
        f"timeout {args.timeout:g} s per hand"
    )
    extra = random_hands(args.random, args.random_seed)
    for label, hand, seat, turnup in extra:
        print(f"{label}: {hand} ({seat}, turn-up {turnup})")
    if args.against is not None:
        compare(args, HANDS[: args.hands] + extra, contracts, str(against))
        return
    header = (
        f"{'hand':<18} {'seat':<7} {'turn-up':<7} {'deals':>6} {'unsolved':>8} {'Mpos':>6} "
        f"{'stopped':<13} {'+-pts':>5} {'conv':>7} {'cold s':>8} {'warm s':>8}  advice (seed 1)"
    )
    print(header)
    print("-" * len(header))
    warms: list[float] = []
    for label, hand, seat, turnup in HANDS[: args.hands] + extra:
        r = _run(args, contracts, hand, seat, turnup)
        cold = f"{r['cold']:.2f}" if "cold" in r else ("timeout" if r["timeout"] else "error")
        warm = f"{r['warm']:.2f}" if "warm" in r else ("timeout" if r["timeout"] else "-")
        deals = str(r.get("samples", "-"))
        unsolved = str(r.get("unresolved", "-"))
        note = r.get("advice", r.get("error", ""))
        mpos = f"{r['positions'] / 1e6:.1f}" if r.get("positions") is not None else "-"
        widest = f"{100 * r['widest']:.1f}" if "widest" in r else "-"
        conv = converged_cells(r)
        print(
            f"{label:<18} {seat:<7} {turnup:<7} {deals:>6} {unsolved:>8} {mpos:>6} "
            f"{r.get('stopped', '-'):<13} {widest:>5} {conv:>7} {cold:>8} {warm:>8}  {note}",
            flush=True,
        )
        if (label, hand, seat, turnup) in extra and "warm" in r:
            warms.append(r["warm"])
    if warms:
        import statistics

        print(
            f"random hands, warm: median {statistics.median(warms):.2f} s, "
            f"{min(warms):.2f}-{max(warms):.2f} s over {len(warms)}"
        )


def _run(
    args: argparse.Namespace,
    contracts: list[str] | None,
    hand: str,
    seat: str,
    turnup: str,
    root: str | None = None,
) -> dict:
    """:func:`run_hand` with the command line's settings."""
    return run_hand(
        hand,
        seat,
        turnup,
        args.max_samples,
        contracts,
        args.timeout,
        args.max_question_positions,
        args.max_positions,
        args.stop_on,
        root,
    )


def compare(
    args: argparse.Namespace,
    hands: list[tuple[str, str, str, str]],
    contracts: list[str] | None,
    against: str,
) -> None:
    """Each hand with this package and with the one under ``against``, runs alternating.

    Prints per hand the deals and positions of each (seed 1: the same code gives the same
    figures), the best warm time of each over ``--repeats`` runs and their ratio, then the
    median and total ratios.  The two run one after the other, never at once, and the order
    swaps on every repeat, so a machine that slows down mid-run weighs on both.
    """
    import statistics

    import solo_analysis

    roots = (str(Path(solo_analysis.__file__).resolve().parents[1]), against)
    print(f"{roots[0]} ('new') against {against} ('old'), {args.repeats} runs each way")
    head = (
        f"{'hand':<18} {'deals new/old':>13} {'Mpos new/old':>13} "
        f"{'warm new':>8} {'warm old':>8} {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    ratios: list[float] = []
    totals = [0.0, 0.0]
    for label, hand, seat, turnup in hands:
        runs: list[list[dict]] = [[], []]
        for rep in range(args.repeats):
            order = (0, 1) if rep % 2 == 0 else (1, 0)
            for way in order:
                runs[way].append(_run(args, contracts, hand, seat, turnup, roots[way]))
        for root, rs in zip(roots, runs, strict=True):
            for r in rs:
                got = r.get("package")
                if got is not None and Path(got).resolve().parents[1] != Path(root):
                    raise SystemExit(f"a run imported {got}, not the package under {root}")
        warm = [[r["warm"] for r in rs if "warm" in r] for rs in runs]
        first = [rs[0] for rs in runs]
        deals = "/".join(str(r.get("samples", "-")) for r in first)
        mpos = "/".join(
            f"{r['positions'] / 1e6:.1f}" if r.get("positions") is not None else "-" for r in first
        )
        if warm[0] and warm[1]:
            best = (min(warm[0]), min(warm[1]))
            ratios.append(best[0] / best[1])
            totals[0] += best[0]
            totals[1] += best[1]
            times = f"{best[0]:>8.2f} {best[1]:>8.2f} {best[0] / best[1]:>6.2f}"
        else:
            why = next(r.get("error", "timeout") for rs in runs for r in rs if "warm" not in r)
            times = f"{'-':>8} {'-':>8} {'-':>6}  {why}"
        print(f"{label:<18} {deals:>13} {mpos:>13} {times}", flush=True)
    if ratios:
        print(
            f"warm new / old: median {statistics.median(ratios):.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) over {len(ratios)} hands; "
            f"all together {totals[0]:.2f} s / {totals[1]:.2f} s = {totals[0] / totals[1]:.2f}"
        )


if __name__ == "__main__":
    main()
