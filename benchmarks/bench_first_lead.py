"""The share of the search-size gap to DDS that lies in the choice of the first lead.

On ``bench_solver``'s seeded random deals and one question ("can N+S take ``target`` tricks,
East leading?"), counts the trick-boundary positions of DDS's search and of ours (as
``bench_solver`` does), and those of ours had it tried the cheapest successful first lead
first: where East's side can defeat the contract, the fewest positions a search started
after one of its successful leads takes (each lead searched alone, with an empty table), plus
the root; where it cannot, every lead must be refuted and the whole search stands.  The
difference is what a perfect ordering of the root's leads alone would save; the positions
below the first lead are the search's as it is.  Then, over the roots where East's side
succeeds: on how many the first lead our search tries (its move ordering's) succeeds, and
the share of those roots' positions they hold; and where the cheapest successful lead
stands in our order.

Usage::

    python benchmarks/bench_first_lead.py --seed 1 --target 8 --trump NT
    python benchmarks/bench_first_lead.py --seed 2 --target 8 --trump H --deals 100
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from bench_solver import DDS, random_deals, to_pbn

from solo_analysis.cards import SEATS, card_str, parse_trump
from solo_analysis.deal import Deal
from solo_analysis.solver import search_positions
from solo_analysis.solver._kernels import new_history, roles
from solo_analysis.solver._moves import gen_moves

LEADER = "E"
DECLARERS = (0, 2)  # N+S


def first_leads(pbn: str, trump: int) -> list[str]:
    """East's leads in the order our search tries them at the root (one card a run)."""
    masks = np.array([hand.mask for hand in Deal.from_pbn(pbn)], dtype=np.int64)
    maxer, _, wants = roles(sum(1 << s for s in DECLARERS), False)
    moves = np.zeros((56, 16), dtype=np.int64)
    scores = np.zeros((56, 16), dtype=np.int64)
    n = gen_moves(
        masks,
        SEATS.index(LEADER),
        0,
        -1,
        0,
        0,
        0,
        trump,
        maxer,
        wants,
        moves,
        scores,
        0,
        new_history(),
    )
    return [card_str(int(c)) for c in moves[0, :n]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--target", type=int, default=8, help="N+S's tricks (1-13)")
    ap.add_argument("--trump", default="NT", help="S, H, D, C or NT")
    ap.add_argument("--top", type=int, default=10, help="deals listed, largest saving first")
    args = ap.parse_args(argv)
    trump = parse_trump(args.trump)
    dds = DDS()
    totals = {"dds": 0, "ours": 0, "best": 0}
    wins = 0
    first_ok = 0  # roots where East's side succeeds and the first lead tried does
    first_ok_positions = 0
    win_positions = 0
    rank = [0] * 5  # where the cheapest successful lead stands in our order (4: fifth or later)
    rows = []
    for i, deal in enumerate(random_deals(args.deals, args.seed)):
        pbn = to_pbn(deal)
        dds.side_can_make(dds.prepare(deal), trump, 1, DECLARERS, args.target)
        makes, _, ours = search_positions(
            pbn, trump=args.trump, leader=LEADER, declarers="NS", target=args.target
        )
        best = ours
        if not makes:  # East's side succeeds: some lead does
            wins += 1
            costs = []  # (order, positions) of the successful leads
            for k, card in enumerate(first_leads(pbn, trump)):
                ok, _, n = search_positions(
                    pbn,
                    trump=args.trump,
                    leader=LEADER,
                    declarers="NS",
                    target=args.target,
                    trick=[card],
                )
                if not ok:
                    costs.append((n, k))
            cheapest, k = min(costs)
            best = cheapest + 1
            if costs[0][1] == 0:  # the first lead tried succeeds
                first_ok += 1
                first_ok_positions += ours
            win_positions += ours
            rank[min(k, 4)] += 1
            rows.append((ours - best, i, dds.nodes, ours, best))
        totals["dds"] += dds.nodes
        totals["ours"] += ours
        totals["best"] += best
    d = max(totals["dds"], 1)
    print(
        f"seed {args.seed}, {args.deals} deals, N+S {args.target} in {args.trump.upper()}, "
        f"East leads; East's side succeeds on {wins}"
    )
    print(
        f"trick-boundary positions: DDS {totals['dds']:,}; ours {totals['ours']:,} "
        f"({totals['ours'] / d:.3f}x); ours with the cheapest successful first lead first "
        f"{totals['best']:,} ({totals['best'] / d:.3f}x)"
    )
    if wins:
        print(
            f"where East's side succeeds: our first lead succeeds on {first_ok} of {wins} "
            f"roots, which hold {first_ok_positions / max(win_positions, 1):.0%} of their "
            f"positions; the cheapest successful lead is our 1st / 2nd / 3rd / 4th / later "
            f"on {' / '.join(str(r) for r in rank)}"
        )
    rows.sort(reverse=True)
    print(f"{'deal':>5} {'DDS':>9} {'ours':>9} {'best lead first':>16}")
    for _, i, dn, ours, best in rows[: args.top]:
        print(f"{i:>5} {dn:>9,} {ours:>9,} {best:>16,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
