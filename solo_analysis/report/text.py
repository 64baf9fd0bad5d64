"""Plain-text views: aligned tables, hands, deal diagrams and the advice as a terminal table."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUIT_SYMBOLS, card_str, trump_symbol
from ..deal import Deal
from ..hand import Hand
from .view import AdviceView, ComparisonView

__all__ = [
    "advice_text",
    "auction_lines",
    "comparison_text",
    "deal_diagram",
    "hand_lines",
    "hand_text",
    "passing_lines",
    "percent",
    "question_budget_text",
    "signed_units",
    "text_table",
]


#: shares closer than this to 0 or 1 are shown as exactly 0 % or 100 % (rounding noise)
_EXACT = 1e-9


def percent(p: float) -> str:
    """A share as a whole percentage: ``0.714`` -> ``"71%"``.

    A share that is not 0 or 1 never shows as ``"0%"`` or ``"100%"``: it gets one decimal
    (``0.0025`` -> ``"0.2%"``, ``0.996`` -> ``"99.6%"``), or ``"<0.1%"`` / ``">99.9%"``.  So
    one make in 400 deals does not read as none beside the units it is worth (-14.9, not -15).
    """
    text = f"{100 * p:.0f}%"
    if text in ("0%", "-0%", "100%") and _EXACT < p < 1 - _EXACT:
        text = f"{100 * p:.1f}%"
        if text == "0.0%":
            return "<0.1%"
        if text == "100.0%":
            return ">99.9%"
    elif text == "-0%":
        text = "0%"
    return text


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
        which = (
            "each contract stops once the intervals the bid reads are"
            if advice.stop_on == "bid"
            else "each row stops once its interval is"
        )
        line += f"; {which} within ±{100 * advice.tolerance:g}%"
    if advice.stopped == "interrupted":
        line += "; interrupted: the figures are those of the deals solved before it"
    elif not advice.converged:
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
        elif advice.stopped == "max_samples":
            line += f"; the cap of {advice.samples} deals came first (--max-samples)"
        else:
            # every row's sampling error is within the tolerance; the widening for its unsolved
            # deals keeps one wider, and more deals would not bring it in (WIDEN_SHARE)
            line += "; not all are: too many deals not solved for more deals to bring them in"
    if advice.unresolved:
        line += (
            f"; {advice.unresolved} not solved{question_budget_text(advice)} "
            "(intervals cover both outcomes)"
        )
    return line


def question_budget_text(advice: AdviceView) -> str:
    """``" within 5,000,000 positions per question"``, or ``""`` where no budget was set."""
    budget = advice.max_question_positions
    return "" if budget is None else f" within {budget:,} positions per question"


def advice_text(advice: AdviceView) -> str:
    """The advice as the command line prints it: a header, the table, the recommendation."""
    turnup = "none" if advice.turnup is None else card_str(advice.turnup, symbols=True)
    lines = [
        f"hand: {hand_text(advice.hand)}",
        f"seat: {advice.seat}   turn-up: {turnup}   rules: {advice.rules.name}"
        + (f"   over: {advice.over}" if advice.over else ""),
        _deals_line(advice),
        *auction_lines(advice),
        "",
    ]
    best_row = None if advice.recommended is None else int(advice.recommended["row"])
    records = advice.table.to_dict("records")
    # deals behind each row: those solved, and (when there are any) those the solver gave up on
    unsolved = any(int(rec["unresolved"]) for rec in records)
    counts = ["solved", "unsolved"] if unsolved else ["solved"]
    header = [
        "",
        "contract",
        "trump",
        "partner",
        *counts,
        "makes",
        "95% interval",
        "units",
        "95% interval",
    ]
    rows = []
    for rec in records:
        name = rec["title"] + ("" if rec["choice"] == "fixed" else f" ({rec['choice']})")
        mark = ">" if rec["row"] == best_row else ("x" if not rec["allowed"] else "")
        solved = [str(int(rec["samples"]))]
        if unsolved:
            solved.append(str(int(rec["unresolved"])))
        rows.append(
            [
                mark,
                name,
                trump_symbol(rec["trump"]),
                rec["partner"] or "",
                *solved,
                percent(rec["p_make"]),
                f"{percent(rec['ci_low'])}-{percent(rec['ci_high'])}",
                signed_units(rec["ev_units"]),
                f"{signed_units(rec['ev_low'])} .. {signed_units(rec['ev_high'])}",
            ]
        )
    first = 4  # the first column of numbers
    lines.append(text_table(header, rows, right=set(range(first, first + len(counts) + 3))))
    lines.append("")
    lines.append(advice.summary())
    if advice.over:
        lines.append(f"x: not above the bid so far ({advice.over})")
    lines.extend(passing_lines(advice))
    lines.append(f"note: {advice.play_note}")
    return "\n".join(lines)


def auction_lines(advice: AdviceView) -> list[str]:
    """The auction so far, the calls open to the player and how the deals were conditioned."""
    if advice.auction is None:
        return []
    calls = advice.legal_calls or ()
    lines = [
        f"auction: {advice.auction or '(first call)'}   your calls: {', '.join(calls)}",
    ]
    if advice.acceptance is not None:
        lines.append(
            f"deals agree with the others' calls under policy {advice.policy}: "
            f"{percent(advice.acceptance)} of the deals drawn"
        )
    return lines


def passing_lines(advice: AdviceView) -> list[str]:
    """What passing (and proposing) is worth: the rest of the auction played by the policy."""
    lines = []
    for value, verb in ((advice.proposing, "propose"), (advice.passing, "pass")):
        if value is None:
            continue
        shown = []
        for rec in value.outcomes.head(4).to_dict("records"):
            who = "" if rec["declarer"] == "-" else f" by {rec['declarer']}"
            shown.append(f"{rec['contract']}{who} {percent(rec['share'])}")
        lines.append(
            f"if you {verb} ({value.deals} deals, policy {advice.policy}): "
            f"{signed_units(value.ev_units)} units ({signed_units(value.ev_low)} .. "
            f"{signed_units(value.ev_high)}); " + ", ".join(shown)
        )
    if advice.passing is not None:
        lines.append("pass is compared at 0 (the hand unplayed) in the recommendation")
    return lines


def _signed_points(d: float) -> str:
    """A difference of shares in percentage points: ``+12``, ``-3``, ``0``."""
    text = f"{100 * d:+.0f}"
    return "0" if text in ("+0", "-0") else text


def comparison_text(comparison: ComparisonView) -> str:
    """Two play models side by side, as the command line prints them.

    One line per contract option: the share made under each model and the paired difference
    (second minus first, in percentage points) with its 95 % interval and the deals paired;
    then each model's recommendation.
    """
    first, second = comparison.first, comparison.second
    advice = first
    turnup = "none" if advice.turnup is None else card_str(advice.turnup, symbols=True)
    lines = [
        f"hand: {hand_text(advice.hand)}",
        f"seat: {advice.seat}   turn-up: {turnup}   rules: {advice.rules.name}",
        f"deals: {first.samples} (seed {first.seed}), the same for both play models",
        *auction_lines(advice),
        "",
    ]
    a, b = first.play_model, second.play_model
    header = ["contract", "trump", "partner", a, b, "difference", "95% interval", "paired"]
    rows = []
    for rec in comparison.table.to_dict("records"):
        name = rec["title"] + ("" if rec["choice"] == "fixed" else f" ({rec['choice']})")
        rows.append(
            [
                name,
                trump_symbol(rec["trump"]),
                rec["partner"] or "",
                percent(rec["p_first"]),
                percent(rec["p_second"]),
                _signed_points(rec["diff"]),
                f"{_signed_points(rec['diff_low'])} .. {_signed_points(rec['diff_high'])}",
                str(int(rec["paired"])),
            ]
        )
    lines.append(text_table(header, rows, right={3, 4, 5, 6, 7}))
    lines.append("")
    lines.append("difference: percentage points, " + b + " minus " + a + ", on the same deals")
    lines.append(f"{a}: {first.summary()}")
    lines.append(f"{b}: {second.summary()}")
    lines.append(f"note ({a}): {first.play_note}")
    lines.append(f"note ({b}): {second.play_note}")
    return "\n".join(lines)
