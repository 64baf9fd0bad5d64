"""Running a table: deal, solve and summarise many random deals, locally or on a dask cluster.

A run's results depend on ``(seed, deal index)`` alone: never on the thread count, the chunk
size or the executor (this process's numba threads, or a dask.distributed cluster).  Runs are
resumable (:mod:`~solo_analysis.tables.store`).

Outputs of a run (in ``OUT``): ``deals.parquet`` (one row per deal and seat: the deal, seat,
turn-up, hand features and one nullable boolean column per question), ``contract_frequency.csv``,
``features_<name>.csv`` (:data:`~solo_analysis.tables.summary.FEATURE_TABLES`, per seat and
pooled) and ``metadata.json`` (seed, rules, command, throughput, where the solver time went).

Interrupts: Ctrl-C (or SIGTERM, through the command line's handler) stops the solver's workers
within a fraction of a second (:func:`~solo_analysis.solver.run_stoppable`) and
:func:`run_tables` raises :class:`~solo_analysis.errors.Interrupted`.  Every finished chunk is
on disk already, and a resume redoes only the chunk in progress: the unit of work kept is the
chunk, so a smaller ``chunk_size`` keeps more of an interrupted run (the chunk's deals are
solved together, and solving them in pieces instead cost as much as smaller chunks: pieces of
10 / 20 deals of 100 took 1.7-2.1x / 1.2-1.9x the time, seed 7, every classic contract).
"""

from __future__ import annotations

import json
import numbers
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from .. import __version__
from ..bidding.features import FEATURES
from ..errors import Interrupted, TableError, signal_of
from ..play import PlayModel, make_play_model
from ..rules import RuleSet, load_rules
from ..sampler import check_seed
from .evaluate import evaluate_chunk, result_columns, selected_contracts
from .store import (
    check_manifest,
    chunk_done,
    chunk_path,
    chunk_timings,
    manifest,
    merge_chunks,
    prepare_out,
    reuse_chunk,
    reuse_source,
    write_parquet,
    write_text,
)
from .summary import THIN, contract_frequencies, feature_tables

__all__ = ["DEFAULT_CHUNK_SIZE", "TableRun", "run_tables"]

#: deals per chunk (one Parquet file, one unit of work for an executor, what an interrupt keeps)
DEFAULT_CHUNK_SIZE: int = 100


#: how long to wait for a dask scheduler to answer
SCHEDULER_TIMEOUT: str = "10s"


@dataclass
class TableRun:
    """What :func:`run_tables` did and produced.

    Attributes
    ----------
    out : pathlib.Path
        The run directory.
    deals, seed, chunk_size : int
    rules : str
        Rule-set name.
    computed, skipped : list of int
        Chunks computed by this call, and chunks found finished and reused.
    throughput : float or None
        Deals per second over the chunks computed by this call (wall time of their
        evaluation), ``None`` if it computed none.
    frequencies : pandas.DataFrame
        :func:`contract_frequencies`.
    features : dict of str to pandas.DataFrame
        :func:`feature_tables`.
    metadata : dict
        What ``metadata.json`` holds.
    """

    out: Path
    deals: int
    seed: int
    rules: str
    chunk_size: int
    computed: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    throughput: float | None = None
    frequencies: pd.DataFrame | None = None
    features: dict[str, pd.DataFrame] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


def _check_int(value: Any, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < low:
        raise TableError(f"{what} must be an int >= {low}, got {value!r}")
    return int(value)


def _stderr_progress(done: int, total: int, chunk: int, n_chunks: int, rate: float | None) -> None:
    eta = ""
    if rate and done < total:
        left = (total - done) / rate
        if left >= 1:
            eta = (
                f", about {left / 60:.0f} min left" if left >= 90 else f", about {left:.0f} s left"
            )
    speed = f", {rate:.3g} deals/s" if rate else ""
    line = f"table: {done}/{total} deals done (chunk {chunk + 1} of {n_chunks}){speed}{eta}"
    print(line, file=sys.stderr, flush=True)


def run_tables(
    deals: int,
    seed: int,
    out: str | os.PathLike[str],
    *,
    rules: RuleSet | str = "classic",
    contracts: Iterable[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    scheduler: str | None = None,
    threads: int | None = None,
    play_model: str | PlayModel = "double-dummy",
    play_options: Mapping[str, Any] | None = None,
    progress: bool | Callable[..., None] = True,
    command: str | None = None,
    thin: int = THIN,
    max_question_positions: int | None = None,
    reuse: str | os.PathLike[str] | None = None,
) -> TableRun:
    """Deal, solve and summarise ``deals`` random deals into ``out`` (resumable).

    Parameters
    ----------
    deals : int
        Number of deals (>= 1); deal indices ``0 .. deals-1``.
    seed : int
        ``0 <= seed < 2**64``.
    out : path
        Run directory (created); holds ``manifest.json``, ``chunks/`` and the outputs.
    rules : RuleSet or str, default "classic"
        A preset name, a ``.toml`` path or a :class:`~solo_analysis.rules.RuleSet`.
    contracts : iterable of str, optional
        Only these contracts; default all of the rule set.
    chunk_size : int, default DEFAULT_CHUNK_SIZE
        Deals per chunk.  Part of the run's identity: a resume must use the same size.
    scheduler : str, optional
        ``None``: this process, numba threads.  ``"local"``: start a dask ``LocalCluster``.
        Otherwise the address of a running dask.distributed scheduler (``"tcp://host:8786"``).
        Chunk files are written by this process in every case (workers need no shared disk).
    threads : int, optional
        numba threads for the local executor (default: all).
    play_model : str or PlayModel, default "double-dummy"
        How each deal is played: ``"double-dummy"``, ``"pimc"`` (realistic play) or a model;
        its ``name`` and options are part of the run's identity.  An instance sent to a dask
        cluster must be picklable.
    play_options : mapping, optional
        The named model's options (:data:`~solo_analysis.play.PLAY_OPTIONS`); a realistic
        play model's ``seed`` defaults to the run's.
    progress : bool or callable, default True
        ``True`` prints a line per chunk on stderr; a callable is called as
        ``progress(deals_done, deals, chunk, n_chunks, deals_per_second)``.
    command : str, optional
        Recorded in ``metadata.json`` (default: this process's command line).
    thin : int, default THIN
        Table cells with fewer hands are flagged ``thin``.
    max_question_positions : int, optional
        Search positions the named play model may spend on one question of one deal (part of
        the run's identity).  Answers it gives up on are recorded as unsolved (the ``unsolved``
        column of ``deals.parquet``, the ``unresolved`` column of the tables, whose intervals
        then cover both outcomes), so a rare very hard deal cannot stall a long run.  ``None``
        (default): every answer exact.
    reuse : path, optional
        The directory of a run of **another rule set** with the same seed, chunk size, play
        model and ``max_question_positions`` (finished or not).  For each chunk that run has
        finished, every question both rule sets ask (the same trump, leader, declarer side and
        target: Solo, Misère, Prop-Cop, ... under ``classic`` and ``parlett``) takes that run's
        answer instead of being solved again; the rest are solved.  The results are those of a
        run without ``reuse``, except that an answer given up on there
        (``max_question_positions``) stays given up on.  Not part of the run's identity.

    Returns
    -------
    TableRun

    Raises
    ------
    TableError
        Bad ``deals``, ``seed``, ``chunk_size``, ``threads`` or play model; an unwritable
        ``out``; ``out`` holding chunks of a run with another seed, rule set, contract list,
        chunk size or play model; an unreachable scheduler; a ``reuse`` directory that is not a
        run of the same seed, chunk size, play model and ``max_question_positions``.
    RuleSetError, ContractError
        An unknown rule set or contract.
    Interrupted
        On Ctrl-C (``KeyboardInterrupt``) or another interrupt, once the solver stopped: the
        finished chunks are kept, and the same call resumes the run.
    """
    deals = _check_int(deals, "deals", 1)
    seed = check_seed(seed)
    chunk_size = _check_int(chunk_size, "chunk size", 1)
    if threads is not None:
        threads = _check_int(threads, "threads", 1)
    rs = load_rules(rules)
    names = selected_contracts(rs, contracts)
    if max_question_positions is not None:
        max_question_positions = _check_int(max_question_positions, "max_question_positions", 1)
    options = dict(play_options or {})
    if isinstance(play_model, str) and play_model.strip().lower() == "pimc":
        options.setdefault("seed", seed)  # the worlds' streams follow the run's seed
    model = make_play_model(
        play_model, max_positions=max_question_positions, threads=threads, options=options
    )
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - pyarrow comes with the dev extra
        raise TableError(
            "odds tables are written as Parquet and need pyarrow: pip install pyarrow"
        ) from None
    out = Path(out)
    prepare_out(out)
    identity = manifest(
        seed,
        rs,
        names,
        chunk_size,
        model.name,
        getattr(model, "max_positions", None),
        model.options(),
    )
    donor = None if reuse is None else reuse_source(Path(reuse), identity)
    if not check_manifest(out, identity):
        write_text(out / "manifest.json", json.dumps(identity, indent=2) + "\n")

    n_chunks = (deals + chunk_size - 1) // chunk_size
    spans = [(k, k * chunk_size, min(chunk_size, deals - k * chunk_size)) for k in range(n_chunks)]
    todo = [s for s in spans if not chunk_done(chunk_path(out, s[0]), s[2])]
    run = TableRun(out=out, deals=deals, seed=seed, rules=rs.name, chunk_size=chunk_size)
    run.skipped = [k for k, _, _ in spans if k not in {t[0] for t in todo}]
    report: Callable[..., None] | None
    if progress is True:
        report = _stderr_progress
        if run.skipped:
            print(
                f"table: resuming, {len(run.skipped)} of {n_chunks} chunks already done",
                file=sys.stderr,
            )
    else:
        report = progress or None

    seconds: dict[str, float] = defaultdict(float)
    asked: dict[str, float] = defaultdict(float)
    busy = 0.0
    reused = 0
    done_deals = sum(n for k, _, n in spans if k in set(run.skipped))
    new_deals = 0
    t_start = time.perf_counter()

    def finish(k: int, start: int, n: int, frame: pd.DataFrame, timing: dict[str, Any]) -> None:
        nonlocal busy, done_deals, new_deals, reused
        meta = {"chunk": k, "start": start, "n": n, "seed": seed, "timing": timing}
        write_parquet(chunk_path(out, k), frame, meta)
        for q, s in timing["seconds"].items():
            seconds[q] += s
        for q, s in timing["deals"].items():
            asked[q] += s
        busy += timing["wall"]
        reused += timing.get("reused", 0)
        done_deals += n
        new_deals += n
        run.computed.append(k)
        if report is not None:
            elapsed = time.perf_counter() - t_start
            report(done_deals, deals, k, n_chunks, new_deals / elapsed if elapsed > 0 else None)

    executor = (
        "threads" if scheduler is None else ("dask-local" if scheduler == "local" else "dask")
    )
    try:
        if todo and scheduler is None:
            _run_local(todo, seed, rs, names, model, finish, donor)
        elif todo and scheduler is not None:
            _run_dask(todo, seed, rs, names, model, scheduler, finish, donor)
    except KeyboardInterrupt as exc:
        kept = len(run.skipped) + len(run.computed)
        detail = f"{kept} of {n_chunks} chunks kept in {str(out)!r}; the same command resumes"
        raise Interrupted(signal_of(exc), None, detail) from None
    wall = time.perf_counter() - t_start

    frame = merge_chunks(out, spans)
    total = chunk_timings(out, spans)
    write_parquet(out / "deals.parquet", frame)
    run.frequencies = contract_frequencies(frame, rs, names, thin)
    write_text(
        out / "contract_frequency.csv", run.frequencies.to_csv(index=False, float_format="%.6g")
    )
    run.features = feature_tables(frame, rs, names, thin)
    for stem, table in run.features.items():
        write_text(out / f"features_{stem}.csv", table.to_csv(index=False, float_format="%.6g"))
    run.throughput = new_deals / wall if new_deals and wall > 0 else None
    import numba

    run.metadata = {
        "deals": deals,
        "seed": seed,
        "rules": rs.name,
        "rules_toml": rs.to_toml(),
        "contracts": list(names),
        "version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command
        if command is not None
        else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "chunk_size": chunk_size,
        "chunks": n_chunks,
        "chunks_computed": len(run.computed),
        "chunks_reused": len(run.skipped),
        "executor": executor,
        "numba_threads": numba.get_num_threads() if threads is None else threads,
        "throughput_deals_per_second": run.throughput,
        "throughput_note": (
            "deals computed by this invocation / its wall time (all seats, all contracts)"
        ),
        "solver_seconds_by_question": {k: round(v, 3) for k, v in sorted(seconds.items())},
        "solver_deals_by_question": {k: int(v) for k, v in sorted(asked.items())},
        "chunk_seconds": round(busy, 3),
        "reused_from": None if donor is None else {"out": str(donor[0]), "rules": donor[1].name},
        "answers_reused": reused,
        "answers_reused_note": (
            "answers (deal x seat x question) of this invocation taken from reused_from"
        ),
        "all_chunks": total,
        "wall_seconds": round(wall, 3),
        "play_model": model.name,
        "play_options": model.options(),
        "max_question_positions": getattr(model, "max_positions", None),
        "turnup": "a uniformly random card of the dealer's hand, from a hash of (seed, deal index)",
        "thin": thin,
        "features": FEATURES,
        "columns": {col: {"contract": c, "variant": v} for col, c, v in result_columns(rs, names)},
    }
    write_text(out / "metadata.json", json.dumps(run.metadata, indent=2, ensure_ascii=False) + "\n")
    return run


def _run_local(
    todo: Sequence[tuple[int, int, int]],
    seed: int,
    rules: RuleSet,
    names: Sequence[str],
    model: PlayModel,
    finish: Callable[..., None],
    donor: tuple[Path, RuleSet] | None = None,
) -> None:
    for k, start, n in todo:
        frame, timing = evaluate_chunk(
            seed, start, n, rules, names, model, reuse=reuse_chunk(donor, k, n)
        )
        finish(k, start, n, frame, timing)


def _run_dask(
    todo: Sequence[tuple[int, int, int]],
    seed: int,
    rules: RuleSet,
    names: Sequence[str],
    model: PlayModel,
    scheduler: str,
    finish: Callable[..., None],
    donor: tuple[Path, RuleSet] | None = None,
) -> None:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is an optional dependency
        raise TableError(
            "--scheduler needs dask.distributed: pip install 'solo-analysis[cluster]'"
        ) from None
    cluster = None
    try:
        if scheduler == "local":
            # one single-threaded worker process per core: chunks run side by side, and
            # numba inside each worker is held to one thread so the cores are not oversubscribed
            cluster = LocalCluster(
                n_workers=os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                env={"NUMBA_NUM_THREADS": "1"},
            )
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise TableError(f"cannot reach dask scheduler {scheduler!r}: {exc}") from None
        try:
            futures = {
                client.submit(
                    evaluate_chunk,
                    seed,
                    start,
                    n,
                    rules,
                    list(names),
                    model,
                    reuse=reuse_chunk(donor, k, n),
                    pure=False,
                    key=f"solo-table-{seed}-{k}-{n}-{os.getpid()}-{time.time_ns()}",
                ): (k, start, n)
                for k, start, n in todo
            }
            try:
                for fut in as_completed(futures):
                    k, start, n = futures[fut]
                    frame, timing = fut.result()
                    finish(k, start, n, frame, timing)
            finally:
                client.cancel(list(futures))
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
