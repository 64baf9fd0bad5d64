"""Which deals hold our search's excess over DDS's?  Search sizes deal by deal.

On ``bench_solver``'s random deals of one seed, asks one of its questions (N+S need
``--target`` tricks, East leading) of both solvers and prints the totals of the
trick-boundary positions each search entered (ours from ``search_positions``, DDS's
``futureTricks.nodes``), then the ``--show`` deals where ours exceeds DDS's most, as PBN,
ready for ``tools/compare_dds.py``.  Answers that differ are an error.

Usage::

    python tools/size_gap.py --seed 2 --trump NT --target 8
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRUMPS = ("S", "H", "D", "C", "NT")


def size_gaps(seed: int, deals: int, trump: str, target: int) -> list[tuple[int, int, int, str]]:
    """``(index, ours, DDS's, pbn)`` for each deal, the searches' trick-boundary positions.

    Raises ``SystemExit`` if the two solvers answer a deal differently.
    """
    sys.path.insert(0, str(REPO / "benchmarks"))
    sys.path.insert(0, str(REPO))
    from bench_solver import DDS, DENOMS, random_deals, to_pbn

    from solo_analysis.solver.single import search_positions

    dds = DDS()
    rows = []
    for i, deal in enumerate(random_deals(deals, seed)):
        pbn = to_pbn(deal)
        theirs = dds.side_can_make(dds.prepare(deal), DENOMS[trump], 1, (0, 2), target)
        ok, _, ours = search_positions(pbn, trump=trump, leader="E", declarers="NS", target=target)
        if ok != theirs:
            raise SystemExit(f"error: the solvers answer deal {i} differently: {pbn}")
        rows.append((i, ours, dds.nodes, pbn))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="bench_solver's deal seed (default 1)")
    ap.add_argument("--deals", type=int, default=200, help="deals (default 200)")
    ap.add_argument("--trump", default="NT", choices=TRUMPS, help="trump suit (default NT)")
    ap.add_argument("--target", type=int, default=8, help="N+S's tricks (default 8)")
    ap.add_argument("--show", type=int, default=10, help="deals to list (default 10)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.show < 0 or not 1 <= args.target <= 13:
        ap.error("--deals must be at least 1, --show at least 0, --target within 1..13")
    rows = size_gaps(args.seed, args.deals, args.trump, args.target)
    ours = sum(r[1] for r in rows)
    theirs = sum(r[2] for r in rows)
    excess = sum(max(r[1] - r[2], 0) for r in rows)
    print(
        f"seed {args.seed}, {args.deals} deals, N+S {args.target} {args.trump}, E leads: "
        f"ours {ours:,} against DDS's {theirs:,} ({ours / max(theirs, 1):.2f}); "
        f"deals where ours is larger: {excess:,} more in all"
    )
    rows.sort(key=lambda r: r[2] - r[1])
    for i, o, d, pbn in rows[: args.show]:
        if o <= d:
            break
        print(f"  deal {i:>3}: ours {o:>9,} DDS {d:>9,} (+{o - d:,})  {pbn}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
