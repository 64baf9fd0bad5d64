"""Plain-text views: aligned tables, hands, deal diagrams and the advice as a terminal table."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUIT_SYMBOLS, card_str, trump_symbol
from ..deal import Deal
from ..hand import Hand
from .view import AdviceView

__all__ = [
    "advice_text",
    "deal_diagram",
    "hand_lines",
    "hand_text",
    "percent",
    "signed_units",
    "text_table",
]


def percent(p: float) -> str:
    """A share as a whole percentage: ``0.714`` -> ``"71%"``."""
    return f"{100 * p:.0f}%"


def signed_units(v: float) -> str:
    """Units with a sign and one decimal: ``"+1.2"``, ``"-9.0"``, and ``"0.0"`` for zero."""
    text = f"{v:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def text_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: frozenset[int] | set[int] = frozenset(),
) -> str:
    """An aligned plain-text table: a header, a rule of dashes, the rows.

    Columns whose index is in ``right`` are right-aligned; trailing blanks are cut.
    """
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]

    def line(cells: Sequence[str]) -> str:
        out = [
            str(cell).rjust(width) if i in right else str(cell).ljust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=False))
        ]
        return "  ".join(out).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def hand_lines(hand: Hand) -> list[str]:
    """Four lines, one per suit, ``"♠ AKQ"`` (a void as ``-``)."""
    parts = str(hand).split(".")
    return [f"{SUIT_SYMBOLS[i]} {part or '-'}" for i, part in enumerate(parts)]


def hand_text(hand: Hand) -> str:
    """A hand on one line: ``"♠ AKJ94  ♥ K83  ♦ Q72  ♣ 65"``."""
    return "  ".join(hand_lines(hand))


def deal_diagram(deal: Deal) -> str:
    """The deal laid out as a compass diagram: N on top, W and E in the middle, S below."""
    hands = [hand_lines(h) for h in deal]
    west_width = max(len(line) for line in [*hands[3], "W"])
    indent = " " * (west_width + 4)
    lines = [indent + "N"] + [indent + line for line in hands[0]]
    lines.append("W".ljust(west_width + 4) + indent + "E")
    for w, e in zip(hands[3], hands[1], strict=True):
        lines.append(w.ljust(west_width + 4) + indent + e)
    lines += [indent + "S"] + [indent + line for line in hands[2]]
    return "\n".join(line.rstrip() for line in lines)


def _deals_line(advice: AdviceView) -> str:
    """How many deals, and why sampling stopped where it did."""
    line = f"deals: {advice.samples} (seed {advice.seed})"
    if advice.tolerance is not None:
        line += f"; each contract stops once its intervals are within ±{100 * advice.tolerance:g}%"
    if not advice.converged:
        if advice.stopped == "max_seconds":
            line += (
                f"; the time limit came first (--seed {advice.seed} --max-samples "
                f"{advice.samples} repeats this run)"
            )
        elif advice.stopped == "max_positions":
            line += (
                f"; the cap of {advice.max_positions:,} search positions came first "
                "(--max-positions 0: no cap)"
            )
        elif not advice.unresolved:
            line += "; the cap came first"
        else:
            line += "; not all are (the cap, or the deals not solved)"
    if advice.unresolved:
        line += (
            f"; {advice.unresolved} not solved within {advice.max_question_positions:,} positions "
            "per question (intervals cover both outcomes)"
        )
    return line


def advice_text(advice: AdviceView) -> str:
    """The advice as the command line prints it: a header, the table, the recommendation."""
    turnup = "none" if advice.turnup is None else card_str(advice.turnup, symbols=True)
    lines = [
        f"hand: {hand_text(advice.hand)}",
        f"seat: {advice.seat}   turn-up: {turnup}   rules: {advice.rules.name}"
        + (f"   over: {advice.over}" if advice.over else ""),
        _deals_line(advice),
        "",
    ]
    best_row = None if advice.recommended is None else int(advice.recommended["row"])
    header = [
        "",
        "contract",
        "trump",
        "partner",
        "deals",
        "makes",
        "95% interval",
        "units",
        "95% interval",
    ]
    rows = []
    for rec in advice.table.to_dict("records"):
        name = rec["title"] + ("" if rec["choice"] == "fixed" else f" ({rec['choice']})")
        mark = ">" if rec["row"] == best_row else ("x" if not rec["allowed"] else "")
        rows.append(
            [
                mark,
                name,
                trump_symbol(rec["trump"]),
                rec["partner"] or "",
                str(int(rec["samples"]) + int(rec["unresolved"])),
                percent(rec["p_make"]),
                f"{percent(rec['ci_low'])}-{percent(rec['ci_high'])}",
                signed_units(rec["ev_units"]),
                f"{signed_units(rec['ev_low'])} .. {signed_units(rec['ev_high'])}",
            ]
        )
    lines.append(text_table(header, rows, right={4, 5, 6, 7}))
    lines.append("")
    lines.append(advice.summary())
    if advice.over:
        lines.append(f"x: not above the bid so far ({advice.over})")
    lines.append(f"note: {advice.play_note}")
    return "\n".join(lines)
