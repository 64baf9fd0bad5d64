"""Two play models on the same deals, and the command line's realistic play.

:func:`solo_analysis.advice.compare_play`, ``--play pimc``, ``--compare-play`` and
``table --play pimc``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, run

from solo_analysis.advice import advise, compare_play
from solo_analysis.errors import PlayModelError
from solo_analysis.stats import PAIRED_MIN_EACH, paired_difference

LOW = "5432.5432.Q32.32"
KW = dict(seat="third", turnup="KH", seed=3, samples=12, contracts=["misere", "spread-misere"])


@pytest.fixture(scope="module")
def comparison():
    return compare_play(LOW, play_options={"worlds": 6}, **KW)


def test_both_models_play_the_same_deals(comparison):
    first, second = comparison.first, comparison.second
    assert (first.play_model, second.play_model) == ("double-dummy", "pimc")
    assert first.samples == second.samples == 12 and first.seed == second.seed
    t = comparison.table
    assert list(t.contract) == ["misere", "spread-misere"]
    for rec in t.to_dict("records"):
        a = first.outcomes[rec["row"]]
        b = second.outcomes[rec["row"]]
        assert a.size == b.size == 12
        both = ~(np.isnan(a) | np.isnan(b))
        assert rec["paired"] == int(both.sum())
        assert rec["diff"] == pytest.approx(float((b[both] - a[both]).mean()))
        assert -1.0 <= rec["diff_low"] <= rec["diff"] <= rec["diff_high"] <= 1.0
    text = comparison.to_text()
    assert "double-dummy" in text and "pimc" in text and "same deals" in text


def test_realistic_play_reads_misere_better_than_double_dummy(comparison):
    # the defence does not see the declarer's cards: a hand of low cards makes more often
    t = comparison.table
    assert (t.p_second >= t.p_first).all()


def test_a_comparison_chart_renders(comparison):
    fig = comparison.plot()
    assert fig._repr_png_()[:4] == b"\x89PNG"


def test_paired_difference_intervals_hold_on_few_deals():
    a = np.zeros(5)
    b = np.ones(5)
    mean, low, high, n = paired_difference(a, b)
    assert (mean, n) == (1.0, 5) and low < 1.0 and high == 1.0  # not falsely exact
    same = paired_difference(np.ones(8), np.ones(8))
    assert same[0] == 0.0 and same[1] < 0.0 < same[2]
    rng = np.random.default_rng(1)
    x = rng.integers(0, 2, 400).astype(float)
    y = rng.integers(0, 2, 400).astype(float)
    mean, low, high, n = paired_difference(x, y)
    assert min((y > x).sum(), (x > y).sum()) >= PAIRED_MIN_EACH
    assert low < mean < high and high - low < 0.2  # the normal interval once both ways occur
    nan = paired_difference(np.array([np.nan, 1.0]), np.array([1.0, 0.0, 1.0]))
    assert nan[3] == 1 and nan[0] == -1.0


def test_realistic_play_refuses_trick_counts_at_once():
    with pytest.raises(PlayModelError, match="trick counts"):
        advise(LOW, play_model="pimc", exact=True, **KW)
    with pytest.raises(PlayModelError, match="by the trick"):
        advise(
            LOW,
            play_model="pimc",
            rules=__import__("solo_analysis").load_rules().with_options(overtricks="flat"),
            seat="third",
            turnup="KH",
            samples=4,
            contracts=["solo"],
        )


@pytest.mark.parametrize(
    ("options", "word"),
    [({"worlds": 0}, "worlds"), ({"prior": "psychic"}, "prior"), ({"colour": 1}, "colour")],
)
def test_bad_play_options_are_one_line_errors(options, word):
    with pytest.raises(PlayModelError, match=word) as info:
        advise(LOW, play_model="pimc", play_options=options, **KW)
    assert "\n" not in str(info.value)
    with pytest.raises(PlayModelError):
        advise(LOW, play_model="double-dummy", play_options={"worlds": 8}, **KW)


BASE = ["advise", LOW, "--seat", "third", "--turnup", "KH", "--samples", "8", "--seed", "2"]


def test_cli_plays_realistically(capsys):
    code, out, err = run(
        [*BASE, "--contracts", "misere", "--play", "pimc", "--worlds", "4"], capsys
    )
    assert code == 0, err
    assert "realistic play (PIMC)" in out


def test_cli_compares_the_play_models(capsys, tmp_path):
    chart = tmp_path / "both.png"
    argv = [*BASE, "--contracts", "misere", "--compare-play", "--worlds", "4"]
    code, out, err = run([*argv, "--plot", str(chart)], capsys)
    assert code == 0, err
    assert "double-dummy" in out and "pimc" in out and "difference" in out
    assert chart.read_bytes()[:4] == b"\x89PNG"
    code, out, err = run([*argv, "--format", "json"], capsys)
    doc = json.loads(out)
    assert doc["first"]["play_model"] == "double-dummy" and doc["second"]["play_model"] == "pimc"
    assert doc["comparison"][0]["contract"] == "misere"
    code, out, err = run([*argv, "--format", "csv"], capsys)
    assert out.splitlines()[0].startswith("row,contract")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--worlds", "4"], ("--worlds", "pimc")),
        (["--play", "pimc", "--worlds", "0"], ("worlds",)),
        (["--play", "pimc", "--prior", "psychic"], ("prior",)),
        (["--play", "pimc", "--exact"], ("trick counts",)),
        (["--play", "psychic"], ("psychic",)),
    ],
)
def test_cli_bad_play_options(extra, words, capsys):
    code, out, err = run([*BASE, *extra], capsys)
    assert_one_line_error(code, out, err, *words)


def test_cli_table_plays_realistically(capsys, tmp_path):
    argv = ["table", "--deals", "2", "--seed", "4", "--contracts", "misere", "--quiet"]
    code, out, err = run([*argv, "--out", str(tmp_path), "--play", "pimc", "--worlds", "4"], capsys)
    assert code == 0, err
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["play_model"] == "pimc" and manifest["play_options"]["worlds"] == 4
    # a resume with other worlds is another run
    code, out, err = run([*argv, "--out", str(tmp_path), "--play", "pimc", "--worlds", "5"], capsys)
    assert_one_line_error(code, out, err, "another run", "play_options")
