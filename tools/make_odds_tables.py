"""Regenerate every bidding-odds table in ``data/`` from one seed (issue 6).

For each rule set (default: ``classic`` and ``parlett``; ``french`` plays the same contracts
with the same trumps and leaders as ``parlett``, so its tables would be identical), runs
:func:`solo_analysis.tables.run_tables` into ``data/<rules>/``: ``contract_frequency.csv``,
``features_*.csv``, ``deals.parquet`` and ``metadata.json``.  The work directory
``data/<rules>/chunks/`` (not committed) makes the run resumable: run the same command again
after an interrupt, a kill or a ``--hours`` budget, in this session or a later one, and it
carries on from the last finished chunk.  The same seed gives the same tables whatever the
thread count, the chunk size... except that a resume must keep the chunk size.

Usage::

    python tools/make_odds_tables.py              # 100,000 deals per rule set, seed 2026
    python tools/make_odds_tables.py --hours 2    # stop cleanly after about 2 h; rerun to resume
    python tools/make_odds_tables.py --scheduler tcp://head:8786 --rules classic
    python tools/make_odds_tables.py --deals 200 --out /tmp/odds   # a small trial
    python tools/make_odds_tables.py --max-question-positions 0    # every answer exact (may stall)
    python tools/make_odds_tables.py --play pimc --deals 10000 --hours 8   # realistic play

``--play pimc`` plays the deals realistically (:mod:`solo_analysis.play.pimc`, ``--worlds``
a decision, the default prior) for Misère, Spread Misère and Solo only (``--contracts``
changes them), into ``data/<rules>-pimc/``, from the same seed and so the same deals as the
double-dummy tables.

Every other rule set reuses the answers of the ``classic`` run (``data/classic/``, as far as it
has gone) to the questions both ask (for ``parlett``: all but Abundance Declared at no trump), so
it costs a fraction of it; ``--reuse-from RULES`` names another run, ``--no-reuse`` solves
everything again.

Each question gets ``--max-question-positions`` search positions (default 5,000,000, about a
second); the rare answer that needs more is recorded as unsolved and widens the tables'
intervals.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from solo_analysis.errors import SoloAnalysisError
from solo_analysis.tables import run_tables

DEFAULT_DEALS = 100_000
DEFAULT_SEED = 2026
DEFAULT_RULES = ("classic", "parlett")
DEFAULT_CHUNK = 250
#: search positions per question and deal before an answer is recorded as unsolved (a few
#: Misère deals need more than ten minutes exactly; see data/README.md)
DEFAULT_MAX_QUESTION_POSITIONS = 5_000_000
#: the contracts of the realistic-play tables unless ``--contracts`` says otherwise
PIMC_CONTRACTS = "misere,spread-misere,solo"
DATA = Path(__file__).resolve().parent.parent / "data"


class _TimeUp(Exception):
    """Raised from the progress callback once the time budget is spent."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        help=f"deals per rule set (default {DEFAULT_DEALS})",
    )
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    ap.add_argument(
        "--rules",
        action="append",
        default=None,
        help=f"rule set (repeatable; default {', '.join(DEFAULT_RULES)})",
    )
    ap.add_argument(
        "--out", type=Path, default=DATA, help="root directory (default: the repository's data/)"
    )
    ap.add_argument(
        "--chunk-size",
        type=int,
        default=DEFAULT_CHUNK,
        help=f"deals per chunk (default {DEFAULT_CHUNK})",
    )
    ap.add_argument(
        "--scheduler",
        default=None,
        help="dask scheduler address, or 'local' (default: this process)",
    )
    ap.add_argument(
        "--threads", type=int, default=None, help="numba threads without --scheduler (default: all)"
    )
    ap.add_argument(
        "--hours", type=float, default=None, help="stop after about this long (rerun to resume)"
    )
    ap.add_argument(
        "--max-question-positions",
        type=int,
        default=DEFAULT_MAX_QUESTION_POSITIONS,
        help=f"solver positions per question before an answer is left unsolved "
        f"(default {DEFAULT_MAX_QUESTION_POSITIONS:,}; 0: every answer exact)",
    )
    ap.add_argument(
        "--reuse-from",
        default=DEFAULT_RULES[0],
        metavar="RULES",
        help=f"another rule set takes this one's answers (OUT/RULES) to the questions both ask "
        f"(default {DEFAULT_RULES[0]})",
    )
    ap.add_argument(
        "--no-reuse", action="store_true", help="solve every question of every rule set"
    )
    ap.add_argument(
        "--play",
        choices=("double-dummy", "pimc"),
        default="double-dummy",
        help="play model (default double-dummy; pimc writes into OUT/RULES-pimc)",
    )
    ap.add_argument(
        "--worlds", type=int, default=16, help="with --play pimc: worlds a decision (default 16)"
    )
    ap.add_argument(
        "--contracts",
        default=None,
        help=f"comma-separated contracts (default: all; with --play pimc {PIMC_CONTRACTS})",
    )
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    pimc = args.play == "pimc"
    contracts = args.contracts or (PIMC_CONTRACTS if pimc else None)

    command = " ".join(
        shlex.quote(a) for a in ["python", "tools/make_odds_tables.py", *(argv or sys.argv[1:])]
    )
    deadline = None if args.hours is None else time.monotonic() + 3600 * args.hours

    def progress(done: int, total: int, chunk: int, n_chunks: int, rate: float | None) -> None:
        if not args.quiet:
            speed = f", {rate:.3g} deals/s" if rate else ""
            print(
                f"  chunk {chunk + 1}/{n_chunks}: {done}/{total} deals{speed}",
                file=sys.stderr,
                flush=True,
            )
        if deadline is not None and time.monotonic() > deadline:
            raise _TimeUp

    for rules in args.rules or DEFAULT_RULES:
        out = args.out / (f"{rules}-pimc" if pimc else rules)
        first = args.out / (f"{args.reuse_from}-pimc" if pimc else args.reuse_from)
        reuse = (
            None
            if args.no_reuse or out == first or not (first / "manifest.json").exists()
            else first
        )
        print(
            f"{rules}: {args.deals} deals, seed {args.seed} -> {out}"
            + ("" if reuse is None else f", reusing the answers of {first}"),
            file=sys.stderr,
            flush=True,
        )
        try:
            run = run_tables(
                args.deals,
                args.seed,
                out,
                rules=rules,
                chunk_size=args.chunk_size,
                scheduler=args.scheduler,
                threads=args.threads,
                progress=progress,
                command=command,
                max_question_positions=args.max_question_positions or None,
                reuse=reuse,
                contracts=None if contracts is None else contracts.split(","),
                play_model=args.play,
                play_options={"worlds": args.worlds} if pimc else None,
            )
        except _TimeUp:
            print(
                "time budget spent: finished chunks are kept; run the same command to resume",
                file=sys.stderr,
            )
            return 3
        except SoloAnalysisError as exc:
            print(f"make_odds_tables: error: {exc}", file=sys.stderr)
            return 2
        speed = "" if run.throughput is None else f", {run.throughput:.3g} deals/s"
        print(
            f"{rules}: done ({len(run.computed)} chunks computed, "
            f"{len(run.skipped)} reused{speed})",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
