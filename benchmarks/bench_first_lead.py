"""The share of the search-size gap to DDS that lies in the choice of the first lead.

On ``bench_solver``'s seeded random deals and one question ("can N+S take ``target`` tricks,
East leading?"), counts the trick-boundary positions of DDS's search and of ours (as
``bench_solver`` does), and those of ours had it tried the cheapest successful first lead
first: where East's side can defeat the contract, the fewest positions a search started
after one of its successful leads takes (each lead searched alone, with an empty table), plus
the root; where it cannot, every lead must be refuted and the whole search stands.  The
difference is what a perfect ordering of the root's leads alone would save; the positions
below the first lead are the search's as it is.

Usage::

    python benchmarks/bench_first_lead.py --seed 1 --target 8 --trump NT
    python benchmarks/bench_first_lead.py --seed 2 --target 8 --trump H --deals 100
"""

from __future__ import annotations

import argparse
import sys

from bench_solver import DDS, random_deals, to_pbn

from solo_analysis.cards import SEATS, card_str, parse_trump
from solo_analysis.deal import Deal
from solo_analysis.solver import search_positions

LEADER = "E"
DECLARERS = (0, 2)  # N+S


def first_leads(pbn: str) -> list[str]:
    """East's leads, one card for each run of cards no other hand's card separates."""
    deal = Deal.from_pbn(pbn)
    leader = SEATS.index(LEADER)
    others = 0
    for seat, hand in enumerate(deal):
        if seat != leader:
            others |= hand.mask
    leads = []
    previous = -1
    for code in deal[leader].codes:  # spades first, high to low within a suit
        if previous >= 0 and previous // 13 == code // 13:
            between = others & (((1 << previous) - 1) ^ ((1 << (code + 1)) - 1))
            if between == 0:
                previous = code
                continue
        leads.append(card_str(code))
        previous = code
    return leads


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
            costs = []
            for card in first_leads(pbn):
                ok, _, n = search_positions(
                    pbn,
                    trump=args.trump,
                    leader=LEADER,
                    declarers="NS",
                    target=args.target,
                    trick=[card],
                )
                if not ok:
                    costs.append(n)
            best = min(costs) + 1
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
    rows.sort(reverse=True)
    print(f"{'deal':>5} {'DDS':>9} {'ours':>9} {'best lead first':>16}")
    for _, i, dn, ours, best in rows[: args.top]:
        print(f"{i:>5} {dn:>9,} {ours:>9,} {best:>16,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
