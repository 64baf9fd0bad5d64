"""Where is our search larger than DDS's?  Per-move search sizes after a sequence of plays.

From a deal and a prefix of cards played (whole tricks and a part of the current one), prints
for the position reached and for each legal card of the hand to play: the answer to "can the
declarer side take ``need`` more tricks?", the trick-boundary positions our search entered
(``solver.search_nodes``' count: DDS's ``futureTricks.nodes`` counts the same) and DDS's count
for the same question.  Each search starts with an empty table, so a move's figure is the cost
of that move alone; the position's own figure is the cost of its whole search, whose move order
decides how many moves it pays for.  Going down the moves where ours is much larger finds the
node where the two searches part: the move orderings and bounds of ``_solver.py`` were tuned
that way.  DDS answers partnerships only (N+S or E+W); ``--no-dds`` skips it for other sides.

Counts are deterministic; DDS's count for a search started at a trick boundary includes its
root's extra work (DDS skips some bounds at the root), so compare the moves below a position.

Usage::

    python scripts/compare_dds.py \\
        "N:Q85.T65.AQ.T863 K74.93.K543.KJ5 .AQ82.J987.Q972 T96.KJ74.T62.A4" \\
        --trump NT --leader N --declarers NS --need 8
    python scripts/compare_dds.py PBN --trump NT --leader N --declarers NS --need 8 S8 S7
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from numba import njit

from solo_analysis import _solver
from solo_analysis.cards import RANKS, parse_card
from solo_analysis.errors import SoloAnalysisError
from solo_analysis.solver import _prepare, _WS

TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
SEATS = "NESW"


@njit  # not cached: it inlines the search, whose changes a cached copy would not see
def _count(hands, trump, leader, npl, led, wc, ws, tmask, side_mask, need, tt, moves, scores):
    h = hands.copy()
    maxer, counted, wants = _solver._roles(side_mask, False)
    hist = _solver._new_history()
    info, index = tt
    index[:, 0] = 0
    st = np.empty((56, 32), dtype=np.int64)
    nodes = _solver._budget(0)
    ok = _solver._search(
        h,
        leader,
        need,
        trump,
        maxer,
        counted,
        wants,
        True,
        info,
        index,
        moves,
        scores,
        st,
        hist,
        npl,
        led,
        wc,
        ws,
        tmask,
        nodes,
    )
    return ok, nodes[2]


def _name(code: int) -> str:
    return "SHDC"[code // 13] + RANKS[code % 13]


def _state(masks: np.ndarray, trump: int, leader: int, side: str, need: int, prefix: list[int]):
    """Play ``prefix`` from the deal: hands, the current trick and the tricks still needed."""
    h = masks.copy()
    lead, npl, led, wc, ws, tmask = leader, 0, -1, -1, -1, 0
    for c in prefix:
        seat = (lead + npl) % 4
        if not (int(h[seat]) >> c) & 1:
            raise SystemExit(f"error: {_name(c)} is not in {SEATS[seat]}'s hand at that point")
        if npl and c // 13 != led and (int(h[seat]) >> (13 * led)) & 0x1FFF:
            raise SystemExit(f"error: {SEATS[seat]} must follow suit, not play {_name(c)}")
        h[seat] ^= np.int64(1) << c
        if npl == 0:
            led, wc, ws = c // 13, c, seat
        elif (c // 13 == wc // 13 and c > wc) or (c // 13 == trump and wc // 13 != trump):
            wc, ws = c, seat
        tmask |= 1 << c
        npl += 1
        if npl == 4:
            if SEATS[ws] in side:
                need -= 1
            lead, npl, led, tmask = ws, 0, -1, 0
    return h, lead, npl, led, wc, ws, tmask, need


class _DDS:
    def __init__(self) -> None:
        from endplay import _dds
        from endplay.types import Deal

        self._dds, self._Deal = _dds, Deal
        _dds.SetMaxThreads(1)
        self.fut = _dds.futureTricks()
        # a different deal between questions, so that DDS does not reuse its table
        self.other = Deal("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")

    def count(self, pbn, trump, leader, side, need, prefix, to_play, left):
        from endplay.types import Card

        d = self._Deal(pbn)
        d.trump, d.first = TRUMPS[trump], SEATS.index(leader)
        for c in prefix:
            d.play(Card(_name(c)))
        # DDS answers for the side to play: "N+S make need" or "E+W make left - need + 1"
        ours = SEATS[to_play] in side
        t = need if ours else left - need + 1
        if t <= 0:  # already made (the side to play needs nothing) or out of reach
            return ours, 0
        self._dds.SolveBoard(d._data, t, 1, 1, self.fut, 0)
        ok = self.fut.score[0] >= t
        nodes = int(self.fut.nodes)
        self._dds.SolveBoard(self.other._data, 5, 1, 1, self.fut, 0)
        return (ok if ours else not ok), nodes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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

    side = args.declarers.upper()
    try:
        _, tr, ld, side_mask, masks = _prepare(
            args.pbn, None if args.trump == "NT" else args.trump, args.leader, side, False
        )
        prefix = [int(parse_card(c)) for c in args.prefix]
    except SoloAnalysisError as e:  # a bad deal, card or side: one line, no traceback
        raise SystemExit(f"error: {e}") from None
    if not args.no_dds and side not in ("NS", "SN", "EW", "WE"):
        raise SystemExit("error: DDS answers partnerships only (NS or EW); use --no-dds")
    dds = None if args.no_dds else _DDS()
    ws = _WS

    def line(pre: list[int]):
        """The counts after ``pre``, and the position (hands, trick, seat to play, tricks)."""
        h, lead, npl, led, wc, ws_, tmask, need = _state(masks, tr, ld, side, args.need, pre)
        to_play = (lead + npl) % 4
        left = bin(int(h[to_play])).count("1")
        ok, ours = _count(
            h, tr, lead, npl, led, wc, ws_, tmask, side_mask, need, ws.tt, ws.moves, ws.scores
        )
        text = f"{'yes' if ok else 'no ':<4}ours {ours:>11,}"
        if dds is not None:
            dok, dn = dds.count(args.pbn, args.trump, args.leader, side, need, pre, to_play, left)
            text += f"   DDS {dn:>9,}   ratio {ours / max(dn, 1):7.1f}"
            if dok != bool(ok):
                text += "   !!! answers differ"
        return text, h, npl, led, to_play, need, left

    text, h, npl, led, to_play, need, left = line(prefix)
    print(f"{SEATS[to_play]} to play, {side} need {need} of the last {left} tricks: {text}")
    hand = int(h[to_play])
    legal = hand & (0x1FFF << (13 * led)) if npl else hand
    cards = [c for c in range(52) if (legal or hand) >> c & 1]
    for c in sorted(cards, key=lambda c: (c // 13, -c)):  # spades first, high to low
        text = line(prefix + [c])[0]
        print(f"  {_name(c)}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
