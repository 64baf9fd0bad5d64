r"""Time the solver of the working tree against that of a git revision, in one process.

Two versions timed in two processes, even side by side on two cores, differ by the machine's
moods as much as by their code (twelve such pairs of two versions this tool puts within 2 % of
each other measured 0.76-1.17 on a shared 2-core machine).  This tool imports the revision's
package as a second package beside the working tree's (``solo_analysis_base``: a copy of the
revision's ``solo_analysis`` folder, its own imports renamed, kept under ``--cache`` with its
compiled kernels for the next run) and asks both the same questions interleaved: each question
of one version and then of the other, the order alternating from question to question and round
to round, so that a slow spell of the machine falls on both alike.  A question's time is the
thread's CPU time of its best round.  It prints each version's total, their ratio with a 95 %
bootstrap interval over the questions, each round's ratio, and (``--positions``) both searches'
positions; a question the two versions answer differently is an error.

Each version keeps its own transposition table, so a question starts with the other version's
table in the processor's cache: the absolute times are those of a cold cache, the ratio is
what is measured.

Usage::

    python tools/ab_time.py --base HEAD                       # working tree against HEAD
    python tools/ab_time.py --base HEAD~2 --trump H --seed 2 --rounds 5 --positions
    python tools/ab_time.py --trump H --declarers S --leader N --targets 5,9   # Solo, Abundance
    python tools/ab_time.py --hand AKJ94.K83.Q72.65 --seat second --turnup 7S --deals 300 \
        --trump S --declarers E --leader N --targets 5 --skip-over 5000000  # an advice's Solo
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "solo_analysis"
BASE_PACKAGE = "solo_analysis_base"
TRUMPS = ("S", "H", "D", "C", "NT")
_NAME = re.compile(rf"\b{PACKAGE}\b")


def rename_package(text: str, new: str = BASE_PACKAGE) -> str:
    """``text`` with every whole-word ``solo_analysis`` renamed ``new``."""
    return _NAME.sub(new, text)


def resolve(rev: str, repo: Path = REPO) -> str:
    """The full commit hash of ``rev``; ``SystemExit`` naming it if it is no commit."""
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"error: {rev!r} is not a commit of {repo}")
    return done.stdout.strip()


def copy_revision(commit: str, dest: Path, repo: Path = REPO) -> Path:
    """Write the package of ``commit`` to ``dest/<commit>/solo_analysis_base``; return its parent.

    An existing copy is reused (its compiled kernels with it).  A copy is written in a
    temporary folder and renamed into place whole, so an interrupted one is never reused.
    """
    parent = dest / commit
    if (parent / BASE_PACKAGE / "__init__.py").exists():
        return parent
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", "--format=tar", commit, PACKAGE],
        capture_output=True,
        check=True,
    ).stdout
    dest.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=dest))
    try:
        root = scratch / BASE_PACKAGE
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            for member in tar.getmembers():
                if not member.isfile():
                    continue
                target = root / Path(member.name).relative_to(PACKAGE)
                target.parent.mkdir(parents=True, exist_ok=True)
                extracted = tar.extractfile(member)
                assert extracted is not None
                data = extracted.read()
                if target.suffix == ".py":
                    data = rename_package(data.decode()).encode()
                target.write_bytes(data)
        shutil.rmtree(parent, ignore_errors=True)  # an incomplete copy of an older version
        os.replace(scratch, parent)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return parent


def load_versions(commit: str, cache: Path) -> tuple[ModuleType, ModuleType]:
    """The solver of the working tree and that of ``commit`` (as ``solo_analysis_base``).

    Importing the working tree's package clears its stale kernel caches
    (``solo_analysis/_kernel_cache.py``).
    """
    parent = copy_revision(commit, cache)
    sys.path.insert(0, str(parent))
    sys.path.insert(0, str(REPO))
    new = importlib.import_module(f"{PACKAGE}.solver")
    base = importlib.import_module(f"{BASE_PACKAGE}.solver")
    if not str(new.__file__).startswith(str(REPO)):
        raise SystemExit(f"error: {PACKAGE} was imported from {new.__file__}, not {REPO}")
    return new, base


def side_error(trump: str, leader: str, declarers: str) -> str | None:
    """What is wrong with the question's seats, as the package says it (None if nothing)."""
    sys.path.insert(0, str(REPO))
    from solo_analysis.solver.question import question_of

    try:
        question_of(trump, leader, declarers)
    except ValueError as exc:
        return str(exc)
    return None


def questions(seed: int, deals: int, targets: Sequence[int]) -> list[tuple[str, int]]:
    """``bench_solver``'s random deals of ``seed`` as PBN, each with each target."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_solver import random_deals, to_pbn

    pbns = [to_pbn(d) for d in random_deals(deals, seed)]
    return [(p, t) for t in targets for p in pbns]


def advice_questions(
    hand: str, seat: str, turnup: str, seed: int, deals: int, targets: Sequence[int]
) -> list[tuple[str, int]]:
    """The advice's deals for a hand (the sampler's first ``deals`` of ``seed``), as PBN.

    The seats are those of play: eldest is North, second East, third South, dealer West.
    Each deal goes with each target.
    """
    sys.path.insert(0, str(REPO))
    from solo_analysis.deal import Deal
    from solo_analysis.sampler import sample_deals

    arrays = sample_deals(hand, seat=seat, turnup=turnup, n=deals, seed=seed)
    pbns = [Deal.from_array(d).to_pbn() for d in arrays]
    return [(p, t) for t in targets for p in pbns]


def interleaved(
    calls: Sequence[Callable[[str, int], Any]], qs: Sequence[tuple[str, int]], rounds: int
) -> np.ndarray:
    """Thread CPU seconds of each call on each question, ``[version, round, question]``.

    Each question goes to both versions in turn, the one asked first alternating with the
    question and the round; answers that differ raise ``SystemExit``.
    """
    times = np.zeros((2, rounds, len(qs)))
    clock = time.thread_time_ns
    for r in range(rounds):
        for i, (pbn, target) in enumerate(qs):
            first = (i + r) % 2
            answers = [None, None]
            for v in (first, 1 - first):
                t0 = clock()
                answers[v] = calls[v](pbn, target)
                times[v, r, i] = (clock() - t0) * 1e-9
            if answers[0] != answers[1]:
                raise SystemExit(f"error: the versions answer {pbn} target {target} differently")
    return times


def ratio_interval(
    new: np.ndarray, base: np.ndarray, resamples: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """``sum(new) / sum(base)`` and its 95 % bootstrap interval, resampling the questions."""
    rng = np.random.default_rng(seed)
    n = len(new)
    idx = rng.integers(0, n, size=(resamples, n))
    ratios = new[idx].sum(axis=1) / base[idx].sum(axis=1)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(new.sum() / base.sum()), float(low), float(high)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="HEAD", help="git revision to compare with (default HEAD)")
    ap.add_argument("--seed", type=int, default=1, help="bench_solver's deal seed (default 1)")
    ap.add_argument("--deals", type=int, default=200, help="deals (default 200)")
    ap.add_argument("--trump", default="NT", choices=TRUMPS, help="trump suit (default NT)")
    ap.add_argument("--targets", default="8,5,9", help="the side's targets (default 8,5,9)")
    ap.add_argument(
        "--declarers",
        default="NS",
        help="the seats of the side asked about (default NS; one seat, e.g. S, for a lone "
        "declarer's Solo or Abundance)",
    )
    ap.add_argument("--leader", default="E", help="the seat that leads (default E)")
    ap.add_argument(
        "--hand",
        help="time the advice's deals of this hand (e.g. AKJ94.K83.Q72.65) instead of random "
        "ones; with --seat and --turnup, the seats those of play (eldest N, second E, third S, "
        "dealer W)",
    )
    ap.add_argument("--seat", default="second", help="with --hand: the hand's seat")
    ap.add_argument("--turnup", help="with --hand: the turn-up card, e.g. 7S")
    ap.add_argument(
        "--skip-over",
        type=int,
        default=0,
        metavar="N",
        help="leave out the questions whose search (the base version's) passes N positions",
    )
    ap.add_argument("--rounds", type=int, default=3, help="rounds over the questions (default 3)")
    ap.add_argument("--positions", action="store_true", help="also count both searches' positions")
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path.home() / ".cache" / "solo-analysis" / "ab_time",
        help="where the revisions' packages are kept with their compiled kernels "
        "(default ~/.cache/solo-analysis/ab_time)",
    )
    args = ap.parse_args(argv)
    try:
        targets = [int(t) for t in args.targets.split(",")]
    except ValueError:
        ap.error(f"--targets must be integers separated by commas, not {args.targets!r}")
    if args.deals < 1 or args.rounds < 1 or not all(1 <= t <= 13 for t in targets):
        ap.error("--deals and --rounds must be at least 1 and each target within 1..13")
    problem = side_error(args.trump, args.leader, args.declarers)
    if problem:
        ap.error(problem)
    # the questions first: a bad hand or turn-up is reported before the base is loaded
    if args.hand:
        try:
            qs = advice_questions(args.hand, args.seat, args.turnup, args.seed, args.deals, targets)
        except ValueError as exc:  # the package's one-line errors (hand, seat, turn-up)
            ap.error(str(exc))
    else:
        qs = questions(args.seed, args.deals, targets)
    commit = resolve(args.base)
    new, base = load_versions(commit, args.cache)
    kw = {"trump": args.trump, "leader": args.leader, "declarers": args.declarers}
    calls = [
        lambda p, t: new.solve(p, target=t, **kw),
        lambda p, t: base.solve(p, target=t, **kw),
    ]
    base_sizes: list[int] | None = None
    if args.skip_over:
        # the base version's search size decides, so both versions time the same questions
        sizes = [base.search_positions(p, target=t, **kw)[1] for p, t in qs]
        kept = [(q, n) for q, n in zip(qs, sizes, strict=True) if n <= args.skip_over]
        print(f"left out {len(qs) - len(kept)} of {len(qs)} questions over {args.skip_over:,}")
        qs = [q for q, _ in kept]
        base_sizes = [n for _, n in kept]
        if not qs:
            raise SystemExit("error: --skip-over leaves no question to time")
    for call in calls:  # compile or load the kernels before the clock starts
        call(*qs[0])
    deals_of = f"the advice deals of {args.hand}, " if args.hand else ""
    print(
        f"working tree against {args.base} ({commit[:10]}): {len(qs)} questions "
        f"({deals_of}seed {args.seed}, {args.trump}, "
        f"{'+'.join(args.declarers.upper())} {args.targets}, "
        f"{args.leader.upper()} leads), {args.rounds} rounds"
    )
    times = interleaved(calls, qs, args.rounds)
    best = times.min(axis=1)
    ratio, low, high = ratio_interval(best[0], best[1])
    print(f"  working tree {best[0].sum():.3f} s, {args.base} {best[1].sum():.3f} s (best round)")
    print(f"  ratio {ratio:.3f} (95 % interval {low:.3f}-{high:.3f})")
    rounds = times.sum(axis=2)
    by_round = " ".join(f"{a / b:.3f}" for a, b in zip(rounds[0], rounds[1], strict=True))
    print(f"  by round: {by_round}")
    if args.positions:
        counts = [0, 0]
        for pbn, t in qs:
            counts[0] += new.search_positions(pbn, target=t, **kw)[1]
        if base_sizes is None:  # not counted yet
            base_sizes = [base.search_positions(p, target=t, **kw)[1] for p, t in qs]
        counts[1] = sum(base_sizes)
        print(f"  positions {counts[0]:,} against {counts[1]:,} ({counts[0] / counts[1] - 1:+.1%})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(141)
