"""The share of our search's positions that lies in the choice of the first lead.

For each question, counts the trick-boundary positions of our search (as ``bench_solver``
does), and those it would have taken had it tried the cheapest successful first lead first:
where the side on lead can succeed, the fewest positions a search started after one of its
successful leads takes (each lead searched alone, with an empty table), plus the root; where
it cannot, every lead must be refuted and the whole search stands.  The difference is what a
perfect ordering of the root's leads alone would save; the positions below the first lead
are the search's as it is.  Over the roots where the side on lead succeeds it also reports
on how many the first lead our search tries (its move ordering's) succeeds, the share of
those roots' positions they hold, and where the cheapest successful lead stands in our
order.

Two sets of questions:

* by default ``bench_solver``'s seeded random deals and "can N+S take ``--target`` tricks in
  ``--trump``, East leading?", beside DDS's positions for the same question;
* with ``--hand``, ``--seat`` and ``--turnup``, the advice's Prop and Cop question (the player
  and a partner take 8 tricks in the turn-up suit, eldest leading) with each partner, on
  ``--deals`` deals sampled for the hand (``--seed``).

``--dump FILE`` appends every question to ``FILE`` as a JSON line (the deal, the question,
our positions, whether the side on lead succeeds and, where it does, each lead in our order
with whether it succeeds and its positions searched alone): labelled data for fitting or
judging a first-lead order.

Usage::

    python benchmarks/bench_first_lead.py --seed 1 --target 8 --trump NT
    python benchmarks/bench_first_lead.py --hand AKJ94.K83.Q72.65 --seat second --turnup 7S
    python benchmarks/bench_first_lead.py --seed 2 --target 5 --trump H --dump leads.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import dataclass, field, fields
from typing import TextIO

import numpy as np
from bench_solver import DDS, random_deals, to_pbn

from solo_analysis.cards import card_suit, parse_card, parse_seat, parse_trump
from solo_analysis.sampler import DealSampler
from solo_analysis.solver import move_order, search_positions

PROP_AND_COP = 8  # the advice's Prop and Cop target


@dataclass
class Tally:
    """Positions and first-lead figures summed over the roots of one set of questions."""

    roots: int = 0
    ours: int = 0
    best: int = 0
    wins: int = 0  # roots where the side on lead succeeds
    win_positions: int = 0
    first_ok: int = 0  # ... and the first lead our search tries succeeds
    first_ok_positions: int = 0
    rank: list[int] = field(default_factory=lambda: [0] * 5)  # 4: fifth or later

    def add(
        self,
        pbn: str,
        trump: int,
        leader: int,
        declarers: tuple[int, ...],
        target: int,
        dump: TextIO | None = None,
    ) -> tuple[int, int]:
        """Count one question; returns (ours, with the cheapest successful lead first).

        With ``dump``, writes the question as one JSON line: the deal, the question, our
        positions, whether the side on lead succeeds, and (where it does) each lead in our
        order with whether it succeeds and the positions of its search alone.
        """
        kw = {"trump": trump, "leader": leader, "declarers": declarers, "target": target}
        makes, _, ours = search_positions(pbn, **kw)
        lead_side = leader in declarers
        best = ours
        leads = []  # (card, succeeds, positions) in our order
        if makes == lead_side:  # the side on lead succeeds: some lead does
            costs = []  # (positions, place in our order) of the successful leads
            for k, card in enumerate(
                move_order(pbn, trump=trump, leader=leader, declarers=declarers)
            ):
                ok, _, n = search_positions(pbn, trick=[card], **kw)
                leads.append((card, ok == lead_side, n))
                if ok == lead_side:
                    costs.append((n, k))
            cheapest, k = min(costs)
            best = cheapest + 1
            self.wins += 1
            self.win_positions += ours
            if costs[0][1] == 0:
                self.first_ok += 1
                self.first_ok_positions += ours
            self.rank[min(k, 4)] += 1
        self.roots += 1
        self.ours += ours
        self.best += best
        if dump is not None:
            record = {
                "pbn": pbn,
                "trump": trump,
                "leader": leader,
                "declarers": list(declarers),
                "target": target,
                "positions": ours,
                "lead_side_succeeds": makes == lead_side,
                "leads": [{"card": c, "succeeds": ok, "positions": n} for c, ok, n in leads],
            }
            dump.write(json.dumps(record) + "\n")
        return ours, best

    def merge(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, list):
                setattr(self, f.name, [a + b for a, b in zip(mine, theirs, strict=True)])
            else:
                setattr(self, f.name, mine + theirs)

    def summary(self) -> str:
        """Two lines: the positions, and the first lead where the side on lead succeeds."""
        text = (
            f"ours {self.ours:,}; with the cheapest successful first lead first "
            f"{self.best:,} ({1 - self.best / max(self.ours, 1):.0%} fewer); the side on "
            f"lead succeeds on {self.wins} of {self.roots}"
        )
        if self.wins:
            text += (
                f"\n  there, our first lead succeeds on {self.first_ok} roots, which hold "
                f"{self.first_ok_positions / max(self.win_positions, 1):.0%} of their "
                f"positions; the cheapest successful lead is our 1st / 2nd / 3rd / 4th / "
                f"later on {' / '.join(str(r) for r in self.rank)}"
            )
        return text


def bridge(args: argparse.Namespace, dump: TextIO | None) -> None:
    """``bench_solver``'s deals, N+S ``--target`` in ``--trump``, East leading, beside DDS."""
    trump = parse_trump(args.trump)
    dds = DDS()
    tally = Tally()
    dds_total = 0
    rows = []
    for i, deal in enumerate(random_deals(args.deals, args.seed)):
        dds.side_can_make(dds.prepare(deal), trump, 1, (0, 2), args.target)
        dds_total += dds.nodes
        ours, best = tally.add(to_pbn(deal), trump, 1, (0, 2), args.target, dump)
        rows.append((ours - best, i, dds.nodes, ours, best))
    d = max(dds_total, 1)
    print(
        f"seed {args.seed}, {args.deals} deals, N+S {args.target} in {args.trump.upper()}, "
        f"East leads; trick-boundary positions: DDS {dds_total:,}, ours {tally.ours / d:.3f}x, "
        f"with the cheapest successful first lead first {tally.best / d:.3f}x"
    )
    print(tally.summary())
    rows.sort(reverse=True)
    print(f"{'deal':>5} {'DDS':>9} {'ours':>9} {'best lead first':>16}")
    for _, i, dn, ours, best in rows[: args.top]:
        print(f"{i:>5} {dn:>9,} {ours:>9,} {best:>16,}")


def advice(args: argparse.Namespace, dump: TextIO | None) -> None:
    """The advice's Prop and Cop question with each partner, on the hand's sampled deals."""
    seat = parse_seat(args.seat)
    trump = card_suit(parse_card(args.turnup))
    deals = np.asarray(
        DealSampler(args.hand, seat=seat, turnup=args.turnup, seed=args.seed).draw(args.deals)
    )
    pbns = [to_pbn(d) for d in deals]
    everything = Tally()
    for partner in range(4):
        if partner == seat:
            continue
        side = (min(seat, partner), max(seat, partner))
        tally = Tally()
        for pbn in pbns:
            tally.add(pbn, trump, 0, side, PROP_AND_COP, dump)
        everything.merge(tally)
        print(f"{args.hand} ({args.seat}, turn-up {args.turnup}), partner seat {partner}:")
        print("  " + tally.summary())
    print(f"all three partners, {args.deals} deals (seed {args.seed}):")
    print("  " + everything.summary())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--target", type=int, default=8, help="N+S's tricks (1-13)")
    ap.add_argument("--trump", default="NT", help="S, H, D, C or NT")
    ap.add_argument("--top", type=int, default=10, help="deals listed, largest saving first")
    ap.add_argument("--hand", help="the advice's hand: its Prop and Cop questions instead")
    ap.add_argument("--seat", default="second", help="the hand's seat (with --hand)")
    ap.add_argument("--turnup", default="7S", help="the turn-up card (with --hand)")
    ap.add_argument(
        "--dump",
        metavar="FILE",
        help="also append every question, and each lead's result and positions, to FILE "
        "(JSON lines): labelled data for a study of the first lead",
    )
    args = ap.parse_args(argv)
    with contextlib.ExitStack() as stack:
        dump = stack.enter_context(open(args.dump, "a")) if args.dump else None
        if args.hand:
            advice(args, dump)
        else:
            bridge(args, dump)
    return 0


if __name__ == "__main__":
    sys.exit(main())
