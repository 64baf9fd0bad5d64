"""Many deals at once: :func:`solve_batch`, :func:`solve_questions`, and :func:`run_stoppable`.

The (question, deal) tasks run in numba's threads with the GIL released, each worker with
its own transposition table; no numba setting is changed, so Python threads may call these
at the same time.  Answers and positions do not depend on the number of threads.

A batch kernel runs in a worker thread of its own while the calling thread waits for it in
short timed waits (:func:`run_stoppable`), so that Ctrl-C (or a SIGTERM handler's exception)
reaches the calling thread, which sets the kernel's ``stop`` flag, waits the fraction of a
second the workers take to stop, and raises the interrupt again.  numba kernels cannot read
a global array that changes, so the flag is the kernel's last argument.  Other batch kernels
use it the same way, and check their ``max_positions`` and ``threads`` with
:func:`check_max_positions` and :func:`check_threads`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt

from ..cards import DeclarersLike
from ..errors import DealError
from . import _kernels
from ._table import TT_BITS_DEFAULT
from .question import Question

__all__ = [
    "STOP_POLL",
    "check_max_positions",
    "check_threads",
    "run_stoppable",
    "solve_batch",
    "solve_questions",
    "worker_tables",
]

#: tasks a worker is given at least: a smaller batch runs on fewer workers (waking a thread
#: costs more than a few tasks)
_TASKS_PER_WORKER = 8
#: seconds between two looks of the waiting thread at its signals (:func:`run_stoppable`)
STOP_POLL: float = 0.05

_T = TypeVar("_T")


class _Tables(threading.local):
    """The batch kernels' tables of one Python thread, kept from one call to the next."""

    def __init__(self) -> None:
        self.tables: tuple[npt.NDArray[np.int64], ...] = ()


_TABLES = _Tables()


def worker_tables(workers: int) -> tuple[npt.NDArray[np.int64], ...]:
    """``workers`` transposition tables and move buffers (:func:`._kernels.new_tables`).

    A Python thread keeps the largest set it was given and hands out its first ``workers``
    (views): every task resets its table's fill counters before it searches, so no call
    reads another's entries, and a new set a call (2**19 entries, about 18 MB a worker:
    4-5 ms to allocate and first touch) cost a tenth of a quick advice.  The kernels that
    take them run through :func:`run_stoppable`, which returns only once the kernel has,
    so two calls never share them.
    """
    kept = _TABLES.tables
    if not kept or kept[0].shape[0] < workers:
        kept = _TABLES.tables = _kernels.new_tables(workers, TT_BITS_DEFAULT)
    return tuple(t[:workers] for t in kept)


def run_stoppable(kernel: Callable[..., _T], *args: Any) -> _T:
    """Run ``kernel(*args, stop)`` in a worker thread; stop it if the caller is interrupted.

    ``stop`` is a new ``int64[1]`` array of zeros, the kernel's stop flag: a long-running
    kernel takes it as its last argument and its workers look at it (with
    :func:`._flag.stop_set`) between tasks, and its searches every
    :data:`~solo_analysis.solver._search.STOP_EVERY` positions (as ``solve_many`` does).  The
    kernel must release the GIL (``nogil=True``) for the wait to be interruptible: the
    calling thread waits on an event the kernel's thread sets when the kernel returns, in
    timed waits of :data:`STOP_POLL` seconds,
    so a ``KeyboardInterrupt`` (Ctrl-C), or any exception a signal handler raises there,
    reaches it while the kernel runs.  It then sets ``stop[0] = 1``, waits for the kernel to
    return (the workers stop within milliseconds; a second interrupt meanwhile only sets the
    flag again) and raises the interrupt, with the kernel's partial result dropped.  Running
    a kernel this way also keeps a signal from landing inside numba's dispatcher on the
    calling thread, where it turned the kernel's result into a ``SystemError`` or a crash.

    Returns
    -------
    The kernel's result.

    Raises
    ------
    KeyboardInterrupt, BaseException
        What interrupted the wait, after the kernel stopped; or what the kernel raised.
    """
    stop = np.zeros(1, dtype=np.int64)
    result: list[_T] = []
    failure: list[BaseException] = []
    # Set by the worker when the kernel has returned.  Not ``Thread.join`` / ``is_alive``:
    # an exception raised in a join (a signal handler's) can leave Python 3.11's thread
    # object marked as stopped while the kernel still runs, and the next kernel would then
    # run beside it.
    done = threading.Event()

    def work() -> None:
        try:
            result.append(kernel(*args, stop))
        except BaseException as exc:  # handed to the calling thread
            failure.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=work, name="solo-analysis-kernel", daemon=True)
    try:
        worker.start()
        while not done.wait(STOP_POLL):
            pass
    except BaseException:
        stop[0] = 1
        while not done.is_set():
            try:
                done.wait(STOP_POLL)
            except BaseException:  # a second interrupt: the kernel is stopping already
                stop[0] = 1
        raise
    if failure:
        raise failure[0]
    return result[0]


def solve_batch(
    deals: npt.ArrayLike,
    *,
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = False,
    target: int | None = None,
    max_positions: int | None = None,
    threads: int | None = None,
) -> npt.NDArray[np.int8] | npt.NDArray[np.bool_]:
    """Solve many deals in parallel (numba threads, GIL released).

    Parameters
    ----------
    deals : numpy.ndarray
        Integer array of card codes, shape ``(n, 4, k)``: axis 1 is the four seats
        clockwise (N E S W, or eldest..dealer for the sampler's arrays), each hand
        ``k`` cards (1..13).  A single deal of shape ``(4, k)`` is accepted too.
    trump, leader, declarers, misere, target
        As for :func:`~solo_analysis.solver.solve`; seats may also be ints 0..3 or the
        play-order names ``"eldest"``, ``"second"``, ``"third"``, ``"dealer"``; trump may be
        0..4.
    max_positions : int, optional
        Give up on a deal once its search has visited this many positions (for one
        answer: all the zero-window searches an exact count takes).  ``None``: no
        limit, every answer is exact.  The solver visits a few million positions a
        second on one thread; almost every full deal needs far fewer than a million.
    threads : int, optional
        The most worker threads to use (``None``: numba's thread count,
        :func:`numba.get_num_threads`); a batch gets one worker for every 8 tasks at most.

    Returns
    -------
    numpy.ndarray
        ``int8`` tricks per deal, or ``bool`` answers when ``target`` is given.  With
        ``max_positions``, always ``int8``: the tricks, or 1/0 for ``target`` questions,
        and -1 for the deals given up on.

    Raises
    ------
    DealError
        For a malformed array (shape, codes out of 0..51, a card dealt twice), target,
        ``max_positions`` or ``threads``.
    TrumpError, SeatError
        As for :func:`~solo_analysis.solver.solve`.
    """
    question = Question(trump, leader, declarers, misere, target)
    (out,) = solve_questions(deals, [question], max_positions=max_positions, threads=threads)
    if max_positions is not None or target is None:
        return out
    return out.astype(bool)


@overload
def solve_questions(
    deals: npt.ArrayLike,
    questions: Iterable[Question],
    *,
    max_positions: int | None = ...,
    return_positions: Literal[False] = ...,
    threads: int | None = ...,
) -> list[npt.NDArray[np.int8]]: ...


@overload
def solve_questions(
    deals: npt.ArrayLike,
    questions: Iterable[Question],
    *,
    max_positions: int | None = ...,
    return_positions: Literal[True],
    threads: int | None = ...,
) -> tuple[list[npt.NDArray[np.int8]], list[npt.NDArray[np.int64]]]: ...


def solve_questions(
    deals: npt.ArrayLike,
    questions: Iterable[Question],
    *,
    max_positions: int | None = None,
    return_positions: bool = False,
    threads: int | None = None,
) -> list[npt.NDArray[np.int8]] | tuple[list[npt.NDArray[np.int8]], list[npt.NDArray[np.int64]]]:
    """Ask several questions about the same deals in one parallel run.

    Equivalent to one :func:`solve_batch` call per question, but all (question, deal) pairs go
    to the workers together, so they wait for the slowest answer once rather than once per
    question (the Monte Carlo advice asks a dozen questions of each batch).

    Parameters
    ----------
    deals : numpy.ndarray
        Card codes, shape ``(n, 4, k)`` (as for :func:`solve_batch`).
    questions : iterable of Question
        What to ask, and on which deals (:attr:`Question.subset`).
    max_positions : int, optional
        As for :func:`solve_batch`: give up on an answer after this many positions.
    return_positions : bool, default False
        Also return how many search positions each answer took (the measure of work that
        ``max_positions`` caps; it depends on the deal and question alone, not on the
        threads).
    threads : int, optional
        As for :func:`solve_batch`.

    Returns
    -------
    list of numpy.ndarray
        One ``int8`` array per question, over its ``subset`` (or all deals), in order: tricks,
        or 1/0 for ``target`` questions; -1 where the search gave up (only with
        ``max_positions``).  With ``return_positions``, a pair: that list and a matching list
        of ``int64`` arrays of positions.

    Raises
    ------
    DealError, TrumpError, SeatError
        As for :func:`solve_batch`, or a ``subset`` index outside the deals.
    TypeError
        For a question that is not a :class:`Question`.
    """
    masks, k = _deal_masks(deals)
    n = masks.shape[0]
    limit = check_max_positions(max_positions)
    most = check_threads(threads)
    parts: list[tuple[npt.NDArray[np.int64], Question, int]] = []
    for q in questions:
        if not isinstance(q, Question):
            raise TypeError(f"expected a Question, got {q!r}")
        idx = np.arange(n, dtype=np.int64) if q.subset is None else q.subset
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise DealError(f"invalid question subset: expected indices of the {n} deals")
        parts.append((idx, q, q.kernel_target(k)))
    if not parts:
        return ([], []) if return_positions else []
    sizes = [p[0].size for p in parts]
    deal = np.concatenate([p[0] for p in parts])
    # deal by deal: the workers take the tasks in this order (solve_many), so slow and quick
    # questions alternate all along the queue, its end included, where a run of slow ones
    # would leave one worker busy alone
    order = np.argsort(deal, kind="stable")

    def column(values: list[int] | list[bool], dtype: type[np.generic]) -> npt.NDArray[np.generic]:
        return np.repeat(np.array(values, dtype=dtype), sizes)[order]

    answers, work = _run_tasks(
        masks,
        deal[order],
        column([q.trump for _, q, _ in parts], np.int64),
        column([q.leader for _, q, _ in parts], np.int64),
        column([q.declarers_mask for _, q, _ in parts], np.int64),
        column([q.misere for _, q, _ in parts], np.bool_),
        column([t for _, _, t in parts], np.int64),
        limit,
        most,
    )
    out = np.empty_like(answers)
    out[order] = answers
    split = np.cumsum(sizes)[:-1]
    if not return_positions:
        return np.split(out, split)
    positions = np.empty_like(work)
    positions[order] = work
    return np.split(out, split), np.split(positions, split)


def _deal_masks(deals: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], int]:
    """Check a deals array (``(n, 4, k)`` or ``(4, k)`` card codes); its bitmasks and ``k``."""
    arr = np.asarray(deals)
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1] != 4 or not 1 <= arr.shape[2] <= 13:
        raise DealError(
            f"invalid deals array of shape {np.shape(deals)}: expected (n, 4, k), k in 1..13"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise DealError(f"invalid deals array of dtype {arr.dtype}: expected integer card codes")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise DealError("invalid deals array: card codes must be 0..51")
    masks: npt.NDArray[np.int64] = _kernels.codes_to_masks(arr.astype(np.int8, copy=False))
    k = arr.shape[2]
    if arr.shape[0]:
        complete = _kernels.popcount_rows(masks) == 4 * k
        if not complete.all():
            bad = int(np.argmin(complete))
            raise DealError(f"invalid deals array: deal {bad} holds a card twice")
    return masks, k


def check_max_positions(max_positions: int | None) -> int:
    """The kernels' limit on positions: :data:`NO_LIMIT` for ``None``.

    Raises
    ------
    DealError
        For anything but a positive int or ``None``.
    """
    if max_positions is None:
        return _kernels.NO_LIMIT
    if (
        isinstance(max_positions, bool | np.bool_)
        or not isinstance(max_positions, int | np.integer)
        or max_positions < 1
    ):
        raise DealError(f"invalid max_positions {max_positions!r}: expected a positive int or None")
    return int(max_positions)


def check_threads(threads: int | None) -> int:
    """The most workers: numba's thread count for ``None``.

    Raises
    ------
    DealError
        For anything but a positive int or ``None``.
    """
    if threads is None:
        import numba

        return int(numba.get_num_threads())
    if (
        isinstance(threads, bool | np.bool_)
        or not isinstance(threads, int | np.integer)
        or threads < 1
    ):
        raise DealError(f"invalid threads {threads!r}: expected a positive int or None")
    return int(threads)


def _run_tasks(
    masks: npt.NDArray[np.int64],
    deal: npt.NDArray[np.int64],
    trump: npt.NDArray[np.generic],
    leader: npt.NDArray[np.generic],
    declarers_mask: npt.NDArray[np.generic],
    misere: npt.NDArray[np.generic],
    target: npt.NDArray[np.generic],
    limit: int,
    most: int,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The ``int8`` answers and ``int64`` positions searched per task.

    The tasks run on ``min(most, ceil(tasks / 8))`` workers (at least 1).
    """
    tasks = deal.shape[0]
    if tasks == 0:
        return np.empty(0, dtype=np.int8), np.empty(0, dtype=np.int64)
    workers = max(1, min(most, -(-tasks // _TASKS_PER_WORKER)))
    answers, work = run_stoppable(
        _kernels.solve_many,
        masks,
        deal,
        trump,
        leader,
        declarers_mask,
        misere,
        target,
        *worker_tables(workers),
        limit,
    )
    return answers, work
