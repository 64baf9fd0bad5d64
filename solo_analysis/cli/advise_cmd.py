"""``solo-analysis advise``: evaluate every contract for one hand and recommend a bid.

Output formats are small functions in ``FORMATTERS`` (``Advice -> str``), so a new view
(a chart, another layout) is one more entry and one more ``--format`` choice.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import click
import numpy as np

from ..report.text import advice_text
from ._console import COMPILE_NOTICE, needs_compiling, stderr_is_terminal
from ._options import play_options, question_budget

# --- progress on stderr -----------------------------------------------------------------------

#: seconds of work before the progress line appears (quick runs print nothing)
PROGRESS_DELAY: float = 0.5


def _stderr_is_terminal() -> bool:
    """Whether stderr is an interactive terminal (progress and notices are shown only then)."""
    return stderr_is_terminal()


def _needs_compiling() -> bool:
    """True if the kernels ``advise`` uses have no numba cache yet, so this run compiles them."""
    return needs_compiling("solver.solve_many", "sampler.deal_batch", "stats.features_into")


class ProgressLine:
    r"""A one-line progress report rewritten in place (``\\r``) on a terminal stream.

    Call it as ``line(done, planned)`` (the ``progress`` callback of :func:`advise`); call
    :meth:`close` at the end to erase the line.  Nothing is written during the first
    ``delay`` seconds (default :data:`PROGRESS_DELAY`), so quick runs stay silent.
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        adaptive: bool,
        tolerance: float | None,
        delay: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_positions: int | None = None,
        bid_only: bool = False,
    ) -> None:
        self.stream = stream
        self.bid_only = bid_only
        self.adaptive = adaptive
        self.tolerance = tolerance
        self.max_positions = max_positions
        self.delay = PROGRESS_DELAY if delay is None else delay
        self.clock = clock
        self.start = clock()
        self.width = 0

    def text(self, done: int, planned: int) -> str:
        """The line for ``done`` of ``planned`` deals."""
        seconds = self.clock() - self.start
        if self.adaptive:
            which = "the bid's intervals are" if self.bid_only else "every interval is"
            tol = (
                ""
                if self.tolerance is None
                else f" until {which} within ±{100 * self.tolerance:g}%"
            )
            cap = (
                "" if self.max_positions is None else f" or {self.max_positions:,} search positions"
            )
            return f"solving: {done} deals (at most {planned}{cap}{tol})  {seconds:.0f} s"
        filled = int(20 * done / planned) if planned else 20
        bar = "#" * filled + "." * (20 - filled)
        return f"solving: [{bar}] {done}/{planned} deals  {seconds:.0f} s"

    def __call__(self, done: int, planned: int) -> None:
        """Rewrite the line for ``done`` of ``planned`` deals (after the first ``delay`` s)."""
        if self.clock() - self.start < self.delay:
            return
        line = self.text(done, planned)
        pad = " " * max(0, self.width - len(line))
        self.stream.write("\r" + line + pad)
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        """Erase the line (if one was written)."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _check_plot_path(path: str) -> None:
    """Fail before any work if the chart cannot be written there (extension, folder)."""
    from ..report.style import figure_format

    figure_format(path)  # PlotError for anything but .png / .svg
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise click.BadParameter(f"folder {folder!r} does not exist", param_hint="'--plot'")


def _write_plot(advice: Any, path: str) -> None:
    from ..report.charts import advice_chart
    from ..report.style import save_figure

    try:
        save_figure(advice_chart(advice), path)
    except OSError as exc:
        raise click.FileError(path, hint=exc.strerror or str(exc)) from None


def _compare(
    hand: str,
    play: str,
    options: dict[str, object],
    fmt: str,
    quiet: bool,
    plot_path: str | None,
    line: ProgressLine | None,
    **kwargs: Any,
) -> None:
    """``--compare-play``: the advice under both play models, on the same deals."""
    from ..advice import compare_play

    other = "double-dummy" if play == "pimc" else "pimc"
    try:
        comparison = compare_play(
            hand, models=(play, other), play_options=options, progress=line, **kwargs
        )
    finally:
        if line is not None:
            line.close()
    if plot_path is not None:
        from ..report.charts import comparison_chart
        from ..report.style import save_figure

        try:
            save_figure(comparison_chart(comparison), plot_path)
        except OSError as exc:
            raise click.FileError(plot_path, hint=exc.strerror or str(exc)) from None
    if quiet and fmt == "table":
        click.echo(f"{play}: {comparison.first.summary()}")
        click.echo(f"{other}: {comparison.second.summary()}")
    elif fmt == "json":
        doc = {
            "first": comparison.first.to_dict(),
            "second": comparison.second.to_dict(),
            "comparison": [
                {k: _plain(v) for k, v in rec.items()}
                for rec in comparison.table.to_dict("records")
            ],
        }
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    elif fmt == "csv":
        click.echo(comparison.table.to_csv(index=False).rstrip("\n"))
    else:
        click.echo(comparison.to_text())


def _plain(value: Any) -> Any:
    """A JSON-ready value: numpy scalars unwrapped, NaN as None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


#: --format choice -> Advice -> text
FORMATTERS: dict[str, Callable[[Any], str]] = {
    "table": advice_text,
    "json": lambda advice: advice.to_json(),
    "csv": lambda advice: advice.to_csv().rstrip("\n"),
}


@click.command(
    "advise", short_help="Success chance, expected units and a recommended bid for a hand."
)
@click.argument("hand")
@click.option("--seat", required=True, help="Your seat: eldest, second, third or dealer.")
@click.option(
    "--turnup", default=None, help="The turned-up card, e.g. 7S or ♠7 (omit only without turn-up)."
)
@click.option(
    "--rules", "rules_spec", default="classic", show_default=True, help="Preset name or .toml file."
)
@click.option(
    "--samples", type=int, default=None, help="Use exactly this many deals (no adaptive sampling)."
)
@click.option(
    "--tolerance",
    type=float,
    default=None,
    help="Adaptive sampling: target half-width of the success intervals (default 0.02).",
)
@click.option(
    "--max-samples",
    type=int,
    default=None,
    help="Cap on the deals of adaptive sampling (default 2000).",
)
@click.option(
    "--max-seconds",
    type=float,
    default=None,
    metavar="S",
    help="Stop adaptive sampling after about S seconds (intervals as wide as the deals allow).",
)
@click.option(
    "--max-positions",
    type=int,
    default=None,
    metavar="N",
    help="Stop adaptive sampling after about N search positions in all (default 60,000,000, "
    "a few seconds; 0: no cap, run to the tolerance).  Unlike --max-seconds, the "
    "same on every machine.",
)
@click.option(
    "--stop-on",
    type=click.Choice(["rows", "bid"], case_sensitive=False),
    default=None,
    help="Adaptive sampling: the rows brought to the tolerance: rows (default) every row, each "
    "Prop partner and trump suit; bid only the rows the recommendation reads (far fewer "
    "deals; the others keep wider intervals).",
)
@click.option(
    "--seed", type=int, default=None, help="Seed of the deal stream (default: random, reported)."
)
@click.option(
    "--over", default=None, help="The highest bid so far: only higher contracts are advised."
)
@click.option(
    "--auction",
    default=None,
    metavar="CALLS",
    help='The calls before yours, e.g. "eldest:prop second:pass" ("" for the first call): '
    "only your legal calls are advised, the deals agree with the others' calls, and passing "
    "is valued.",
)
@click.option(
    "--policy",
    default=None,
    metavar="FILE",
    help="With --auction: the bidding policy that reads the others' calls (default: the one "
    "fitted on the odds tables).",
)
@click.option(
    "--auction-evidence/--no-auction-evidence",
    default=True,
    show_default=True,
    help="With --auction: condition the deals on the other players' calls; off: the auction "
    "only says which calls are legal.",
)
@click.option(
    "--contracts", default=None, help="Comma-separated contracts to evaluate (default: all)."
)
@click.option("--exact", is_flag=True, default=False, help="Count tricks on every row (slower).")
@click.option(
    "--play",
    "play",
    type=click.Choice(["double-dummy", "pimc"], case_sensitive=False),
    default="double-dummy",
    show_default=True,
    help="How the deals are played: double-dummy (everyone sees every card) or pimc "
    "(realistic: each player decides from what he can see).",
)
@click.option(
    "--compare-play",
    is_flag=True,
    default=False,
    help="Also play the same deals with the other play model, and show both side by side with "
    "the paired difference.",
)
@click.option(
    "--worlds",
    type=int,
    default=None,
    metavar="N",
    help="With --play pimc: deals a player imagines at each decision (default 16).",
)
@click.option(
    "--prior",
    default=None,
    metavar="NAME",
    help="With --play pimc: what the defence reads into a lone declarer's bid: default, none, "
    "misere-hcp4, or policy (the hand the bidding policy makes the bid with).",
)
@click.option(
    "--max-question-positions",
    type=int,
    default=None,
    metavar="N",
    help="Search positions per question and deal before a deal is left unsolved "
    "(default 5,000,000, about a second; 0: no limit, solve every deal exactly).",
)
@click.option(
    "--control-variates/--no-control-variates",
    default=True,
    show_default=True,
    help="Correct the estimates by the other hands' high cards and suit lengths "
    "(narrower intervals, fewer deals); off: plain rates, Wilson intervals.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(FORMATTERS), case_sensitive=False),
    default="table",
    show_default=True,
)
@click.option(
    "--plot",
    "plot_path",
    default=None,
    metavar="FILE",
    help="Also write the advice chart to FILE (.png or .svg).",
)
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Print only the recommendation line (table format); no progress on stderr.",
)
def advise(
    hand: str,
    seat: str,
    turnup: str | None,
    rules_spec: str,
    samples: int | None,
    tolerance: float | None,
    max_samples: int | None,
    max_seconds: float | None,
    max_positions: int | None,
    stop_on: str | None,
    seed: int | None,
    over: str | None,
    auction: str | None,
    policy: str | None,
    auction_evidence: bool,
    contracts: str | None,
    exact: bool,
    play: str,
    compare_play: bool,
    worlds: int | None,
    prior: str | None,
    max_question_positions: int | None,
    control_variates: bool,
    fmt: str,
    plot_path: str | None,
    quiet: bool,
) -> None:
    """Evaluate every contract for HAND (e.g. AKJ94.K83.Q72.65) and recommend a bid."""
    from ..advice import (
        DEFAULT_MAX_POSITIONS,
        DEFAULT_MAX_SAMPLES,
        DEFAULT_TOLERANCE,
    )
    from ..advice import advise as run_advise

    adaptive = (tolerance, max_samples, max_seconds, max_positions, stop_on)
    if samples is not None and any(x is not None for x in adaptive):
        raise click.UsageError(
            "give either --samples or --tolerance/--max-samples/--max-seconds/--max-positions/"
            "--stop-on, not both"
        )
    if max_positions is not None and max_positions < 0:
        raise click.UsageError(
            f"--max-positions must be 0 (no cap) or a positive number, got {max_positions}"
        )
    positions_cap = DEFAULT_MAX_POSITIONS if max_positions is None else (max_positions or None)
    if max_seconds is not None and not 0 < max_seconds < float("inf"):
        raise click.UsageError(f"--max-seconds must be a positive number, got {max_seconds:g}")
    if auction is None and (policy is not None or not auction_evidence):
        flag = "--policy" if policy is not None else "--no-auction-evidence"
        raise click.UsageError(f"{flag} applies with --auction only")
    if plot_path is not None:
        _check_plot_path(plot_path)
    question_cap = question_budget(max_question_positions)
    names = None if contracts is None else [c for c in contracts.split(",") if c.strip()]
    options = play_options(play, worlds, prior, compare_play)
    line = None
    if not quiet and _stderr_is_terminal():
        if _needs_compiling():
            click.echo(COMPILE_NOTICE, err=True)
        line = ProgressLine(
            sys.stderr,
            adaptive=samples is None,
            tolerance=DEFAULT_TOLERANCE if tolerance is None else tolerance,
            max_positions=positions_cap,
            bid_only=stop_on is not None and stop_on.lower() == "bid",
        )
    common: dict[str, Any] = {
        "seat": seat,
        "turnup": turnup,
        "rules": rules_spec,
        "samples": samples,
        "seed": seed,
        "over": over,
        "auction": auction,
        "policy": policy,
        "auction_evidence": auction_evidence,
        "tolerance": DEFAULT_TOLERANCE if tolerance is None else tolerance,
        "max_samples": DEFAULT_MAX_SAMPLES if max_samples is None else max_samples,
        "exact": True if exact else None,
        "max_question_positions": question_cap,
        "control_variates": control_variates,
        "max_seconds": max_seconds,
        "max_positions": positions_cap,
        "contracts": names,
    }
    if stop_on is not None:
        common["stop_on"] = stop_on.lower()
    if compare_play:
        _compare(hand, play.lower(), options, fmt.lower(), quiet, plot_path, line, **common)
        return
    try:
        advice = run_advise(
            hand, play_model=play.lower(), play_options=options, progress=line, **common
        )
    except KeyboardInterrupt as exc:
        # the advice from the deals solved before the interrupt (stopped: "interrupted"), if any
        if line is not None:
            line.close()
        partial = getattr(exc, "partial", None)
        if partial is not None:
            only = quiet and fmt.lower() == "table"
            click.echo(partial.summary() if only else FORMATTERS[fmt.lower()](partial))
        raise
    finally:
        if line is not None:
            line.close()
    if plot_path is not None:
        _write_plot(advice, plot_path)
    fmt = fmt.lower()
    if quiet and fmt == "table":
        click.echo(advice.summary())
        return
    click.echo(FORMATTERS[fmt](advice))


__all__ = ["FORMATTERS", "ProgressLine", "advise"]
