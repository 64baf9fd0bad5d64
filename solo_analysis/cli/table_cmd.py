"""``solo-analysis table``: bidding-odds tables from a large (resumable) simulation."""

from __future__ import annotations

import shlex

import click

from ._options import play_options, question_budget


@click.command("table", short_help="Bidding-odds tables from random deals (resumable).")
@click.option("--deals", type=int, required=True, help="Number of random deals (>= 1).")
@click.option(
    "--seed", type=int, required=True, help="Seed of the deal stream; a resume needs the same seed."
)
@click.option(
    "--out", "out", required=True, help="Run directory (created; a second run into it resumes)."
)
@click.option(
    "--rules", "rules_spec", default="classic", show_default=True, help="Preset name or .toml file."
)
@click.option(
    "--contracts", default=None, help="Comma-separated contracts to evaluate (default: all)."
)
@click.option(
    "--scheduler",
    default=None,
    help="dask.distributed scheduler address, or 'local' to start a LocalCluster "
    "(default: this process, all cores).",
)
@click.option("--chunk-size", type=int, default=None, help="Deals per chunk file (default 100).")
@click.option(
    "--threads", type=int, default=None, help="numba threads without --scheduler (default: all)."
)
@click.option(
    "--max-question-positions",
    type=int,
    default=None,
    metavar="N",
    help="Search positions per question and deal before an answer is recorded as unsolved "
    "(default 5,000,000, about a second, so that no deal holds the run; 0: no limit, every "
    "answer exact).",
)
@click.option(
    "--reuse",
    default=None,
    metavar="DIR",
    help="Run directory of another rule set (same seed, chunk size and --max-question-positions): "
    "questions both rule sets ask take its answers instead of being solved again.",
)
@click.option(
    "--play",
    type=click.Choice(["double-dummy", "pimc"], case_sensitive=False),
    default="double-dummy",
    show_default=True,
    help="How the deals are played: double-dummy, or pimc (realistic: each player decides "
    "from what he can see).",
)
@click.option(
    "--worlds", type=int, default=None, metavar="N", help="With --play pimc: deals imagined."
)
@click.option(
    "--prior", default=None, metavar="NAME", help="With --play pimc: the defence's prior."
)
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def table(
    deals: int,
    seed: int,
    out: str,
    rules_spec: str,
    contracts: str | None,
    scheduler: str | None,
    chunk_size: int | None,
    threads: int | None,
    max_question_positions: int | None,
    reuse: str | None,
    play: str,
    worlds: int | None,
    prior: str | None,
    quiet: bool,
) -> None:
    """Solve DEALS random deals for every seat and contract; write odds tables into OUT."""
    from ..tables import DEFAULT_CHUNK_SIZE, run_tables

    question_cap = question_budget(max_question_positions)
    names = None if contracts is None else [c for c in contracts.split(",") if c.strip()]
    options = play_options(play, worlds, prior)
    parts = [
        "solo-analysis",
        "table",
        "--deals",
        str(deals),
        "--seed",
        str(seed),
        "--out",
        out,
        "--rules",
        rules_spec,
        *(["--play", play.lower()] if play.lower() != "double-dummy" else []),
    ]
    for flag, value in (
        ("--contracts", contracts),
        ("--scheduler", scheduler),
        ("--chunk-size", chunk_size),
        ("--threads", threads),
        ("--max-question-positions", max_question_positions),
        ("--reuse", reuse),
        ("--worlds", worlds),
        ("--prior", prior),
    ):
        if value is not None:
            parts += [flag, str(value)]
    command = " ".join(shlex.quote(p) for p in parts)
    if not quiet:
        from ._console import compile_notice

        compile_notice("solver.solve_many", "sampler.deal_batch")
    run = run_tables(
        deals,
        seed,
        out,
        rules=rules_spec,
        contracts=names,
        chunk_size=DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size,
        scheduler=scheduler,
        threads=threads,
        progress=not quiet,
        command=command,
        max_question_positions=question_cap,
        reuse=reuse,
        play_model=play.lower(),
        play_options=options,
    )
    speed = "" if run.throughput is None else f", {run.throughput:.3g} deals/s"
    click.echo(
        f"{run.out}: {run.deals} deals (seed {run.seed}, rules {run.rules}); "
        f"{len(run.computed)} chunks computed, {len(run.skipped)} reused{speed}"
    )
    if reuse is not None:
        click.echo(f"reused {run.metadata['answers_reused']:,} answers from {reuse}")
    click.echo(
        f"tables: contract_frequency.csv, {len(run.features)} feature tables, "
        "deals.parquet, metadata.json"
    )


__all__ = ["table"]
