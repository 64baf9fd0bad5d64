"""``solo-analysis solve``, ``leads`` and ``deal``: double-dummy questions on one deal.

* ``solve`` - the declarer side's tricks under perfect play (or a yes/no ``--target``).
* ``leads`` - the double-dummy value of every card the leader may lead.
* ``deal`` - random full deals in PBN, reproducible with ``--seed``, streamed in chunks of
  :data:`DEAL_CHUNK` (the first line at once, memory flat whatever ``--n``).

The solver (numba) is imported only inside the commands, so ``--help`` stays fast.
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import TYPE_CHECKING, Any

import click

from ..cards import card_str, seat_str, trump_symbol
from ..deal import Deal
from ..errors import SeatError
from ..report.text import deal_diagram, text_table
from ._console import compile_notice

if TYPE_CHECKING:
    from ..solver import Question

_FORMAT = click.Choice(["table", "json"], case_sensitive=False)
_DEAL_FORMAT = click.Choice(["pbn", "json"], case_sensitive=False)
#: deals dealt, formatted and written at a time by ``deal``
DEAL_CHUNK: int = 1000


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


def _parse(
    pbn: str, trump: str, leader: str, declarers: str, misere: bool
) -> tuple[Deal, Question]:
    """The deal and the question, validated before the solver runs."""
    from ..solver import Question

    deal = Deal.from_pbn(pbn)
    question = Question(trump, leader, declarers, misere)
    if len(question.declarers) > 2:
        raise SeatError(
            f"invalid declarer side {declarers!r}: expected one or two seats such as N, NS, NE"
        )
    return deal, question


def _side(q: Question) -> str:
    """The declarer side as text: ``"N"`` or ``"N+S"``."""
    return "+".join(seat_str(s) for s in q.declarers)


def _header(deal: Deal, q: Question) -> str:
    """One line describing the question (contract, trump, leader)."""
    who = f"Misère by {_side(q)}" if q.misere else f"Declarers {_side(q)}"
    return (
        f"{who}, trump {trump_symbol(q.trump)}, {seat_str(q.leader)} leads "
        f"({deal.n_cards} cards each)"
    )


def _kwargs(q: Question) -> dict[str, Any]:
    """The question as keyword arguments of :func:`~solo_analysis.solver.solve`."""
    return {"trump": q.trump, "leader": q.leader, "declarers": q.declarers, "misere": q.misere}


def _tricks(n: int) -> str:
    return f"{n} trick" + ("" if n == 1 else "s")


# --- solve ------------------------------------------------------------------------------


def solve_answer(q: Question, result: int | bool, target: int | None) -> str:
    """The answer as one sentence, e.g. ``"N+S take 9 tricks in ♥ with E leading"``."""
    leading = f"{seat_str(q.leader)} leading"
    if target is None:
        if q.misere:
            return f"Misère by {_side(q)}: declarer takes {_tricks(int(result))} with {leading}"
        verb = "takes" if len(q.declarers) == 1 else "take"
        return f"{_side(q)} {verb} {_tricks(int(result))} in {trump_symbol(q.trump)} with {leading}"
    yes = "yes" if result else "no"
    if q.misere:
        return f"Misère by {_side(q)}: declarer can hold to at most {_tricks(target)}: {yes}"
    return f"{_side(q)} can make {target}: {yes}"


@click.command("solve", short_help="Double-dummy tricks (or a target question) for one deal.")
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

    the_deal, q = _parse(pbn, trump, leader, declarers, misere)
    compile_notice("solver.solve_position")
    result = run_solve(the_deal, **_kwargs(q), target=target)
    if fmt.lower() == "json":
        doc = {"tricks": int(result)} if target is None else {"makes": bool(result)}
        click.echo(json.dumps(doc))
        return
    click.echo(deal_diagram(the_deal))
    click.echo()
    click.echo(_header(the_deal, q))
    click.echo(solve_answer(q, result, target))


# --- leads ------------------------------------------------------------------------------


def best_leads(q: Question, leads: dict[int, int]) -> set[int]:
    """The cards best for the leader's side.

    The declarer side maximises its tricks and the defence minimises them; in misère
    the declarer minimises and the defence maximises.
    """
    if not leads:
        return set()
    maximise = (q.leader in q.declarers) != q.misere
    best = max(leads.values()) if maximise else min(leads.values())
    return {card for card, tricks in leads.items() if tricks == best}


@click.command("leads", short_help="The double-dummy value of every opening lead.")
@click.argument("pbn")
@_question_options
@click.option(
    "--format", "fmt", type=_FORMAT, default="table", show_default=True, help="Output format."
)
def leads(pbn: str, trump: str, leader: str, declarers: str, misere: bool, fmt: str) -> None:
    """The double-dummy result of every opening lead from the leader's hand in PBN."""
    from ..solver import solve_leads

    the_deal, q = _parse(pbn, trump, leader, declarers, misere)
    compile_notice("solver.solve_after_lead")
    result = solve_leads(the_deal, **_kwargs(q))
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
    role = "declarer" if q.leader in q.declarers else "defender"
    aim = "fewest" if (q.leader in q.declarers) == q.misere else "most"
    click.echo(deal_diagram(the_deal))
    click.echo()
    click.echo(_header(the_deal, q))
    rows = [
        ["*" if card in best else "", card_str(card, symbols=True), str(tricks)]
        for card, tricks in result.items()
    ]
    click.echo(text_table(["best", "lead", f"{_side(q)} tricks"], rows, right={2}))
    click.echo(f"* best for {seat_str(q.leader)} ({role}): {aim} tricks for {_side(q)}")


# --- deal -------------------------------------------------------------------------------


@click.command("deal", short_help="Random full deals in PBN, streamed.")
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
    """Print random full deals, one PBN line each ("N:... ... ... ...").

    The deals are written as they are dealt, so ``--n`` may be as large as you like; with
    ``--format json`` they form one document, ``{"seed": S, "deals": [...]}``, complete
    once the last deal is written.
    """
    from ..sampler import check_seed, deals_at

    seed = secrets.randbits(63) if seed is None else check_seed(seed)
    as_json = fmt.lower() == "json"
    out = sys.stdout  # looked up now: click's test runner replaces it
    if as_json:
        out.write(f'{{"seed": {seed}, "deals": [')
    for start in range(0, count, DEAL_CHUNK):
        # deal i depends on (seed, i) alone: chunk by chunk, the deals of random_deals(count)
        arrays = deals_at(seed, start, min(DEAL_CHUNK, count - start))
        pbns = [Deal.from_array(a).to_pbn() for a in arrays]
        if as_json:
            text = ", ".join(json.dumps(p) for p in pbns)
            out.write(text if start == 0 else ", " + text)
        else:
            out.write("\n".join(pbns) + "\n")
        out.flush()
    if as_json:
        out.write("]}\n")
        out.flush()


__all__ = ["best_leads", "deal", "leads", "solve", "solve_answer"]
