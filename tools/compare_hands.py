"""Double-dummy against realistic play on named hands, with and without the defence's prior.

For each hand (third seat, turn-up K♥ unless given otherwise; a hand that holds the turn-up
card is run with the lowest card of its suit that the hand lacks) and each prior of the realistic
play model, runs :func:`solo_analysis.advice.compare_play` on the same ``--samples`` deals
and prints one Markdown line per contract: the double-dummy share made with its 95 %
interval, the realistic (PIMC) share with its interval, their paired difference with its
interval, and the wall time of each model (double-dummy timed alone, PIMC as the
comparison's time less it).  The figures of ``docs/play.md`` and of the
realistic play issue's closing note come from this script.

Usage::

    python tools/compare_hands.py                       # the default hands, 48 deals each
    python tools/compare_hands.py --samples 96 --worlds 16 --seed 1
    python tools/compare_hands.py 7532.632.852.432 --contracts misere --priors default
"""

from __future__ import annotations

import argparse
import sys
import time

import pandas as pd

from solo_analysis.advice import advise, compare_play
from solo_analysis.cards import card_code, card_str
from solo_analysis.errors import SoloAnalysisError
from solo_analysis.hand import Hand

HANDS = (
    "5432.5432.432.32",  # nothing above a five: always makes Misère
    "5432.5432.Q32.32",
    "J742.T853.963.84",
    "7532.632.852.432",
    "AKQJ.AKQ.AKQ.AKQ",  # thirteen top cards: never makes it
)


def _cell(p: float, lo: float, hi: float, sign: str = "") -> str:
    """``p`` and its interval in percent: ``35% (22-50%)``."""
    return f"{100 * p:{sign}.0f}% ({100 * lo:.0f} to {100 * hi:.0f}%)"


def _row(table: pd.DataFrame, row: int) -> str:
    rec = table.loc[table["row"] == row].iloc[0]
    return _cell(rec["p_make"], rec["ci_low"], rec["ci_high"])


def _turnup_for(hand: str, turnup: str) -> str:
    """``turnup``, or the lowest card of its suit not in ``hand`` if the hand holds it."""
    held = set(Hand.parse(hand).codes)
    code = card_code(turnup)
    if code not in held:
        return turnup
    suit = code // 13
    return next(card_str(c) for c in range(13 * suit, 13 * suit + 13) if c not in held)


def main(argv: list[str] | None = None) -> int:
    """Print the comparison table; 0 on success, 1 on bad input, 130 on Ctrl-C."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", nargs="*", default=list(HANDS))
    ap.add_argument("--seat", default="third")
    ap.add_argument("--turnup", default="KH")
    ap.add_argument("--contracts", default="misere,spread-misere")
    ap.add_argument("--samples", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--priors", default="default,none", help="comma-separated prior names")
    args = ap.parse_args(argv)
    print(
        f"seat {args.seat}, turn-up {args.turnup}, {args.samples} deals (seed {args.seed}), "
        f"{args.worlds} worlds a decision\n"
    )
    print("| hand | prior | contract | double-dummy | PIMC | PIMC - DD | DD s | PIMC s |")
    print("|---|---|---|---|---|---|---|---|")
    contracts = args.contracts.split(",")
    try:
        for hand in args.hands:
            for prior in args.priors.split(","):
                turnup = _turnup_for(hand, args.turnup)
                common = {"seat": args.seat, "turnup": turnup, "contracts": contracts}
                t0 = time.perf_counter()
                advise(hand, samples=args.samples, seed=args.seed, **common)
                dd_s = time.perf_counter() - t0
                t0 = time.perf_counter()
                c = compare_play(
                    hand,
                    samples=args.samples,
                    seed=args.seed,
                    play_options={"worlds": args.worlds, "prior": prior},
                    **common,
                )
                pimc_s = time.perf_counter() - t0 - dd_s  # compare_play runs both
                for rec in c.table.to_dict("records"):
                    dd = _row(c.first.table, rec["row"])
                    real = _row(c.second.table, rec["row"])
                    diff = _cell(rec["diff"], rec["diff_low"], rec["diff_high"], sign="+")
                    name = hand if turnup == args.turnup else f"{hand} (turn-up {turnup})"
                    print(
                        f"| {name} | {prior} | {rec['title']} | {dd} | {real} | {diff} "
                        f"| {dd_s:.1f} | {pimc_s:.1f} |",
                        flush=True,
                    )
    except SoloAnalysisError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
