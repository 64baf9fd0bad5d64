"""``solo-analysis solve``, ``leads`` and ``deal``: double-dummy questions on one deal.

* ``solve`` - the declarer side's tricks under perfect play (or a yes/no ``--target``).
* ``leads`` - the double-dummy value of every card the leader may lead.
* ``deal`` - random full deals in PBN, reproducible with ``--seed``.

The solver (numba) is imported only inside the commands, so ``--help`` stays fast.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import click

from ..cards import SUIT_SYMBOLS, Deal, card_str, parse_seat, parse_trump, seat_str, trump_str
from ..errors import SeatError

_FORMAT = click.Choice(["table", "json"], case_sensitive=False)
_DEAL_FORMAT = click.Choice(["pbn", "json"], case_sensitive=False)


# --- shared options -------------------------------------------------------------------


def _question_options(func: Any) -> Any:
    """Attach the options shared by ``solve`` and ``leads`` (trump, leader, declarers, misère)."""
    options = [
        click.option(
            "--trump",
            "-t",
            required=True,
            metavar="S|H|D|C|NT",
            help="Trump suit, or NT for no trump.",
        ),
        click.option(
            "--leader",
            "-l",
            required=True,
            metavar="N|E|S|W",
            help="The seat leading to the first trick.",
        ),
        click.option(
            "--declarers",
            "-d",
            required=True,
            metavar="SEATS",
            help="The declarer side: one seat (N) or two (NS, NE).",
        ),
        click.option(
            "--misere",
            is_flag=True,
            default=False,
            help="Misère: the single declarer tries to take no tricks.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


class _Question:
    """A parsed question about one deal: everything validated before the solver runs."""

    def __init__(self, pbn: str, trump: str, leader: str, declarers: str, misere: bool) -> None:
        from ..solver import parse_declarers

        self.deal = Deal.from_pbn(pbn)
        self.trump = parse_trump(trump)
        self.leader = parse_seat(leader)
        self.seats = parse_declarers(declarers)
        self.misere = misere
        if misere and len(self.seats) != 1:
            raise SeatError(f"misère has exactly one declarer, got {declarers!r}")
        if len(self.seats) > 2:
            raise SeatError(
                f"invalid declarer side {declarers!r}: expected one or two seats such as N, NS, NE"
            )

    @property
    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for :func:`~solo_analysis.solver.solve` / ``solve_leads``."""
        return {
            "trump": self.trump,
            "leader": self.leader,
            "declarers": self.seats,
            "misere": self.misere,
        }

    @property
    def side(self) -> str:
        """The declarer side as text: ``"N"`` or ``"N+S"``."""
        return "+".join(seat_str(s) for s in self.seats)

    @property
    def trump_text(self) -> str:
        """The trump as shown: a suit symbol, or ``NT``."""
        text = trump_str(self.trump)
        return text if text == "NT" else SUIT_SYMBOLS[self.trump]

    def header(self) -> str:
        """One line describing the question (contract, trump, leader)."""
        who = f"Misère by {self.side}" if self.misere else f"Declarers {self.side}"
        return f"{who}, trump {self.trump_text}, {seat_str(self.leader)} leads ({self.deal.n_cards} cards each)"


# --- text layout ------------------------------------------------------------------------


def _hand_lines(hand: Any) -> list[str]:
    """Four lines, one per suit, ``"♠ AKQ"`` (a void as ``-``)."""
    parts = str(hand).split(".")
    return [f"{SUIT_SYMBOLS[i]} {part or '-'}" for i, part in enumerate(parts)]


def deal_diagram(deal: Deal) -> str:
    """The deal laid out as a compass diagram: N on top, W and E in the middle, S below."""
    hands = [_hand_lines(h) for h in deal]
    west_width = max(len(line) for line in hands[3] + ["W"])
    indent = " " * (west_width + 4)
    lines = [indent + "N"] + [indent + line for line in hands[0]]
    lines.append("W".ljust(west_width + 4) + indent + "E")
    for w, e in zip(hands[3], hands[1]):
        lines.append(w.ljust(west_width + 4) + indent + e)
    lines += [indent + "S"] + [indent + line for line in hands[2]]
    return "\n".join(line.rstrip() for line in lines)


def _tricks(n: int) -> str:
    return f"{n} trick" + ("" if n == 1 else "s")


# --- solve ------------------------------------------------------------------------------


def solve_answer(q: _Question, result: int | bool, target: int | None) -> str:
    """The answer as one sentence, e.g. ``"N+S take 9 tricks in ♥ with E leading"``."""
    leading = f"{seat_str(q.leader)} leading"
    if target is None:
        if q.misere:
            return f"Misère by {q.side}: declarer takes {_tricks(int(result))} with {leading}"
        verb = "takes" if len(q.seats) == 1 else "take"
        return f"{q.side} {verb} {_tricks(int(result))} in {q.trump_text} with {leading}"
    yes = "yes" if result else "no"
    if q.misere:
        return f"Misère by {q.side}: declarer can hold to at most {_tricks(target)}: {yes}"
    return f"{q.side} can make {target}: {yes}"


@click.command("solve")
@click.argument("pbn")
@_question_options
@click.option(
    "--target",
    type=int,
    default=None,
    help="Ask yes/no: can the side take at least N tricks (misère: at most N)?",
)
@click.option(
    "--format", "fmt", type=_FORMAT, default="table", show_default=True, help="Output format."
)
def solve(
    pbn: str, trump: str, leader: str, declarers: str, misere: bool, target: int | None, fmt: str
) -> None:
    """Solve the deal PBN (e.g. "N:AKQ.JT9.876.5432 ...") double-dummy.

    Endings are allowed: every hand must hold the same number of cards.
    """
    from ..solver import solve as run_solve
    from ._console import compile_notice

    q = _Question(pbn, trump, leader, declarers, misere)
    compile_notice("_solver.solve_position")
    result = run_solve(q.deal, target=target, **q.kwargs)
    if fmt.lower() == "json":
        doc = {"tricks": int(result)} if target is None else {"makes": bool(result)}
        click.echo(json.dumps(doc))
        return
    click.echo(deal_diagram(q.deal))
    click.echo()
    click.echo(q.header())
    click.echo(solve_answer(q, result, target))


# --- leads ------------------------------------------------------------------------------


def best_leads(q: _Question, leads: dict[int, int]) -> set[int]:
    """The cards best for the leader's side.

    The declarer side maximises its tricks and the defence minimises them; in misère
    the declarer minimises and the defence maximises.
    """
    if not leads:
        return set()
    maximise = (q.leader in q.seats) != q.misere
    best = max(leads.values()) if maximise else min(leads.values())
    return {card for card, tricks in leads.items() if tricks == best}


@click.command("leads")
@click.argument("pbn")
@_question_options
@click.option(
    "--format", "fmt", type=_FORMAT, default="table", show_default=True, help="Output format."
)
def leads(pbn: str, trump: str, leader: str, declarers: str, misere: bool, fmt: str) -> None:
    """The double-dummy result of every opening lead from the leader's hand in PBN."""
    from ..solver import solve_leads
    from ._console import compile_notice

    q = _Question(pbn, trump, leader, declarers, misere)
    compile_notice("_solver.solve_after_lead")
    result = solve_leads(q.deal, **q.kwargs)
    best = best_leads(q, result)
    if fmt.lower() == "json":
        doc = {
            "leader": seat_str(q.leader),
            "leads": [
                {"card": card_str(card), "tricks": int(tricks), "best": card in best}
                for card, tricks in result.items()
            ],
        }
        click.echo(json.dumps(doc))
        return
    from .rules_cmd import _table

    role = "declarer" if q.leader in q.seats else "defender"
    aim = "fewest" if (q.leader in q.seats) == q.misere else "most"
    click.echo(deal_diagram(q.deal))
    click.echo()
    click.echo(q.header())
    rows = [
        ["*" if card in best else "", card_str(card, symbols=True), str(tricks)]
        for card, tricks in result.items()
    ]
    click.echo(_table(["best", "lead", f"{q.side} tricks"], rows, right={2}))
    click.echo(f"* best for {seat_str(q.leader)} ({role}): {aim} tricks for {q.side}")


# --- deal -------------------------------------------------------------------------------


@click.command("deal")
@click.option(
    "--seed", type=int, default=None, help="Seed for reproducible deals (default: random)."
)
@click.option(
    "--n",
    "-n",
    "count",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Number of deals.",
)
@click.option(
    "--format", "fmt", type=_DEAL_FORMAT, default="pbn", show_default=True, help="Output format."
)
def deal(seed: int | None, count: int, fmt: str) -> None:
    """Print random full deals, one PBN line each ("N:... ... ... ...")."""
    from ..sampler import random_deals

    if seed is None:
        seed = secrets.randbits(63)
    arrays = random_deals(count, seed)
    pbns = [Deal.from_array(a).to_pbn() for a in arrays]
    if fmt.lower() == "json":
        click.echo(json.dumps({"seed": seed, "deals": pbns}))
        return
    for text in pbns:
        click.echo(text)


__all__ = ["solve", "leads", "deal", "deal_diagram", "best_leads", "solve_answer"]
