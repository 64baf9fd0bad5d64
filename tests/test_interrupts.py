"""Interrupts: the workers stop at once, finished work is kept, one line and 130 / 143 at the end.

Ctrl-C and SIGTERM never crash a command or print a traceback.

The command-line tests send real signals to ``solo-analysis`` child processes once they are
solving: the child runs the command line with the solver's batch kernel wrapped so that its
first call leaves a marker file, which the test waits for.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from solo_analysis import advise
from solo_analysis import tables as T
from solo_analysis.advice import sampling
from solo_analysis.errors import Interrupted
from solo_analysis.play import PlayModel
from solo_analysis.sampler import random_deals
from solo_analysis.solver import Question, _kernels, run_stoppable, solve_questions
from solo_analysis.tables import run as table_run

# --- the stop flag in the kernels --------------------------------------------------------------


@pytest.mark.jit_off
def test_run_stoppable_passes_a_clear_flag_and_returns_the_result():
    def kernel(a, b, stop):
        assert stop.dtype == np.int64 and stop.shape == (1,) and stop[0] == 0
        return a + b

    assert run_stoppable(kernel, 2, 3) == 5


@pytest.mark.jit_off
def test_run_stoppable_hands_on_the_kernels_error():
    def kernel(stop):
        raise ZeroDivisionError("inside the kernel")

    with pytest.raises(ZeroDivisionError, match="inside the kernel"):
        run_stoppable(kernel)


class _Poke(Exception):
    """Raised by the test's SIGUSR1 handler, as the command line's SIGTERM handler raises."""


@pytest.mark.jit_off
def test_run_stoppable_raises_only_once_the_kernel_has_returned():
    # the kernel takes 0.3 s to wind down after its flag is set; an exception raised in the
    # wait (as a signal handler raises it) must not let run_stoppable return before that
    finished: list[float] = []

    def kernel(stop):
        while stop[0] == 0:
            time.sleep(0.001)
        time.sleep(0.3)
        finished.append(time.perf_counter())

    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: (_ for _ in ()).throw(_Poke()))
    timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGUSR1))
    try:
        timer.start()
        with pytest.raises(_Poke):
            run_stoppable(kernel)
        raised = time.perf_counter()
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)
    assert finished and finished[0] <= raised


@pytest.mark.jit_off
def test_a_batch_with_the_flag_set_solves_nothing():
    deals = random_deals(3, 1)[:, :, :2]  # two-card endings
    masks = _kernels.codes_to_masks(deals)
    n = 6
    answers, work = _kernels.solve_many(
        masks,
        np.arange(n, dtype=np.int64) % 3,
        np.full(n, 4, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.full(n, 0b0101, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
        np.full(n, -1, dtype=np.int64),
        *_kernels.new_tables(1, 10),
        _kernels.NO_LIMIT,
        np.ones(1, dtype=np.int64),
    )
    assert (answers == _kernels.STOPPED).all() and (work == 0).all()


def test_an_interrupt_stops_the_workers_within_a_second():
    deals = random_deals(2000, 3)
    questions = [Question(t, 1, (0, 2), False, None) for t in (1, 4)]  # exact counts: long
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: (_ for _ in ()).throw(_Poke()))
    sent: list[float] = []

    def poke() -> None:
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGUSR1)

    timer = threading.Timer(0.5, poke)
    try:
        timer.start()
        with pytest.raises(_Poke):
            solve_questions(deals, questions)
        latency = time.perf_counter() - sent[0]
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)
    assert latency < 1.0
    kernels = [t for t in threading.enumerate() if t.name == "solo-analysis-kernel"]
    assert not [t for t in kernels if t.is_alive()]
    # and the solver still works afterwards
    assert solve_questions(deals[:4], questions[:1])[0].shape == (4,)


def test_the_stop_check_gives_up_where_the_limit_alone_did():
    # a search of more than STOP_EVERY positions passes the checks and stops at its limit
    deals = random_deals(40, 1)
    q = Question(1, 1, (0, 2), False, 8)
    _, (full,) = solve_questions(deals, [q], return_positions=True)
    big = int(np.argmax(full))
    assert full[big] > 3 * 2**16
    limit = int(full[big]) - 2**16 - 123  # past a few checks, between two of them
    (answer,), (work,) = solve_questions(
        deals[big : big + 1], [q], max_positions=limit, return_positions=True
    )
    assert answer[0] == -1 and work[0] == limit + 1
    (answer,), (work,) = solve_questions(
        deals[big : big + 1], [q], max_positions=int(full[big]), return_positions=True
    )
    assert answer[0] >= 0 and work[0] == full[big]


# --- the library keeps what it finished --------------------------------------------------------


class Aces(PlayModel):
    """A cheap stand-in: the declarer side takes a trick per ace; interrupted on a given call."""

    name = "aces"
    note = "test model"

    def __init__(self, interrupt_on: int | None = None) -> None:
        self.calls = 0
        self.interrupt_on = interrupt_on

    def tricks(self, deals, *, trump, leader, declarers, misere):
        self.calls += 1
        if self.calls == self.interrupt_on:
            raise KeyboardInterrupt
        aces = (deals[:, list(declarers), :] % 13 == 12).reshape(len(deals), -1).sum(axis=1)
        return aces.astype(np.int8)


def _calls_per_chunk(monkeypatch) -> int:
    """The model's calls for one chunk of 16 deals of the ordinary hand (chunks set to 16)."""
    monkeypatch.setattr(sampling, "SOLVE_CHUNK", 16)
    counting = Aces()
    advise("AKJ94.K83.Q72.65", seat="second", turnup="7S", samples=16, seed=3, play_model=counting)
    return counting.calls


def test_an_interrupted_advice_carries_the_advice_of_the_chunks_solved(monkeypatch):
    per_chunk = _calls_per_chunk(monkeypatch)
    model = Aces(interrupt_on=3 * per_chunk + 2)  # inside the fourth chunk
    with pytest.raises(Interrupted) as info:
        advise(
            "AKJ94.K83.Q72.65", seat="second", turnup="7S", samples=100, seed=3, play_model=model
        )
    partial = info.value.partial
    assert info.value.signum == signal.SIGINT and "48 deals" in info.value.detail
    assert partial.samples == 48 and partial.stopped == "interrupted" and not partial.converged
    whole = advise(
        "AKJ94.K83.Q72.65", seat="second", turnup="7S", samples=48, seed=3, play_model=Aces()
    )
    pd.testing.assert_frame_equal(partial.table, whole.table)


class CompiledAces(Aces):
    """:class:`Aces` whose interrupt comes out as numba turns it: a ``SystemError``."""

    def tricks(self, deals, *, trump, leader, declarers, misere):
        try:
            return super().tricks(
                deals, trump=trump, leader=leader, declarers=declarers, misere=misere
            )
        except KeyboardInterrupt as exc:
            raise SystemError("returned a result with an exception set") from exc


class Broken(Aces):
    """Fails as a compiled function with a bug of its own would."""

    def tricks(self, deals, *, trump, leader, declarers, misere):
        raise SystemError("a real bug")


def test_an_interrupt_numba_turned_into_an_error_still_carries_the_advice(monkeypatch):
    model = CompiledAces(interrupt_on=_calls_per_chunk(monkeypatch) + 1)  # in the second chunk
    with pytest.raises(Interrupted) as info:
        advise(
            "AKJ94.K83.Q72.65", seat="second", turnup="7S", samples=100, seed=3, play_model=model
        )
    assert info.value.signum == signal.SIGINT and info.value.partial.samples == 16
    # an error with no interrupt behind it is left alone
    with pytest.raises(SystemError, match="a real bug"):
        advise(
            "AKJ94.K83.Q72.65", seat="second", turnup="7S", samples=16, seed=3, play_model=Broken()
        )


class Counting(PlayModel):
    """Answers by the high cards, counts the deals it is asked about; may interrupt."""

    name = "counting"

    def __init__(self, interrupt_after: int | None = None) -> None:
        self.deals = 0
        self.interrupt_after = interrupt_after

    def makes(self, deals, *, trump, leader, declarers, misere, target):
        if self.interrupt_after is not None and self.deals >= self.interrupt_after:
            raise KeyboardInterrupt
        self.deals += len(deals)
        d = np.asarray(deals).astype(np.int64)
        score = sum((d[:, s] % 13 >= 9).sum(axis=-1) for s in declarers)
        return score <= 2 if misere else score >= target - 3


def test_an_interrupted_table_keeps_its_chunks_and_resumes_exactly(tmp_path, monkeypatch):
    contracts = ["solo", "misere"]
    kwargs = dict(contracts=contracts, chunk_size=4, progress=False)
    T.run_tables(10, 5, tmp_path / "full", play_model=Counting(), **kwargs)
    starts: list[int] = []
    armed = [True]
    evaluate = table_run.evaluate_chunk

    def chunk(seed, start, n, *args, **kw):
        if start >= 8 and armed:
            armed.clear()
            raise KeyboardInterrupt  # inside the third chunk
        starts.append(start)
        return evaluate(seed, start, n, *args, **kw)

    monkeypatch.setattr(table_run, "evaluate_chunk", chunk)
    part = tmp_path / "part"
    with pytest.raises(Interrupted) as info:
        T.run_tables(10, 5, part, play_model=Counting(), **kwargs)
    assert info.value.signum == signal.SIGINT
    assert info.value.detail.startswith("2 of 3 chunks kept in ")
    assert sorted(p.name for p in (part / "chunks").iterdir()) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]
    run = T.run_tables(10, 5, part, play_model=Counting(), **kwargs)
    assert starts == [0, 4, 8] and run.skipped == [0, 1] and run.computed == [2]
    pd.testing.assert_frame_equal(
        pd.read_parquet(part / "deals.parquet"),
        pd.read_parquet(tmp_path / "full" / "deals.parquet"),
    )
    csv = "contract_frequency.csv"
    assert (part / csv).read_text() == (tmp_path / "full" / csv).read_text()


# --- real signals to the command line ----------------------------------------------------------

#: the child: the command line, with the batch kernel leaving a marker file on its first call
CHILD = """
import os, sys
from pathlib import Path
from solo_analysis.solver import _kernels
from solo_analysis.cli import main

kernel = _kernels.solve_many

def marked(*args):
    Path(os.environ["SOLVING_MARK"]).touch()
    return kernel(*args)

_kernels.solve_many = marked
main(sys.argv[1:])
"""


def _start(args: list[str], mark: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, SOLVING_MARK=str(mark))
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_for(path: Path, child: subprocess.Popen[str], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.02)


def _interrupt(child: subprocess.Popen[str], signum: int) -> tuple[float, str, str]:
    """Send ``signum``; the seconds until the child exited, its stdout and stderr."""
    sent = time.monotonic()
    child.send_signal(signum)
    out, err = child.communicate(timeout=30)
    return time.monotonic() - sent, out, err


def _one_line(err: str, word: str) -> str:
    assert "Traceback" not in err and "Error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"solo-analysis: {word}"), err
    return lines[0]


@pytest.mark.parametrize(
    ("hand", "signum", "code", "word"),
    [
        (
            ["7532.632.852.432", "--seat", "third", "--turnup", "KH", "--contracts", "misere"],
            signal.SIGINT,
            130,
            "interrupted",
        ),
        (
            ["AKJ94.K83.Q72.65", "--seat", "second", "--turnup", "7S"],
            signal.SIGTERM,
            143,
            "terminated",
        ),
    ],
)
def test_advise_stops_on_a_signal_with_one_line(tmp_path, hand, signum, code, word):
    mark = tmp_path / "solving"
    child = _start(["advise", *hand, "--seed", "1", "--max-positions", "0"], mark)
    _wait_for(mark, child)
    time.sleep(1.5)
    seconds, out, err = _interrupt(child, signum)
    assert child.returncode == code, (out, err)
    line = _one_line(err, word)
    assert seconds < 5.0
    if out:  # the advice from the deals solved before the signal
        assert "(advice from the" in line and out.startswith("hand: ")


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("table") / "full"
    T.run_tables(16, 7, out, chunk_size=4, max_question_positions=1_000_000, progress=False)
    return out


@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_table_stops_on_a_signal_and_resumes_exactly(tmp_path, uninterrupted, signum, code, word):
    out = tmp_path / "t"
    args = [
        "table",
        "--deals",
        "16",
        "--seed",
        "7",
        "--chunk-size",
        "4",
        "--out",
        str(out),
        "--max-question-positions",
        "1000000",
        "-q",
    ]
    child = _start(args, tmp_path / "solving")
    _wait_for(out / "chunks" / "chunk-000000.parquet", child)
    seconds, _, err = _interrupt(child, signum)
    if child.returncode == 0:  # pragma: no cover - the run finished before the signal came
        pytest.skip("the run was too quick to interrupt")
    assert child.returncode == code, err
    line = _one_line(err, word)
    assert "the same command resumes" in line
    assert seconds < 5.0
    kept = sorted(p.name for p in (out / "chunks").glob("chunk-*.parquet"))
    assert kept and len(kept) < 4
    T.run_tables(16, 7, out, chunk_size=4, max_question_positions=1_000_000, progress=False)
    pd.testing.assert_frame_equal(
        pd.read_parquet(out / "deals.parquet"), pd.read_parquet(uninterrupted / "deals.parquet")
    )
    for csv in sorted(p.name for p in uninterrupted.glob("*.csv")):
        assert (out / csv).read_text() == (uninterrupted / csv).read_text()


def test_an_interrupt_inside_compiled_code_is_found_behind_the_error_it_caused():
    """The command line finds a signal behind the ``SystemError`` it caused.

    numba turns a signal's exception raised while it loads or runs a compiled function into
    a ``SystemError`` caused by it (CI saw a SIGTERM end the advice that way, with a
    traceback).
    """
    from solo_analysis.cli import _signal_in
    from solo_analysis.errors import Interrupted

    try:
        try:
            raise Interrupted(signal.SIGTERM)
        except Interrupted as inner:
            raise SystemError("returned a result with an exception set") from inner
    except SystemError as exc:
        assert _signal_in(exc) == signal.SIGTERM
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise SystemError("returned a result with an exception set")  # noqa: B904
    except SystemError as exc:
        assert _signal_in(exc) == signal.SIGINT
    assert _signal_in(SystemError("something else")) is None
    assert _signal_in(ValueError("bad")) is None


def test_a_closed_pipe_outside_a_command_still_exits_quietly():
    """A ``BrokenPipeError`` that reaches ``main`` outside a command exits 0, no traceback.

    (The handler of other exceptions, which looks for a signal behind them, must not take
    it first: ``BrokenPipeError`` is an ``Exception`` too.)
    """
    script = (
        "import solo_analysis.cli as c\n"
        "def closed(*args, **kwargs):\n"
        "    raise BrokenPipeError\n"
        "c.cli.main = closed\n"
        "c.main([])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
