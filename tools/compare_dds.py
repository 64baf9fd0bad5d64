r"""Where is our search larger than DDS's?  Per-move search sizes after a sequence of plays.

From a deal and a prefix of cards played (whole tricks and a part of the current one), prints
for the position reached and for each legal card of the hand to play: the answer to "can the
declarer side take ``need`` more tricks?", the trick-boundary positions our search entered
(``solo_analysis.solver.search_positions``' count, the starting position left out: DDS's
``futureTricks.nodes`` counts the same), DDS's count for the same question, and where our
search's move order puts the card (``solo_analysis.solver.move_order``: "tried 2 of 5", or
"as SK" for a card equivalent to the king, which the search plays for it).  Each search
starts with an empty table, so a move's figure is the cost of that move alone; the
position's own figure is the cost of its whole search, whose move order decides how many
moves it pays for.  Going down the moves where ours is much larger finds the position where
the two searches part: the move orderings and bounds of the solver's kernels were tuned that
way.  DDS answers partnerships only (N+S or E+W); ``--no-dds`` skips it for other sides.

Counts are deterministic; DDS's count for a search started at a trick boundary includes its
root's extra work (DDS skips some bounds at the root), so compare the moves below a position.

Usage::

    python tools/compare_dds.py \\
        "N:Q85.T65.AQ.T863 K74.93.K543.KJ5 .AQ82.J987.Q972 T96.KJ74.T62.A4" \\
        --trump NT --leader N --declarers NS --need 8
    python tools/compare_dds.py PBN --trump NT --leader N --declarers NS --need 8 S8 S7
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from solo_analysis.cards import NT, RANKS, SEATS, parse_card, parse_declarers, parse_trump
from solo_analysis.deal import Deal
from solo_analysis.errors import SoloAnalysisError
from solo_analysis.solver import move_order, search_positions

TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": NT}


def _name(code: int) -> str:
    """Suit then rank (``"SA"``), as endplay reads a card."""
    return "SHDC"[code // 13] + RANKS[code % 13]


def trick_winner(cards: list[int], leader: int, trump: int) -> int:
    """The seat that wins a whole trick, ``cards`` played in turn from ``leader``."""
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        if (c // 13 == b // 13 and c > b) or (c // 13 == trump and b // 13 != trump):
            best = i
    return (leader + best) % 4


class Position:
    """The position after a prefix of plays.

    The hands (the current trick's cards taken out), the current trick's leader and the
    cards played to it, and the tricks the declarer side still needs.
    """

    def __init__(
        self, deal: Deal, trump: int, leader: int, declarers: tuple[int, ...], need: int
    ) -> None:
        self.hands = [set(h.codes) for h in deal]
        self.trump, self.leader, self.declarers, self.need = trump, leader, declarers, need
        self.trick: list[int] = []

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play; a fourth card completes the trick."""
        seat = self.to_play
        hand = self.hands[seat]
        if card not in hand:
            raise SystemExit(f"error: {_name(card)} is not in {SEATS[seat]}'s hand at that point")
        if self.trick and card // 13 != self.led and any(c // 13 == self.led for c in hand):
            raise SystemExit(f"error: {SEATS[seat]} must follow suit, not play {_name(card)}")
        hand.remove(card)
        self.trick.append(card)
        if len(self.trick) == 4:
            winner = trick_winner(self.trick, self.leader, self.trump)
            if winner in self.declarers:
                self.need -= 1
            self.leader, self.trick = winner, []

    @property
    def led(self) -> int:
        return self.trick[0] // 13

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def legal(self) -> list[int]:
        """The cards the seat to play may play, spades first, high to low."""
        hand = self.hands[self.to_play]
        follow = [c for c in hand if self.trick and c // 13 == self.led]
        return sorted(follow or hand, key=lambda c: (c // 13, -c))

    def deal(self) -> Deal:
        """The hands at the start of the current trick (its cards back in their hands)."""
        hands = [set(h) for h in self.hands]
        for i, c in enumerate(self.trick):
            hands[(self.leader + i) % 4].add(c)
        return Deal(hands)


class _DDS:
    def __init__(self) -> None:
        from endplay import _dds
        from endplay.types import Deal as EPDeal

        self._dds, self._Deal = _dds, EPDeal
        _dds.SetMaxThreads(1)
        self.fut = _dds.futureTricks()
        # a different deal between questions, so that DDS does not reuse its table
        self.other = EPDeal("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")

    def count(
        self,
        pbn: str,
        trump: str,
        leader: str,
        side: tuple[int, ...],
        need: int,
        prefix: list[int],
        to_play: int,
        left: int,
    ) -> tuple[bool, int]:
        from endplay.types import Card

        d: Any = self._Deal(pbn)
        d.trump, d.first = TRUMPS[trump], SEATS.index(leader)
        for c in prefix:
            d.play(Card(_name(c)))
        # DDS answers for the side to play: "N+S make need" or "E+W make left - need + 1"
        ours = to_play in side
        t = need if ours else left - need + 1
        if t <= 0:  # already made (the side to play needs nothing) or out of reach
            return ours, 0
        self._dds.SolveBoard(d._data, t, 1, 1, self.fut, 0)
        ok = self.fut.score[0] >= t
        count = int(self.fut.nodes)
        self._dds.SolveBoard(self.other._data, 5, 1, 1, self.fut, 0)
        return (ok if ours else not ok), count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("pbn", help="the deal, e.g. 'N:AKQ.JT9.876.5432 ...'")
    ap.add_argument(
        "prefix", nargs="*", help="cards played from the start, e.g. S8 7S (any card notation)"
    )
    ap.add_argument("--trump", required=True, choices=list(TRUMPS))
    ap.add_argument("--leader", required=True, choices=list(SEATS))
    ap.add_argument("--declarers", required=True, help="the declarer side, e.g. NS")
    ap.add_argument("--need", type=int, required=True, help="tricks the declarer side needs in all")
    ap.add_argument("--no-dds", action="store_true", help="our counts only (any declarer side)")
    args = ap.parse_intermixed_args(argv)

    label = args.declarers.upper()
    try:
        deal = Deal.from_pbn(args.pbn)
        trump = parse_trump(args.trump)
        declarers = parse_declarers(label)
        prefix = [parse_card(c) for c in args.prefix]
    except SoloAnalysisError as e:  # a bad deal, card or side: one line, no traceback
        raise SystemExit(f"error: {e}") from None
    if not args.no_dds and declarers not in ((0, 2), (1, 3)):
        raise SystemExit("error: DDS answers partnerships only (NS or EW); use --no-dds")
    dds = None if args.no_dds else _DDS()
    leader = SEATS.index(args.leader)

    def line(pre: list[int]) -> tuple[str, Position]:
        """The counts after ``pre``, and the position reached."""
        pos = Position(deal, trump, leader, declarers, args.need)
        for c in pre:
            pos.play(c)
        left = len(pos.hands[pos.to_play])
        if pos.need > left:
            return "no   (out of reach: not searched)", pos
        try:
            ok, _, ours = search_positions(
                pos.deal(),
                trump=trump,
                leader=pos.leader,
                declarers=declarers,
                target=max(pos.need, 0),
                trick=pos.trick,
            )
        except SoloAnalysisError as e:  # e.g. no cards left
            raise SystemExit(f"error: {e}") from None
        text = f"{'yes' if ok else 'no ':<4}ours {ours:>11,}"
        if dds is not None:
            dok, dn = dds.count(
                args.pbn, args.trump, args.leader, declarers, pos.need, pre, pos.to_play, left
            )
            text += f"   DDS {dn:>9,}   ratio {ours / max(dn, 1):7.1f}"
            if dok != ok:
                text += "   !!! answers differ"
        return text, pos

    text, pos = line(prefix)
    left = len(pos.hands[pos.to_play])
    print(
        f"{SEATS[pos.to_play]} to play, {label} need {pos.need} of the last {left} tricks: {text}"
    )
    order = [
        parse_card(c)
        for c in move_order(
            pos.deal(), trump=trump, leader=pos.leader, declarers=declarers, trick=pos.trick
        )
    ]
    for c in pos.legal():
        print(f"  {_name(c)}: {line([*prefix, c])[0]}   {_place(c, order)}")
    return 0


def _place(card: int, order: list[int]) -> str:
    """Where our search tries ``card``: its place in the move order, or the card it stands for.

    A card below the highest of a run of equivalent cards is not searched: the search plays
    the run's highest card for it.
    """
    if card in order:
        return f"tried {order.index(card) + 1} of {len(order)}"
    above = [c for c in order if c // 13 == card // 13 and c > card]
    return f"as {_name(min(above))}" if above else "not tried"


if __name__ == "__main__":
    sys.exit(main())
