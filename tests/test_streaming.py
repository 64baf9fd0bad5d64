"""Bounded memory: deals are streamed and solved in chunks, and an impossible request is refused.

* ``deal`` writes its deals as it deals them: the first line at once, memory flat whatever
  ``--n``, and a reader that stops early ends it quietly.
* ``advise`` draws and solves a batch of any size in chunks, and refuses more deals than it
  can hold (:data:`~solo_analysis.advice.request.MAX_SAMPLES`) with one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_one_line_error
from cli_helpers import run as run_cli

from solo_analysis import advise
from solo_analysis.advice import sampling
from solo_analysis.advice.request import MAX_SAMPLES
from solo_analysis.deal import Deal
from solo_analysis.errors import AdviceError
from solo_analysis.play import PlayModel
from solo_analysis.sampler import DealSampler, deals_at, random_deals

DEAL = [sys.executable, "-c", "from solo_analysis.cli import main; main()", "deal"]


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0  # pragma: no cover


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_deal_streams_the_first_line_at_once_with_flat_memory_and_a_quiet_end():
    started = time.monotonic()
    child = subprocess.Popen(
        [*DEAL, "--n", "100000000", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    first_after = time.monotonic() - started
    assert first == Deal.from_array(random_deals(1, 1)[0]).to_pbn() + "\n"
    assert first_after < 8.0  # the start-up of Python and numba; the deals come at once
    # read on for a while: the memory stays flat
    lines = 0
    until = time.monotonic() + 1.5
    while time.monotonic() < until:
        child.stdout.readline()
        lines += 1
    assert lines > 2000
    assert _rss_kb(child.pid) < 400_000
    child.stdout.close()  # the reader goes away
    err = child.stderr.read()
    assert child.wait(timeout=20) == 0
    assert err == ""


def test_deal_into_a_reader_that_stops_after_one_line():
    done = subprocess.run(
        f"{subprocess.list2cmdline(DEAL)} --n 1000000 --seed 1 | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=30,
        executable="/bin/bash",
    )
    assert done.stdout.count("\n") == 1 and done.stdout.startswith("N:")
    assert done.stderr == ""


def test_deal_streams_pbn_and_json_that_are_the_whole_stream(capsys):
    n = 2345  # more than one chunk
    expect = [Deal.from_array(a).to_pbn() for a in random_deals(n, 3)]
    code, out, err = run_cli(["deal", "--n", str(n), "--seed", "3"], capsys)
    assert code == 0 and err == "" and out.splitlines() == expect
    code, out, err = run_cli(["deal", "--n", str(n), "--seed", "3", "--format", "json"], capsys)
    assert code == 0 and err == ""
    assert out == json.dumps({"seed": 3, "deals": expect}) + "\n"
    code, out, _ = run_cli(["deal", "--n", "1", "--seed", "3", "--format", "json"], capsys)
    assert json.loads(out) == {"seed": 3, "deals": expect[:1]}


def test_deals_at_in_pieces_are_the_deals_of_random_deals():
    assert np.array_equal(
        np.concatenate([deals_at(4, 0, 3), deals_at(4, 3, 4)]), random_deals(7, 4)
    )


# --- advise -----------------------------------------------------------------------------------


def test_advise_refuses_more_deals_than_it_can_hold(capsys):
    code, out, err = run_cli(
        [
            "advise",
            "AKQJT9.AK.AK2.32",
            "--seat",
            "eldest",
            "--turnup",
            "7H",
            "--samples",
            "10000000000",
        ],
        capsys,
    )
    assert_one_line_error(code, out, err, "samples", "at most 1,000,000")
    with pytest.raises(AdviceError, match="max_samples must be at most"):
        advise("AKQJT9.AK.AK2.32", seat="eldest", turnup="7H", max_samples=MAX_SAMPLES + 1)


class Aces(PlayModel):
    """A cheap stand-in: the declarer side takes a trick per ace."""

    name = "aces"
    note = "test model"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        aces = (deals[:, list(declarers), :] % 13 == 12).reshape(len(deals), -1).sum(axis=1)
        return aces.astype(np.int8)


def test_advice_draws_and_solves_in_bounded_chunks_with_the_same_results(monkeypatch):
    asked: list[int] = []
    draw = DealSampler.draw

    def recorded(self, n):
        asked.append(n)
        return draw(self, n)

    monkeypatch.setattr(DealSampler, "draw", recorded)
    kwargs = dict(seat="second", turnup="7S", seed=5, control_variates=False, play_model=Aces())
    chunked = advise("AKJ94.K83.Q72.65", samples=2500, **kwargs)
    assert max(asked) == sampling.SOLVE_CHUNK and sum(asked) == 2500
    monkeypatch.setattr(sampling, "SOLVE_CHUNK", 4096)
    whole = advise("AKJ94.K83.Q72.65", samples=2500, **kwargs)
    pd.testing.assert_frame_equal(chunked.table, whole.table)
