"""``solo-analysis rules`` and ``solo-analysis score``: rule sets and settlement."""

from __future__ import annotations

import json
from typing import Any

import click

from ..cards import SEATS, parse_seat, seat_str
from ..report.text import text_table
from ..rules import PRESETS, Contract, RuleSet, load_rules

_FORMAT = click.Choice(["table", "json"], case_sensitive=False)


def _number(value: float) -> str:
    """Units for display: an int when integral, else up to 4 decimals."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _signed(value: float) -> str:
    text = _number(value)
    return text if text.startswith("-") or text == "0" else f"+{text}"


def _tricks_text(contract: Contract) -> str:
    if contract.misere:
        return str(contract.target)
    return str(contract.target) if contract.target == 13 else f"{contract.target}+"


def _options_lines(rules: RuleSet) -> list[str]:
    style = {
        "pairwise": "pairwise (each partner settles with each defender)",
        "per-player": "per player (each partner +units, each defender -units)",
    }[rules.prop_style]
    lines = [
        f"rule set: {rules.name}" + (f"  ({rules.source})" if rules.source else ""),
        f"stake: {_number(rules.stake)}   prop style: {style}",
        f"over/under tricks: {rules.overtricks}   turn-up: {'yes' if rules.turnup else 'no'}"
        + (f"   solo base: {_number(rules.solo_base)}" if rules.solo_base is not None else ""),
    ]
    return lines


def _ladder_json(rules: RuleSet) -> dict[str, Any]:
    options = {
        key: getattr(rules, key)
        for key in (
            "name",
            "source",
            "description",
            "stake",
            "prop",
            "prop_target",
            "prop_style",
            "slams",
            "turnup",
            "abundance_trump",
            "declared_trump",
            "overtricks",
            "solo_base",
        )
    }
    options["contracts"] = [
        {
            "name": c.name,
            "title": c.title,
            "rank": c.rank,
            "target": c.target,
            "misere": c.misere,
            "trump": c.trump,
            "leader": c.leader,
            "partnership": c.partnership,
            "units": c.units,
            "declarer_wins": rules.declarer_units(c, c.target),
        }
        for c in rules.contracts
    ]
    return options


@click.command(
    "rules", short_help="List the rule-set presets, or show one rule set's contract ladder."
)
@click.argument("name", required=False)
@click.option(
    "--format", "fmt", type=_FORMAT, default="table", show_default=True, help="Output format."
)
def rules(name: str | None, fmt: str) -> None:
    """List the rule-set presets, or show the contract ladder of NAME (a preset or a .toml file)."""
    if name is None:
        if fmt == "json":
            click.echo(json.dumps({key: r.description for key, r in PRESETS.items()}, indent=2))
            return
        rows = [
            [key + (" (default)" if i == 0 else ""), r.source, r.description]
            for i, (key, r) in enumerate(PRESETS.items())
        ]
        click.echo(text_table(["preset", "source", "description"], rows))
        return
    ruleset = load_rules(name)
    if fmt == "json":
        click.echo(json.dumps(_ladder_json(ruleset), indent=2, ensure_ascii=False))
        return
    rows = [
        [
            str(c.rank),
            c.name,
            c.title,
            _tricks_text(c),
            c.trump,
            c.leader,
            _number(c.units),
            _signed(ruleset.declarer_units(c, c.target)),
        ]
        for c in ruleset.contracts
    ]
    header = [
        "rank",
        "contract",
        "title",
        "tricks",
        "trump",
        "leads",
        "units/defender",
        "declarer wins",
    ]
    click.echo("\n".join(_options_lines(ruleset)))
    click.echo()
    click.echo(text_table(header, rows, right={0, 6, 7}))


@click.command("score", short_help="The units each player wins or pays for one contract.")
@click.argument("contract")
@click.option(
    "--tricks",
    "-t",
    type=click.IntRange(0, 13),
    required=True,
    help="Tricks taken by the declarer side (both partners in prop), 0..13.",
)
@click.option(
    "--declarer",
    "-d",
    required=True,
    help="Declarer's seat: N, E, S or W, or eldest, second, third, dealer.",
)
@click.option("--partner", "-p", default=None, help="The accepter's (Cop's) seat, for prop only.")
@click.option(
    "--rules",
    "rules_spec",
    default=None,
    metavar="NAME|FILE.toml",
    help="Rule-set preset or TOML file [default: classic].",
)
@click.option(
    "--format", "fmt", type=_FORMAT, default="table", show_default=True, help="Output format."
)
def score(
    contract: str, tricks: int, declarer: str, partner: str | None, rules_spec: str | None, fmt: str
) -> None:
    """Settle one hand: the units each seat wins (+) or pays (-) for CONTRACT."""
    ruleset = load_rules(rules_spec)
    c = ruleset.contract(contract)
    result = ruleset.settle(c, declarer, tricks, partner=partner)
    if fmt == "json":
        click.echo(json.dumps(result))
        return
    declarer_seat = seat_str(parse_seat(declarer))
    side = {declarer_seat} | ({seat_str(parse_seat(partner))} if partner is not None else set())
    made = ruleset.is_made(c, tricks)
    need = f"at most {c.target}" if c.misere else f"{c.target}"
    click.echo(
        f"{c.title} ({ruleset.name}): {tricks} trick{'' if tricks == 1 else 's'}, needs {need}: "
        f"{'made' if made else 'defeated'}"
    )
    rows = [
        [
            seat,
            ("declarer" if seat == declarer_seat else "partner") if seat in side else "defender",
            _signed(result[seat]),
        ]
        for seat in SEATS
    ]
    click.echo(text_table(["seat", "role", "units"], rows, right={2}))
