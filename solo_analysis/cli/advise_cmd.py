"""``solo-analysis advise``: evaluate every contract for one hand and recommend a bid.

Output formats are small functions in ``FORMATTERS`` (``Advice -> str``), so a new view
(a chart, another layout) is one more entry and one more ``--format`` choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..cards import SUIT_SYMBOLS, SUITS, card_str


def _units(v: float) -> str:
    text = f"{v:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def _trump(trump: str) -> str:
    return trump if trump == "NT" else SUIT_SYMBOLS[SUITS.index(trump)]


def _hand_text(hand: Any) -> str:
    parts = str(hand).split(".")
    return "  ".join(f"{SUIT_SYMBOLS[i]} {part or '-'}" for i, part in enumerate(parts))


def _table_text(advice: Any) -> str:
    from .rules_cmd import _table

    turnup = "none" if advice.turnup is None else card_str(advice.turnup, symbols=True)
    lines = [
        f"hand: {_hand_text(advice.hand)}",
        f"seat: {advice.seat}   turn-up: {turnup}   rules: {advice.rules.name}"
        + (f"   over: {advice.over}" if advice.over else ""),
        f"deals: {advice.samples} (seed {advice.seed})"
        + ("" if advice.converged else f"; cap reached before the ±{100 * advice.tolerance:.0f}% tolerance"),
        "",
    ]
    best_row = None if advice.recommended is None else int(advice.recommended["row"])
    header = ["", "contract", "trump", "partner", "makes", "95% interval", "units", "95% interval"]
    rows = []
    for rec in advice.table.to_dict("records"):
        name = rec["title"] + ("" if rec["choice"] == "fixed" else f" ({rec['choice']})")
        mark = ">" if rec["row"] == best_row else ("x" if not rec["allowed"] else "")
        rows.append(
            [
                mark,
                name,
                _trump(rec["trump"]),
                rec["partner"] or "",
                _pct(rec["p_make"]),
                f"{_pct(rec['ci_low'])}-{_pct(rec['ci_high'])}",
                _units(rec["ev_units"]),
                f"{_units(rec['ev_low'])} .. {_units(rec['ev_high'])}",
            ]
        )
    lines.append(_table(header, rows, right={4, 5, 6}))
    lines.append("")
    lines.append(advice.summary())
    if advice.over:
        lines.append(f"x: not above the bid so far ({advice.over})")
    lines.append(f"note: {advice.play_note}")
    return "\n".join(lines)


#: --format choice -> Advice -> text
FORMATTERS: dict[str, Callable[[Any], str]] = {
    "table": _table_text,
    "json": lambda advice: advice.to_json(),
    "csv": lambda advice: advice.to_csv().rstrip("\n"),
}


@click.command("advise")
@click.argument("hand")
@click.option("--seat", required=True, help="Your seat: eldest, second, third or dealer.")
@click.option("--turnup", default=None, help="The turned-up card, e.g. 7S or ♠7 (omit only without turn-up).")
@click.option("--rules", "rules_spec", default="classic", show_default=True, help="Preset name or .toml file.")
@click.option("--samples", type=int, default=None, help="Use exactly this many deals (no adaptive sampling).")
@click.option("--tolerance", type=float, default=None,
              help="Adaptive sampling: target half-width of the success intervals (default 0.02).")
@click.option("--max-samples", type=int, default=None, help="Cap on the deals of adaptive sampling (default 2000).")
@click.option("--seed", type=int, default=None, help="Seed of the deal stream (default: random, reported).")
@click.option("--over", default=None, help="The highest bid so far: only higher contracts are advised.")
@click.option("--contracts", default=None, help="Comma-separated contracts to evaluate (default: all).")
@click.option("--exact", is_flag=True, default=False, help="Count tricks on every row (slower).")
@click.option("--format", "fmt", type=click.Choice(sorted(FORMATTERS), case_sensitive=False), default="table",
              show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Print only the recommendation line (table format).")
def advise(
    hand: str,
    seat: str,
    turnup: str | None,
    rules_spec: str,
    samples: int | None,
    tolerance: float | None,
    max_samples: int | None,
    seed: int | None,
    over: str | None,
    contracts: str | None,
    exact: bool,
    fmt: str,
    quiet: bool,
) -> None:
    """Evaluate every contract for HAND (e.g. AKJ94.K83.Q72.65) and recommend a bid."""
    from ..advice import DEFAULT_MAX_SAMPLES, DEFAULT_TOLERANCE, advise as run_advise

    if samples is not None and (tolerance is not None or max_samples is not None):
        raise click.UsageError("give either --samples or --tolerance/--max-samples, not both")
    names = None if contracts is None else [c for c in contracts.split(",") if c.strip()]
    advice = run_advise(
        hand,
        seat=seat,
        turnup=turnup,
        rules=rules_spec,
        samples=samples,
        seed=seed,
        over=over,
        tolerance=DEFAULT_TOLERANCE if tolerance is None else tolerance,
        max_samples=DEFAULT_MAX_SAMPLES if max_samples is None else max_samples,
        exact=True if exact else None,
        contracts=names,
    )
    fmt = fmt.lower()
    if quiet and fmt == "table":
        click.echo(advice.summary())
        return
    click.echo(FORMATTERS[fmt](advice))


__all__ = ["advise", "FORMATTERS"]
