"""Benchmark of the realistic play model (PIMC): playouts, worlds and advice a second.

Every figure is set against the double-dummy solver measured in the same run, on the same
deals, so that the ratios hold whatever else the machine is doing (the load is printed).

1. *Playouts a second* per contract type: ``Pimc(worlds=W).ask`` on N deals sampled for the
   hand (warm: the kernels are loaded by a small call first), its positions a second, and the
   double-dummy answers of the same question on the same deals (``solve_questions`` with a
   ``max_positions`` cap) as the reference.
   1b. *Levers*: the same deals again with one setting changed (``--levers``: the cap per
   world, the worlds), the speed-up and how many answers change.
2. *Worlds a second*: on the first few deals of each case, the decisions of each playout
   (the Python reference ``playout(..., log=...)``, one call per decision with a choice) and
   the worlds valued at them, against the compiled playout's time on the same deals (whose
   answers and positions must equal the reference's).
3. *Where the time goes*, from the same reference playouts (``card_values_seq`` and
   ``sample_worlds`` wrapped as profiling hooks): the share of positions by trick, the
   positions one world takes at one decision (median, 90th, 99th percentile, most), the
   worlds that hit the per-world cap (``world_positions``) and their share of the positions,
   the reference's time in the search, in world sampling and in Python; and what playing the
   first T tricks by PIMC and the rest double-dummy (``pimc_tricks=T``, not implemented) would
   save, estimated from the positions of tricks 1..T plus a whole double-dummy solve.
4. *Advice wall time*, each in a subprocess (``--timeout``), warm (a small ``advise`` of each
   model first): a Misère-only advice to +-5 points (``tolerance=0.05``, adaptive,
   ``max_positions=None``) for the misère hands, PIMC against double-dummy, against the target
   of 30 s on 2 cores; and a full advice (every contract) on a fixed ``--full-samples`` deals
   for an ordinary hand, with the PIMC time of each contract.

Usage::

    python benchmarks/bench_pimc.py                    # the default run (about 10 min, 2 cores)
    python benchmarks/bench_pimc.py --levers cap=50000,cap=5000,worlds=32
    python benchmarks/bench_pimc.py --quick            # smoke run: small sizes, a minute or two
    python benchmarks/bench_pimc.py --deals 64 --profile-deals 16 --worlds 32
    python benchmarks/bench_pimc.py --no-advice        # sections 1-3 only
    python benchmarks/bench_pimc.py --full-samples 64 --timeout 3600
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from solo_analysis.cards import card_code
from solo_analysis.errors import SoloAnalysisError
from solo_analysis.play import pimc as pimc_module
from solo_analysis.play.pimc import DEFAULT_WORLD_POSITIONS, PRIORS, Pimc, playout
from solo_analysis.sampler import sample_deals
from solo_analysis.solver import Question, solve_questions

MISERE_HANDS = ("5432.5432.Q32.32", "J742.T853.963.84")  # third seat, turn-up KH
ORDINARY = ("AKJ94.K83.Q72.65", "second", "7S")  # a lone declarer, and a partnership
DD_CAP = 5_000_000  # the advice's default max_question_positions
TARGET_SECONDS = 30.0  # the target for a Misère-only PIMC advice to +-5 points


@dataclass
class Case:
    """One question asked of the deals sampled for one hand."""

    label: str
    hand: str
    seat: str
    turnup: str
    question: Question


def cases() -> list[Case]:
    """Misère and Spread Misère for the misère hands; Solo, Abundance and Prop for an ordinary one.

    Seats in play order (0 eldest .. 3 dealer); every contract here is led by eldest.
    """
    out = []
    for hand in MISERE_HANDS:
        short = hand.split(".")[0]
        out.append(Case(f"misere {short}..", hand, "third", "KH", Question(4, 0, 2, True, 0)))
        spread = Question(4, 0, 2, True, 0, exposed=True)
        out.append(Case(f"spread {short}..", hand, "third", "KH", spread))
    hand, seat, turnup = ORDINARY
    out.append(Case("solo S AKJ94..", hand, seat, turnup, Question(0, 0, 1, False, 5)))
    out.append(Case("abundance H AKJ94..", hand, seat, turnup, Question(1, 0, 1, False, 9)))
    out.append(Case("prop S AKJ94..+dealer", hand, seat, turnup, Question(0, 0, (1, 3), False, 8)))
    return out


# ---------------------------------------------------------------------------- arguments
class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an int >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an int >= 0, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {text!r}")
    return value


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 0.5], got {text!r}") from None
    if not 0 < value <= 0.5:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 0.5], got {text!r}")
    return value


def _levers(text: str) -> list[tuple[str, int]]:
    if text.strip().lower() in ("", "none"):
        return []
    out = []
    for item in text.split(","):
        name, _, value = item.strip().partition("=")
        if name not in ("cap", "worlds") or not value.strip().isdigit():
            raise argparse.ArgumentTypeError(f"expected cap=N or worlds=N items, got {item!r}")
        number = int(value)
        if name == "worlds" and number < 1:
            raise argparse.ArgumentTypeError(f"worlds must be >= 1, got {item!r}")
        out.append((name, number))
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The options; ``--quick`` fills the sizes not given with small ones."""
    ap = _Parser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--worlds", type=_positive, help="worlds a decision (default 16; quick 4)")
    ap.add_argument("--deals", type=_positive, help="deals a contract type (default 32; quick 4)")
    ap.add_argument(
        "--profile-deals",
        type=_positive,
        help="deals of each case played by the Python reference (default 8; quick 1)",
    )
    ap.add_argument("--seed", type=_count, default=1, help="seed of the deals and advice (1)")
    ap.add_argument("--threads", type=_positive, help="numba threads (default: numba's)")
    ap.add_argument(
        "--world-positions",
        type=_count,
        default=DEFAULT_WORLD_POSITIONS,
        help=f"PIMC cap per world (default {DEFAULT_WORLD_POSITIONS:,}; 0: none)",
    )
    ap.add_argument(
        "--tolerance",
        type=_tolerance,
        default=0.05,
        help="half-width of the Misère advice (default 0.05)",
    )
    ap.add_argument(
        "--max-samples", type=_positive, help="cap on its deals (default the library's; quick 16)"
    )
    ap.add_argument(
        "--full-samples", type=_positive, help="deals of the full advice (default 32; quick 4)"
    )
    ap.add_argument("--timeout", type=_seconds, help="seconds an advice process (default 900)")
    ap.add_argument(
        "--levers",
        type=_levers,
        default="cap=20000,worlds=8",
        help="settings to try on the deals of section 1, one at a time: cap=N (positions a "
        "world; 0 none), worlds=N; 'none' skips (default cap=20000,worlds=8)",
    )
    ap.add_argument("--no-advice", action="store_true", help="skip section 4 (advice)")
    ap.add_argument("--no-full", action="store_true", help="skip the full PIMC advice")
    ap.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    args = ap.parse_args(argv)
    quick = args.quick
    defaults = {
        "worlds": (16, 4),
        "deals": (32, 4),
        "profile_deals": (8, 1),
        "full_samples": (32, 4),
        "timeout": (900.0, 300.0),
        "max_samples": (None, 16),
    }
    for name, (normal, small) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, small if quick else normal)
    args.profile_deals = min(args.profile_deals, args.deals)
    return args


# ---------------------------------------------------------------------------- helpers
def masks_of(deals: np.ndarray) -> np.ndarray:
    """``int8[n, 4, 13]`` card codes -> ``int64[n, 4]`` hand masks."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), deals.astype(np.int64)), axis=2)


def load() -> str:
    """The load averages, as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} cores)"


def rate(n: float, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def pimc_model(args: argparse.Namespace, worlds: int | None = None, cap: int | None = None) -> Pimc:
    """The model of the run, or with ``worlds`` or the cap per world ``cap`` (0: none) changed."""
    cap = args.world_positions if cap is None else cap
    return Pimc(worlds=worlds or args.worlds, world_positions=cap or None, threads=args.threads)


def dd_time(deals: np.ndarray, q: Question, threads: int | None) -> tuple[float, np.ndarray, int]:
    """Seconds of one double-dummy run (repeated to half a second), answers, positions."""
    reps = 0
    t0 = time.perf_counter()
    while True:
        answers, work = solve_questions(
            deals, [q], max_positions=DD_CAP, return_positions=True, threads=threads
        )
        reps += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= 0.5 or reps >= 50:
            return elapsed / reps, answers[0], int(work[0].sum())


def warm_up(args: argparse.Namespace) -> float:
    """Load (or compile) every kernel timed below: both models and the Python reference."""
    t0 = time.perf_counter()
    hand, seat, turnup = ORDINARY
    deals = sample_deals(hand, seat=seat, turnup=turnup, n=2, seed=12345)
    tu = np.full(2, card_code(turnup), dtype=np.int64)
    qs = [Question(4, 0, 1, True, 0), Question(0, 0, 1, False, 5)]
    Pimc(worlds=2, threads=args.threads).ask(deals, qs, turnups=tu)
    solve_questions(deals, qs, max_positions=DD_CAP, threads=args.threads)
    playout(masks_of(deals)[0], qs[1], turnup=int(tu[0]), worlds=1, world_positions=1000)
    return time.perf_counter() - t0


# ---------------------------------------------------------------------------- 1. playouts/s
def section_playouts(args: argparse.Namespace, todo: list[Case]) -> dict[str, dict[str, Any]]:
    print()
    print(
        f"1. playouts a second: Pimc(worlds={args.worlds}).ask on {args.deals} deals a case "
        f"(seed {args.seed}), warm; DD = solve_questions(max_positions={DD_CAP:,}) on the same"
    )
    header = (
        f"{'case':<22}{'made':>5}{'PIMC s':>8}{'plays/s':>9}{'Mpos':>8}{'Mpos/s':>8}"
        f"{'DD made':>8}{'DD ms':>8}{'DD ans/s':>10}{'DD Mpos/s':>10}{'time x':>8}{'pos x':>7}"
    )
    print(header)
    print("-" * len(header))
    out: dict[str, dict[str, Any]] = {}
    for case in todo:
        deals = sample_deals(
            case.hand, seat=case.seat, turnup=case.turnup, n=args.deals, seed=args.seed
        )
        tu = np.full(len(deals), card_code(case.turnup), dtype=np.int64)
        model = pimc_model(args)
        t0 = time.perf_counter()
        (made,) = model.ask(deals, [case.question], turnups=tu)
        seconds = time.perf_counter() - t0
        positions = model.positions
        dd_s, dd, dd_pos = dd_time(deals, case.question, args.threads)
        given_up = int((dd < 0).sum())
        dd_made = f"{int((dd > 0).sum())}" + (f"+{given_up}?" if given_up else "")
        out[case.label] = {
            "deals": deals,
            "turnups": tu,
            "seconds": seconds,
            "made": made,
            "dd_seconds": dd_s,
        }
        print(
            f"{case.label:<22}{int(made.sum()):>5}{seconds:>8.2f}"
            f"{rate(len(deals), seconds):>9.2f}{positions / 1e6:>8.1f}"
            f"{rate(positions, seconds) / 1e6:>8.2f}{dd_made:>8}{1e3 * dd_s:>8.1f}"
            f"{rate(len(deals), dd_s):>10.1f}{rate(dd_pos, dd_s) / 1e6:>10.2f}"
            f"{rate(seconds, dd_s):>8.0f}{rate(positions, dd_pos):>7.0f}",
            flush=True,
        )
    print(
        "plays/s: PIMC playouts a second; time x, pos x: PIMC / DD time and positions on the "
        "same deals; DD made a+b?: b given up at the cap"
    )
    return out


def section_levers(
    args: argparse.Namespace, todo: list[Case], runs: dict[str, dict[str, Any]]
) -> None:
    if not args.levers:
        return
    print()
    print(
        "1b. levers: the deals of section 1 with one setting changed; speed-up against section 1 "
        "(same run), and the answers (made / failed) that changed"
    )
    names = [f"{name}={value}" for name, value in args.levers]
    header = f"{'case':<22}" + "".join(f"{n:>24}" for n in names)
    print(header)
    print("-" * len(header))
    for case in todo:
        run = runs[case.label]
        cells = []
        for name, value in args.levers:
            if name == "worlds":
                model = pimc_model(args, worlds=value)
            else:
                model = pimc_model(args, cap=value)
            t0 = time.perf_counter()
            (made,) = model.ask(run["deals"], [case.question], turnups=run["turnups"])
            seconds = time.perf_counter() - t0
            changed = int((made != run["made"]).sum())
            cells.append(
                f"{rate(run['seconds'], seconds):.2f}x {rate(len(made), seconds):.2f}/s "
                f"{changed:>2} chg"
            )
        print(f"{case.label:<22}" + "".join(f"{c:>24}" for c in cells), flush=True)
    print("each cell: speed-up, playouts/s, answers changed out of the deals of section 1")


# ---------------------------------------------------------------------------- 2 and 3
@dataclass
class Profile:
    """What the reference playouts of one case recorded, decision by decision."""

    decisions: int = 0
    worlds: int = 0
    search_s: float = 0.0
    sample_s: float = 0.0
    total_s: float = 0.0
    positions: int = 0
    made: list[bool] = field(default_factory=list)
    # positions by trick 1..13 (index 0 unused)
    trick_positions: np.ndarray = field(default_factory=lambda: np.zeros(14, dtype=np.int64))
    per_world: list[np.ndarray] = field(default_factory=list)  # each world at each decision
    capped: list[np.ndarray] = field(default_factory=list)  # whether it hit the cap


def profile_case(
    args: argparse.Namespace, case: Case, deals: np.ndarray, tu: np.ndarray
) -> Profile:
    """Play ``deals`` out with the Python reference, hooks on the search and the worlds."""
    prof = Profile()
    search = pimc_module.card_values_seq
    sample = pimc_module.sample_worlds

    def timed_search(masks: np.ndarray, trump: int, leader: int, npl: int, *rest: Any) -> Any:
        t0 = time.perf_counter()
        values, work = search(masks, trump, leader, npl, *rest)
        prof.search_s += time.perf_counter() - t0
        left = sum(int(h).bit_count() for h in masks[0])
        trick = 14 - (left + int(npl)) // 4
        prof.trick_positions[trick] += int(work.sum())
        prof.per_world.append(np.array(work, dtype=np.int64))
        prof.capped.append(np.asarray(values < 0).any(axis=1))
        prof.worlds += masks.shape[0]
        return values, work

    def timed_sample(*a: Any) -> Any:
        t0 = time.perf_counter()
        got = sample(*a)
        prof.sample_s += time.perf_counter() - t0
        return got

    def log(*_: Any) -> None:
        prof.decisions += 1

    # as Pimc does: the misère prior by default, seed 0, the cap per world
    prior = PRIORS["misere-hcp4"] if case.question.misere else None
    masks = masks_of(deals)
    pimc_module.card_values_seq = timed_search  # profiling hooks, undone below
    pimc_module.sample_worlds = timed_sample
    try:
        for i in range(len(deals)):
            t0 = time.perf_counter()
            made, spent = playout(
                masks[i],
                case.question,
                turnup=int(tu[i]),
                worlds=args.worlds,
                prior=prior,
                world_positions=args.world_positions or None,
                log=log,
            )
            prof.total_s += time.perf_counter() - t0
            prof.positions += spent
            prof.made.append(bool(made))
    finally:
        pimc_module.card_values_seq = search
        pimc_module.sample_worlds = sample
    return prof


def section_worlds(
    args: argparse.Namespace, todo: list[Case], runs: dict[str, dict[str, Any]]
) -> dict[str, Profile]:
    k = args.profile_deals
    print()
    print(
        f"2. worlds a second: the first {k} deals of each case, decisions counted by the "
        f"Python reference playout (1 thread), the compiled Pimc.ask timed on the same deals"
    )
    header = (
        f"{'case':<22}{'decis/play':>11}{'worlds/play':>12}{'PIMC s':>8}{'worlds/s':>10}"
        f"{'pos/world':>10}{'ref s':>8}{'ref w/s':>9}{'same':>6}"
    )
    print(header)
    print("-" * len(header))
    profiles: dict[str, Profile] = {}
    for case in todo:
        run = runs[case.label]
        deals, tu = run["deals"][:k], run["turnups"][:k]
        model = pimc_model(args)
        t0 = time.perf_counter()
        (made,) = model.ask(deals, [case.question], turnups=tu)
        seconds = time.perf_counter() - t0
        prof = profile_case(args, case, deals, tu)
        profiles[case.label] = prof
        same = prof.positions == model.positions and list(made.astype(bool)) == prof.made
        print(
            f"{case.label:<22}{prof.decisions / k:>11.1f}{prof.worlds / k:>12.1f}"
            f"{seconds:>8.2f}{rate(prof.worlds, seconds):>10.0f}"
            f"{rate(prof.positions, max(prof.worlds, 1)):>10.0f}{prof.total_s:>8.2f}"
            f"{rate(prof.worlds, prof.total_s):>9.0f}{'yes' if same else 'NO':>6}",
            flush=True,
        )
    print(
        "decis/play, worlds/play: decisions with a choice and worlds valued per playout; "
        "worlds/s: compiled, all threads; ref: the Python reference on 1 thread; same: "
        "reference and compiled agree on every answer and on the positions"
    )
    return profiles


def section_time(
    args: argparse.Namespace,
    todo: list[Case],
    runs: dict[str, dict[str, Any]],
    profiles: dict[str, Profile],
) -> None:
    print()
    print(
        f"3. where the time goes (the reference playouts of section 2): share of the positions "
        f"by trick, % (cap {args.world_positions or 'none'} positions a world)"
    )
    header = f"{'case':<22}" + "".join(f"{'t' + str(t):>5}" for t in range(1, 14))
    print(header)
    print("-" * len(header))
    for case in todo:
        prof = profiles[case.label]
        share = 100 * prof.trick_positions[1:] / max(int(prof.trick_positions.sum()), 1)
        print(f"{case.label:<22}" + "".join(f"{s:>5.1f}" for s in share))
    print()
    print("positions of one world at one decision, and the worlds that hit the cap")
    header = (
        f"{'case':<22}{'worlds':>8}{'median':>8}{'p90':>9}{'p99':>10}{'most':>10}"
        f"{'capped':>8}{'% pos':>7}{'search%':>8}{'worlds%':>8}{'python%':>8}{'Mpos/s':>7}"
    )
    print(header)
    print("-" * len(header))
    for case in todo:
        prof = profiles[case.label]
        if not prof.per_world:
            print(f"{case.label:<22}{0:>8}  (no decision with a choice)")
            continue
        work = np.concatenate(prof.per_world)
        capped = np.concatenate(prof.capped)
        p50, p90, p99 = np.percentile(work, [50, 90, 99])
        cap_share = 100 * work[capped].sum() / max(int(work.sum()), 1)
        total = max(prof.total_s, 1e-9)
        other = total - prof.search_s - prof.sample_s
        print(
            f"{case.label:<22}{work.size:>8}{p50:>8.0f}{p90:>9.0f}{p99:>10.0f}{work.max():>10}"
            f"{int(capped.sum()):>8}{cap_share:>7.1f}{100 * prof.search_s / total:>8.1f}"
            f"{100 * prof.sample_s / total:>8.1f}{100 * other / total:>8.1f}"
            f"{rate(int(work.sum()), prof.search_s) / 1e6:>7.2f}"
        )
    print(
        "capped: worlds that hit the cap (each counts half); % pos: their share of the "
        "positions; search/worlds/python: the reference's time in card_values_seq, in "
        "sample_worlds and elsewhere; Mpos/s: in the search, 1 thread"
    )
    print()
    cuts = (1, 2, 3, 4, 6)
    print(
        "pimc_tricks=T (not implemented), estimated: PIMC playouts/s if only tricks 1..T were "
        "played by PIMC (their share of the positions) and a whole DD solve paid after"
    )
    header = f"{'case':<22}{'now':>8}" + "".join(f"{'T=' + str(t):>14}" for t in cuts)
    print(header)
    print("-" * len(header))
    for case in todo:
        prof = profiles[case.label]
        run = runs[case.label]
        per_deal = run["seconds"] / len(run["deals"])
        dd_deal = run["dd_seconds"] / len(run["deals"])
        cum = np.cumsum(prof.trick_positions[1:]) / max(int(prof.trick_positions.sum()), 1)
        cells = []
        for t in cuts:
            est = 1 / (per_deal * cum[t - 1] + dd_deal)
            cells.append(f"{est:>7.2f} ({100 * cum[t - 1]:>3.0f}%)")
        print(f"{case.label:<22}{1 / per_deal:>8.2f}" + "".join(f"{c:>14}" for c in cells))
    print("each cell: playouts/s (share of today's PIMC positions still spent)")


# ---------------------------------------------------------------------------- 4. advice
_CHILD = r"""
import json, sys, time
(root, hand, seat, turnup, contracts, tolerance, samples, max_samples, seed, worlds, wpos,
 threads) = json.loads(sys.argv[1])
sys.path.insert(0, root)  # the package the benchmark imported
if threads:
    import numba
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
from solo_analysis.advice import advise
from solo_analysis.play.pimc import Pimc

def emit(**kw):
    print(json.dumps(kw), flush=True)

options = {"worlds": worlds, "world_positions": wpos}
t0 = time.perf_counter()
for model, extra in (("pimc", {"play_options": {"worlds": 2}}), ("double-dummy", {})):
    advise(hand, seat=seat, turnup=turnup, contracts=["misere", "solo"], samples=2, seed=99,
           play_model=model, **extra)
emit(warmup=time.perf_counter() - t0)

ask = Pimc.ask

def timed_ask(self, deals, questions, *, turnups=None):
    # a profiling hook: the questions one by one, as Pimc.ask asks them, each timed
    out = []
    for q in questions:
        p0 = self.positions
        t = time.perf_counter()
        out += ask(self, deals, [q], turnups=turnups)
        n = len(deals) if q.subset is None else int(q.subset.size)
        emit(q=[q.trump, list(q.declarers), q.misere, q.target, q.exposed], n=n,
             s=time.perf_counter() - t, pos=self.positions - p0)
    return out

Pimc.ask = timed_ask
kw = dict(seat=seat, turnup=turnup, contracts=contracts, seed=seed, max_positions=None)
if samples:
    kw["samples"] = samples
else:
    kw["tolerance"] = tolerance
    if max_samples:
        kw["max_samples"] = max_samples
for model, extra in (("double-dummy", {}), ("pimc", {"play_options": options})):
    t = time.perf_counter()
    a = advise(hand, play_model=model, **extra, **kw)
    s = time.perf_counter() - t
    fixed = a.table[a.table["choice"] == "fixed"]
    rows = [[r.contract, str(r.trump), float(r.p_make), float(r.ci_low), float(r.ci_high)]
            for r in fixed.itertuples()]
    emit(model=model, s=s, samples=a.samples, converged=a.converged, stopped=a.stopped,
         positions=a.positions, unresolved=a.unresolved, rows=rows, summary=a.summary())
"""


def run_advice(args: argparse.Namespace, hand: str, seat: str, turnup: str, contracts, samples):
    """One advice subprocess; its JSON lines, and what ended it."""
    import solo_analysis

    root = str(Path(solo_analysis.__file__).resolve().parents[1])
    payload = [
        root,
        hand,
        seat,
        turnup,
        contracts,
        args.tolerance,
        samples,
        args.max_samples,
        args.seed,
        args.worlds,
        args.world_positions or None,
        args.threads,
    ]
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, json.dumps(payload)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    status = "ok"
    try:
        out, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        status = f"timeout ({args.timeout:g} s)"
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    else:
        if proc.returncode != 0:
            status = "error: " + ((err.strip().splitlines() or ["?"])[-1])
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return lines, status


def contract_of(q: list[Any], turnup_suit: int) -> str:
    """The contract a question asks, from (trump, declarers, misère, target, exposed)."""
    trump, declarers, misere, target, exposed = q
    if misere:
        return "spread-misere" if exposed else "misere"
    if len(declarers) == 2:
        return "prop"
    if target == 13:
        return "declared"
    if target == 9:
        return "royal-abundance" if trump == turnup_suit else "abundance"
    return "solo"


def print_advice(
    label: str, lines: list[dict[str, Any]], status: str, turnup: str, full: bool = False
) -> None:
    """The rows of one advice run: each model's deals, interval, wall time; PIMC by contract."""
    results = {line["model"]: line for line in lines if "model" in line}
    asked = [line for line in lines if "q" in line]
    warm = next((line["warmup"] for line in lines if "warmup" in line), None)
    for model in ("double-dummy", "pimc"):
        r = results.get(model)
        if r is None:
            done = sum(q["n"] for q in asked)
            spent = sum(q["s"] for q in asked)
            what = status if status != "ok" else "no result"
            extra = f"; {len(asked)} questions answered ({done} deal-questions, {spent:.0f} s)"
            print(f"{label:<24}{model:<13}{what}{extra if model == 'pimc' else ''}")
            continue
        widest = max((hi - lo) / 2 for _, _, _, lo, hi in r["rows"])
        p_make = "-" if full else f"{100 * r['rows'][0][2]:.1f}"
        mpos = "-" if r["positions"] is None else f"{r['positions'] / 1e6:.0f}"
        print(
            f"{label:<24}{model:<13}{r['samples']:>6}{r['unresolved']:>6}{p_make:>7}"
            f"{100 * widest:>7.1f}  {r['stopped']:<10}{mpos:>7}{r['s']:>9.2f}",
            flush=True,
        )
        if full:
            print(f"{'':<24}{model}: {r['summary']}")
    if "pimc" in results and "double-dummy" in results:
        ratio = results["pimc"]["s"] / max(results["double-dummy"]["s"], 1e-9)
        print(f"{'':<24}PIMC / DD wall time: {ratio:.0f}x (warm-up {warm or 0:.1f} s, not counted)")
    if asked:
        suit = card_code(turnup) // 13
        by: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0])
        for q in asked:
            row = by[contract_of(q["q"], suit)]
            row[0] += q["s"]
            row[1] += q["n"]
            row[2] += q["pos"]
        total = sum(v[0] for v in by.values())
        parts = [
            f"{name} {v[0]:.0f} s ({100 * v[0] / max(total, 1e-9):.0f}%, "
            f"{rate(v[1], v[0]):.2f} plays/s)"
            for name, v in sorted(by.items(), key=lambda kv: -kv[1][0])
        ]
        wall = results["pimc"]["s"] if "pimc" in results else float("nan")
        print(
            f"{'':<24}in Pimc.ask {total:.1f} s of {wall:.1f} s; by contract: " + "; ".join(parts)
        )
        batches = [f"{q['n']}:{q['s']:.0f}s" for q in asked]
        if len(by) == 1:
            print(f"{'':<24}PIMC batches (deals:seconds): " + " ".join(batches))


def section_advice(args: argparse.Namespace) -> None:
    print()
    goal = "max_samples " + (str(args.max_samples) if args.max_samples else "library default")
    print(
        f"4. advice wall time, warm, a subprocess each (timeout {args.timeout:g} s): "
        f"Misère only, tolerance {args.tolerance:g} (adaptive, max_positions=None, {goal}), "
        f"seed {args.seed}, PIMC worlds {args.worlds}; target {TARGET_SECONDS:g} s warm"
    )
    header = (
        f"{'hand':<24}{'model':<13}{'deals':>6}{'unres':>6}{'p_make':>7}{'+-pts':>7}  "
        f"{'stopped':<10}{'Mpos':>7}{'wall s':>9}"
    )
    print(header)
    print("-" * len(header))
    for hand in MISERE_HANDS:
        lines, status = run_advice(args, hand, "third", "KH", ["misere"], None)
        print_advice(f"{hand} 3rd KH", lines, status, "KH")
        pimc = next((line for line in lines if line.get("model") == "pimc"), None)
        if pimc is not None:
            met = pimc["converged"] and pimc["s"] <= TARGET_SECONDS
            print(
                f"{'':<24}target {TARGET_SECONDS:g} s to +-{100 * args.tolerance:g} points: "
                f"{'met' if met else 'not met'} ({pimc['s']:.0f} s, "
                f"{'converged' if pimc['converged'] else 'not converged'})"
            )
    if args.no_full:
        return
    hand, seat, turnup = ORDINARY
    print()
    print(f"full advice (every contract), samples={args.full_samples}, seed {args.seed}")
    print(header.replace("+-pts", "widest"))
    print("-" * len(header))
    lines, status = run_advice(args, hand, seat, turnup, None, args.full_samples)
    print_advice(f"{hand} 2nd 7S", lines, status, turnup, full=True)


# ---------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import numba

    if args.threads:
        numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    started = time.perf_counter()
    print(
        f"bench_pimc: {time.strftime('%Y-%m-%d %H:%M:%S')}; worlds {args.worlds}, deals "
        f"{args.deals}, profile deals {args.profile_deals}, seed {args.seed}, "
        f"{numba.get_num_threads()} numba threads, world_positions "
        f"{args.world_positions or 'none'}"
    )
    print(f"start: {load()}")
    print(f"warm-up (load or compile the kernels): {warm_up(args):.2f} s")
    todo = cases()
    runs = section_playouts(args, todo)
    section_levers(args, todo, runs)
    profiles = section_worlds(args, todo, runs)
    section_time(args, todo, runs, profiles)
    print(f"\nafter sections 1-3: {load()}")
    if not args.no_advice:
        section_advice(args)
    print(f"\nend: {load()}; total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SoloAnalysisError as exc:
        sys.exit(f"bench_pimc.py: error: {exc}")
